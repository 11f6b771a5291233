/* wasm-run.js — node web/test/wasm-run.js MODULE.wasm ARGS...: runs a WASI
 * program through the page's own system interface (web/samplab.js) and
 * prints its stdout (stderr to stderr), exiting with its status. */
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');
vm.runInThisContext(fs.readFileSync(path.join(__dirname, '..', 'samplab.js'), 'utf8'));
const S = globalThis.samplab;
S.load(fs.readFileSync(process.argv[2])).then(() => {
    const r = S.run(process.argv.slice(3));
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    process.exitCode = r.status;
}, e => {
    console.error(e);
    process.exitCode = 2;
});
