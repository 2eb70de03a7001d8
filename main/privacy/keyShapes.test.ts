import { describe, expect, it } from 'vitest';
import { DEFAULT_REDACT_CATEGORIES } from '../../common/privacy.ts';
import { ruleFindings } from './findings.ts';
import { capitalHex, capitalKey, groupedKey, hexGridRows, joinedKey } from './keyShapes.ts';

const hidden = (text: string) => ruleFindings(text, DEFAULT_REDACT_CATEGORIES).map((f) => text.slice(f.start, f.end));

// A run whose shape alone says key is hidden with no word naming it; what a checksum, a structure,
// a name or a heading says is public stays.
describe('key shapes', () => {
  it('product keys in groups, as OCR reads their dashes', () => {
    expect(groupedKey('FY9KW-T2G4A-B7KPM')).toBe(true);
    expect(groupedKey('srLTT-06WvH-23way')).toBe(true);
    expect(groupedKey('6JK6G-2686Q-T867F - 2WWM4 -MYP4K')).toBe(true);
    for (const not of ['2026-12-07', '0800-1234-5678', '00330-80000-00000-AA476', 'Keys-Store-Choice', 'ISO-8859-1', 'GHSA-x7wq-3f9h-2p4c', 'GHSA-p425-3g5m-x7hg', 'abcd-efgh-ijkl'])
      expect(groupedKey(not), not).toBe(false);
    expect(hidden('CVE-2024-24790 · GHSA-vE7Tv-jvp7-pSgp · golang.org/x/net')).toEqual([]);
    expect(hidden('Dorfromantik\n| FY9KW-T2G4A-B7KPM ]\nSteam - revealed')).toContain('FY9KW-T2G4A-B7KPM');
  });

  it('capitals no word is made of, and capitals’ hex of a key’s length', () => {
    expect(capitalKey('GPQALRPWZBHTVOXZRAVI')).toBe(true);
    expect(capitalKey('9MV84QFMOBXPDZRAFF')).toBe(true);
    for (const not of ['CONFIGURATIONFILES', 'ACGTTGCATGCATGCAAGT', '4CA37171B5B564EFACA94BB0B461DE69', 'INTERNATIONALISATION', '1HGCM82633A004352', 'S5GXNF0R123456MZ', 'YENKBEXSHRHSKEVS24M74AB']) expect(capitalKey(not), not).toBe(false);
    expect(capitalHex('4CA37171B5B564EFACA94BBOB461DE6Y')).toBe(true);
    expect(capitalHex('4CA37171B5B564EFACA94BB0B461DE694CA37171')).toBe(false);
    expect(capitalHex('4ca37171b5b564efaca94bb0b461de69')).toBe(false);
    // (A ULID OCR cut short with a bracket for its J, named an id.)
    expect(hidden('INFO payment captured order_id=01]YENKBEXSHRHSKEVS24M74AB attempt=3')).toEqual([]);
    // (Inside a longer token a run of capitals is a field's value OCR cut, not a key shown as one.)
    expect(ruleFindings('INFO payment captured order=0]GPQALRPWZBHTVOXZRAVI attempt=3', DEFAULT_REDACT_CATEGORIES).filter((f) => f.rule === 'key-shape')).toEqual([]);
    expect(hidden('needs the erlang cookie for the cluster: GPQALRPWZBHTVOXZRAVI')).toContain('GPQALRPWZBHTVOXZRAVI');
    expect(hidden('Steam Game Server Login Token (Valheim box)\n4CA37171B5B564EFACA94BBOB461DE6Y\nsteamcommunity.com')).toContain('4CA37171B5B564EFACA94BBOB461DE6Y');
    // (Named as a hash, it is one.)
    expect(hidden('MD5 checksum: 4CA37171B5B564EFACA94BB0B461DE69')).not.toContain('4CA37171B5B564EFACA94BB0B461DE69');
  });

  it('random parts joined by a structure’s separators', () => {
    expect(joinedKey('K10a07244af7996cdb23d6f9bbd09872c86dc60811f5ebd31f74fa838ba709bbfe3', 'a1e34cdf336725623813827dde86389d')).toBe(true);
    expect(joinedKey('collections', 'HashMap')).toBe(false);
    const token = 'K10a07244af7996cdb23d6T9bbd09872c86dc60811F5ebd3174fa838ba709bbfe3: : server: ale34cdf336725623813827dde86389d';
    expect(hidden(`# cat /var/lib/rancher/k3s/server/node-token\n${token}\n`).some((h) => h.includes('server: ale34cdf'))).toBe(true);
    expect(hidden('use std::collections::HashMap;')).toEqual([]);
  });

  it('a grid of hex over several lines, not a checksum list', () => {
    const grid = ['67c5e0d9d756ef27ae6d9168b6elc749', 'd090d6043dbf26d3996fell29c24cfac', '08fdb7d34b584baef25e297ed6b33e8e', '3ea63ac73b91b06e9fbd1£f6519aacc9b'].join('\n');
    expect(hexGridRows(`-----BEGIN OpenVPN Static key V1-----\n${grid}\n-----END`)).toHaveLength(4);
    const licence = '4DD9E089 A15865D7 80D968AF 6FEE1F35\nBB216D70 1E02A11D 1CDBD5FB 0FBB1E68\nReceipts\n4A43E0F1 0720622B DBD49438 09D1B144';
    expect(hexGridRows(licence)).toEqual([]);
    expect(hexGridRows(`${licence}\nC508820F 9BDBD2AA 945D7CA0 7E4E355C`)).toHaveLength(4);
    // (Three rows are a machine's id and a boot's, cat /etc/machine-id and hostnamectl's values read apart.)
    expect(hidden(`paste it into ta.key\n${grid}`)).toContain('d090d6043dbf26d3996fell29c24cfac');
    // A checksum list has its files beside its hashes, and a heading that names them.
    expect(hexGridRows('e3b0c44298fc1c149afbf4c8996fb924  a.txt\n27ae41e4649b934ca495991b7852b855  b.txt\n9f86d081884c7d659a2feaa0c55ad015  c.txt')).toEqual([]);
    expect(hexGridRows(`SHA256 checksums:\n${grid}`)).toEqual([]);
    expect(hexGridRows('    _BOOT_ID=781bed5c4d1ed154ae6419106ad2e2b6\n    _MACHINE_ID=d94ceb87c2952cef3f335b546d246c72\n    _STREAM_ID=72c1d8c65be01aa8a1e688a6dc357240')).toEqual([]);
    expect(hexGridRows('$ git rev-list HEAD\n1f0c2a9d8e7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d\n2a1b0c9d8e7f6a5b4c3d1f0c2a9d8e7b6c5d4e3f\n3c3d1f0c2a9d8e7b6c5d4e3f2a1b0c9d8e7f6a5b')).toEqual([]);
    expect(hexGridRows('67c5e0d9d756ef27ae6d9168b6e1c749\n\nsome words here\nd090d6043dbf26d3996fe1129c24cfac')).toEqual([]);
  });
});

