// The Glance MCP client as the conformance suite's client under test:
//   npx conformance client --command "node scripts/conformanceClient.ts" --scenario <name>
// The suite starts its own servers on localhost and appends the server URL; this entry builds
// the same hub the app builds (createMcpHub: capabilities, fallback, OAuth provider, capture),
// lists the tools and calls each with arguments made from its input schema, then closes.
// The person is played by code: a sign-in page is "visited" with fetch (following the
// authorization server's redirect to Glance's loopback listener), and an elicitation form is
// submitted as shown (the schema's defaults), as a user pressing Submit would.
// MCP_CONFORMANCE_CONTEXT (pre-registered client credentials) becomes the server's `oauth` config.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../common/limits.ts';
import { parseMcpConfig } from '../common/mcpConfig.ts';
import { FileAttachmentStore } from '../main/images/attachmentStore.ts';
import { ImageIntake } from '../main/images/imageIntake.ts';
import { withDefaults } from '../main/mcp/clientFeatures.ts';
import { createMcpHub } from '../main/mcp/createMcpHub.ts';

/** A client ID metadata document URL (the suite's basic-cimd scenario expects this one). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const url = process.argv[2];
if (!url) {
  process.stderr.write('usage: node scripts/conformanceClient.ts SERVER_URL\n');
  process.exit(2);
}
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { client_id?: string; client_secret?: string; private_key_pem?: string; signing_algorithm?: string };
// The machine-to-machine scenarios give credentials for the client_credentials grant.
const machine = (process.env.MCP_CONFORMANCE_SCENARIO ?? '').startsWith('auth/client-credentials');
const dataDir = await mkdtemp(join(tmpdir(), 'glance-conformance-'));
const secrets = new Map<string, string>();
const log = (line: string) => process.stderr.write(`${line}\n`);

const config = parseMcpConfig({
  mcpServers: {
    conformance: {
      url,
      oauth: {
        clientMetadataUrl: CLIENT_METADATA_URL,
        ...(context.client_id ? { clientId: context.client_id } : {}),
        ...(context.client_secret ? { clientSecret: context.client_secret } : {}),
        ...(machine ? { grantType: 'client_credentials' } : {}),
        ...(context.private_key_pem ? { privateKey: context.private_key_pem, signingAlgorithm: context.signing_algorithm } : {}),
      },
    },
  },
});
const store = new FileAttachmentStore(dataDir);
const hub = createMcpHub({
  config,
  intake: new ImageIntake({ config: { limits: DEFAULT_LIMITS, allowedRoots: [] }, store }),
  dataDir,
  roots: () => [dataDir],
  log,
  startTimeoutMs: 15_000,
  tokens: {
    get: async (name) => secrets.get(name),
    set: async (name, value) => void secrets.set(name, value),
    delete: async (name) => secrets.delete(name),
  },
  interaction: {
    openUrl: visit,
    elicit: async (request) => (request.mode === 'form' ? { action: 'accept', content: withDefaults(request.fields, {}) } : { action: 'decline' }),
    signInTimeoutMs: 10_000,
  },
});

let exit = 0;
try {
  const tools = await hub.listTools();
  const server = hub.status()[0];
  if (server?.state !== 'ready') {
    log(server?.message ?? 'the server did not start');
    exit = 1;
  }
  for (const tool of tools) {
    const outcome = await hub.callTool(tool.name, argumentsFor(tool.inputSchema), { timeoutMs: 10_000 });
    log(`${tool.name}: ${outcome.ok ? 'ok' : 'failed'} — ${outcome.text.slice(0, 200)}`);
  }
} finally {
  await hub.close();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(exit);

/** The "browser": follows the authorization server's redirects to the loopback listener. */
async function visit(href: string): Promise<void> {
  let next = href;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(next, { redirect: 'manual' });
    const location = response.headers.get('location');
    await response.body?.cancel();
    if (response.status < 300 || response.status >= 400 || !location) return;
    next = new URL(location, next).href;
  }
}

/** Arguments from a JSON schema: numbers 1, 2, …; strings "test"; booleans true; required fields only when given. */
function argumentsFor(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; default?: unknown; enum?: unknown[] }>;
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [name, p] of Object.entries(properties)) {
    if (p.default !== undefined) out[name] = p.default;
    else if (p.enum?.length) out[name] = p.enum[0];
    else if (p.type === 'number' || p.type === 'integer') out[name] = ++n;
    else if (p.type === 'boolean') out[name] = true;
    else if (p.type === 'array') out[name] = [];
    else if (p.type === 'object') out[name] = {};
    else out[name] = 'test';
  }
  return out;
}
