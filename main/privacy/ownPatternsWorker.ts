// Worker thread for ownPatterns.ts: a person's patterns over an image's texts, one after another,
// each pattern's matches posted as soon as it is done. A pattern that backtracks without end holds
// this thread, never the app's: the caller ends the worker when the image's budget is spent.
import { parentPort } from 'node:worker_threads';

type Job = { id: number; texts: string[]; patterns: string[] };

parentPort?.on('message', (job: Job) => {
  job.patterns.forEach((source, index) => {
    const perText: Array<Array<[number, number]>> = [];
    try {
      const re = new RegExp(source, 'gu');
      for (const text of job.texts) {
        const out: Array<[number, number]> = [];
        for (const m of text.matchAll(re)) {
          if (m[0].length) out.push([m.index, m.index + m[0].length]);
          if (out.length > 10_000) break;
        }
        perText.push(out);
      }
    } catch {
      // compiled before it was kept; an engine that refuses it finds nothing
    }
    parentPort?.postMessage({ id: job.id, index, perText });
  });
  parentPort?.postMessage({ id: job.id, done: true });
});
parentPort?.postMessage({ ready: true });
