// Loaded with --require for electronegativity only. Its i18n module fetches translations
// with `got` (and retries), and under Node 24 got 11's retry timer crashes the process
// (p-cancelable: "onCancel handler was attached after the promise settled"). The build
// machines have no internet anyway: answer every `got` call with an immediate failure, which
// electronegativity already handles ("Could not retrieve updated translations").
const Module = require('node:module');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'got') {
    const offline = () => Promise.reject(new Error('offline: electronegativity runs without network here'));
    offline.head = offline;
    offline.get = offline;
    return Object.assign(offline, { default: offline });
  }
  return load.call(this, request, parent, isMain);
};
