// `glance install-command [--dir DIR] [--force]`: puts a `glance` launcher on PATH so MCP
// clients can start `glance mcp serve` by name. The work is main/installCommand.ts, which
// the app's "Install command in PATH" calls too.
import { InstallCommandError, defaultCommandDir, installCommand } from '../installCommand.ts';
import { EXIT, type CommandIO, UsageError, parseCommandArgs } from './io.ts';

const OPTIONS = {
  help: { type: 'boolean', short: 'h', default: false },
  dir: { type: 'string' },
  force: { type: 'boolean', default: false },
} as const;

const HELP = `Usage: glance install-command [--dir DIR] [--force]

Writes a small "glance" launcher into DIR (default ${defaultCommandDir()}) that runs this Glance
with this Node, so MCP clients can start "glance mcp serve" by name. Says whether DIR is on PATH.
A file there that glance install-command did not write is left alone unless --force.
`;

export const installCommandCommand = {
  summary: 'Put a "glance" command on PATH (for MCP clients)',
  async run(argv: string[], io: CommandIO): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS, false);
    if (values.help) {
      io.out(HELP);
      return EXIT.ok;
    }
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    try {
      const installed = await installCommand({ ...(values.dir ? { dir: values.dir } : {}), env: io.env, force: values.force });
      io.out(`${installed.message}\n`);
      return EXIT.ok;
    } catch (error) {
      if (!(error instanceof InstallCommandError)) throw error;
      io.err(`glance install-command: ${error.message}\n`);
      return EXIT.failure;
    }
  },
};
