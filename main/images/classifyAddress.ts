// The SSRF guard's address policy: which IP addresses an http(s) image source may reach.
// Only public unicast addresses pass; everything that can reach this machine, its network
// or a cloud metadata service is named so the refusal can say why.
import { isIP } from 'node:net';

type AddressClass = 'loopback' | 'private' | 'link-local' | 'multicast' | 'reserved';

/** `undefined` means a public address; otherwise the kind of address it is. Unparseable input is 'reserved'. */
export function classifyAddress(address: string): AddressClass | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const kind = isIP(bare.split('%')[0] ?? '');
  if (kind === 4) return classifyV4(parseV4(bare));
  if (kind === 6) {
    const groups = parseV6(bare);
    return groups ? classifyV6(groups) : 'reserved';
  }
  return 'reserved';
}

/** Words for a refusal: "… is a private-network address". */
export function describeAddressClass(kind: AddressClass): string {
  switch (kind) {
    case 'loopback':
      return "this computer's own (loopback)";
    case 'private':
      return 'a private-network';
    case 'link-local':
      return 'a link-local (cloud metadata or local network)';
    case 'multicast':
      return 'a multicast';
    case 'reserved':
      return 'a reserved, non-public';
  }
}

function parseV4(s: string): number {
  const p = s.split('.').map(Number);
  return (((p[0] ?? 0) << 24) | ((p[1] ?? 0) << 16) | ((p[2] ?? 0) << 8) | (p[3] ?? 0)) >>> 0;
}

function inV4(ip: number, base: string, bits: number): boolean {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return ((ip & mask) >>> 0) === ((parseV4(base) & mask) >>> 0);
}

function classifyV4(ip: number): AddressClass | undefined {
  if (inV4(ip, '127.0.0.0', 8)) return 'loopback';
  if (inV4(ip, '169.254.0.0', 16)) return 'link-local';
  if (inV4(ip, '10.0.0.0', 8) || inV4(ip, '172.16.0.0', 12) || inV4(ip, '192.168.0.0', 16) || inV4(ip, '100.64.0.0', 10)) {
    return 'private';
  }
  if (inV4(ip, '224.0.0.0', 4)) return 'multicast';
  const reserved: Array<[string, number]> = [
    ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host on Linux
    ['192.0.0.0', 24], // IETF protocol assignments
    ['192.0.2.0', 24], // documentation
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['192.88.99.0', 24], // 6to4 relay anycast
    ['198.18.0.0', 15], // benchmarking
    ['240.0.0.0', 4], // reserved, incl. broadcast
  ];
  return reserved.some(([base, bits]) => inV4(ip, base, bits)) ? 'reserved' : undefined;
}

/** Eight 16-bit groups, or undefined. Accepts "::" compression, a dotted IPv4 tail and a zone id. */
function parseV6(input: string): number[] | undefined {
  let s = input.split('%')[0] ?? '';
  const tail: number[] = [];
  if (s.includes('.')) {
    const i = s.lastIndexOf(':');
    const v4 = s.slice(i + 1);
    if (isIP(v4) !== 4) return undefined;
    const n = parseV4(v4);
    tail.push(n >>> 16, n & 0xffff);
    s = s.slice(0, i + 1);
    if (!s.endsWith('::')) s = s.slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const part = (h: string) => (h === '' ? [] : h.split(':').map((g) => Number.parseInt(g, 16)));
  const head = part(halves[0] ?? '');
  const rest = halves.length === 2 ? part(halves[1] ?? '') : [];
  const want = 8 - tail.length;
  let groups: number[];
  if (halves.length === 2) {
    const fill = want - head.length - rest.length;
    if (fill < 0) return undefined;
    groups = [...head, ...new Array<number>(fill).fill(0), ...rest];
  } else {
    groups = head;
  }
  groups = [...groups, ...tail];
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) return undefined;
  return groups;
}

function classifyV6(g: number[]): AddressClass | undefined {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = ((g6 << 16) | g7) >>> 0;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return 'reserved'; // ::
  if (zeroTo(7) && g7 === 1) return 'loopback'; // ::1
  if (zeroTo(5) && g5 === 0xffff) return classifyV4(embedded); // ::ffff:a.b.c.d (IPv4-mapped)
  if (zeroTo(6)) return 'reserved'; // ::a.b.c.d (deprecated IPv4-compatible)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return classifyV4(embedded); // NAT64
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'private'; // local-use NAT64
  if (g0 === 0x2002) return classifyV4(((g1 << 16) | g2) >>> 0); // 6to4 embeds the IPv4 address
  if ((g0 & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return 'private'; // fec0::/10 site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if (g0 === 0x2001 && (g1 === 0 || g1 === 0xdb8)) return 'reserved'; // Teredo, documentation
  if (g0 === 0x2001 && g1 < 0x200) return 'reserved'; // 2001::/23 IETF protocol assignments
  if ((g0 & 0xe000) !== 0x2000) return 'reserved'; // outside global unicast 2000::/3
  return undefined;
}
