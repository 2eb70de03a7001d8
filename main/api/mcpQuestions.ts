// What MCP servers need from a person in the app and the harness (architecture §6): elicitation
// forms and URLs, VS Code `${input:id}` values, shown by the renderer as a dialog
// (`mcp:question` out, `mcp:answer` back). An input is asked once and kept in the secret store.
// Transport-neutral: the shell passes how to open a URL (the app: the system browser).
import { randomUUID } from 'node:crypto';
import type { EventChannel, IpcEventPayload, McpAnswer, McpQuestion } from '../../common/ipc.ts';
import type { ElicitationAnswer, ElicitationRequest } from '../mcp/clientFeatures.ts';
import type { CreateMcpHubOptions } from '../mcp/createMcpHub.ts';
import type { McpInputRequest } from '../mcp/mcpHub.ts';
import type { SecretStore } from '../settings/secretStore.ts';

type Emit = <E extends EventChannel>(channel: E, payload: IpcEventPayload<E>) => void;

/** How long a question waits for a person before it is cancelled. */
const QUESTION_TIMEOUT_MS = 10 * 60_000;

export class McpQuestions {
  readonly #pending = new Map<string, (answer: McpAnswer, withdraw?: boolean) => void>();
  #emit: Emit | undefined;
  #closed = false;

  /** The push to the renderer(s); set once the shell has one (questions wait until then). */
  connect(emit: Emit): void {
    this.#emit = emit;
  }

  /**
   * Shutdown: every question still waiting is withdrawn (its card goes) and answered "cancel",
   * so nothing waits on a person while the entry stops; later questions are declined.
   */
  close(): void {
    this.#closed = true;
    for (const [id, settle] of [...this.#pending]) settle({ id, action: 'cancel' }, true);
  }

  /** From `mcp:answer`. */
  answer(answer: McpAnswer): boolean {
    const settle = this.#pending.get(answer.id);
    if (!settle) return false;
    settle(answer);
    return true;
  }

  /** The hub's interaction for this entry. */
  interaction(options: { secrets: SecretStore; openUrl?: (url: string) => Promise<void> }): NonNullable<CreateMcpHubOptions['interaction']> {
    const openUrl = options.openUrl;
    return {
      elicit: (request, signal) => this.#elicit(request, signal, openUrl),
      elicitModes: openUrl ? ['form', 'url'] : ['form'],
      resolveInput: (request, signal) => this.#input(request, options.secrets, signal),
      inputHint: () => 'it was not given in the dialog',
      ...(openUrl ? { openUrl } : {}),
    };
  }

  /** A yes/no the person gives in the dialog (sampling): true only for an explicit yes. */
  async consent(server: string, message: string, signal: AbortSignal | undefined): Promise<boolean> {
    return (await this.#ask({ server, kind: 'form', message }, signal)).action === 'accept';
  }

  async #elicit(request: ElicitationRequest, signal: AbortSignal, openUrl: ((url: string) => Promise<void>) | undefined): Promise<ElicitationAnswer> {
    if (request.mode === 'url') {
      const answer = await this.#ask({ server: request.server, kind: 'url', message: request.message, url: request.url, host: request.host }, signal);
      // The dialog was the consent: only an accepted URL is opened.
      if (answer.action === 'accept' && openUrl) await openUrl(request.url);
      return { action: answer.action };
    }
    const answer = await this.#ask({ server: request.server, kind: 'form', message: request.message, fields: request.fields, required: request.required, secret: request.secret }, signal);
    return answer.action === 'accept' ? { action: 'accept', content: answer.content ?? {} } : { action: answer.action };
  }

  async #input(request: McpInputRequest, secrets: SecretStore, signal: AbortSignal | undefined): Promise<string | undefined> {
    const name = inputSecretName(request.id);
    const stored = await secrets.get(name);
    if (stored !== undefined) return stored;
    request.asking?.();
    const answer = await this.#ask(
      {
        server: request.server,
        kind: 'input',
        message: request.input?.description ?? `A value for \${input:${request.id}}`,
        fields: { value: { type: 'string', title: request.id, ...(request.input?.default !== undefined ? { default: request.input.default } : {}) } },
        required: ['value'],
        ...(request.input?.password ? { password: true } : {}),
      },
      signal,
    );
    const value = answer.action === 'accept' ? answer.content?.value : undefined;
    if (typeof value !== 'string' || value === '') return undefined;
    await secrets.set(name, value);
    return value;
  }

  #ask(question: Omit<McpQuestion, 'id' | 'fields' | 'required'> & Partial<Pick<McpQuestion, 'fields' | 'required'>>, signal: AbortSignal | undefined): Promise<McpAnswer> {
    const id = randomUUID();
    const full: McpQuestion = { id, fields: {}, required: [], ...question };
    return new Promise<McpAnswer>((resolve) => {
      const done = (answer: McpAnswer, withdraw: boolean) => {
        if (!this.#pending.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (withdraw) this.#emit?.('mcp:question', { ...full, withdrawn: true });
        resolve(answer);
      };
      const onAbort = () => done({ id, action: 'cancel' }, true);
      // A question alone never keeps the process alive (a harness stopping, an app quitting).
      const timer = setTimeout(() => done({ id, action: 'cancel' }, true), QUESTION_TIMEOUT_MS).unref();
      this.#pending.set(id, (answer, withdraw = false) => done(answer, withdraw));
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) return onAbort();
      if (!this.#emit || this.#closed) return done({ id, action: 'decline' }, false); // no window to ask in
      this.#emit('mcp:question', full);
    });
  }
}

/** "gh-token" → "mcp-input.gh-token" (a secret name: letters, digits, "_", "." or "-"). */
function inputSecretName(id: string): string {
  return `mcp-input.${id.replace(/[^A-Za-z0-9_.-]/g, '_')}`.slice(0, 64);
}
