// npm run bench:search — the conversation list's search over many stored conversations: the
// first search (every file read into the index), each later one (the folder unchanged: no file
// touched), one right after a conversation was saved (a stat per file, that one read again), and
// the heap the index holds; with ConversationStore.list(), which the list itself costs, beside it.
//   node bench/conversationSearch.bench.ts [--conversations N] [--messages M] [--no-write]
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConversationStore } from '../main/chat/conversationStore.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { conversations: { type: 'string', default: '1000' }, messages: { type: 'string', default: '40' }, 'no-write': { type: 'boolean', default: false } } });
const N = Math.max(10, Number(args.conversations) || 1000);
const M = Math.max(2, Number(args.messages) || 40);
const WORDS = 'screen window chart invoice total revenue region beach cliff code loop counter model image token answer question error button settings folder'.split(' ');
const sentence = (seed: number, words: number) => Array.from({ length: words }, (_, i) => WORDS[(seed * 7 + i * 13) % WORDS.length]).join(' ');

const dataDir = await mkdtemp(join(tmpdir(), 'glance-bench-search-'));
try {
  const writer = new ConversationStore(dataDir);
  let chars = 0;
  for (let n = 0; n < N; n++) {
    const c = writer.create(`Conversation ${n} about ${WORDS[n % WORDS.length]}`);
    for (let m = 0; m < M; m++) {
      const text = m % 2 ? `${sentence(n + m, 90)}.` : `${sentence(n * m, 20)}?`;
      chars += text.length;
      c.messages.push(m % 2 ? { role: 'assistant', id: `a${m}`, text, createdAt: c.createdAt } : { role: 'user', id: `u${m}`, text, attachmentIds: [], createdAt: c.createdAt });
    }
    // One word only one conversation has, so a search has one match to find.
    if (n === N - 1) c.messages.push({ role: 'assistant', id: 'needle', text: 'the word xylophone is here', createdAt: c.createdAt });
    await writer.save(c);
  }
  const store = new ConversationStore(dataDir);
  const timed = async (run: () => Promise<unknown>) => {
    const t0 = performance.now();
    await run();
    return performance.now() - t0;
  };
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const cold = await timed(() => store.search('xylophone'));
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed - heapBefore;
  const warm: number[] = [];
  for (let i = 0; i < 30; i++) warm.push(await timed(() => store.search(i % 2 ? 'xylophone' : `${WORDS[i % WORDS.length]} ${WORDS[(i + 3) % WORDS.length]}`)));
  const afterSave: number[] = [];
  const one = (await writer.get((await writer.list())[0]!.id))!;
  for (let i = 0; i < 10; i++) {
    one.messages.push({ role: 'user', id: `extra${i}`, text: `extra ${i}`, attachmentIds: [], createdAt: one.createdAt });
    await writer.save(one);
    afterSave.push(await timed(() => store.search(`extra ${i}`)));
  }
  const found = await store.search('xylophone');
  if (found.length !== 1) throw new Error(`expected one match, got ${found.length}`);
  const list: number[] = [];
  for (let i = 0; i < 5; i++) list.push(await timed(() => store.list()));

  const f = (ms: number) => `${ms.toFixed(1)} ms`;
  const load = loadavg().map((x) => x.toFixed(1)).join(', ');
  const section = `## Conversation search (\`npm run bench:search\`)

${N} conversations of ${M} messages (${(chars / 1e6).toFixed(1)} M characters of text), on ${cpus().length} cores, load average ${load} when it ran (${new Date().toISOString().slice(0, 16)}Z).
Search reads each file once into an index kept while its mtime and size stand still; while the folder's mtime stands
still (every save is an atomic rename into it) no file is even stat'ed.

${markdownTable(
    ['what', 'time'],
    [
      ['first search (reads every file)', f(cold)],
      ['a later search, folder unchanged (median of 30)', f(median(warm))],
      ['a search right after one conversation was saved (median of 10)', f(median(afterSave))],
      ['ConversationStore.list(), for comparison (median of 5)', f(median(list))],
      ['heap the index holds', `${(heap / 1e6).toFixed(1)} MB`],
    ],
  )}

`;
  process.stdout.write(section);
  if (!args['no-write']) await writeSection(new URL('../docs/benchmarks-perf.md', import.meta.url).pathname, 'bench-search', section);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
