/* browser.js — make test-browser: the explorer page in Debian's chromium
 * (headless, through puppeteer-core), loaded from file://, against bin/samplab.
 *  1. start-up: the page becomes ready (module compiled, first screen drawn); the time is printed
 *  2. the scriptable surface: samplab.pipeline / draw / compare and the raw
 *     output of the same argument lists, over every framework and 60 settings,
 *     against the CLI: the same exit status, stdout and stderr byte for byte,
 *     and the same parsed objects;
 *  3. the DOM: moving the temperature slider changes the bars, the command line
 *     and the URL, and the bars are what samplab.pipeline returns; a .npy chosen
 *     through the file input is read by the page;
 *  4. the layout at 400 px and 1,400 px: nothing scrolls sideways, on a phone the
 *     results come before the controls, the first view shows frameworks that differ;
 *  5. the real transformers.js and TensorFlow.js (site/real.js) draw what samplab's
 *     emulations of them draw, over several seeds, settings and vectors, and the page
 *     says so; nothing is fetched from the network;
 *  6. screenshots under build/explorer/.
 * Usage: node web/test/browser.js (from the top of the tree; puppeteer-core in build/browser). */
'use strict';
const path = require('path');
const fs = require('fs');
const os = require('os');
const {execFileSync, spawnSync} = require('child_process');

const top = process.cwd();
const puppeteer = require(path.join(top, 'build/browser/node_modules/puppeteer-core'));
const OUT = path.join(top, 'build/explorer');
const SITE = 'file://' + path.join(top, 'site/index.html');
const BIN = path.join(top, 'bin/samplab');
fs.mkdirSync(OUT, {recursive: true});

let passed = 0, failed = 0;
function check(ok, what, detail) {
    if (ok) {
        passed++;
    } else {
        failed++;
        console.log('FAIL ' + what + (detail ? '\n     ' + detail : ''));
    }
}

/* --- inputs: the page's own files, a file it is handed, inline lists, .npy */
function npy(values, dtype) {
    const header0 = "{'descr': '" + (dtype === 'f4' ? '<f4' : '<f8') + "', 'fortran_order': False, 'shape': (" + values.length + ",), }";
    let h = header0;
    while ((10 + h.length + 1) % 64)
        h += ' ';
    h += '\n';
    const head = Buffer.alloc(10);
    Buffer.from('\x93NUMPY', 'latin1').copy(head);
    head[6] = 1;
    head[7] = 0;
    head.writeUInt16LE(h.length, 8);
    const body = Buffer.alloc(values.length * (dtype === 'f4' ? 4 : 8));
    values.forEach((v, i) => dtype === 'f4' ? body.writeFloatLE(v, 4 * i) : body.writeDoubleLE(v, 8 * i));
    return Buffer.concat([head, Buffer.from(h, 'latin1'), body]);
}
/* a small deterministic generator for the test's own choices (xorshift32) */
let rs = 0x12345678;
function rnd() {
    rs ^= rs << 13; rs >>>= 0;
    rs ^= rs >>> 17;
    rs ^= rs << 5; rs >>>= 0;
    return rs / 4294967296;
}
function pick(a) { return a[Math.floor(rnd() * a.length)]; }

const npyF4 = path.join(OUT, 'logits_f4.npy'), npyF8 = path.join(OUT, 'logits_f8.npy');
fs.writeFileSync(npyF4, npy([2.5, 1.25, 1.25, 0.1, -3, 0.7, 0.7000001, -1e-3, 4, 3.999], 'f4'));
fs.writeFileSync(npyF8, npy(Array.from({length: 24}, (_, i) => Math.sin(i * 1.7) * 3 + (i % 5 === 0 ? 1 : 0)), 'f8'));
const rel = p => path.relative(top, p);
const INPUTS = [
    {src: 'data/weather.txt'},
    {src: 'data/ties.txt'},
    {src: 'data/k40p09.txt', file: 'data/k40p09.txt'},
    {src: rel(npyF4), file: npyF4},
    {src: rel(npyF8), file: npyF8},
    {src: '3,2,2,1'},
    {src: '0.5,0.5,0.5,0.5,0.1,-2'},
    {src: '1e-3,2.25,-7,2.25,0.333,5,-0,1.5'},
];

