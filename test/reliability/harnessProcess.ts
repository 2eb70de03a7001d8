// A real harness process (startHarness, as `npm run harness` runs it) for attacks that could
// kill it: prints `{ port, token, origin }` on its first line and serves until SIGTERM. The page
// it serves is a stub the test writes, so no renderer build is needed.
//   node test/reliability/harnessProcess.ts DATA_DIR RENDERER_DIR
import { startHarness } from '../../main/harness/startHarness.ts';

const [dataDir, rendererDir] = process.argv.slice(2);
const harness = await startHarness({ dataDir: dataDir!, rendererDir: rendererDir!, log: (line) => console.error(`[harness] ${line}`) });
// The handler before the first line: a test signals as soon as it reads that line, and a loaded
// machine can run the test before this process reaches its next statement (then SIGTERM killed it).
process.once('SIGTERM', () => void harness.close().then(() => process.exit(0)));
console.log(JSON.stringify({ port: harness.port, token: harness.token, origin: harness.pageOrigin }));
