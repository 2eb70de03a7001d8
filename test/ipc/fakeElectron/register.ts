// `node --import ./test/ipc/fakeElectron/register.ts main/app/main.ts`: every
// `import … from 'electron'` gets electron.ts from this folder (Electron's binary cannot run here).
import { register } from 'node:module';

register('./hooks.ts', import.meta.url);