function settingsCase(i) {
    const s = {};
    if (rnd() < 0.8)
        s.temperature = pick(['0.05', '0.3', '0.7', '1', '1.5', '2', '0.95']);
    if (rnd() < 0.45)
        s.top_k = pick(['0', '1', '2', '3', '5', '40']);
    if (rnd() < 0.45)
        s.top_p = pick(['0.1', '0.5', '0.9', '0.95', '1']);
    if (rnd() < 0.3)
        s.min_p = pick(['0.01', '0.05', '0.1', '0.3']);
    if (rnd() < 0.25)
        s.typical = pick(['0.2', '0.5', '0.9']);
    if (rnd() < 0.3) {
        s.repetition_penalty = pick(['1.1', '1.3', '2']);
        s.context = pick(['0', '0,1,1', '2', '1,0']);
    }
    if (rnd() < 0.1)
        s.min_keep = pick(['1', '2', '3']);
    if (i % 17 === 5)
        s.temperature = pick(['0', '-1']); /* refused by some, greedy for others */
    if (i % 13 === 7)
        s.defaults = true;
    return s;
}

const PIPES = ['hf', 'candle', 'llamacpp', 'vllm', 'tutorial'];
const DRAW_LOGITS = ['llamacpp', 'hf', 'vllm', 'candle'];
const DRAW_PROBS = ['torch', 'numpy', 'numpy-legacy', 'candle'];
const CPU = {hf: 1, vllm: 1};
const NCASES = 60;

function argvOf(cmd, fw, src, s, asProbs) {
    const a = [cmd];
    if (fw)
        a.push('--framework', fw);
    a.push(asProbs ? '--probs' : '--logits', src);
    for (const k of Object.keys(s)) {
        if (s[k] === false)
            continue;
        a.push('--' + k.replace(/_/g, '-'));
        if (s[k] !== true)
            a.push(String(s[k]));
    }
    return a;
}

function buildCases() {
    const cases = [];
    for (let i = 0; i < NCASES; i++) {
        const inp = INPUTS[i % INPUTS.length];
        const s = settingsCase(i);
        const cpu = pick(['avx2', 'avx512']);
        const seed = pick([null, '0', '42', '7', '18446744073709551615', '12345678901234567890']);
        const n = pick(['1', '3', '10', '25']);
        const withCpu = (fw, o) => CPU[fw] ? Object.assign({}, o, {cpu}) : o;
        for (const fw of PIPES)
            cases.push({kind: 'pipeline', fw, inp, argv: argvOf('pipeline', fw, inp.src, Object.assign(withCpu(fw, s), {json: true}))});
        const ds = Object.assign({}, s, seed ? {seed} : {}, {n});
        for (const fw of DRAW_LOGITS) {
            const o = withCpu(fw, ds);
            if (fw === 'llamacpp' && i % 3 === 0)
                Object.assign(o, {penalty_last_n: '4', frequency_penalty: '0.5', presence_penalty: '0.25'});
            if (fw === 'llamacpp' && i % 5 === 1)
                o.llamacpp = 'pr15704';
            if (fw === 'candle' && i % 4 === 2)
                o.rand = pick(['0.8', '0.10', '0.9']);
            cases.push({kind: 'draw', fw, inp, argv: argvOf('draw', fw, inp.src, Object.assign(o, {json: true}))});
        }
        /* the probability frameworks on the same vector as weights (a weight file or list) */
        const ws = {n};
        if (seed)
            ws.seed = pick([seed, '340282366920938463463374607431768211455', '4294967295']);
        for (const fw of DRAW_PROBS) {
            const o = Object.assign({}, ws);
            if (fw === 'torch' && i % 2)
                Object.assign(o, pick([{torch: '1.13'}, {num_samples: '2'}, {num_samples: '2', replacement: true}, {dtype: 'float64'}]));
            if (fw === 'numpy' && i % 3 === 1)
                o.num_samples = '3';
            const w = pick(['3,2,2,1', '0.2,0.3,0.5', '1,0,0,1e-9,5', 'data/ties.txt']);
            cases.push({kind: 'draw', fw, inp: {src: w}, argv: argvOf('draw', fw, w, Object.assign(o, {json: true}), true)});
        }
        const cs = Object.assign({}, s, {cpu});
        cases.push({kind: 'compare', fw: null, inp, argv: argvOf('compare', null, inp.src, Object.assign({}, cs, {json: true}))});
        cases.push({kind: 'compare-text', fw: null, inp, argv: argvOf('compare', null, inp.src, cs)});
        cases.push({kind: 'method', fw: null, inp, argv: argvOf('draw', null, inp.src,
            Object.assign({method: pick(['exprace', 'cdf', 'linear', 'alias', 'greedy']),
                           rng: pick(['pcg32', 'mt19937', 'torch-mt19937', 'chacha12', 'rand-stdrng', 'pcg64', 'numpy-mt19937'])},
                          s.temperature && Number(s.temperature) > 0 ? {temperature: s.temperature} : {}, {n, json: true}))});
    }
    return cases;
}

