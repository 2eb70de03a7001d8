// The MCP hub set-up the hub suites share: a temp data dir, the real intake and attachment store
// behind binary capture (mcpSetup.ts), one McpHub over the given `mcpServers`, closed and
// removed after the suite. Call it inside a describe: its hooks are that block's.
import { afterAll, beforeAll } from 'vitest';
import type { FileAttachmentStore } from '../../main/images/attachmentStore.ts';
import { parseMcpConfig } from '../../main/mcp/config.ts';
import type { BinaryCapture } from '../../main/mcp/binaryCapture.ts';
import { McpHub } from '../../main/mcp/mcpHub.ts';
import { captureFor, tempDataDir } from './mcpSetup.ts';

export type HubSuite = {
  readonly hub: McpHub;
  /** The data directory (captures under `captures/`). */
  readonly dir: string;
  readonly store: FileAttachmentStore;
  /** The hub's binary capture, for a second hub in the same data dir. */
  readonly capture: BinaryCapture;
};

/**
 * `servers` runs in beforeAll, after the data dir exists (an HTTP server may start there first);
 * `after` runs once the hub is closed (stop that server).
 */
export function hubSuite(servers: () => Record<string, unknown> | Promise<Record<string, unknown>>, after?: () => void | Promise<void>): HubSuite {
  let data: Awaited<ReturnType<typeof tempDataDir>> | undefined;
  let env: ReturnType<typeof captureFor> | undefined;
  let hub: McpHub | undefined;
  beforeAll(async () => {
    data = await tempDataDir();
    env = captureFor(data.dir);
    hub = new McpHub({ config: parseMcpConfig({ mcpServers: await servers() }), capture: env.capture });
  });
  afterAll(async () => {
    await hub?.close();
    await after?.();
    await data?.remove();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('hubSuite: the hub starts in beforeAll');
    return value;
  };
  return {
    get hub() {
      return ready(hub);
    },
    get dir() {
      return ready(data).dir;
    },
    get store() {
      return ready(env).store;
    },
    get capture() {
      return ready(env).capture;
    },
  };
}
