// `npm run harness`: Glance's UI in any browser, on 127.0.0.1, for tests and development.
//
//   npm run build:renderer && npm run harness -- [--port N] [--data-dir DIR] [--ollama-host URL]
//                                                 [--mcp-config FILE] [--allow-loopback-fetch] [--no-capture]
//
// Prints the address to open (with the per-launch token in its fragment) and runs until
// Ctrl+C. Keys for OpenAI-compatible endpoints come from environment variables named after
// each endpoint's key name; nothing is written to the disk but settings and conversations.
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { relaunchWithMalloc, wantsMallocRelaunch } from '../capture/captureMalloc.ts';
import { defaultDataDir } from '../settings/paths.ts';
import { errorMessage } from '../errors.ts';

const USAGE = 'usage: npm run harness -- [--port N] [--data-dir DIR] [--ollama-host URL] [--mcp-config FILE] [--allow-loopback-fetch] [--no-capture]';

async function run(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'ollama-host': { type: 'string' },
        'mcp-config': { type: 'string' },
        'allow-loopback-fetch': { type: 'boolean' },
        'no-capture': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be 0–65535\n${USAGE}`);
    return 2;
  }
  let mcpConfig: { mcpServers: Record<string, unknown> } | undefined;
  if (values['mcp-config']) {
    try {
      const parsed = JSON.parse(await readFile(values['mcp-config'], 'utf8')) as { mcpServers?: Record<string, unknown> };
      mcpConfig = { mcpServers: parsed.mcpServers ?? {} };
    } catch (error) {
      console.error(`--mcp-config: ${(error as Error).message}`);
      return 2;
    }
  }
  const [{ startHarness }, { NodeScreenshotsCapturer }] = await Promise.all([import('./startHarness.ts'), import('../capture/nodeScreenshotsCapturer.ts')]);
  const dataDir = values['data-dir'] ? (isAbsolute(values['data-dir']) ? values['data-dir'] : resolve(values['data-dir'])) : defaultDataDir();
  const harness = await startHarness({
    dataDir,
    port,
    ...(values['ollama-host'] ? { ollamaHost: values['ollama-host'] } : process.env.OLLAMA_HOST ? { ollamaHost: process.env.OLLAMA_HOST } : {}),
    ...(mcpConfig ? { mcpConfig } : {}),
    ...(values['allow-loopback-fetch'] ? { allowLoopbackFetch: true } : {}),
    // The Screenshot button and screenshot_desktop capture this machine's display, as the app does.
    ...(values['no-capture'] ? {} : { capturer: new NodeScreenshotsCapturer() }),
  });
  console.log(`Glance harness (data: ${dataDir})`);
  console.log(`  chat: ${harness.url}`);
  console.log(`  ask:  ${harness.askUrl}`);
  console.log('Only this address works: it carries this run\'s token. Ctrl+C stops.');
  await new Promise<void>((done) => {
    const stop = () => done();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await harness.close();
  return 0;
}

// The harness captures the screen for as long as it runs: on glibc it starts again with the malloc
// settings that give each 4K frame's memory back (main/capture/captureMalloc.ts); the core and the
// capture are loaded only in the process that serves.
process.exitCode = wantsMallocRelaunch() ? await relaunchWithMalloc() : await run().catch((error: unknown) => {
  console.error(`harness: ${errorMessage(error)}`);
  return 1;
});
