// OAuth for remote MCP servers (the spec's authorization, 2025-11-25), through the SDK's client
// auth (client/auth.js): protected-resource and authorization-server discovery, PKCE, the
// `resource` parameter, scopes from WWW-Authenticate, refresh, and client registration —
// pre-registered (config `oauth.clientId`), a client ID metadata document (`oauth.clientMetadataUrl`)
// or dynamic. This file is the OAuthClientProvider: state lives in the secret store (one entry
// per server and URL, never in settings or logs), and the redirect comes back to a loopback
// listener on 127.0.0.1 that this provider opens only while a sign-in is under way.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { RemoteServerConfig } from '../../common/mcpConfig.ts';

/** The part of the secret store sign-in needs. */
export type TokenStore = {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<unknown>;
  delete(name: string): Promise<unknown>;
};

export type OAuthInteraction = {
  /** Shows the sign-in page: the app opens the browser; the CLI uses $BROWSER or the OS opener. */
  openUrl: (url: string) => Promise<void>;
  /** How long to wait for the person to finish signing in. Default 5 minutes. */
  signInTimeoutMs?: number;
};

/** A sign-in the hub can run: the SDK provider, and the wait for the browser's redirect. */
export type McpSignIn = {
  provider: OAuthClientProvider;
  /** Resolves with the authorization code once the person has signed in (loopback redirect). */
  waitForCode(signal?: AbortSignal): Promise<string>;
};

type Saved = {
  tokens?: OAuthTokens;
  client?: OAuthClientInformationMixed;
  verifier?: string;
  discovery?: OAuthDiscoveryState;
  /** The loopback port the registration's redirect URI names (kept: a registration is per URI). */
  port?: number;
};

type OAuthSignInOptions = OAuthInteraction & {
  server: string;
  config: RemoteServerConfig;
  tokens: TokenStore;
  log?: (line: string) => void;
};

const CALLBACK_PATH = '/callback';

/** The secret's name: per server name and URL, so a changed URL never gets another server's token. */
export function oauthSecretName(server: string, url: string): string {
  return `mcp-oauth.${createHash('sha256').update(`${server}\0${url}`).digest('hex').slice(0, 24)}`;
}

export async function oauthSignIn(options: OAuthSignInOptions): Promise<McpSignIn> {
  if (options.config.oauth?.grantType === 'client_credentials') return clientCredentials(options.config);
  const key = oauthSecretName(options.server, options.config.url);
  const load = async (): Promise<Saved> => {
    const raw = await options.tokens.get(key);
    if (!raw) return {};
    try {
      return JSON.parse(raw) as Saved;
    } catch {
      return {};
    }
  };
  const save = async (patch: Partial<Saved>, drop: (keyof Saved)[] = []) => {
    const next: Saved = { ...(await load()), ...patch };
    for (const k of drop) delete next[k];
    await options.tokens.set(key, JSON.stringify(next));
  };
  const oauth = options.config.oauth ?? {};
  const port = oauth.callbackPort ?? (await load()).port ?? (await freePort());
  if ((await load()).port !== port) await save({ port });
  const redirectUrl = `http://127.0.0.1:${port}${CALLBACK_PATH}`;
  const scopes = typeof oauth.scopes === 'string' ? oauth.scopes : oauth.scopes?.join(' ');
  let state = '';
  let pending: { promise: Promise<string>; close: () => void } | undefined;

  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return redirectUrl;
    },
    ...(oauth.clientMetadataUrl ? { clientMetadataUrl: oauth.clientMetadataUrl } : {}),
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: 'Glance',
        redirect_uris: [redirectUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: oauth.clientSecret ? 'client_secret_basic' : 'none',
        ...(scopes ? { scope: scopes } : {}),
      };
    },
    state: () => (state = randomBytes(16).toString('base64url')),
    clientInformation: async () => {
      if (oauth.clientId) return { client_id: oauth.clientId, ...(oauth.clientSecret ? { client_secret: oauth.clientSecret } : {}) };
      return (await load()).client;
    },
    saveClientInformation: (client) => save({ client }),
    tokens: async () => (await load()).tokens,
    saveTokens: (tokens) => save({ tokens }),
    redirectToAuthorization: async (url) => {
      pending?.close();
      pending = await listenForCode(port, () => state, options.signInTimeoutMs ?? 300_000);
      options.log?.(`mcp ${options.server}: sign-in needed; opening ${url.origin}${url.pathname}`);
      await options.openUrl(url.href);
    },
    saveCodeVerifier: (verifier) => save({ verifier }),
    codeVerifier: async () => {
      const verifier = (await load()).verifier;
      if (!verifier) throw new Error('no PKCE code verifier was saved for this sign-in');
      return verifier;
    },
    saveDiscoveryState: (discovery) => save({ discovery }),
    discoveryState: async () => (await load()).discovery,
    invalidateCredentials: async (scope) => {
      const drop: Record<typeof scope, (keyof Saved)[]> = {
        all: ['tokens', 'client', 'verifier', 'discovery'],
        client: ['client'],
        tokens: ['tokens'],
        verifier: ['verifier'],
        discovery: ['discovery'],
      };
      await save({}, drop[scope]);
    },
  };

  return {
    provider,
    async waitForCode(signal) {
      if (!pending) throw new Error('the sign-in did not start (no authorization URL was opened)');
      const current = pending;
      const onAbort = () => current.close();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        return await current.promise;
      } finally {
        signal?.removeEventListener('abort', onAbort);
        current.close();
        if (pending === current) pending = undefined;
      }
    },
  };
}

