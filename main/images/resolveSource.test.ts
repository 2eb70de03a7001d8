import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { quadrantImage } from '../../test/fixtures/images.ts';
import { resolveSource, type ResolveOptions, type ResolveResult } from './resolveSource.ts';
import type { IntakeConfig } from './types.ts';

const CONFIG: IntakeConfig = { limits: { ...DEFAULT_LIMITS }, allowedRoots: [] };

function user(source: string | Uint8Array, config: IntakeConfig = CONFIG, options?: ResolveOptions) {
  return resolveSource({ source, requestedBy: 'user' }, config, options);
}

function refusal(result: ResolveResult) {
  if (result.ok) throw new Error('expected a refusal, got bytes');
  return result;
}

// ------------------------------------------------------------------------------- fixture servers

type Fixture = { server: Server; port: number; requests: string[]; closed: string[]; streamed: number };

async function startServer(handler: (req: IncomingMessage, res: ServerResponse, fixture: Fixture) => void): Promise<Fixture> {
  const fixture = { requests: [], closed: [], streamed: 0 } as unknown as Fixture;
  const server = createServer((req, res) => {
    fixture.requests.push(req.url ?? '');
    res.on('close', () => fixture.closed.push(req.url ?? ''));
    handler(req, res, fixture);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fixture.server = server;
  fixture.port = (server.address() as AddressInfo).port;
  return fixture;
}

async function stopServer(f: Fixture | undefined) {
  if (!f) return;
  f.server.closeAllConnections();
  await new Promise<void>((resolve) => f.server.close(() => resolve()));
}

const png = await quadrantImage('png');
let origin: Fixture; // the server a test is allowed to fetch from
let other: Fixture; // a second loopback server that serves the same image on another port

function imageRoutes(req: IncomingMessage, res: ServerResponse, fixture: Fixture) {
  const url = new URL(req.url ?? '/', 'http://x');
  const hop = /^\/r\/(\d+)$/.exec(url.pathname);
  if (url.pathname === '/img.png') {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
    res.end(png);
  } else if (hop) {
    const n = Number(hop[1]);
    res.writeHead(302, { location: n <= 1 ? '/img.png' : `/r/${n - 1}` });
    res.end();
  } else if (url.pathname === '/redirect') {
    res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
    res.end();
  } else if (url.pathname === '/loop') {
    res.writeHead(301, { location: '/loop' });
    res.end();
  } else if (url.pathname === '/declares-huge') {
    // Claims 10 GB, sends a few bytes and stalls: only the header can end this early.
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(10 * 1024 ** 3) });
    res.write(png.subarray(0, 16));
  } else if (url.pathname === '/chunked-forever') {
    res.writeHead(200, { 'content-type': 'image/png' }); // no length: chunked
    const chunk = Buffer.alloc(64 * 1024, 7);
    const pump = () => {
      while (!res.destroyed) {
        fixture.streamed += chunk.length;
        if (!res.write(chunk)) break;
      }
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  } else if (url.pathname === '/until-close') {
    // HTTP/1.0 style: no length, no chunking, the body ends when the connection does.
    res.socket?.write('HTTP/1.0 200 OK\r\ncontent-type: image/png\r\n\r\n');
    res.socket?.write(Buffer.alloc(300 * 1024, 1));
  } else if (url.pathname === '/stall') {
    // Never answers.
  } else if (url.pathname === '/stall-body') {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
    res.write(png.subarray(0, 10));
  } else {
    res.writeHead(404, 'Not Found');
    res.end('nothing here');
  }
}

beforeAll(async () => {
  origin = await startServer(imageRoutes);
  other = await startServer(imageRoutes);
});

afterAll(async () => {
  await stopServer(origin);
  await stopServer(other);
});

const loopbackOnly = (...ports: number[]): IntakeConfig => ({ ...CONFIG, allowLoopbackFetch: true, loopbackFetchPorts: ports });

// ------------------------------------------------------------------------------------------ http

describe('http(s) sources', () => {
  it('fetches from an allowed server (test-only loopback permission)', async () => {
    const result = await user(`http://127.0.0.1:${origin.port}/img.png`, { ...CONFIG, allowLoopbackFetch: true });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(Buffer.from(result.data).equals(png)).toBe(true);
      expect(result.name).toBe('img.png');
    }
  });

  it.each([
    ['a loopback IP', (p: number) => `http://127.0.0.1:${p}/img.png`, /loopback/],
    ['localhost (resolves to loopback)', (p: number) => `http://localhost:${p}/img.png`, /loopback/],
    ['IPv6 loopback [::1]', (p: number) => `http://[::1]:${p}/img.png`, /loopback/],
    ['IPv4-mapped IPv6 loopback', (p: number) => `http://[::ffff:127.0.0.1]:${p}/img.png`, /loopback/],
    ['loopback written as a decimal number', (p: number) => `http://2130706433:${p}/img.png`, /loopback/],
    ['0.0.0.0', (p: number) => `http://0.0.0.0:${p}/img.png`, /reserved/],
  ])('refuses %s without connecting', async (_what, url, why) => {
    const before = origin.requests.length;
    const result = refusal(await user(url(origin.port)));
    expect(result.code).toBe('source-forbidden');
    expect(result.message).toMatch(why);
    expect(origin.requests.length).toBe(before);
  });

  it.each([
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/iam/', /link-local/],
    ['a 10.x private address', 'http://10.0.0.1/cat.png', /private-network/],
    ['a 192.168 private address', 'https://192.168.1.1/cat.png', /private-network/],
    ['a 172.16/12 private address', 'http://172.20.0.5/cat.png', /private-network/],
    ['a carrier-grade NAT address', 'http://100.64.1.1/cat.png', /private-network/],
    ['an IPv6 link-local address', 'http://[fe80::1]/cat.png', /link-local/],
    ['an IPv6 unique-local address', 'http://[fd00::1]/cat.png', /private-network/],
    ['a multicast address', 'http://224.0.0.251/cat.png', /multicast/],
  ])('refuses %s', async (_what, url, why) => {
    const result = refusal(await user(url));
    expect(result.code).toBe('source-forbidden');
    expect(result.message).toMatch(why);
  });

  it('checks every address a name resolves to, not just the first', async () => {
    const resolveHost = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    const result = refusal(await user('http://images.example.test/cat.png', CONFIG, { resolveHost }));
    expect(result.code).toBe('source-forbidden');
    expect(result.message).toMatch(/10\.0\.0\.5/);
  });

  it('refuses a name that resolves to the metadata address', async () => {
    const resolveHost = async () => [{ address: '169.254.169.254', family: 4 }];
    const result = refusal(await user('http://metadata.example.test/', CONFIG, { resolveHost }));
    expect(result.code).toBe('source-forbidden');
  });

  it('reports a name that does not resolve as unreachable', async () => {
    const resolveHost = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const result = refusal(await user('http://nowhere.example.test/cat.png', CONFIG, { resolveHost }));
    expect(result.code).toBe('source-unreachable');
    expect(result.message).toMatch(/does not resolve/);
  });

  describe('redirects', () => {
    it('re-checks the target: a redirect from an allowed server to another loopback port is refused', async () => {
      const to = `http://localhost:${other.port}/img.png`;
      const before = other.requests.length;
      const result = refusal(await user(`http://127.0.0.1:${origin.port}/redirect?to=${encodeURIComponent(to)}`, loopbackOnly(origin.port)));
      expect(result.code).toBe('source-forbidden');
      expect(result.message).toMatch(/loopback/);
      expect(other.requests.length).toBe(before);
      // Control: the same redirect succeeds when the second server is allowed too, so the refusal above is the re-check.
      const allowed = await user(`http://127.0.0.1:${origin.port}/redirect?to=${encodeURIComponent(to)}`, loopbackOnly(origin.port, other.port));
      expect(allowed.ok).toBe(true);
      expect(other.requests.length).toBe(before + 1);
    });

    it.each([
      ['the metadata address', 'http://169.254.169.254/latest/meta-data/', 'source-forbidden'],
      ['a private address', 'http://10.1.2.3/x.png', 'source-forbidden'],
      ['IPv6 loopback', 'http://[::1]:9/x.png', 'source-forbidden'],
      ['a file: URL', 'file:///etc/passwd', 'source-forbidden'],
    ])('refuses a redirect to %s', async (_what, to, code) => {
      const result = refusal(await user(`http://127.0.0.1:${origin.port}/redirect?to=${encodeURIComponent(to)}`, loopbackOnly(origin.port)));
      expect(result.code).toBe(code);
    });

    it('follows up to five redirects and stops after that', async () => {
      const five = await user(`http://127.0.0.1:${origin.port}/r/5`, loopbackOnly(origin.port));
      expect(five.ok).toBe(true);
      const six = refusal(await user(`http://127.0.0.1:${origin.port}/r/6`, loopbackOnly(origin.port)));
      expect(six.code).toBe('source-unreachable');
      expect(six.message).toMatch(/redirected more than 5 times/);
      const loop = refusal(await user(`http://127.0.0.1:${origin.port}/loop`, loopbackOnly(origin.port)));
      expect(loop.code).toBe('source-unreachable');
    });
  });

  describe('size cap and time limit', () => {
    const small = (cap: number, timeoutMs = 15_000): IntakeConfig => ({
      ...loopbackOnly(origin.port),
      limits: { ...DEFAULT_LIMITS, ingestBytes: cap, fetchTimeoutMs: timeoutMs },
    });

    it('refuses from the Content-Length header before reading the body', async () => {
      // The server stalls after its header, so only an early refusal returns too-large (not a timeout).
      const result = refusal(await user(`http://127.0.0.1:${origin.port}/declares-huge`, small(1024 * 1024, 30_000)));
      expect(result.code).toBe('too-large');
      expect(result.message).toMatch(/10\.0 GB|10240\.0 MB/);
    });

    it('cuts off a chunked body with no length once it passes the cap', async () => {
      const result = refusal(await user(`http://127.0.0.1:${origin.port}/chunked-forever`, small(100 * 1024)));
      expect(result.code).toBe('too-large');
      expect(result.message).toMatch(/more than 100 KB/);
      // The server sees its endless response closed: Glance stopped reading.
      await expect.poll(() => origin.closed.includes('/chunked-forever')).toBe(true);
      // It stopped near the cap: what was sent is the cap plus what socket buffers held, not the endless stream.
      expect(origin.streamed).toBeLessThan(16 * 1024 * 1024);
    });

    it('cuts off a body that is delimited only by closing the connection', async () => {
      const result = refusal(await user(`http://127.0.0.1:${origin.port}/until-close`, small(100 * 1024)));
      expect(result.code).toBe('too-large');
    });

    it('gives up on a server that never answers', async () => {
      const result = refusal(await user(`http://127.0.0.1:${origin.port}/stall`, small(1024 * 1024, 300)));
      expect(result.code).toBe('source-unreachable');
      expect(result.message).toMatch(/did not send the image within/);
    });

    it('gives up on a body that stops mid-way', async () => {
      const result = refusal(await user(`http://127.0.0.1:${origin.port}/stall-body`, small(1024 * 1024, 300)));
      expect(result.code).toBe('source-unreachable');
    });

    it("rejects with the caller's abort reason when cancelled", async () => {
      const controller = new AbortController();
      const pending = user(`http://127.0.0.1:${origin.port}/stall`, small(1024 * 1024), { signal: controller.signal });
      setTimeout(() => controller.abort(new Error('user cancelled')), 50);
      await expect(pending).rejects.toThrow('user cancelled');
    });
  });

  it('reports an HTTP error status', async () => {
    const result = refusal(await user(`http://127.0.0.1:${origin.port}/missing.png`, loopbackOnly(origin.port)));
    expect(result.code).toBe('source-unreachable');
    expect(result.message).toMatch(/HTTP 404/);
  });

  it('reports a refused connection', async () => {
    const closed = await startServer(() => undefined);
    const port = closed.port;
    await stopServer(closed);
    const result = refusal(await user(`http://127.0.0.1:${port}/img.png`, loopbackOnly(port)));
    expect(result.code).toBe('source-unreachable');
  });
});

