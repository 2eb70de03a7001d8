// Consent for tools that can change things (architecture §5, §10, §11). The engine asks a
// ToolApprover before running a tool whose `consent` says so; the approver answers from
// standing policy (Settings, the MCP config's alwaysAllow, CLI flags), from grants made
// earlier in this chat, or by asking a person (the UI's approval card, a TTY prompt). When
// nobody can be asked, the call is not run and the model is told why.
import type { ChatEvent, ToolApprovalDecision } from '../../common/events.ts';
import type { ToolPolicy } from '../../common/settings.ts';
import { globMatch, isToolGlob, policyFor } from '../../common/toolPolicy.ts';
import type { ToolCall } from '../models/provider.ts';
import type { Tool, ToolOutcome } from '../tools/tool.ts';

export type ApprovalRequest = {
  conversationId: string;
  callId: string;
  /** The tool's name as the model sees it (`server__tool`, sanitised and maybe suffixed). */
  name: string;
  arguments: Record<string, unknown>;
  /** An MCP tool's configured server name and the server's own tool name: what rules bind to. */
  server?: string;
  tool?: string;
  /** The server says the tool only reads, but it is not trusted to say so. */
  claim?: 'read-only';
};

/**
 * A tool that can change things runs only with consent (architecture §5). Annotations are claims:
 * `readOnlyHint` skips approval only for a server the person marked trusted (Glance's own tools
 * set no consent at all); `destructiveHint` always asks. The config's `alwaysAllow` (Cline),
 * bound to the server's own tool names, approves ahead of time.
 */
export function needsConsent(tool: { annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean }; alwaysAllow: boolean; trusted: boolean }): boolean {
  if (tool.alwaysAllow) return false;
  if (!tool.trusted) return true;
  return tool.annotations?.destructiveHint === true || tool.annotations?.readOnlyHint !== true;
}

/** A tool that says it only reads (and not that it destroys): the question names the claim, which is not trusted. */
export function readOnlyClaim(hints: { readOnlyHint?: boolean; destructiveHint?: boolean } | undefined): 'read-only' | undefined {
  return hints?.readOnlyHint === true && hints.destructiveHint !== true ? 'read-only' : undefined;
}

/**
 * The name rules, flags and grants are matched against: `server__tool` in the server's and the
 * tool's own spelling. A sanitised or hash-suffixed model name (`a?c` → `evil__a_c`) is never
 * it, so a rule written for one tool cannot match another that was renamed onto its name.
 */
function ruleName(request: Pick<ApprovalRequest, 'name' | 'server' | 'tool'>): string {
  return request.server !== undefined && request.tool !== undefined ? `${request.server}__${request.tool}` : request.name;
}

type ApprovalAnswer = {
  decision: Exclude<ToolApprovalDecision, 'pending'>;
  by: 'user' | 'policy' | 'flag' | 'no-one';
  reason?: string;
};

export interface ToolApprover {
  /** Decide about one call; `pending()` is called just before a person is asked. */
  decide(request: ApprovalRequest, hooks: { signal: AbortSignal; pending: () => void }): Promise<ApprovalAnswer>;
}

/** A person's answer, asked by whoever shows the question (UI card, TTY prompt). */
type AskPerson = (request: ApprovalRequest, signal: AbortSignal) => Promise<Exclude<ToolApprovalDecision, 'pending'>>;

type PolicyApproverOptions = {
  /** Standing policy by tool name or glob (Settings' toolApproval), read at each call. */
  policy?: () => ToolPolicy;
  /** Tools the MCP config pre-approves (Cline's `alwaysAllow`), by namespaced name. */
  preApproved?: (name: string) => boolean;
  /** CLI `--allow-tools` globs; `['*']` for `--yes`. */
  allowFlags?: string[];
  /** Absent: nobody can be asked (a non-interactive run), so the call is not run. */
  ask?: AskPerson;
  /** Store an "always" answer as standing policy. */
  remember?: (name: string) => Promise<void>;
  /** What to tell when nobody can be asked (the CLI names its flags). */
  noOneHint?: (name: string) => string;
};

