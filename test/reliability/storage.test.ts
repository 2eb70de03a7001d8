// A stored conversation whose file is damaged: `glance ask --conversation ID` (a real process)
// says so in a line and exits 5, leaving the file as it was. A data folder on a read-only file
// system: the answer is printed in full first, then one line, exit 5. Root ignores chmod, so the
// folder is a tmpfs remounted read-only in a mount namespace of the child's own (`unshare -m`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { access, copyFile, mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConversationStore } from '../../main/chat/conversationStore.ts';
import NodeWebSocket from 'ws';
import { testServices } from '../support/testServices.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';

const REPO = resolve(import.meta.dirname, '../..');
let server: ModelServer;
let dir: string;

beforeAll(async () => {
  server = await createModelServer();
  dir = await mkdtemp(join(tmpdir(), 'glance-storage-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function ask(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(REPO, 'main/cli/main.ts'), 'ask', ...args, '--model', 'llava-seer', '--data-dir', join(dir, 'data')], { env: { ...process.env, OLLAMA_HOST: server.url }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => void (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => void (err += c.toString('utf8')));
    child.on('close', (code) => done({ code, out, err }));
  });
}

describe('crash paths print a line, not a stack (issue 30 item 9)', () => {
  it('continuing a conversation whose file is corrupt JSON: exit 5, a plain message, the file untouched', { timeout: 60_000 }, async () => {
    server.script({ text: 'first answer' });
    const first = await ask(['hello', '--json']);
    expect(first.code).toBe(0);
    const id = (JSON.parse(first.out.trim().split('\n').at(-1)!) as { conversationId: string }).conversationId;
    const file = new ConversationStore(join(dir, 'data')).fileOf(id);
    const damaged = (await readFile(file, 'utf8')).slice(0, 100);
    await writeFile(file, damaged);
    const { code, err } = await ask(['and now?', '--conversation', id]);
    expect(code).toBe(5);
    expect(err).toMatch(new RegExp(`Conversation ${id} cannot be read: its file is damaged`));
    expect(err).not.toMatch(/^\s+at /m);
    expect(await readFile(file, 'utf8')).toBe(damaged);
  });
});

/** Whether this machine lets the test make a read-only mount of its own (root, or user namespaces). */
function readOnlyMountWorks(): boolean {
  const probe = spawnSync('unshare', ['-m', 'sh', '-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs "$d" && mount -o remount,ro "$d" && ! touch "$d/x" 2>/dev/null'], { stdio: 'ignore' });
  return probe.status === 0;
}
const canMount = readOnlyMountWorks();
if (!canMount) console.log('[storage] skipped the read-only data folder test: `unshare -m` with a tmpfs mount is not allowed here');

describe('a new ask on a read-only data folder (issue 30 item 9)', () => {
  it.skipIf(!canMount)('the streamed answer reaches stdout in full, then one plain line on stderr, exit 5', { timeout: 60_000 }, async () => {
    const answer = 'Every word of this answer reaches the person, stored or not.';
    server.script({ text: answer });
    const ro = await mkdtemp(join(tmpdir(), 'glance-ro-'));
    const cli = [process.execPath, join(REPO, 'main/cli/main.ts'), 'ask', 'hello', '--model', 'llava-seer', '--data-dir', join(ro, 'data')].map((a) => `'${a}'`).join(' ');
    const child = spawn('unshare', ['-m', 'sh', '-c', `mount -t tmpfs -o size=4m tmpfs '${ro}' && mkdir '${ro}/data' && mount -o remount,ro '${ro}' && exec ${cli}`], {
      env: { ...process.env, OLLAMA_HOST: server.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const order: ['out' | 'err', string][] = [];
    child.stdout.on('data', (c: Buffer) => void order.push(['out', c.toString('utf8')]));
    child.stderr.on('data', (c: Buffer) => void order.push(['err', c.toString('utf8')]));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    await rm(ro, { recursive: true, force: true });
    const out = order.filter(([k]) => k === 'out').map(([, t]) => t).join('');
    const err = order.filter(([k]) => k === 'err').map(([, t]) => t).join('');
    expect(code).toBe(5);
    expect(out).toBe(`${answer}\n`);
    expect(err).toMatch(/^\nglance: Conversation [\w-]+ could not be stored: cannot write .*glance-ro-\w+\/data \(a read-only file system\)\. Glance needs a data folder it may write\.\n$/);
    expect(err).not.toMatch(/^\s+at /m);
    // The answer was on stdout before the error was written.
    const firstErr = order.findIndex(([k, t]) => k === 'err' && t.includes('could not be stored'));
    expect(order.slice(0, firstErr).filter(([k]) => k === 'out').map(([, t]) => t).join('')).toContain(answer);
  });
});

describe('bytes a killed put left without a record (issue 30 item 9)', () => {
  it('are swept when the store starts, after a grace period; recorded attachments and fresh files stay', { timeout: 60_000 }, async () => {
    const dataDir = join(dir, 'orphans');
    const chart = join(dir, 'chart.png');
    await writeFile(chart, await makeBarChart());
    server.script({ text: 'a chart' });
    // Not spawnSync: the fixture model server answers from this process.
    const first = spawn(process.execPath, [join(REPO, 'main/cli/main.ts'), 'ask', 'look', '--attach', chart, '--model', 'llava-seer', '--vision', 'yes', '--data-dir', dataDir], { env: { ...process.env, OLLAMA_HOST: server.url }, stdio: 'ignore' });
    expect(await new Promise((done) => first.on('close', done))).toBe(0);
    const store = join(dataDir, 'attachments');
    const kept = (await readdir(store)).filter((n) => n !== 'originals').sort();
    const keptOriginals = (await readdir(join(store, 'originals'))).sort();
    expect(kept.some((n) => n.endsWith('.json'))).toBe(true);
    // What a kill between the payload's and the record's writes leaves, and a killed writer's temp files.
    const payload = kept.find((n) => !n.endsWith('.json'))!;
    const hour = new Date(Date.now() - 3_600_000);
    const orphans = [join(store, 'ab'.repeat(8) + '.png'), join(store, `.${'cd'.repeat(8)}.json.4242.0badf00d.tmp`), join(store, 'originals', 'ef'.repeat(32) + '.png')];
    for (const path of orphans) {
      await copyFile(join(store, payload), path);
      await utimes(path, hour, hour);
    }
    const fresh = join(store, '12'.repeat(8) + '.png');
    await copyFile(join(store, payload), fresh);

    await testServices({ dataDir }).close();
    for (const path of orphans) await expect(access(path)).rejects.toThrow();
    await access(fresh);
    await rm(fresh);
    expect((await readdir(store)).filter((n) => n !== 'originals').sort()).toEqual(kept);
    expect((await readdir(join(store, 'originals'))).sort()).toEqual(keptOriginals);
  });
});

/** Temp files as writeFileAtomic names them, as a kill between its write and its rename leaves them. */
async function leaveTemps(dataDir: string, age: 'old' | 'fresh'): Promise<string[]> {
  const tag = age === 'old' ? '0badf00d' : '0000beef';
  const conversations = join(dataDir, 'conversations');
  await mkdir(conversations, { recursive: true });
  const paths = [
    ...Array.from({ length: 3 }, (_, i) => join(dataDir, `.drafts.json.${4242 + i}.${tag}.tmp`)),
    join(conversations, `.20260101-abcdefabcdef.json.4242.${tag}.tmp`),
  ];
  const hour = new Date(Date.now() - 3_600_000);
  for (const path of paths) {
    await writeFile(path, JSON.stringify({ version: 1, drafts: { new: { text: 'x'.repeat(50_000), images: [] } } }));
    if (age === 'old') await utimes(path, hour, hour);
  }
  return paths;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}

describe('temp files killed saves left (issue 45 item 3)', () => {
  it('a glance ask run sweeps the old ones (drafts, a conversation) and leaves a save in flight alone', { timeout: 60_000 }, async () => {
    const dataDir = join(dir, 'data');
    const old = await leaveTemps(dataDir, 'old');
    const fresh = await leaveTemps(dataDir, 'fresh');
    server.script({ text: 'swept' });
    expect((await ask(['hello'])).code).toBe(0);
    for (const path of old) expect(await exists(path), path).toBe(false);
    for (const path of fresh) expect(await exists(path), path).toBe(true);
    for (const path of fresh) await rm(path);
  });

  it('a harness start sweeps them too', { timeout: 60_000 }, async () => {
    const dataDir = join(dir, 'harness-data');
    const old = await leaveTemps(dataDir, 'old');
    const renderer = join(dir, 'renderer');
    await mkdir(renderer, { recursive: true });
    await writeFile(join(renderer, 'index.html'), '<!doctype html><title>stub</title>');
    const child = spawn(process.execPath, [join(REPO, 'test/reliability/harnessProcess.ts'), dataDir, renderer], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => void (stderr += c.toString('utf8')));
    await new Promise<void>((done) => child.stdout.once('data', () => done()));
    // Its close waits for the start's sweep.
    const code = await new Promise((done) => {
      child.on('close', done);
      child.kill('SIGTERM');
    });
    expect(code, stderr).toBe(0);
    for (const path of old) expect(await exists(path), path).toBe(false);
  });
});

/**
 * `glance ask` in a mount namespace of its own, its data folder `<mount>/data` on a small tmpfs:
 * `setup` runs (as sh) after the mount, then the CLI, then `after` (the tmpfs goes with the namespace).
 */
function askOnTmpfs(mount: string, setup: string, args: string[], after = 'true'): Promise<{ code: number | null; out: string; err: string; order: ['out' | 'err', string][] }> {
  const cli = [process.execPath, join(REPO, 'main/cli/main.ts'), 'ask', ...args, '--model', 'llava-seer', '--data-dir', join(mount, 'data')].map((a) => `'${a}'`).join(' ');
  const child = spawn('unshare', ['-m', 'sh', '-c', `mount -t tmpfs -o size=256k tmpfs '${mount}' && ${setup} && { ${cli}; code=$?; ${after}; exit $code; }`], { env: { ...process.env, OLLAMA_HOST: server.url }, stdio: ['ignore', 'pipe', 'pipe'] });
  const order: ['out' | 'err', string][] = [];
  child.stdout.on('data', (c: Buffer) => void order.push(['out', c.toString('utf8')]));
  child.stderr.on('data', (c: Buffer) => void order.push(['err', c.toString('utf8')]));
  return new Promise((done) =>
    child.on('close', (code) => {
      const text = (k: 'out' | 'err') => order.filter(([w]) => w === k).map(([, t]) => t).join('');
      done({ code, out: text('out'), err: text('err'), order });
    }),
  );
}

/** The answer reached stdout in full before the line on stderr that says it was not stored. */
function answerFirst(order: ['out' | 'err', string][], answer: string): boolean {
  const firstErr = order.findIndex(([k, t]) => k === 'err' && t.includes('could not be stored'));
  return firstErr > 0 && order.slice(0, firstErr).filter(([k]) => k === 'out').map(([, t]) => t).join('').includes(answer);
}

describe('storage faults in words, exit 5 (issue 45 item 2)', () => {
  it('`conversations` is a file, or the data folder is: the answer is printed, then one line naming the file, exit 5', { timeout: 60_000 }, async () => {
    const answer = 'This answer is printed though it cannot be kept.';
    for (const [name, dataDir, file] of [
      ['conversations', join(dir, 'file-in-the-way'), join(dir, 'file-in-the-way', 'conversations')],
      ['the data folder', join(dir, 'data-is-a-file'), join(dir, 'data-is-a-file')],
    ] as const) {
      await mkdir(join(dataDir, '..'), { recursive: true });
      if (file !== dataDir) await mkdir(dataDir, { recursive: true });
      await writeFile(file, 'a file where a folder should be');
      server.script({ text: answer });
      const child = spawn(process.execPath, [join(REPO, 'main/cli/main.ts'), 'ask', 'hello', '--model', 'llava-seer', '--data-dir', dataDir], { env: { ...process.env, OLLAMA_HOST: server.url }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => void (out += c.toString('utf8')));
      child.stderr.on('data', (c: Buffer) => void (err += c.toString('utf8')));
      const code = await new Promise((done) => child.on('close', done));
      expect(code, name).toBe(5);
      expect(out, name).toBe(`${answer}\n`);
      const it = file === join(dataDir, 'conversations') ? 'it' : file;
      expect(err, name).toMatch(new RegExp(`could not be stored: cannot write ${join(dataDir, 'conversations')} \\(${it.replaceAll('/', '\\/')} is a file, not a folder\\)\\.`));
      expect(err, name).not.toMatch(/^\s+at |EEXIST|ENOTDIR/m);
      expect(await readFile(file, 'utf8')).toBe('a file where a folder should be');
    }
  });

  it.skipIf(!canMount)('continuing a conversation on a read-only or a full disk: the answer first, then "read-only" / "full" in words, exit 5, the file as it was', { timeout: 90_000 }, async () => {
    server.script({ text: 'the first answer' });
    const first = await ask(['hello', '--json']);
    expect(first.code).toBe(0);
    const id = (JSON.parse(first.out.trim().split('\n').at(-1)!) as { conversationId: string }).conversationId;
    const stored = await readFile(new ConversationStore(join(dir, 'data')).fileOf(id), 'utf8');
    const answer = 'The second answer is read in full, kept or not.';
    for (const [fault, words, setup] of [
      ['read-only', 'a read-only file system', 'mount -o remount,ro "$M"'],
      // A file that takes every block left: the lock file can be made but not written, and so can a save's temp file.
      ['full', 'the disk is full', '(dd if=/dev/zero of="$M/fill" bs=1k 2>/dev/null || true)'],
    ] as const) {
      server.script({ text: answer });
      const mount = await mkdtemp(join(tmpdir(), `glance-${fault}-`));
      const left = join(dir, `left-${fault}.txt`);
      const result = await askOnTmpfs(mount, `M='${mount}' && cp -a '${join(dir, 'data')}' "$M/data" && ${setup}`, ['and now?', '--conversation', id], `ls -A "$M/data/conversations" > '${left}'; cmp -s "$M/data/conversations/${id}.json" '${join(dir, 'data', 'conversations', `${id}.json`)}' && echo same >> '${left}'`);
      await rm(mount, { recursive: true, force: true });
      expect(result.code, fault).toBe(5);
      expect(result.out, fault).toBe(`${answer}\n`);
      expect(result.err, fault).toMatch(new RegExp(`^\\nglance: Conversation ${id} could not be stored: cannot write .*glance-${fault}-\\w+/data/conversations \\(${words}\\)\\. Glance needs a data folder it may write\\.\\n$`));
      expect(answerFirst(result.order, answer), fault).toBe(true);
      // Nothing left on the faulty disk: the conversation as it was, no lock (a full disk made an empty one), no temp file.
      const listed = (await readFile(left, 'utf8')).split('\n');
      expect(listed, fault).toContain('same');
      expect(listed.filter((name) => name.includes(id) || name.endsWith('.tmp')), fault).toEqual([`${id}.json`]);
    }
    // The copy the tmpfs held is gone with it; the original folder was only read.
    expect(await readFile(new ConversationStore(join(dir, 'data')).fileOf(id), 'utf8')).toBe(stored);
  });

  it.skipIf(!canMount)('attaching when the attachment store cannot be written: the image is "not stored" in words (not "Stopped before the image was read"), exit 5', { timeout: 60_000 }, async () => {
    const chart = join(dir, 'chart-ro.png');
    await writeFile(chart, await makeBarChart());
    const mount = await mkdtemp(join(tmpdir(), 'glance-attach-ro-'));
    const result = await askOnTmpfs(mount, `mkdir '${mount}/data' && mount -o remount,ro '${mount}'`, ['look', '--attach', chart, '--vision', 'yes']);
    await rm(mount, { recursive: true, force: true });
    expect(result.code).toBe(5);
    expect(result.err).toMatch(/image refused \(not-stored\): The image could not be stored: cannot write .*glance-attach-ro-\w+\/data\S* \(a read-only file system\)\. Glance needs a data folder it may write\./);
    expect(result.err).toContain('Nothing was sent: an attached image was not stored.');
    expect(result.err).not.toContain('Stopped before the image was read');
    expect(result.out).toBe('');
  });
});

describe('damage said in words (issue 45 item 4)', () => {
  it('glance ask on a conversation whose image is damaged: bytes with the original intact are made again; bytes and original, or the record: a line naming the file, the answer, exit 5', { timeout: 120_000 }, async () => {
    const dataDir = join(dir, 'damaged-image');
    const chart = join(dir, 'chart-damage.png');
    await writeFile(chart, await makeBarChart());
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((done) => {
        const child = spawn(process.execPath, [join(REPO, 'main/cli/main.ts'), 'ask', ...args, '--model', 'llava-seer', '--vision', 'yes', '--data-dir', dataDir], { env: { ...process.env, OLLAMA_HOST: server.url }, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (c: Buffer) => void (out += c.toString('utf8')));
        child.stderr.on('data', (c: Buffer) => void (err += c.toString('utf8')));
        child.on('close', (code) => done({ code, out, err }));
      });
    server.script({ text: 'a chart' });
    const first = await run(['look', '--attach', chart, '--json']);
    expect(first.code).toBe(0);
    const id = (JSON.parse(first.out.trim().split('\n').at(-1)!) as { conversationId: string }).conversationId;
    const store = join(dataDir, 'attachments');
    const record = (await readdir(store)).find((n) => n.endsWith('.json'))!;
    const image = record.slice(0, -5);
    const payload = join(store, (await readdir(store)).find((n) => n.startsWith(image) && !n.endsWith('.json'))!);
    const original = join(store, 'originals', (await readdir(join(store, 'originals'))).find((n) => !n.endsWith('.json'))!);

    // The payload alone: the copy is made again from the original, and the model sees the chart.
    await writeFile(payload, 'not the image any more');
    server.reset();
    server.script({ text: 'seen again' });
    const healed = await run(['again', '--conversation', id]);
    expect(healed).toMatchObject({ code: 0, out: 'seen again\n' });
    expect(healed.err).not.toContain('damaged');
    expect(server.requests.at(-1)!.images).toHaveLength(1);

    // The payload and the original: left out, and said.
    await writeFile(payload, 'not the image any more');
    await writeFile(original, 'nor this');
    server.script({ text: 'still here' });
    const bytes = await run(['and now?', '--conversation', id]);
    expect(bytes.code).toBe(5);
    expect(bytes.out).toBe('still here\n');
    expect(bytes.err).toContain(`glance: Image ${image}: its stored bytes are damaged (${payload} no longer matches its record), and its original (${original}) is missing or damaged too. It was left out`);
    expect(await readFile(payload, 'utf8')).toBe('not the image any more');

    await writeFile(join(store, record), '{"id": "cut sh');
    server.script({ text: 'and here' });
    const meta = await run(['and again', '--conversation', id]);
    expect(meta.code).toBe(5);
    expect(meta.out).toBe('and here\n');
    expect(meta.err).toContain(`glance: Image ${image}: its record is damaged (${join(store, record)} cannot be read). It was left out`);
    expect(meta.err).not.toMatch(/^\s+at /m);
  });

  it('the harness says which conversation it does not list and where it set drafts.json aside, as notices', { timeout: 60_000 }, async () => {
    const dataDir = join(dir, 'damaged-harness');
    const conversations = join(dataDir, 'conversations');
    await mkdir(conversations, { recursive: true });
    const broken = join(conversations, '20260101-aaaaaaaaaaaa.json');
    await writeFile(broken, '{"version": 1, "id": "20260101-aaaa');
    await writeFile(join(dataDir, 'drafts.json'), '{"version": 1, "drafts": {"new": {"te');
    const renderer = join(dir, 'renderer');
    await mkdir(renderer, { recursive: true });
    await writeFile(join(renderer, 'index.html'), '<!doctype html><title>stub</title>');
    const child = spawn(process.execPath, [join(REPO, 'test/reliability/harnessProcess.ts'), dataDir, renderer], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const h = await new Promise<{ port: number; token: string; origin: string }>((done) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString('utf8');
          if (out.includes('\n')) done(JSON.parse(out.slice(0, out.indexOf('\n'))) as { port: number; token: string; origin: string });
        });
      });
      const ws = new NodeWebSocket(`ws://127.0.0.1:${h.port}/api?token=${h.token}`, { headers: { Origin: h.origin } });
      const notices: { code: string; message: string }[] = [];
      const answers = new Map<number, (result: unknown) => void>();
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as { id?: number; result?: unknown; event?: string; payload?: { code: string; message: string } };
        if (m.event === 'app:notice' && m.payload) notices.push({ code: m.payload.code, message: m.payload.message });
        if (typeof m.id === 'number') answers.get(m.id)?.(m.result);
      });
      await new Promise((done, fail) => ws.once('open', done).once('error', fail));
      const call = (id: number, channel: string) => new Promise<unknown>((done) => (answers.set(id, done), ws.send(JSON.stringify({ id, channel, payload: {} }))));
      expect(await call(1, 'conversations:list')).toEqual({ ok: true, value: [] });
      expect(await call(2, 'drafts:list')).toEqual({ ok: true, value: {} });
      // Said once: listing again is quiet.
      expect(await call(3, 'conversations:list')).toEqual({ ok: true, value: [] });
      ws.close();
      const aside = (await readdir(dataDir)).find((n) => n.startsWith('drafts.json.bad-'));
      expect(aside).toBeDefined();
      expect(notices).toEqual([
        { code: 'damaged-conversation-20260101-aaaaaaaaaaaa', message: `Conversation 20260101-aaaaaaaaaaaa cannot be read: its file is damaged (${broken}). It is not listed; the file was left untouched, so it can be repaired by hand or removed.` },
        { code: 'damaged-drafts', message: `The unsent messages could not be read: ${join(dataDir, 'drafts.json')} is damaged. It was set aside as ${join(dataDir, aside!)}, and the message boxes start empty.` },
      ]);
      expect(await readFile(broken, 'utf8')).toBe('{"version": 1, "id": "20260101-aaaa');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