// ----------------------------------------------------------------------------------------- data:

describe('data: URLs', () => {
  it('decodes strict base64', async () => {
    const result = await user(`data:image/png;base64,${png.toString('base64')}`);
    expect(result.ok && Buffer.from(result.data).equals(png)).toBe(true);
  });

  it('accepts base64 wrapped over several lines', async () => {
    const wrapped = png.toString('base64').replace(/(.{76})/g, '$1\n');
    const result = await user(`data:image/png;base64,${wrapped}`);
    expect(result.ok && Buffer.from(result.data).equals(png)).toBe(true);
  });

  it.each([
    ['characters outside the alphabet', `${png.toString('base64').slice(0, 40)}*!${png.toString('base64').slice(42)}`],
    ['base64url characters', 'iVBORw0KGgo-_AAA'],
    ['a cut-off payload (bad length)', png.toString('base64').slice(0, 41)],
    ['padding in the middle', `iVBO=w0KGgo=`],
  ])('refuses %s instead of guessing', async (_what, payload) => {
    const result = refusal(await user(`data:image/png;base64,${payload}`));
    expect(result.code).toBe('corrupt');
    expect(result.message).toMatch(/base64 is not valid/);
    expect(result.message).not.toContain(payload.slice(0, 12));
  });

  it('refuses a data: URL over the ingest cap before decoding it', async () => {
    const config = { ...CONFIG, limits: { ...DEFAULT_LIMITS, ingestBytes: 100 } };
    const result = refusal(await user(`data:image/png;base64,${png.toString('base64')}`, config));
    expect(result.code).toBe('too-large');
  });

  it('percent-decodes a non-base64 data: URL so the sniffer can name it', async () => {
    const result = await user('data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E');
    expect(result.ok && Buffer.from(result.data).toString()).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
  });
});

