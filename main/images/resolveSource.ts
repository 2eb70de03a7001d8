// Resolve: turn an image source into bytes (architecture §3, first two steps of the chokepoint).
// Bytes; absolute path; file://; data: (strict base64); http(s) behind an SSRF guard.
// The ingest cap is checked before reading wherever the size is known in advance
// (stat, Content-Length, base64 length) and again while reading.
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isAbsolute } from 'node:path';
import { decodeBase64Strict, splitDataUrl } from '../base64.ts';
import { readLocalFile } from './readLocalFile.ts';
import { fileURLToPath } from 'node:url';
import { formatBytes, type ImageRefusal, type ImageRefusalCode } from '../../common/images.ts';
import { classifyAddress, describeAddressClass } from './classifyAddress.ts';
import type { ImageInput, IntakeConfig } from './types.ts';

type ResolvedSource = { ok: true; data: Uint8Array; /** A display name derived from the source, if any. */ name?: string };
export type ResolveResult = ResolvedSource | ImageRefusal;

/** Resolves a host name to every address it has (the guard checks all of them). */
type HostResolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export type ResolveOptions = {
  /** Aborting it makes resolveSource reject with the signal's reason (a cancel is not a refusal). */
  signal?: AbortSignal;
  /** Test seam: replaces DNS so a test can make a name resolve to any address list. */
  resolveHost?: HostResolver;
};

const MAX_REDIRECTS = 5;

export function refuse(code: ImageRefusalCode, message: string): ImageRefusal {
  return { ok: false, code, message };
}

export function tooLarge(what: string, size: number | undefined, cap: number): ImageRefusal {
  const got = size === undefined ? `more than ${formatBytes(cap)}` : formatBytes(size);
  return refuse('too-large', `${what} is ${got}; Glance takes images up to ${formatBytes(cap)}. Use a smaller image or crop it.`);
}

export async function resolveSource(
  input: Pick<ImageInput, 'source' | 'requestedBy'>,
  config: IntakeConfig,
  options: ResolveOptions = {},
): Promise<ResolveResult> {
  options.signal?.throwIfAborted();
  const cap = config.limits.ingestBytes;
  const { source } = input;
  if (typeof source !== 'string') {
    if (source.byteLength > cap) return tooLarge('This image', source.byteLength, cap);
    return { ok: true, data: source };
  }
  const text = source.trim();
  if (/^data:/i.test(text)) return decodeDataUrl(text, cap);
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return refuse('source-unreachable', 'That is not a valid web address (URL), so Glance cannot fetch it.');
    }
    return fetchHttp(url, config, options);
  }
  if (/^file:/i.test(text)) {
    let path: string;
    try {
      path = fileURLToPath(text);
    } catch {
      return refuse('source-unreachable', 'That file:// URL does not name a file on this computer. Use file:///absolute/path or an absolute path.');
    }
    return readLocalFile(path, input.requestedBy, config, options.signal);
  }
  if (isAbsolute(text)) return readLocalFile(text, input.requestedBy, config, options.signal);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text);
  if (scheme && !(process.platform === 'win32' && scheme[1]?.length === 1)) {
    return refuse(
      'source-unreachable',
      `Glance cannot read "${scheme[1]}:" sources. Give an absolute file path, a file://, data: or http(s) URL.`,
    );
  }
  if (text === '') return refuse('source-unreachable', 'No image source was given. Give an absolute file path or a URL.');
  return refuse(
    'source-unreachable',
    `"${shorten(text)}" is a relative path. Glance does not guess which folder it is in: give an absolute path ` +
      `(for example ${process.platform === 'win32' ? 'C:\\Users\\me\\picture.png' : '/home/me/picture.png'}) or a file:// URL.`,
  );
}

function shorten(s: string): string {
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
}

// ---------------------------------------------------------------------------------------- data:


