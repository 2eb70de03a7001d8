// The `glance` command (architecture §10): a thin dispatcher over the same core the app uses.
// Each command lives in its own module and returns its exit code.
import { pathToFileURL } from 'node:url';
import { askCommand } from './ask.ts';
import { checkImageCommand } from './checkImage.ts';
import { installCommandCommand } from './installCommand.ts';
import { EXIT, type CommandIO, UsageError, stdio } from './io.ts';
import { StorageError } from '../chat/conversationStore.ts';
import { writeProblem } from '../chat/writeProblem.ts';
import { mcpCommand } from './mcp.ts';
import { modelsCommand } from './models.ts';

type Command = { summary: string; run: (argv: string[], io: CommandIO) => Promise<number> };

const commands: Record<string, Command> = {
  // Each command module adds its line here.
  ask: askCommand,
  'check-image': checkImageCommand,
  models: modelsCommand,
  mcp: mcpCommand,
  'install-command': installCommandCommand,
};

const USAGE = `Usage: glance <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`)
  .join('\n')}

Run "glance <command> --help" for a command's options.`;

export async function main(argv: string[], io: CommandIO = stdio()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE + '\n');
    return name ? EXIT.ok : EXIT.usage;
  }
  const command = commands[name];
  if (!command) {
    io.err(`glance: unknown command "${name}"\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`glance ${name}: ${error.message}\n`);
      return EXIT.usage;
    }
    const storage = await storageProblem(error);
    if (storage) {
      io.err(`glance ${name}: ${storage}\n`);
      return EXIT.storage;
    }
    throw error;
  }
}

/** A damaged conversation file or a data directory Glance may not write, in a line instead of a stack. */
async function storageProblem(error: unknown): Promise<string | undefined> {
  if (error instanceof StorageError) return error.message;
  const problem = await writeProblem(error, 'the data directory');
  return problem ? `${problem}. Nothing stored was changed; use --data-dir (or GLANCE_DATA_DIR) for a folder Glance may write.` : undefined;
}

// Run directly: `node main/cli/main.ts …` (the bin script imports `main` instead).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