// ----------------------------------------------------------------------------------------- bytes

describe('bytes', () => {
  it('passes bytes through and refuses them over the cap', async () => {
    expect((await user(png)).ok).toBe(true);
    const result = refusal(await user(png, { ...CONFIG, limits: { ...DEFAULT_LIMITS, ingestBytes: 10 } }));
    expect(result.code).toBe('too-large');
  });
});

// ----------------------------------------------------------------------------------------- paths

describe('local paths', () => {
  let dir: string;
  let root: string;
  let outside: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'glance-resolve-'));
    root = join(dir, 'root');
    outside = join(dir, 'outside');
    await mkdir(root);
    await mkdir(outside);
    await writeFile(join(root, 'inside.png'), png);
    await writeFile(join(outside, 'secret.png'), png);
    await writeFile(join(dir, 'big.bin'), Buffer.alloc(5000, 0x41));
    await symlink(join(outside, 'secret.png'), join(root, 'escape.png'));
    await symlink(outside, join(root, 'escape-dir'));
    await symlink(join(root, 'inside.png'), join(root, 'alias.png'));
    await symlink(root, join(dir, 'root-link'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const model = (source: string, roots: string[] = [root]) =>
    resolveSource({ source, requestedBy: 'model' }, { ...CONFIG, allowedRoots: roots });

  it('reads an absolute path and a file:// URL', async () => {
    const byPath = await user(join(root, 'inside.png'));
    expect(byPath.ok && Buffer.from(byPath.data).equals(png)).toBe(true);
    if (byPath.ok) expect(byPath.name).toBe('inside.png');
    const byUrl = await user(pathToFileURL(join(root, 'inside.png')).href);
    expect(byUrl.ok && Buffer.from(byUrl.data).equals(png)).toBe(true);
  });

  it.each(['picture.png', './picture.png', '../picture.png', '~/picture.png'])('refuses the relative path %s, asking for an absolute one', async (p) => {
    const result = refusal(await user(p));
    expect(result.code).toBe('source-unreachable');
    expect(result.message).toMatch(/relative path.*absolute path/s);
  });

  it('says when there is no file', async () => {
    const result = refusal(await user(join(dir, 'nope.png')));
    expect(result.code).toBe('source-unreachable');
    expect(result.message).toMatch(/no file at/);
  });

  it('refuses a folder', async () => {
    const result = refusal(await user(root));
    expect(result.code).toBe('source-unreachable');
    expect(result.message).toMatch(/folder/);
  });

  it.runIf(process.platform === 'linux')('refuses a device instead of reading it forever', async () => {
    const result = refusal(await user('/dev/zero'));
    expect(result.code).toBe('source-unreachable');
    expect(result.message).toMatch(/not a regular file/);
  });

  it('refuses a file over the cap from its size, before reading it', async () => {
    // Not an image at all: only a size check that runs first can call it too large.
    const result = refusal(await user(join(dir, 'big.bin'), { ...CONFIG, limits: { ...DEFAULT_LIMITS, ingestBytes: 1000 } }));
    expect(result.code).toBe('too-large');
    expect(result.message).toMatch(/big\.bin is 5 KB/);
  });

  it('refuses a file:// URL with a remote host', async () => {
    const result = refusal(await user('file://fileserver/share/cat.png'));
    expect(result.code).toBe('source-unreachable');
  });

  it('refuses other schemes', async () => {
    const result = refusal(await user('ftp://example.com/cat.png'));
    expect(result.code).toBe('source-unreachable');
    expect(result.message).toMatch(/"ftp:"/);
  });

  describe('model-requested paths', () => {
    it('reads inside an allowed root, also through a link that stays inside', async () => {
      expect((await model(join(root, 'inside.png'))).ok).toBe(true);
      expect((await model(join(root, 'alias.png'))).ok).toBe(true);
      expect((await model(pathToFileURL(join(root, 'inside.png')).href)).ok).toBe(true);
    });

    it('accepts a root that is itself a symbolic link', async () => {
      expect((await model(join(dir, 'root-link', 'inside.png'), [join(dir, 'root-link')])).ok).toBe(true);
    });

    it.each([
      ['a file outside the roots', () => join(outside, 'secret.png')],
      ['a ../ traversal out of the root', () => `${root}/../outside/secret.png`],
      ['a symbolic link that escapes the root', () => join(root, 'escape.png')],
      ['a file under a linked folder outside the root', () => join(root, 'escape-dir', 'secret.png')],
      ['a missing file outside the roots (existence is not revealed)', () => join(outside, 'nope.png')],
      ['a sibling folder sharing the root name as a prefix', () => `${root}-evil/secret.png`],
    ])('refuses %s', async (_what, path) => {
      const result = refusal(await model(path()));
      expect(result.code).toBe('source-forbidden');
      expect(result.message).toMatch(/outside the folders the model may read/);
    });

    it('refuses everything when no roots are allowed', async () => {
      const result = refusal(await model(join(root, 'inside.png'), []));
      expect(result.code).toBe('source-forbidden');
      expect(result.message).toMatch(/outside the folders the model may read/);
    });

    it('says when a file inside a root is missing', async () => {
      const result = refusal(await model(join(root, 'gone.png')));
      expect(result.code).toBe('source-unreachable');
    });

    it('does not confine a path the user gave', async () => {
      expect((await user(join(outside, 'secret.png'))).ok).toBe(true);
    });
  });
});