function cli(argv) {
    const r = spawnSync(BIN, argv, {cwd: top, encoding: 'utf8'});
    return {status: r.status, stdout: r.stdout, stderr: r.stderr};
}

(async () => {
    const exe = process.env.CHROMIUM || execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], {encoding: 'utf8'}).trim();
    /* a fresh profile, and nothing of Chromium's own that reaches the network */
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'samplab-chromium-'));
    const browser = await puppeteer.launch({
        executablePath: exe,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
               '--disable-component-update', '--disable-sync', '--user-data-dir=' + profile,
               '--disable-dev-shm-usage', '--hide-scrollbars'],
    });
    const version = await browser.version();
    const logs = [], fetched = [];
    const watch = pg => {
        pg.on('console', m => logs.push(m.type() + ': ' + m.text()));
        pg.on('pageerror', e => logs.push('pageerror: ' + e.message));
        /* the page loads its own files only: file: and the blob:/data: URLs it makes */
        pg.on('request', r => { if (!/^(file|data|blob):/.test(r.url())) fetched.push(r.url()); });
        return pg;
    };
    const page = watch(await browser.newPage());
    await page.setViewport({width: 1400, height: 1000});

    /* 1. start-up */
    const hash = '#logits=weather&temperature=0.7&top_k=3&seed=42&n=10';
    await page.goto(SITE + hash, {waitUntil: 'load'});
    await page.waitForFunction(() => document.body.dataset.ready === '1', {timeout: 10000});
    const startMs = await page.evaluate(() => performance.now());
    const nav = await page.evaluate(() => performance.getEntriesByType('navigation')[0].loadEventEnd);
    // the start-up time is reported, not asserted: a timed check fails on a busy machine, not a slow page
    console.log('browser: ' + version + '; page ready ' + startMs.toFixed(0) + ' ms after navigation (load event ' +
                nav.toFixed(0) + ' ms), first screen rendered in ' + (await page.evaluate(() => document.body.dataset.renderMs)) + ' ms');
    const siteBytes = fs.readdirSync(path.join(top, 'site')).reduce((n, f) => n + fs.statSync(path.join(top, 'site', f)).size, 0);
    check(siteBytes < 8 * 1024 * 1024, 'site/ under 8 MB', siteBytes + ' bytes');
    console.log('site/: ' + (siteBytes / 1024).toFixed(0) + ' KiB');

    /* 2. every framework, NCASES settings, against the CLI */
    const cases = buildCases();
    const files = {};
    for (const c of cases)
        if (c.inp.file)
            files[c.inp.src] = fs.readFileSync(c.inp.file).toString('base64');
    const t0 = Date.now();
    const results = await page.evaluate((cs, fb64) => {
        const files = {};
        for (const k of Object.keys(fb64))
            files[k] = Uint8Array.from(atob(fb64[k]), ch => ch.charCodeAt(0));
        return cs.map(c => {
            const r = samplab.run(c.argv, files);
            /* the object surface, where it applies */
            let obj = null, err = null;
            const s = {};
            const a = c.argv;
            if (c.kind === 'pipeline' || c.kind === 'draw' || c.kind === 'compare') {
                for (let i = a.indexOf('--logits') >= 0 ? a.indexOf('--logits') + 2 : a.indexOf('--probs') + 2; i < a.length; i++) {
                    const k = a[i].replace(/^--/, '').replace(/-/g, '_');
                    if (k === 'json')
                        continue;
                    if (i + 1 < a.length && !a[i + 1].startsWith('--')) {
                        s[k] = a[i + 1];
                        i++;
                    } else {
                        s[k] = true;
                    }
                }
                const srcIdx = a.indexOf('--logits') >= 0 ? a.indexOf('--logits') : a.indexOf('--probs');
                if (a[srcIdx] === '--probs')
                    s.probs = true;
                s.files = files;
                const src = a[srcIdx + 1];
                const fw = a[1] === '--framework' ? a[2] : null;
                try {
                    obj = c.kind === 'pipeline' ? samplab.pipeline(fw, src, s) : c.kind === 'draw' ? samplab.draw(fw, src, s)
                        : samplab.compare(src, s);
                } catch (e) {
                    err = {message: e.message, status: e.status};
                }
            }
            return {r, obj, err};
        });
    }, cases.map(c => ({kind: c.kind, argv: c.argv})), files);
    const tPage = Date.now() - t0;
    let same = 0, objSame = 0, errors = 0;
    const byKind = {};
    cases.forEach((c, i) => {
        const want = cli(c.argv), got = results[i];
        const key = c.kind + (c.fw ? ' ' + c.fw : '');
        byKind[key] = (byKind[key] || 0) + 1;
        const ok = want.status === got.r.status && want.stdout === got.r.stdout && want.stderr === got.r.stderr;
        check(ok, 'samplab ' + c.argv.join(' '),
              'CLI  status ' + want.status + ' stdout ' + JSON.stringify(want.stdout.slice(0, 300)) + ' stderr ' + JSON.stringify(want.stderr.slice(0, 200)) +
              '\n     page status ' + got.r.status + ' stdout ' + JSON.stringify(got.r.stdout.slice(0, 300)) + ' stderr ' + JSON.stringify(got.r.stderr.slice(0, 200)));
        if (ok)
            same++;
        if (want.status !== 0)
            errors++;
        if (c.kind === 'pipeline' || c.kind === 'draw' || c.kind === 'compare') {
            if (want.status === 0) {
                const o = JSON.stringify(JSON.parse(want.stdout));
                const good = got.obj !== null && JSON.stringify(got.obj) === o;
                check(good, 'object of samplab.' + c.kind + '(' + (c.fw || '') + ') for ' + c.argv.join(' '),
                      'CLI ' + o.slice(0, 200) + '\n     page ' + JSON.stringify(got.obj).slice(0, 200) + (got.err ? ' ' + got.err.message : ''));
                if (good)
                    objSame++;
            } else {
                const good = got.err !== null && got.err.message === want.stderr.trim() && got.err.status === want.status;
                check(good, 'error of samplab.' + c.kind + '(' + (c.fw || '') + ') for ' + c.argv.join(' '),
                      'CLI ' + want.stderr.trim() + '\n     page ' + JSON.stringify(got.err));
                if (good)
                    objSame++;
            }
        }
    });
    console.log('against bin/samplab: ' + same + ' of ' + cases.length + ' runs byte-identical (stdout, stderr, status; ' + errors +
                ' of them refusals), ' + objSame + ' objects identical; ' + NCASES + ' settings over ' + INPUTS.length +
                ' inputs; page time ' + tPage + ' ms');
    console.log('  runs per kind: ' + Object.keys(byKind).sort().map(k => k + ' ' + byKind[k]).join(', '));

    /* "auto" has no CPUID in a browser: hf and vllm model torch's AVX2 kernel there */
    const auto = await page.evaluate(() => samplab.pipeline('hf', 'data/weather.txt', {top_k: 3}).cpu);
    check(auto === 'avx2', 'hf without --cpu in the page models avx2', auto);
    const avx2 = cli(['pipeline', '--framework', 'hf', '--logits', 'data/weather.txt', '--top-k', '3', '--cpu', 'avx2', '--json']).stdout;
    const pageAuto = await page.evaluate(() => samplab.run(['pipeline', '--framework', 'hf', '--logits', 'data/weather.txt', '--top-k', '3', '--json']).stdout);
    check(pageAuto === avx2, 'page without --cpu prints the CLI\'s --cpu avx2 bytes');

    /* 3. the DOM: the temperature slider */
    await page.screenshot({path: path.join(OUT, 'explorer.png'), fullPage: true});
    const snap = () => page.evaluate(() => ({
        bars: Array.from(document.querySelectorAll('#keeps .cell')).map(c => c.dataset.p + ':' +
              (c.querySelector('.bar') ? c.querySelector('.bar').style.width : '-')).join(' '),
        cmd: document.getElementById('cmd').textContent,
        hash: location.hash,
        rendered: Number(document.body.dataset.rendered),
        draws: document.getElementById('draws').textContent,
    }));
    const before = await snap();
    await page.evaluate(() => {
        const r = document.getElementById('s-temperature-range');
        r.value = '0.3';
        r.dispatchEvent(new Event('input', {bubbles: true}));
    });
    await page.waitForFunction(n => Number(document.body.dataset.rendered) > n, {timeout: 5000}, before.rendered);
    const after = await snap();
    check(after.bars !== before.bars, 'the slider changes the bars');
    check(after.cmd !== before.cmd && after.cmd.includes('--temperature 0.3') && !after.cmd.includes('--temperature 0.7'),
          'the slider changes the command line', after.cmd.split('\n')[1]);
    check(after.hash.includes('temperature=0.3'), 'the slider changes the URL', after.hash);
    const barsOk = await page.evaluate(() => {
        const p = samplab.pipeline('hf', 'data/weather.txt', {temperature: '0.3', top_k: '3', cpu: 'avx2'});
        const col = Array.from(document.querySelectorAll('#keeps tbody tr')).map(tr => Number(tr.querySelectorAll('.cell')[0].dataset.p));
        return JSON.stringify(col) === JSON.stringify(p.probs);
    });
    check(barsOk, 'the transformers bars are samplab.pipeline(hf) after the move');
    /* the shown command line runs: its first command, through the CLI */
    const first = after.cmd.split('\n').find(l => l.startsWith('samplab compare'));
    const shown = cli(first.replace(/^samplab /, '').split(' '));
    check(shown.status === 0 && shown.stdout === (await page.evaluate(() => document.getElementById('comparetext').textContent)).replace(/^\$ .*\n/, ''),
          'the command line on screen prints what the page shows (' + first + ')');
    await page.screenshot({path: path.join(OUT, 'explorer-t03.png'), fullPage: true});

    /* the URL reproduces the screen: a fresh load of the hash shows the same */
    const p2 = watch(await browser.newPage());
    await p2.setViewport({width: 1400, height: 1000});
    await p2.goto(SITE + after.hash, {waitUntil: 'load'});
    await p2.waitForFunction(() => document.body.dataset.ready === '1', {timeout: 10000});
    const again = await p2.evaluate(() => document.getElementById('cmd').textContent);
    check(again === after.cmd, 'the URL restores the screen');

    /* ties with top-k 2: transformers keeps 3, candle 2 */
    await p2.goto(SITE + '#logits=ties&temperature=1&top_k=2&seed=42&n=12', {waitUntil: 'load'});
    await p2.waitForFunction(() => document.body.dataset.ready === '1', {timeout: 10000});
    const kept = await p2.evaluate(() => Array.from(document.querySelectorAll('#keeps thead .stat')).map(e => e.textContent.split(' ')[1]));
    check(kept[0] === '3' && kept[1] === '2', 'ties, top-k 2: transformers keeps 3, candle 2', JSON.stringify(kept));
    await p2.screenshot({path: path.join(OUT, 'explorer-ties.png'), fullPage: true});

    /* a .npy through the file input */
    const input = await p2.$('#file');
    await input.uploadFile(npyF4);
    await p2.waitForFunction(() => document.getElementById('source').textContent.includes('logits_f4.npy'), {timeout: 5000});
    const npyKept = await p2.evaluate(() => document.querySelectorAll('#keeps tbody tr').length);
    check(npyKept === 10, 'a dropped .npy is read (10 tokens)', String(npyKept));
    const wantNpy = cli(['pipeline', '--framework', 'hf', '--logits', rel(npyF4), '--temperature', '1', '--top-k', '2', '--cpu', 'avx2', '--json']);
    const gotNpy = await p2.evaluate(() => JSON.stringify(Array.from(document.querySelectorAll('#keeps tbody tr')).map(tr => Number(tr.querySelectorAll('.cell')[0].dataset.p))));
    check(gotNpy === JSON.stringify(JSON.parse(wantNpy.stdout).probs), 'the .npy bars are the CLI\'s', gotNpy);

    /* 4. the layout: a phone (400 px) and a desktop (1,400 px), the first view (no fragment) */
    const lay = watch(await browser.newPage());
    for (const w of [400, 1400]) {
        await lay.setViewport({width: w, height: 900});
        await lay.goto(SITE, {waitUntil: 'load'});
        await lay.waitForFunction(() => document.body.dataset.ready === '1' && document.body.dataset.real === 'done', {timeout: 60000});
        const L = await lay.evaluate(() => {
            const box = id => { const r = document.getElementById(id).getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
            const wide = [];
            document.querySelectorAll('body *').forEach(e => {
                const r = e.getBoundingClientRect();
                if (r.width && r.right > innerWidth + 0.5)
                    wide.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + String(e.className).split(' ')[0] : '') + ' ' + Math.round(r.right));
            });
            const kept = Array.from(document.querySelectorAll('#keeps thead th[data-fw]')).map(th => th.querySelector('.stat').textContent.split(' ')[1] || 'refused');
            return {sw: document.documentElement.scrollWidth, iw: innerWidth, wide: wide.slice(0, 6),
                    keeps: box('keeps'), controls: box('controls'), real: box('real'), kept,
                    drops: document.getElementById('pairs').textContent.includes(' drops'),
                    tutorial: /The tutorial is/.test(document.querySelector('header').textContent),
                    realMs: Number(document.body.dataset.realMs)};
        });
        check(L.sw <= L.iw && !L.wide.length, w + ' px: nothing scrolls sideways', 'scrollWidth ' + L.sw + ', innerWidth ' + L.iw + '; ' + L.wide.join(', '));
        if (w === 400)
            check(L.keeps.top < L.controls.top && L.real.bottom < L.controls.top, '400 px: the results come before the controls',
                  'keeps at ' + L.keeps.top + ', controls at ' + L.controls.top);
        else
            check(L.controls.right <= L.keeps.left && L.controls.top < L.keeps.bottom, '1400 px: the controls beside the results',
                  JSON.stringify([L.controls, L.keeps]));
        check(new Set(L.kept).size > 1 && L.drops, w + ' px: the first view shows frameworks that keep different tokens', JSON.stringify(L.kept));
        check(L.tutorial, w + ' px: the tutorial is said in a line');
        await lay.screenshot({path: path.join(OUT, 'explorer-' + w + '.png'), fullPage: true});
        console.log('layout ' + w + ' px: scrollWidth ' + L.sw + ', kept ' + L.kept.join('/') + ', results at y ' + Math.round(L.keeps.top) +
                    ', controls at y ' + Math.round(L.controls.top) + '; real.js ready ' + L.realMs + ' ms after navigation');
    }

    /* 5. the real libraries against samplab's emulations of them, in the page */
    const vec = n => { const a = []; for (let i = 0; i < n; i++) a.push(Math.fround((rnd() + rnd() + rnd() - 1.5) * 4)); return a; };
    const ties = n => { const a = []; for (let i = 0; i < n; i++) a.push(Math.round((rnd() - 0.5) * 8) / 2); return a; };
    const VECS = [[4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2], [3, 2, 2, 1], vec(64), ties(256), vec(1000)];
    const SEEDS = [1, 7, 42, 1234, 99991, 2 ** 32 + 5, 123456789012, 2 ** 53];
    const TSET = [{}, {temperature: 0.7, top_k: 3}, {temperature: 1.3, top_p: 0.9}, {top_k: 1},
                  {temperature: 0.8, top_k: 5, repetition_penalty: 1.3, context: [0, 2]}, {temperature: 2, top_k: 40}];
    const realCases = [];
    VECS.forEach((v, vi) => SEEDS.forEach((seed, si) => {
        realCases.push({lib: 'transformers-js', v: vi, seed, set: TSET[(vi + si) % TSET.length], n: 1 + (si * 3 + vi) % 12});
        realCases.push({lib: 'tfjs', v: vi, seed, n: 1 + (si * 5 + vi) % 16, normalized: si % 3 === 2});
    }));
    const R = await lay.evaluate(async (vecs, cs) => {
        await samplabReal.ready;
        const out = [];
        for (const c of cs) {
            const v = vecs[c.v];
            const file = {name: 'v' + c.v + '.txt', text: v.map(samplab.numText).join('\n') + '\n'};
            let sam, real, other;
            if (c.lib === 'transformers-js') {
                const s = Object.assign({}, c.set, {seed: String(c.seed), n: c.n});
                sam = [].concat(...samplab.draw('transformers-js', file, s).tokens);
                other = [].concat(...samplab.draw('transformers-js', file, Object.assign({}, s, {seed: String(c.seed + 1)})).tokens);
                const set = Object.assign({}, c.set);
                delete set.context;
                real = await samplabReal.transformersjs(v, set, c.set.context || [], c.seed, c.n);
            } else {
                /* normalized: the softmax of the vector, as probabilities */
                let w = v;
                if (c.normalized) {
                    const m = Math.max(...v), e = v.map(x => Math.exp(x - m)), z = e.reduce((a, b) => a + b, 0);
                    w = e.map(x => Math.fround(x / z));
                }
                const f = {name: 'w' + c.v + '.txt', text: w.map(samplab.numText).join('\n') + '\n'};
                sam = [].concat(...samplab.draw('tfjs', f, {seed: String(c.seed), num_samples: c.n, probs: !!c.normalized}).tokens);
                other = [].concat(...samplab.draw('tfjs', f, {seed: String(c.seed + 1), num_samples: c.n, probs: !!c.normalized}).tokens);
                real = await samplabReal.tfjs(w, c.n, c.seed, !!c.normalized);
            }
            out.push({sam, real, other});
        }
        return out;
    }, VECS, realCases);
    let realSame = 0;
    const realBy = {};
    R.forEach((r, i) => {
        const c = realCases[i], ok = JSON.stringify(r.sam) === JSON.stringify(r.real);
        check(ok, 'real ' + c.lib + ' = samplab for ' + JSON.stringify(c), 'real ' + JSON.stringify(r.real) + '\n     samplab ' + JSON.stringify(r.sam));
        realBy[c.lib] = (realBy[c.lib] || 0) + (ok ? 1 : 0);
        realSame += ok;
    });
    /* tfjs with seeds above 2^53: the library gets the nearest JavaScript number, as samplab models it */
    const big = await lay.evaluate(async (v) => {
        const out = [];
        for (const seed of ['18446744073709551615', '12345678901234567890', '9007199254740993', '340282366920938463463374607431768211455']) {
            const sam = [].concat(...samplab.draw('tfjs', v, {seed, num_samples: 12}).tokens);
            out.push({seed, sam, real: await samplabReal.tfjs(v, 12, Number(seed), false)});
        }
        return out;
    }, VECS[2]);
    big.forEach(b => check(JSON.stringify(b.sam) === JSON.stringify(b.real), 'real tfjs = samplab for seed ' + b.seed + ' (a number above 2^53)',
                           'real ' + JSON.stringify(b.real) + '\n     samplab ' + JSON.stringify(b.sam)));
    /* the comparison can fail: samplab one seed off disagrees with the library in most cases */
    const caught = R.filter(r => JSON.stringify(r.other) !== JSON.stringify(r.real)).length;
    check(caught > R.length / 2, 'the real-library check rejects samplab with the seed off by one in most cases', caught + ' of ' + R.length);
    const versions = await lay.evaluate(() => samplabReal.versions);
    console.log('real libraries in the page: ' + realSame + ' of ' + R.length + ' cases draw what samplab draws (' +
                Object.keys(realBy).map(k => k + ' ' + realBy[k]).join(', ') + '; ' + VECS.length + ' vectors, ' + SEEDS.length +
                ' seeds, and tfjs at ' + big.length + ' seeds above 2^53; ' + Object.entries(versions).map(([k, v]) => k + ' ' + v).join(', ') + '); with the seed off by one, ' +
                caught + ' of them differ');
    /* and the page says so, seed after seed (the Next seed button) */
    const rp = watch(await browser.newPage());
    await rp.setViewport({width: 1400, height: 900});
    await rp.goto(SITE + '#logits=weather&temperature=0.7&top_k=3&seed=41&n=12', {waitUntil: 'load'});
    await rp.waitForFunction(() => document.body.dataset.real === 'done' && document.body.dataset.realRendered, {timeout: 60000});
    const shownSeeds = [];
    for (let k = 0; k < 4; k++) {
        const rows = await rp.evaluate(() => Array.from(document.querySelectorAll('#real tbody tr')).map(tr => tr.dataset.fw + ':' + tr.dataset.same));
        const seedNow = await rp.evaluate(() => document.getElementById('seed').value);
        shownSeeds.push(seedNow);
        check(rows.join(' ') === 'transformers-js:1 tfjs:1', 'the page shows the real libraries and samplab drawing the same tokens, seed ' + seedNow, rows.join(' '));
        const before = await rp.evaluate(() => Number(document.body.dataset.realRendered));
        await rp.click('#nextseed');
        await rp.waitForFunction(b => Number(document.body.dataset.realRendered) > b && document.body.dataset.real === 'done', {timeout: 30000}, before);
    }
    console.log('the page\'s own rows: real = samplab for seeds ' + shownSeeds.join(', '));
    await rp.screenshot({path: path.join(OUT, 'explorer-real.png'), fullPage: true});
    check(fetched.length === 0, 'nothing is fetched from the network', fetched.slice(0, 5).join(' '));
    /* without real.js (a copy of site/ that lacks it) the page works and its last table says so */
    const bare = path.join(OUT, 'site-without-real');
    fs.rmSync(bare, {recursive: true, force: true});
    fs.mkdirSync(bare);
    for (const f of fs.readdirSync(path.join(top, 'site')))
        if (f !== 'real.js')
            fs.copyFileSync(path.join(top, 'site', f), path.join(bare, f));
    const np = await browser.newPage(); /* not watched: the missing file is an expected console error */
    await np.goto('file://' + path.join(bare, 'index.html'), {waitUntil: 'load'});
    await np.waitForFunction(() => document.body.dataset.ready === '1' && document.body.dataset.real === 'done', {timeout: 30000});
    const bareRows = await np.evaluate(() => Array.from(document.querySelectorAll('#real .verdict')).map(e => e.textContent));
    check(bareRows.length === 2 && bareRows.every(t => /real\.js did not load/.test(t)), 'without real.js the page says so and works', JSON.stringify(bareRows));
    await np.close();
    fs.rmSync(bare, {recursive: true, force: true});

    /* the README's picture: the first screen (the first view), smaller */
    await page.bringToFront(); /* a background tab gets no animation frames, and the page renders in one */
    await page.setViewport({width: 1240, height: 860});
    await page.goto(SITE, {waitUntil: 'load'});
    await page.waitForFunction(() => document.body.dataset.ready === '1', {timeout: 10000});
    await page.screenshot({path: path.join(OUT, 'readme.png')});

    const bad = logs.filter(l => /^(error|pageerror)/.test(l));
    check(bad.length === 0, 'no errors in the page console', bad.join('\n     '));
    await browser.close();
    fs.rmSync(profile, {recursive: true, force: true});
    console.log('screenshots: ' + ['explorer.png', 'explorer-t03.png', 'explorer-ties.png', 'explorer-400.png', 'explorer-1400.png',
                                   'explorer-real.png', 'readme.png'].map(f => rel(path.join(OUT, f))).join(' '));
    console.log('browser: ' + passed + ' passed, ' + failed + ' failed');
    process.exit(failed ? 1 : 0);
})().catch(e => {
    console.error('browser: ' + (e.stack || e));
    process.exit(2);
});