/** Machine-to-machine (the spec's client-credentials extension): the SDK's providers, no browser. */
function clientCredentials(config: RemoteServerConfig): McpSignIn {
  const o = config.oauth ?? {};
  if (!o.clientId) throw new Error('"oauth.grantType": "client_credentials" needs "oauth.clientId"');
  const scope = typeof o.scopes === 'string' ? o.scopes : o.scopes?.join(' ');
  const provider = o.privateKey
    ? new PrivateKeyJwtProvider({ clientId: o.clientId, privateKey: o.privateKey, algorithm: o.signingAlgorithm ?? 'RS256', clientName: 'Glance', ...(scope ? { scope } : {}) })
    : o.clientSecret
      ? new ClientCredentialsProvider({ clientId: o.clientId, clientSecret: o.clientSecret, clientName: 'Glance', ...(scope ? { scope } : {}) })
      : undefined;
  if (!provider) throw new Error('"oauth.grantType": "client_credentials" needs "oauth.clientSecret" or "oauth.privateKey"');
  return {
    provider,
    waitForCode: async () => {
      throw new Error('the server refused the client credentials (no interactive sign-in with client_credentials)');
    },
  };
}

/** A port the OS says is free now (for the first registration's redirect URI). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The loopback redirect listener: answers the browser with a short page, resolves with the code. */
async function listenForCode(port: number, expectedState: () => string, timeoutMs: number): Promise<{ promise: Promise<string>; close: () => void }> {
  let settle!: { resolve: (code: string) => void; reject: (error: Error) => void };
  const promise = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  promise.catch(() => undefined); // observed by waitForCode; never an unhandled rejection
  let server: Server | undefined = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname !== CALLBACK_PATH) {
      res.writeHead(404).end();
      return;
    }
    const page = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(`<!doctype html><meta charset="utf-8"><title>Glance</title><p>${text}</p>`);
    };
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    const state = url.searchParams.get('state');
    if (error) {
      page(400, 'Sign-in was not completed. You can close this tab.');
      settle.reject(new Error(`the authorization server refused: ${error}${url.searchParams.get('error_description') ? ` (${url.searchParams.get('error_description')})` : ''}`));
    } else if (!code) {
      page(400, 'No authorization code arrived. You can close this tab.');
    } else if (expectedState() && state !== expectedState()) {
      page(400, 'This sign-in link does not belong to the sign-in Glance started.');
    } else {
      page(200, 'Signed in. You can close this tab and return to Glance.');
      settle.resolve(code);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server?.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === 'EADDRINUSE' ? `the sign-in redirect port ${port} is in use; set "oauth.callbackPort" to a free one` : error.message)),
    );
    server?.listen(port, '127.0.0.1', resolve);
  });
  const timer = setTimeout(() => settle.reject(new Error(`sign-in did not finish within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  const close = () => {
    clearTimeout(timer);
    settle.reject(new Error('the sign-in was cancelled'));
    server?.close();
    server?.closeAllConnections();
    server = undefined;
  };
  return { promise, close };
}
