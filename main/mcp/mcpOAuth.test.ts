import { describe, expect, it } from 'vitest';
import { parseMcpConfig, type RemoteServerConfig } from '../../common/mcpConfig.ts';
import { oauthSecretName, oauthSignIn, type TokenStore } from './mcpOAuth.ts';

const remote = (oauth: Record<string, unknown> = {}): RemoteServerConfig =>
  parseMcpConfig({ mcpServers: { s: { url: 'https://mcp.example/mcp', oauth } } }).servers.get('s') as RemoteServerConfig;

function memoryStore(): TokenStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, get: async (k) => map.get(k), set: async (k, v) => void map.set(k, v), delete: async (k) => map.delete(k) };
}

describe('oauthSignIn', () => {
  it('keeps tokens, registration and verifier in one secret per server and URL', async () => {
    const tokens = memoryStore();
    const signIn = await oauthSignIn({ server: 's', config: remote(), tokens, openUrl: async () => undefined });
    await signIn.provider.saveTokens({ access_token: 'at-123', token_type: 'Bearer', refresh_token: 'rt-456' });
    await signIn.provider.saveClientInformation?.({ client_id: 'dyn-1' });
    await signIn.provider.saveCodeVerifier('verifier');
    const name = oauthSecretName('s', 'https://mcp.example/mcp');
    expect([...tokens.map.keys()]).toEqual([name]);
    expect(name).toMatch(/^mcp-oauth\.[a-f0-9]{24}$/);
    expect(JSON.parse(tokens.map.get(name)!)).toMatchObject({ tokens: { access_token: 'at-123' }, client: { client_id: 'dyn-1' }, verifier: 'verifier' });
    expect(await signIn.provider.tokens()).toMatchObject({ refresh_token: 'rt-456' });
    await signIn.provider.invalidateCredentials?.('tokens');
    expect(await signIn.provider.tokens()).toBeUndefined();
    expect(await signIn.provider.clientInformation()).toEqual({ client_id: 'dyn-1' });
    expect(oauthSecretName('s', 'https://other.example/mcp')).not.toBe(name);
  });

  it('a pre-registered client comes from the config; metadata names a loopback redirect', async () => {
    const signIn = await oauthSignIn({ server: 's', config: remote({ clientId: 'glance-app', clientSecret: 'shh', scopes: ['read', 'write'] }), tokens: memoryStore(), openUrl: async () => undefined });
    expect(await signIn.provider.clientInformation()).toEqual({ client_id: 'glance-app', client_secret: 'shh' });
    expect(signIn.provider.clientMetadata).toMatchObject({ client_name: 'Glance', scope: 'read write', token_endpoint_auth_method: 'client_secret_basic' });
    expect(String(signIn.provider.redirectUrl)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  });

  it('the loopback listener takes the code for its own state only, and reports a refusal', async () => {
    const opened: string[] = [];
    const signIn = await oauthSignIn({ server: 's', config: remote(), tokens: memoryStore(), openUrl: async (url) => void opened.push(url) });
    const state = await signIn.provider.state?.();
    await signIn.provider.redirectToAuthorization(new URL(`https://auth.example/authorize?state=${state}`));
    expect(opened).toHaveLength(1);
    const redirect = String(signIn.provider.redirectUrl);
    const wrong = await fetch(`${redirect}?code=evil&state=not-mine`);
    expect(wrong.status).toBe(400);
    const waiting = signIn.waitForCode();
    const right = await fetch(`${redirect}?code=the-code&state=${state}`);
    expect(await right.text()).toContain('Signed in');
    await expect(waiting).resolves.toBe('the-code');

    await signIn.provider.redirectToAuthorization(new URL('https://auth.example/authorize'));
    const refused = expect(signIn.waitForCode()).rejects.toThrow('the authorization server refused: access_denied (The user said no)');
    await fetch(`${redirect}?error=access_denied&error_description=${encodeURIComponent('The user said no')}`);
    await refused;
  });

  it('client_credentials needs no browser and says what is missing', async () => {
    const signIn = await oauthSignIn({ server: 's', config: remote({ grantType: 'client_credentials', clientId: 'm2m', clientSecret: 'x' }), tokens: memoryStore(), openUrl: async () => undefined });
    expect(signIn.provider.redirectUrl).toBeUndefined();
    await expect(oauthSignIn({ server: 's', config: remote({ grantType: 'client_credentials' }), tokens: memoryStore(), openUrl: async () => undefined })).rejects.toThrow(/needs "oauth.clientId"/);
  });
});
