// Consent for tools in `glance ask` (architecture §10): a prompt when a person is at the terminal,
// else `--allow-tools NAME,…` (globs) or `--yes`; otherwise the call is not run and the model
// is told. The app's Settings policy (toolApproval) applies too, read-only: the CLI never
// rewrites the app's settings, so "always" here lasts for this run.
import type { ToolPolicy } from '../../common/settings.ts';
import { PolicyApprover, type ApprovalRequest } from '../chat/toolApproval.ts';
import type { CommandIO } from './io.ts';

export function cliApprover(options: { io: CommandIO; policy: ToolPolicy; allowTools: string[]; yes: boolean }): PolicyApprover {
  const { io } = options;
  const ask = io.ask;
  return new PolicyApprover({
    policy: () => options.policy,
    allowFlags: options.yes ? ['*'] : options.allowTools,
    ...(ask
      ? {
          ask: async (request: ApprovalRequest) => {
            const args = JSON.stringify(request.arguments);
            const answer = (await ask(`\nAllow ${whoAsks(request)} to run with ${args.length > 300 ? `${args.slice(0, 297)}…` : args}?\n  [o]nce, for this [r]un, [n]o (default): `)).trim().toLowerCase();
            if (answer === 'o' || answer === 'once' || answer === 'y' || answer === 'yes') return 'once';
            if (answer === 'r' || answer === 'run' || answer === 'a' || answer === 'always') return 'chat';
            return 'deny';
          },
        }
      : {}),
    noOneHint: (name) => `Tell the user to run again with --allow-tools ${name} (or --yes) to allow it.`,
  });
}

/** The tool as the prompt names it: the model's name, the server's own, and any claim it makes. */
function whoAsks(request: ApprovalRequest): string {
  const own = request.server !== undefined && request.tool !== undefined ? ` (server "${request.server}", tool "${request.tool}")` : '';
  const claim = request.claim ? ' — it says it only reads, but this server is not marked trusted' : '';
  return `${request.name}${own}${claim}`;
}

/** `--allow-tools a,b --allow-tools c*` → ['a', 'b', 'c*']. */
export function parseAllowTools(values: string[]): string[] {
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}
