import { switchedOff, type ToolSwitchState } from '../../common/toolSwitches.ts';
import type { AttachmentInfo } from '../../common/images.ts';
import type { ImageTarget } from '../images/types.ts';
import type { ToolSpec } from '../models/provider.ts';
import type { ServerReadiness } from '../../common/toolServers.ts';

/** What a tool gives back: text for the model's tool message, plus any images it captured. */
export type ToolOutcome = {
  ok: boolean;
  /** Text only: descriptors for images, never bytes or base64. */
  text: string;
  /** Images captured into the attachment store, queued for delivery to a seeing model. */
  images?: AttachmentInfo[];
  /** Images the gate refused while the tool ran (shown in the UI, described in `text`). */
  refusals?: { code: string; message: string }[];
  /** Not run: the person switched it off for this conversation. */
  switchedOff?: true;
};

type ToolProgress = { progress: number; total?: number; message?: string };

/** What a running tool may know about the turn it runs in. */
export type ToolContext = {
  signal: AbortSignal;
  onProgress: (p: ToolProgress) => void;
  /** The model that will look at captured images (the chat model, or the vision helper). */
  imageTarget: ImageTarget | undefined;
  /**
   * The conversation's images (attachment ids, oldest first) for tools that name one (zoom_image,
   * read_text): those the model is shown, and those retracted from it at the end of a turn.
   */
  images?: ConversationImages;
  /** A side call to a vision model: prompt + image ids in, prose out (analyze_image). */
  describe?: (attachmentIds: string[], prompt: string, signal: AbortSignal) => Promise<string>;
};

export type ConversationImages = { shown: readonly string[]; retracted: readonly string[] };

export interface Tool {
  readonly spec: ToolSpec;
  /** Image tools are offered only to a model that can see (or has a vision helper). */
  readonly needsVision: boolean;
  /**
   * Runs only with the user's consent (architecture §5): 'always' for tools that can change things
   * (MCP destructiveHint, or not readOnlyHint); 'remote-model' when what it captures goes to a
   * model off this machine (screenshot_desktop with a non-loopback model).
   */
  readonly consent?: 'always' | 'remote-model';
  /** Where it comes from: an MCP server's name as configured; built-ins leave it out. */
  readonly source?: string;
  /**
   * The server's own name for the tool (`spec.name` is sanitised and namespaced for the model).
   * Approval rules bind to (source, sourceTool), never to the sanitised name (architecture §5).
   */
  readonly sourceTool?: string;
  /** A display title (MCP tool.title / annotations.title), for the UI. */
  readonly title?: string;
  /** The title its MCP server gives itself (serverInfo.title), secondary to `source`; never one naming Glance. */
  readonly sourceTitle?: string;
  /** What the tool's author says it does (MCP annotations), for approval policy. */
  readonly hints?: ToolHints;
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome>;
}

/** MCP tool annotations: hints from the server, not guarantees. */
export type ToolHints = { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };

/** A server whose tools a turn goes without (still starting, waiting for the person's answer, failed). */
export type PendingSource = ServerReadiness;

/** A source of tools, e.g. the MCP hub: listed per turn, called by name. */
export interface ToolProvider {
  /** The tools for a turn: never waits for a person or a source that does not answer. */
  listTools(signal?: AbortSignal): Promise<Tool[]>;
  /** After listTools: its sources whose tools are not offered, and why (but `skipSources`). */
  pending?(skipSources: readonly string[]): PendingSource[];
  /** Text for the system prompt after listTools (MCP server instructions, unavailable servers), but for `skipServers`. */
  promptNotes?(skipServers: readonly string[]): string | undefined;
  /** The tools known now, without starting anything (for the context meter). */
  peekTools?(): Tool[];
  /** Why a tool the model named is not offered (its MCP server failed to start, say), if known. */
  whyMissing?(name: string): string | undefined;
}

/** Built-in tools plus providers (MCP), looked up by name for each turn. */
export class ToolRegistry {
  readonly #tools = new Map<string, Tool>();
  readonly #providers: ToolProvider[] = [];

  add(tool: Tool): this {
    this.#tools.set(tool.spec.name, tool);
    return this;
  }

  addProvider(provider: ToolProvider): this {
    this.#providers.push(provider);
    return this;
  }

  /** Glance's own tools (not the providers'), for the per-conversation switches to list. */
  builtIns(): Tool[] {
    return [...this.#tools.values()];
  }

  whyMissing(name: string): string | undefined {
    for (const provider of this.#providers) {
      const why = provider.whyMissing?.(name);
      if (why) return why;
    }
    return undefined;
  }

  /** What forTurn would offer, without starting MCP servers that are not running yet. */
  peek(canSee: boolean, switches?: ToolSwitchState): Tool[] {
    const all = new Map(this.#tools);
    for (const provider of this.#providers) for (const tool of provider.peekTools?.() ?? []) if (!all.has(tool.spec.name)) all.set(tool.spec.name, tool);
    return [...all.values()].filter((tool) => (!tool.needsVision || canSee) && !switchedOff(tool.spec.name, tool.source, switches));
  }

  /** The providers' sources a turn goes without (after forTurn); switched-off servers left out. */
  pending(switches?: ToolSwitchState): PendingSource[] {
    return this.#providers.flatMap((p) => p.pending?.(switches?.offServers ?? []) ?? []);
  }

  /** The providers' notes for the system prompt of this turn (after forTurn); switched-off servers' left out. */
  promptNotes(switches?: ToolSwitchState): string | undefined {
    const notes = this.#providers.map((p) => p.promptNotes?.(switches?.offServers ?? [])).filter((n): n is string => Boolean(n));
    return notes.length ? notes.join('\n\n') : undefined;
  }

  /**
   * Tools for one turn; image tools only when someone can look at images; none the
   * conversation switched off (their schemas never reach the request).
   */
  async forTurn(canSee: boolean, signal?: AbortSignal, switches?: ToolSwitchState): Promise<Map<string, Tool>> {
    const all = new Map(this.#tools);
    for (const provider of this.#providers) {
      for (const tool of await provider.listTools(signal)) if (!all.has(tool.spec.name)) all.set(tool.spec.name, tool);
    }
    for (const [name, tool] of all) if ((tool.needsVision && !canSee) || switchedOff(name, tool.source, switches)) all.delete(name);
    return all;
  }
}