// A hex grid's rows are hashes word by word (identifier), and the door drops a key-like run where the
// first read saw an identifier; a run whose shape says key stays hidden there.
describe('a key shape through the door', () => {
  it('hides a static key’s hex rows though each reads as a hash', async () => {
    const sharp = (await import('sharp')).default;
    const { redactImage } = await import('./redactImage.ts');
    const rows = ['67c5e0d9d756ef27ae6d9168b6e1c749', 'd090d6043dbf26d3996fe1129c24cfac', '08fdb7d34b584baef25e297ed6b33e8e', '3ea63ac73b91b06e9fbd1ff6519aacc9'];
    const words = [{ text: 'here', line: 0, x: 20, y: 20, width: 40, height: 14 }, { text: 'it', line: 0, x: 66, y: 20, width: 14, height: 14 }, { text: 'is', line: 0, x: 86, y: 20, width: 14, height: 14 }, ...rows.map((text, i) => ({ text, line: i + 1, x: 20, y: 50 + i * 24, width: 300, height: 14 }))];
    const out = await redactImage({ data: new Uint8Array([1]), mime: 'image/png' }, { readWords: async () => ({ ok: true, words, size: { width: 800, height: 300 } }), pixels: () => sharp({ create: { width: 800, height: 300, channels: 3, background: '#fff' } }) });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    for (const [i] of rows.entries()) expect(out.regions.some((r) => r.y <= 50 + i * 24 + 7 && r.y + r.height >= 50 + i * 24 + 7 && r.x <= 30 && r.x + r.width >= 310), `row ${i}`).toBe(true);
  });
});