function decodeDataUrl(url: string, cap: number): ResolveResult {
  const parts = splitDataUrl(url);
  if (!parts) return refuse('corrupt', 'This data: URL has no data part (no comma), so there is nothing to read.');
  const { payload } = parts;
  if (parts.base64) {
    // Whitespace is how base64 is wrapped in mail and pastes; anything else outside the alphabet is refused.
    const estimate = Math.floor((payload.replace(/[\t\n\f\r ]+/g, '').length * 3) / 4);
    if (estimate > cap + 2) return tooLarge('The image in this data: URL', estimate, cap);
    const data = decodeBase64Strict(payload, { padded: true, whitespace: 'any' });
    if (!data) {
      return refuse(
        'corrupt',
        "This data: URL's base64 is not valid (characters outside the base64 alphabet, or wrong padding or length), " +
          'so Glance will not guess at it. Copy the whole URL again.',
      );
    }
    if (data.byteLength > cap) return tooLarge('The image in this data: URL', data.byteLength, cap);
    return { ok: true, data };
  }
  // Percent-encoded data (typical for SVG): decoded so the sniffer can say what it is.
  if (payload.length > cap * 3) return tooLarge('This data: URL', undefined, cap);
  // %-escapes are ASCII, so decoding at the byte level is exact for any UTF-8 text around them.
  const raw = Buffer.from(payload, 'utf8');
  const out = Buffer.allocUnsafe(raw.length);
  let n = 0;
  const hex = (b: number | undefined) => (b === undefined ? -1 : Number.parseInt(String.fromCharCode(b), 16));
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i] ?? 0;
    if (b === 0x25) {
      const hi = hex(raw[i + 1]);
      const lo = hex(raw[i + 2]);
      if (!(hi >= 0 && lo >= 0)) return refuse('corrupt', 'This data: URL has a broken %-escape, so Glance cannot read it.');
      out[n++] = hi * 16 + lo;
      i += 2;
    } else {
      out[n++] = b;
    }
  }
  if (n > cap) return tooLarge('The data in this data: URL', n, cap);
  return { ok: true, data: out.subarray(0, n) };
}

// ---------------------------------------------------------------------------------------- http(s)

const defaultResolveHost: HostResolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

type Hop = { kind: 'redirect'; location: string } | { kind: 'done'; result: ResolveResult };

/** A refusal when this address may not be fetched; undefined when it may. */
function addressRefusal(address: string, port: number, url: URL, config: IntakeConfig): ImageRefusal | undefined {
  const kind = classifyAddress(address);
  if (kind === undefined) return undefined;
  if (kind === 'loopback' && config.allowLoopbackFetch) {
    const ports = config.loopbackFetchPorts;
    if (!ports || ports.includes(port)) return undefined;
  }
  const literal = isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0;
  const where = literal ? `${url.hostname} is` : `${url.hostname} resolves to ${address}, which is`;
  return refuse(
    'source-forbidden',
    `Glance will not fetch images from ${url.hostname}: ${where} ${describeAddressClass(kind)} address. ` +
      'Images are fetched only from public web addresses; save the image and attach the file instead.',
  );
}

/** A network failure in plain words: never an errno or parser code (HPE_INVALID_CONSTANT). */
function networkWhy(code: string | undefined): string {
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the name does not resolve';
  if (code === 'ECONNREFUSED') return 'the connection was refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'the connection was cut';
  if (code === 'ETIMEDOUT') return 'the connection timed out';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'the address cannot be reached';
  if (code?.startsWith('HPE_')) return 'the server did not answer in valid HTTP';
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return 'its security certificate was not accepted';
  return 'a network error';
}