/** Policy first, then this chat's grants, then a person; else not run. */
export class PolicyApprover implements ToolApprover {
  readonly #options: PolicyApproverOptions;
  /** conversation id → tool names allowed "for this chat". */
  readonly #chatGrants = new Map<string, Set<string>>();

  constructor(options: PolicyApproverOptions) {
    this.#options = options;
  }

  async decide(request: ApprovalRequest, hooks: { signal: AbortSignal; pending: () => void }): Promise<ApprovalAnswer> {
    const o = this.#options;
    const rule = ruleName(request);
    const standing = policyFor(o.policy?.() ?? {}, rule);
    if (standing === 'deny') return { decision: 'deny', by: 'policy', reason: `Settings say ${rule} never runs.` };
    if (standing === 'allow') return { decision: 'always', by: 'policy' };
    if (standing === undefined && o.preApproved?.(request.name)) return { decision: 'always', by: 'policy' };
    if (o.allowFlags?.some((glob) => globMatch(glob, rule))) return { decision: 'once', by: 'flag' };
    if (this.#chatGrants.get(request.conversationId)?.has(rule)) return { decision: 'chat', by: 'user' };
    if (!o.ask) {
      return { decision: 'deny', by: 'no-one', reason: o.noOneHint?.(rule) ?? `${rule} needs your consent and nobody could be asked.` };
    }
    hooks.pending();
    const decision = await o.ask(request, hooks.signal);
    // A tool whose own name holds * or ? would be stored as a glob covering others: this chat only.
    if (decision === 'chat' || (decision === 'always' && isToolGlob(rule))) {
      const grants = this.#chatGrants.get(request.conversationId) ?? new Set<string>();
      grants.add(rule);
      this.#chatGrants.set(request.conversationId, grants);
    }
    if (decision === 'always' && !isToolGlob(rule)) await o.remember?.(rule);
    return decision === 'deny' ? { decision, by: 'user', reason: 'The user declined.' } : { decision, by: 'user' };
  }
}

/** What the model reads in the tool result when the call did not run. */
function notRunText(name: string, answer: ApprovalAnswer): string {
  if (answer.by === 'user') return `Not run: the user declined ${name}. Do not call it again this turn; answer with what you have or ask the user.`;
  if (answer.by === 'policy') return `Not run: ${name} is blocked by the user's settings. Do not call it again.`;
  return `Not run: ${name} can change things and needs the user's consent, which could not be asked here. ${answer.reason ?? ''}`.trim();
}

type ConsentContext = {
  conversationId: string;
  /** The model that sees this turn's images runs off this machine. */
  remote: boolean;
  approver: ToolApprover | undefined;
  signal: AbortSignal;
  emit: (event: ChatEvent) => void;
};

/**
 * Asks for consent when the tool needs it, emitting `tool_approval` (pending, then the
 * decision). Answers the outcome the model reads when the call must not run, else undefined.
 */
export async function askConsent(tool: Tool, call: ToolCall, context: ConsentContext): Promise<ToolOutcome | undefined> {
  const needed = tool.consent === 'always' || (tool.consent === 'remote-model' && context.remote);
  if (!needed) return undefined;
  const claim = readOnlyClaim(tool.hints);
  const request: ApprovalRequest = {
    conversationId: context.conversationId,
    callId: call.id,
    name: call.name,
    arguments: call.arguments,
    ...(tool.source !== undefined && tool.sourceTool !== undefined ? { server: tool.source, tool: tool.sourceTool } : {}),
    ...(claim ? { claim } : {}),
  };
  const answer: ApprovalAnswer = context.approver
    ? await context.approver.decide(request, {
        signal: context.signal,
        pending: () => context.emit({ type: 'tool_approval', id: call.id, name: call.name, decision: 'pending', ...(claim ? { claim } : {}) }),
      })
    : { decision: 'deny', by: 'no-one', reason: 'Nobody can be asked in this run.' };
  const event: ChatEvent = { type: 'tool_approval', id: call.id, name: call.name, decision: answer.decision, by: answer.by };
  if (answer.reason) event.reason = answer.reason;
  if (claim) event.claim = claim;
  context.emit(event);
  return answer.decision === 'deny' ? { ok: false, text: notRunText(call.name, answer) } : undefined;
}
