// THE one answer to "is this endpoint this computer?" (architecture §3b): the egress asks it before
// anything goes to a model, the model list asks it to mark local models. Only what cannot leave the
// machine counts: 127.0.0.0/8, ::1 and the exact name `localhost`. Everything else is remote —
// IPv4-mapped (::ffff:127.0.0.1) and embedded forms (6to4 2002:7f00:1::, NAT64 64:ff9b::7f00:1)
// route through a gateway or a translator, and `*.localhost` is a name a resolver may answer
// with any address. An unknown or unparseable endpoint is remote.
import { isIP } from 'node:net';

/** Whether a model server at `endpoint` (a URL, a host[:port], or a bare host) runs on this computer. */
export function isThisComputer(endpoint: string | undefined): boolean {
  const host = hostOf(endpoint);
  if (host === undefined) return false;
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  if (isIP(host) === 6) return isV6Loopback(host);
  return false;
}

/** The host as the WHATWG URL parser reads it (so `127.1` and `0x7f.1` are 127.0.0.1), lower case, brackets off. */
function hostOf(endpoint: string | undefined): string | undefined {
  const given = endpoint?.trim();
  if (!given) return undefined;
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(given) ? given : `http://${given}`;
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  } catch {
    return undefined;
  }
}

/** ::1 in any spelling (0:0:0:0:0:0:0:1, ::0001); no zone id, no mapped or embedded form. */
function isV6Loopback(host: string): boolean {
  if (host.includes('%') || host.includes('.')) return false;
  const halves = host.split('::');
  if (halves.length > 2) return false;
  const groups = (s: string | undefined) => (s ? s.split(':') : []);
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  const all = halves.length === 2 ? [...head, ...new Array<string>(8 - head.length - tail.length).fill('0'), ...tail] : head;
  if (all.length !== 8) return false;
  const values = all.map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN));
  return values.slice(0, 7).every((v) => v === 0) && values[7] === 1;
}