function portOf(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

function nameFromUrl(url: URL): string | undefined {
  const last = url.pathname.split('/').filter(Boolean).pop();
  if (!last) return undefined;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

async function fetchHttp(start: URL, config: IntakeConfig, options: ResolveOptions): Promise<ResolveResult> {
  const timeout = AbortSignal.timeout(config.limits.fetchTimeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let url = start;
  for (let redirects = 0; ; redirects++) {
    const hop = await fetchOnce(url, config, signal, options);
    if (hop.kind === 'done') return hop.result;
    if (redirects >= MAX_REDIRECTS) {
      return refuse('source-unreachable', `${start.hostname} redirected more than ${MAX_REDIRECTS} times; Glance stopped following it.`);
    }
    let next: URL;
    try {
      next = new URL(hop.location, url);
    } catch {
      return refuse('source-unreachable', `${url.hostname} redirected to an address that is not a valid URL.`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      return refuse('source-forbidden', `${url.hostname} redirected to a ${next.protocol} address; Glance follows redirects only to http(s).`);
    }
    url = next;
  }
}

function fetchOnce(url: URL, config: IntakeConfig, signal: AbortSignal, options: ResolveOptions): Promise<Hop> {
  const cap = config.limits.ingestBytes;
  const port = portOf(url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Literal IPs never reach `lookup`, so they are checked here.
  if (isIP(host)) {
    const refusal = addressRefusal(host, port, url, config);
    if (refusal) return Promise.resolve({ kind: 'done', result: refusal });
  }
  const resolveHost = options.resolveHost ?? defaultResolveHost;
  return new Promise<Hop>((resolvePromise, reject) => {
    let settled = false;
    let forbidden: ImageRefusal | undefined;
    const settle = (hop: Hop) => {
      if (settled) return;
      settled = true;
      resolvePromise(hop);
      req.destroy();
    };
    const done = (result: ResolveResult) => settle({ kind: 'done', result });
    const onError = (error: unknown) => {
      if (settled) return;
      if (forbidden) return done(forbidden);
      if (options.signal?.aborted) {
        settled = true;
        req.destroy();
        reject(options.signal.reason);
        return;
      }
      if (signal.aborted) {
        return done(
          refuse('source-unreachable', `${url.hostname} did not send the image within ${Math.round(config.limits.fetchTimeoutMs / 1000)} s; Glance gave up.`),
        );
      }
      done(refuse('source-unreachable', `Glance could not fetch the image from ${url.hostname} (${networkWhy((error as NodeJS.ErrnoException | undefined)?.code)}).`));
    };

    // Every address a name resolves to must be public: a name with one private address is refused.
    const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
      resolveHost(hostname).then(
        (addresses) => {
          for (const a of addresses) {
            const refusal = addressRefusal(a.address, port, url, config);
            if (refusal) {
              forbidden = refusal;
              callback(Object.assign(new Error(refusal.message), { code: 'EFORBIDDEN' }), '', 0);
              return;
            }
          }
          const family = lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : (lookupOptions.family ?? 0);
          const usable = family ? addresses.filter((a) => a.family === family) : addresses;
          const first = usable[0];
          if (!first) {
            callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
          } else if (lookupOptions.all) {
            callback(null, usable);
          } else {
            callback(null, first.address, first.family);
          }
        },
        (error: NodeJS.ErrnoException) => callback(error, '', 0),
      );
    };

    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(
      url,
      {
        method: 'GET',
        agent: false, // no pooled sockets: each hop connects (and is checked) anew
        lookup,
        signal,
        headers: { accept: 'image/*', 'accept-encoding': 'identity', 'user-agent': 'Glance' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
          res.resume();
          return settle({ kind: 'redirect', location: res.headers.location });
        }
        if (status < 200 || status > 299) {
          res.resume();
          return done(refuse('source-unreachable', `${url.hostname} answered HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''} instead of an image.`));
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > cap) return done(tooLarge(`The image at ${url.hostname}`, declared, cap));
        const chunks: Buffer[] = [];
        let total = 0;
        res.on('data', (chunk: Buffer) => {
          total += chunk.length;
          // Enforced while streaming: a server that sends more than it declared, or no length at all, is cut off.
          if (total > cap) return done(tooLarge(`The image at ${url.hostname}`, undefined, cap));
          chunks.push(chunk);
        });
        res.on('end', () => done({ ok: true, data: Buffer.concat(chunks), name: nameFromUrl(url) ?? url.hostname }));
        res.on('error', onError);
      },
    );
    req.on('error', onError);
    req.end();
  });
}
