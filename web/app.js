/* app.js — the explorer page: controls, bars, tables and the command line. Every
 * number on it comes from samplab's commands run through window.samplab
 * (samplab.js); this file only lays them out. The state lives in the URL's
 * fragment: #logits=weather&temperature=0.7&top_k=3&seed=42&n=10. */
(function () {
    'use strict';
    var S = window.samplab;
    var PIPES = ['hf', 'candle', 'llamacpp', 'vllm', 'tutorial'];
    var DRAW_LOGITS = ['hf', 'vllm', 'llamacpp', 'candle'];
    var DRAW_PROBS = ['torch', 'numpy', 'numpy-legacy'];
    var TAKES_CPU = {hf: 1, vllm: 1};
    var NAMES = {hf: 'transformers', candle: 'candle', llamacpp: 'llama.cpp', vllm: 'vLLM', tutorial: 'tutorial',
                 torch: 'torch.multinomial', numpy: 'NumPy Generator', 'numpy-legacy': 'NumPy legacy'};
    var PRESETS = {
        weather: {file: 'data/weather.txt',
                  labels: ['晴れ sunny', '曇り cloudy', '雨 rain', '雪 snow', '台風 typhoon', '虹 rainbow', '猫 cat', '無 nothing']},
        ties: {file: 'data/ties.txt', labels: null}
    };
    var SLIDERS = [
        {key: 'temperature', min: 0.05, max: 2, step: 0.05, def: '1', on: true, help: 'divides the logits'},
        {key: 'top_k', min: 1, max: 10, step: 1, def: '3', help: 'keep the k largest (ties: depends)'},
        {key: 'top_p', min: 0.05, max: 1, step: 0.01, def: '0.9', help: 'smallest set with mass >= p'},
        {key: 'min_p', min: 0, max: 0.5, step: 0.01, def: '0.05', help: 'drop below min-p x the top probability'},
        {key: 'typical', min: 0.05, max: 1, step: 0.01, def: '0.9', help: 'locally typical sampling'},
        {key: 'repetition_penalty', min: 1, max: 3, step: 0.05, def: '1.3', help: 'on the context tokens', context: true}
    ];
    var PALETTE = ['#fde68a', '#bfdbfe', '#bbf7d0', '#fecaca', '#ddd6fe', '#fbcfe8', '#a5f3fc', '#fed7aa',
                   '#d9f99d', '#e9d5ff', '#c7d2fe', '#fecdd3'];

    var state = {input: 'weather', custom: '1.5, 1.2, 0.3, 0.3, -1', fileName: null, on: {}, val: {},
                 context: '0', cpu: 'avx2', seed: '42', n: '10'};
    var V = 8;

    function $(id) { return document.getElementById(id); }
    function el(tag, attrs, kids) {
        var e = document.createElement(tag);
        Object.keys(attrs || {}).forEach(function (k) {
            if (k === 'text')
                e.textContent = attrs[k];
            else if (k === 'style')
                e.style.cssText = attrs[k];
            else
                e.setAttribute(k, attrs[k]);
        });
        (kids || []).forEach(function (c) { if (c) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
        return e;
    }
    /* a control's option as the command line spells it: the library's settings schema */
    function flag(key) { return S.schema()[key].option; }
    function swatch(fw) { return el('span', {'class': 'swatch', style: 'background: var(--' + fw + ')'}); }
    function pct(p) {
        if (p === 0)
            return '0';
        var x = p * 100;
        return x >= 10 ? x.toFixed(1) + '%' : x >= 0.1 ? x.toFixed(2) + '%' : x.toPrecision(2) + '%';
    }
    function labels() {
        var p = PRESETS[state.input];
        return p && p.labels && p.labels.length === V ? p.labels : null;
    }
    function label(i) {
        var l = labels();
        return l ? l[i] : '#' + i;
    }
    function shortLabel(i) {
        var l = labels();
        return l ? l[i].split(' ')[0] : String(i);
    }
    function tokColor(i) { return PALETTE[i % PALETTE.length]; }
    /* where a name may break in a narrow column (a phone): a soft hyphen in
     * transformers, a zero-width space before a dot; invisible on a wide screen */
    function breakable(name) {
        return name.replace('transformers', 'trans\u00adformers').replace(/\.(?=[a-z])/g, '\u200b.');
    }

    /* ---------------------------------------------------------------- input */
    function presetValues(name) {
        var b64 = window.SAMPLAB_FILES[name];
        var bytes = Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); });
        var text = new TextDecoder().decode(bytes);
        return text.split('\n').filter(function (l) { return l.trim() && l.trim()[0] !== '#'; }).join(' ').trim();
    }

    function customList() {
        return state.custom.split(/[\s,]+/).filter(function (x) { return x !== ''; }).join(',');
    }

    /* what --logits names: a bundled or dropped file, or an inline list */
    function source() {
        if (PRESETS[state.input])
            return PRESETS[state.input].file;
        if (state.input === 'file' && state.fileName && S.hasFile(state.fileName))
            return state.fileName;
        return customList();
    }

    /* ---------------------------------------------------------------- settings */
    function settings() {
        var s = {};
        SLIDERS.forEach(function (d) {
            if (state.on[d.key]) {
                s[d.key] = state.val[d.key];
                if (d.context)
                    s.context = state.context.split(/[\s,]+/).filter(Boolean).join(',');
            }
        });
        return s;
    }
    function withCpu(fw, s) {
        var o = Object.assign({}, s);
        if (TAKES_CPU[fw])
            o.cpu = state.cpu;
        return o;
    }
    function numText(x, step) {
        var d = String(step).indexOf('.') < 0 ? 0 : String(step).split('.')[1].length;
        return String(Number(Number(x).toFixed(d)));
    }

    function buildSliders() {
        var box = $('sliders');
        SLIDERS.forEach(function (d) {
            var id = 's-' + d.key;
            var cb = el('input', {type: 'checkbox', id: id + '-on', 'aria-label': 'use ' + flag(d.key)});
            var range = el('input', {type: 'range', min: d.min, max: d.max, step: d.step, id: id + '-range', 'aria-label': flag(d.key)});
            var num = el('input', {type: 'number', min: d.min, max: d.max, step: d.step, id: id + '-num', 'aria-label': flag(d.key) + ' value'});
            var name = el('label', {'class': 'name', 'for': id + '-on', title: d.help}, [el('code', {text: flag(d.key)}), ' ',
                         el('span', {'class': 'muted small', text: d.help})]);
            var row = el('div', {'class': 'slider', id: id}, [cb, name, range, num]);
            if (d.context) {
                var ctx = el('input', {type: 'text', id: 's-context', spellcheck: 'false', 'aria-label': flag('context')});
                row.appendChild(el('label', {'class': 'ctx'}, [el('code', {text: flag('context')}), ' ', ctx,
                                   el('span', {'class': 'muted', text: ' token ids'})]));
                ctx.addEventListener('input', function () { state.context = ctx.value; schedule(); });
            }
            function set(v, turnOn) {
                state.val[d.key] = numText(v, d.step);
                if (turnOn)
                    state.on[d.key] = true;
                schedule();
            }
            cb.addEventListener('change', function () { state.on[d.key] = cb.checked; schedule(); });
            range.addEventListener('input', function () { set(range.value, true); });
            num.addEventListener('change', function () { set(num.value, true); });
            box.appendChild(row);
        });
    }

    function syncControls() {
        SLIDERS.forEach(function (d) {
            var id = 's-' + d.key;
            if (d.key === 'top_k') {
                var mx = Math.max(10, Math.min(V, 100));
                $(id + '-range').max = mx;
                $(id + '-num').max = Math.max(V, 10);
            }
            $(id + '-on').checked = !!state.on[d.key];
            $(id + '-range').value = state.val[d.key];
            $(id + '-num').value = state.val[d.key];
            $(id).classList.toggle('off', !state.on[d.key]);
        });
        $('s-context').value = state.context;
        $('cpu').value = state.cpu;
        $('seed').value = state.seed;
        $('n').value = state.n;
        Array.prototype.forEach.call(document.querySelectorAll('#inputs button'), function (b) {
            var on = b.dataset.input === state.input || (b.dataset.input === 'custom' && state.input === 'file');
            b.setAttribute('aria-checked', on ? 'true' : 'false');
        });
        var ta = $('logits');
        if (PRESETS[state.input]) {
            ta.value = presetValues(PRESETS[state.input].file);
        } else if (state.input === 'file' && state.fileName && S.hasFile(state.fileName)) {
            ta.value = '';
            ta.placeholder = state.fileName + ' (V = ' + V + '): type here to use your own list instead';
        } else if (document.activeElement !== ta) {
            ta.value = state.custom;
        }
    }

    /* ---------------------------------------------------------------- URL */
    function toHash() {
        var p = new URLSearchParams();
        p.set('logits', PRESETS[state.input] ? state.input : state.input === 'file' && state.fileName ? 'file:' + state.fileName : customList());
        SLIDERS.forEach(function (d) {
            if (state.on[d.key])
                p.set(d.key, state.val[d.key]);
        });
        if (state.on.repetition_penalty)
            p.set('context', state.context);
        if (state.cpu !== 'avx2')
            p.set('cpu', state.cpu);
        p.set('seed', state.seed);
        p.set('n', state.n);
        return '#' + p.toString().replace(/%2C/g, ',');
    }
    /* the first view without a fragment (the README's picture): the weather at
     * T = 0.8, top-p 0.95, min-p 0.05 (llama.cpp's defaults, less top-k 40): llama.cpp
     * cuts before the temperature and keeps 4 tokens, the others 3, and candle has no
     * min-p, so the frameworks differ at first sight */
    var DEFAULT_VIEW = 'logits=weather&temperature=0.8&top_p=0.95&min_p=0.05&seed=42&n=10';
    function fromHash() {
        var p = new URLSearchParams(location.hash.replace(/^#/, ''));
        SLIDERS.forEach(function (d) {
            state.val[d.key] = d.def;
            state.on[d.key] = !!d.on;
        });
        if (!p.has('logits'))
            p = new URLSearchParams(DEFAULT_VIEW);
        var lg = p.get('logits');
        if (PRESETS[lg]) {
            state.input = lg;
        } else if (lg.indexOf('file:') === 0) {
            state.input = 'file';
            state.fileName = lg.slice(5);
        } else {
            state.input = 'custom';
            state.custom = lg.split(',').join(', ');
        }
        SLIDERS.forEach(function (d) {
            state.on[d.key] = p.has(d.key);
            if (p.has(d.key))
                state.val[d.key] = p.get(d.key);
        });
        ['context', 'cpu', 'seed', 'n'].forEach(function (k) {
            if (p.has(k))
                state[k] = p.get(k);
        });
    }

    /* ---------------------------------------------------------------- running samplab */
    function attempt(f) {
        try {
            return {ok: true, r: f()};
        } catch (e) {
            return {ok: false, msg: e.message};
        }
    }

    function shellQuote(a) {
        return /^[A-Za-z0-9_.,:\/=+-]+$/.test(a) ? a : "'" + a.replace(/'/g, "'\\''") + "'";
    }
    function cmdLine(argv) {
        return 'samplab ' + argv.map(shellQuote).join(' ');
    }

    var pending = false, probsUrl = null;
    function schedule() {
        if (pending)
            return;
        pending = true;
        requestAnimationFrame(function () {
            pending = false;
            render();
        });
    }

    function render() {
        var t0 = performance.now();
        syncControls();
        var src = source(), s = settings();
        var cmds = [];
        $('source').textContent = state.input === 'file' && !S.hasFile(state.fileName || '') ?
            'the file ' + (state.fileName || '') + ' is not loaded here: drop it again (showing your own list)' :
            flag('logits') + ' ' + (src.length > 60 ? src.slice(0, 57) + '...' : src);

        /* kept sets */
        var pipes = PIPES.map(function (fw) {
            var st = withCpu(fw, s);
            var a = attempt(function () { return S.pipeline(fw, src, st); });
            a.fw = fw;
            a.argv = S.argv('pipeline', fw, src, st);
            return a;
        });
        var anyOk = pipes.some(function (p) { return p.ok; });
        var err = $('error');
        err.hidden = anyOk;
        err.textContent = anyOk ? '' : pipes[0].msg;
        Array.prototype.forEach.call(document.querySelectorAll('#content > section.needs-input'), function (sec) {
            sec.hidden = !anyOk;
        });
        var Vnow = anyOk ? pipes.filter(function (p) { return p.ok; })[0].r.probs.length : V;
        if (Vnow !== V) {
            V = Vnow;
            syncControls();
        }
        renderKeeps(pipes);

        /* compare */
        var cs = Object.assign({}, s, {cpu: state.cpu});
        var cmp = attempt(function () { return S.compare(src, cs); });
        var cmpArgv = S.argv('compare', null, src, Object.assign({}, cs, {json: false}));
        cmds.push('# what each framework keeps, TV per pair, the tokens one keeps and another drops');
        cmds.push(cmdLine(cmpArgv));
        var txt = S.run(cmpArgv);
        $('comparetext').textContent = '$ ' + cmdLine(cmpArgv) + '\n' + txt.stdout + txt.stderr;
        renderCompare(cmp, pipes);
        cmds.push('# the bars: each framework\'s final distribution');
        pipes.forEach(function (p) { cmds.push(cmdLine(p.argv)); });

        /* draws */
        var seed = state.seed.trim() || '42', n = state.n || '10';
        var ds = Object.assign({}, s, {seed: seed, n: n});
        var rows = DRAW_LOGITS.map(function (fw) {
            var st = withCpu(fw, ds);
            var a = attempt(function () { return S.draw(fw, src, st); });
            a.fw = fw;
            a.argv = S.argv('draw', fw, src, st);
            return a;
        });
        var soft = attempt(function () {
            return S.pipeline('tutorial', src, s.temperature ? {temperature: s.temperature} : {});
        });
        var probsText = soft.ok ? soft.r.probs.map(S.numText).join(',') : null;
        var prow = DRAW_PROBS.map(function (fw) {
            var a = soft.ok ? attempt(function () { return S.draw(fw, probsText, {seed: seed, n: n}); }) : {ok: false, msg: soft.msg};
            a.fw = fw;
            a.argv = soft.ok ? S.argv('draw', fw, V <= 16 ? probsText : 'probs.txt', {seed: seed, n: n}) : null;
            return a;
        });
        renderDraws(rows, prow, seed);
        var realArgv = renderReal(src, s, seed, n);
        cmds.push('# the draws: ' + n + ' tokens with seed ' + seed + ' (--json adds the random words spent)');
        rows.forEach(function (r) { cmds.push(cmdLine(r.argv)); });
        if (soft.ok) {
            var softArgv = S.argv('pipeline', 'tutorial', src, s.temperature ? {temperature: s.temperature} : {});
            if (V > 16)
                cmds.push('# probs.txt: the "probs" of ' + cmdLine(softArgv) + ', one per line');
            else
                cmds.push('# torch, NumPy: softmax(logits / T) as weights, from ' + cmdLine(softArgv));
            prow.forEach(function (r) { if (r.argv) cmds.push(cmdLine(r.argv)); });
        }
        cmds.push('# samplab\'s transformers.js and TensorFlow.js, which the page runs beside the libraries themselves');
        realArgv.forEach(function (a) { cmds.push(cmdLine(a)); });
        $('cmd').textContent = cmds.join('\n');
        var dl = $('probsfile');
        if (probsUrl)
            URL.revokeObjectURL(probsUrl);
        probsUrl = null;
        dl.hidden = !(soft.ok && V > 16);
        if (!dl.hidden) {
            probsUrl = URL.createObjectURL(new Blob([soft.r.probs.map(S.numText).join('\n') + '\n'], {type: 'text/plain'}));
            dl.href = probsUrl;
        }
        var h = toHash();
        if (location.hash !== h)
            history.replaceState(null, '', h);
        $('permalink').href = h;
        document.body.dataset.renderMs = String(Math.round(performance.now() - t0));
        document.body.dataset.rendered = String(Number(document.body.dataset.rendered || 0) + 1);
    }

    function renderKeeps(pipes) {
        var box = $('keeps');
        box.textContent = '';
        var ok = pipes.filter(function (p) { return p.ok; });
        if (!ok.length)
            return;
        /* rows: every token for a small vocabulary, else the 40 most probable anywhere */
        var ids = [];
        for (var i = 0; i < V; i++)
            ids.push(i);
        var MAXROWS = 40, shownOf = V;
        if (V > MAXROWS) {
            /* the tokens some framework keeps, the most probable first, in id order */
            var best = [];
            ids.forEach(function (i) {
                var m = Math.max.apply(null, ok.map(function (p) { return p.r.probs[i]; }));
                if (m > 0)
                    best.push([i, m]);
            });
            shownOf = best.length;
            best.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
            ids = best.slice(0, MAXROWS).map(function (x) { return x[0]; }).sort(function (a, b) { return a - b; });
        }
        var head = el('tr', {}, [el('th', {'class': 'tok', text: 'token'})]);
        pipes.forEach(function (p) {
            var stat = p.ok ? 'keeps ' + p.r.kept.length + ' of ' + V + ' · float' + p.r.precision +
                (p.r.steps.length ? ' · ' + p.r.steps.join(' → ') : '') : '';
            head.appendChild(el('th', {'data-fw': p.fw}, [swatch(p.fw), el('span', {'class': 'fw', text: breakable(NAMES[p.fw])}),
                el('span', {'class': 'stat', text: p.ok ? stat : ''})]));
        });
        var body = el('tbody');
        ids.forEach(function (i, row) {
            var tr = el('tr', {}, [el('th', {'class': 'tok', title: 'token id ' + i},
                                      [el('span', {'class': 'id', text: String(i)}), label(i)])]);
            pipes.forEach(function (p) {
                if (!p.ok) {
                    if (row === 0)
                        tr.appendChild(el('td', {'class': 'refused', rowspan: ids.length, text: p.msg.replace(/^samplab pipeline: /, '')}));
                    return;
                }
                var kept = p.r.kept.indexOf(i) >= 0, v = p.r.probs[i];
                var cell = el('div', {'class': 'cell' + (kept ? '' : ' dropped'), 'data-p': String(v)});
                if (kept)
                    cell.appendChild(el('div', {'class': 'bar', style: 'width:' + (78 * v).toFixed(2) + '%; background: var(--' + p.fw + ')'}));
                cell.appendChild(el('span', {'class': 'v', text: kept ? pct(v) : 'dropped'}));
                tr.appendChild(el('td', {}, [cell]));
            });
            body.appendChild(tr);
        });
        var t = el('table', {}, [el('thead', {}, [head]), body]);
        box.appendChild(t);
        if (V > MAXROWS)
            box.appendChild(el('p', {'class': 'note muted', text: 'showing ' + (ids.length < shownOf ? 'the ' + ids.length + ' most probable of the ' : 'the ') +
                shownOf + ' tokens some framework keeps, of V = ' + V + ' (the rest are dropped everywhere)'}));
        if (!state.on.temperature)
            box.appendChild(el('p', {'class': 'note muted', text: 'candle without --temperature is ArgMax (LogitsProcessor::new(seed, None, ..)): it keeps the top token only'}));
    }

    function tokList(ids) {
        var span = el('span');
        ids.slice(0, 12).forEach(function (i, k) {
            if (k)
                span.appendChild(document.createTextNode(' '));
            span.appendChild(el('span', {'class': 'tokname', text: label(i)}));
        });
        if (ids.length > 12)
            span.appendChild(document.createTextNode(' … (' + ids.length + ')'));
        return span;
    }

    function renderCompare(cmp, pipes) {
        var tv = $('tv'), pairs = $('pairs');
        tv.textContent = '';
        pairs.textContent = '';
        if (!cmp.ok) {
            pairs.appendChild(el('p', {'class': 'muted', text: cmp.msg}));
            return;
        }
        var c = cmp.r;
        var fws = c.frameworks.filter(function (f) { return f.ok; }).map(function (f) { return f.framework; });
        var byPair = {};
        c.pairs.forEach(function (p) { byPair[p.a + '|' + p.b] = p; byPair[p.b + '|' + p.a] = p; });
        var head = el('tr', {}, [el('th', {text: 'TV'})]);
        fws.forEach(function (f) { head.appendChild(el('th', {}, [swatch(f), f])); });
        var t = el('table', {}, [head]);
        fws.forEach(function (a) {
            var tr = el('tr', {}, [el('th', {style: 'text-align:right'}, [swatch(a), a])]);
            fws.forEach(function (b) {
                if (a === b) {
                    tr.appendChild(el('td', {style: 'background:#f6f8fa', text: '·'}));
                    return;
                }
                var p = byPair[a + '|' + b], v = p ? p.tv : NaN;
                var shade = Math.min(1, Math.sqrt(v) * 1.6);
                tr.appendChild(el('td', {title: a + ' vs ' + b + ': TV ' + v,
                    style: 'background: rgba(220, 38, 38, ' + (v === 0 ? 0.04 : 0.08 + 0.8 * shade).toFixed(3) + ')',
                    text: v === 0 ? '0' : v < 1e-4 ? v.toExponential(0) : v.toFixed(3)}));
            });
            t.appendChild(tr);
        });
        tv.appendChild(t);
        tv.appendChild(el('p', {'class': 'muted small', text: 'total variation between final distributions'}));

        var ul = el('ul');
        var differ = c.pairs.filter(function (p) { return p.only_a.length || p.only_b.length; });
        differ.forEach(function (p) {
            var li = el('li');
            function side(x, y, ids) {
                if (!ids.length)
                    return null;
                return el('span', {}, [swatch(x), el('b', {text: x}), ' keeps ', tokList(ids), ' that ', el('b', {text: y}), ' drops. ']);
            }
            li.appendChild(side(p.a, p.b, p.only_a) || document.createTextNode(''));
            li.appendChild(side(p.b, p.a, p.only_b) || document.createTextNode(''));
            li.appendChild(el('span', {'class': 'muted', text: '(TV ' + p.tv.toPrecision(3) + ')'}));
            (p.translations || []).slice(0, 2).forEach(function (x) {
                li.appendChild(el('div', {'class': 'small'}, ['→ ', el('code', {text: x.framework + ' ' + x.args}),
                    ' reproduces ' + x.reproduces + ' (TV ' + (x.tv === 0 ? '0' : x.tv.toPrecision(2)) + '; ' + x.scope + ')']));
            });
            ul.appendChild(li);
        });
        if (!differ.length)
            ul.appendChild(el('li', {text: 'All ' + fws.length + ' keep the same tokens' +
                (c.pairs.length ? ' (largest TV ' + Math.max.apply(null, c.pairs.map(function (p) { return p.tv; })).toPrecision(2) + ': rounding and precision)' : '') + '.'}));
        (c.skipped || []).forEach(function (k) {
            var li = el('li', {'class': 'muted'}, [swatch(k.framework), k.framework + ' has no ' + k.lacks + '.']);
            (k.translations || []).slice(0, 1).forEach(function (x) {
                li.appendChild(el('div', {'class': 'small'}, ['→ ', el('code', {text: x.framework + ' ' + x.args}),
                    ' reproduces ' + x.reproduces + ' (TV ' + (x.tv === 0 ? '0' : x.tv.toPrecision(2)) + ')']));
            });
            ul.appendChild(li);
        });
        (c.notes || []).forEach(function (n) { ul.appendChild(el('li', {'class': 'muted small', text: 'note: ' + n})); });
        pairs.appendChild(ul);
    }

    function renderDraws(rows, prow, seed) {
        var box = $('draws');
        box.textContent = '';
        var n = 0;
        rows.concat(prow).forEach(function (r) { if (r.ok) n = Math.max(n, r.r.tokens.length); });
        /* per draw, the token most samplers drew: the others are outlined */
        var common = [];
        for (var j = 0; j < n; j++) {
            var tally = {}, bestTok = null;
            rows.concat(prow).forEach(function (r) {
                if (!r.ok)
                    return;
                var t = [].concat.apply([], r.r.tokens)[j];
                if (t === undefined)
                    return;
                tally[t] = (tally[t] || 0) + 1;
                if (bestTok === null || tally[t] > tally[bestTok])
                    bestTok = t;
            });
            common.push(bestTok);
        }
        var head = el('tr', {}, [el('th', {text: 'framework'}), el('th', {text: 'tokens drawn with seed ' + seed}),
                                 el('th', {text: 'random words', style: 'white-space: nowrap'}), el('th', {text: 'generator'})]);
        var body = el('tbody');
        var firsts = {};
        function add(r) {
            var tr = el('tr', {'data-fw': r.fw});
            tr.appendChild(el('td', {}, [swatch(r.fw), el('span', {'class': 'fw', text: breakable(NAMES[r.fw])}), ' ',
                                         el('span', {'class': 'muted small', text: r.fw})]));
            if (!r.ok) {
                tr.appendChild(el('td', {colspan: 3, 'class': 'why', text: r.msg.replace(/^samplab (draw|pipeline): /, '')}));
                body.appendChild(tr);
                return;
            }
            var toks = [].concat.apply([], r.r.tokens);
            firsts[toks[0]] = (firsts[toks[0]] || 0) + 1;
            var td = el('div', {'class': 'toks'});
            toks.forEach(function (i, k) {
                td.appendChild(el('span', {'class': 'chip' + (common[k] !== null && common[k] !== undefined && i !== common[k] ? ' diff' : ''), title: 'draw ' + (k + 1) + ': token ' + i + ' (' + label(i) + ')',
                                           style: 'background:' + tokColor(i), text: shortLabel(i)}));
            });
            tr.appendChild(el('td', {}, [td]));
            var w = r.r.rng.words;
            tr.appendChild(el('td', {'class': 'num', title: (w / toks.length) + ' words of ' + r.r.rng.word_bits + ' bits per token',
                text: w.toLocaleString('en-US') + ' × ' + r.r.rng.word_bits + ' bit'}));
            tr.appendChild(el('td', {'class': 'small mono', text: r.r.rng.name}));
            body.appendChild(tr);
        }
        rows.forEach(add);
        body.appendChild(el('tr', {'class': 'group'}, [el('td', {colspan: 4,
            text: 'These take probabilities, not logits: softmax(logits / T) with no filter, the same weights for each.'})]));
        prow.forEach(add);
        box.appendChild(el('table', {}, [el('thead', {}, [head]), body]));
        var distinct = Object.keys(firsts).length;
        $('drawnote').textContent = 'One seed, ' + (rows.length + prow.length) + ' samplers: ' + distinct +
            ' different first token' + (distinct === 1 ? '' : 's') + ' (outlined: not the token most of them drew at that step). A seed fixes a stream of random words, not of tokens: ' +
            'each framework seeds its own generator (MT19937 three ways, ChaCha12, PCG64), spends its own number of words per ' +
            'token and turns them into a token its own way.';
    }

    /* ---------------------------------------------------------------- the real libraries */
    /* The vector as numbers, for the real libraries (samplab reads its own input): the
     * text forms samplab's readers take that JavaScript's Number() reads the same way
     * (decimal, inf, nan), or a little-endian float32/float64 .npy of one row; else null. */
    function realValues(src) {
        var text = null, name = PRESETS[state.input] ? PRESETS[state.input].file : state.input === 'file' ? state.fileName : null;
        if (name && S.hasFile(name)) {
            var b = S.fileBytes(name);
            if (/\.npy$/.test(name))
                return npyValues(b);
            text = new TextDecoder().decode(b).split('\n').filter(function (l) { return l.trim()[0] !== '#'; }).join(' ');
        } else {
            text = src;
        }
        var out = [], ok = true;
        text.split(/[\s,]+/).filter(Boolean).forEach(function (t) {
            var m = /^([+-]?)(inf|infinity|nan)$/i.exec(t);
            if (m)
                out.push(/nan/i.test(m[2]) ? NaN : m[1] === '-' ? -Infinity : Infinity);
            else if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t))
                out.push(Number(t));
            else
                ok = false;
        });
        return ok && out.length ? out : null;
    }
    function npyValues(b) {
        if (b.length < 10 || b[0] !== 0x93)
            return null;
        var hl = b[8] | b[9] << 8, h = new TextDecoder('latin1').decode(b.subarray(10, 10 + hl));
        var d = /'descr':\s*'<f([48])'/.exec(h), sh = /'shape':\s*\((\d+),?\)/.exec(h);
        if (!d || !sh || /'fortran_order':\s*True/.test(h))
            return null;
        var w = Number(d[1]), n = Number(sh[1]), dv = new DataView(b.buffer, b.byteOffset + 10 + hl);
        if (dv.byteLength < n * w)
            return null;
        var out = [];
        for (var i = 0; i < n; i++)
            out.push(w === 4 ? dv.getFloat32(4 * i, true) : dv.getFloat64(8 * i, true));
        return out;
    }

    var realGen = 0, realLoad = null, realErr = null;
    function loadReal() {
        if (realLoad)
            return;
        /* a classic script, so it loads from file:// too; about 5 MiB, after the first screen */
        realLoad = new Promise(function (ok, fail) {
            var sc = document.createElement('script');
            sc.src = 'real.js';
            sc.onload = function () { window.samplabReal.ready.then(ok, fail); };
            sc.onerror = function () { fail(new Error('real.js did not load (make explorer writes it next to index.html)')); };
            document.body.appendChild(sc);
        });
        realLoad.then(function () {
            document.body.dataset.realMs = String(Math.round(performance.now())); /* make test-browser prints it */
            schedule();
        }, function (e) { realErr = e.message; schedule(); });
    }

    /* transformers.js and tf.multinomial themselves against samplab's emulations of them,
     * for the vector and seed on screen */
    function renderReal(src, s, seed, n) {
        var gen = ++realGen, box = $('real'), R = window.samplabReal;
        var tset = {}, left = [];
        Object.keys(s).forEach(function (k) {
            if (k === 'context')
                return;
            if (['temperature', 'top_k', 'top_p', 'repetition_penalty'].indexOf(k) >= 0)
                tset[k] = s[k];
            else
                left.push(flag(k));
        });
        var prompt = s.repetition_penalty && s.context ? s.context.split(',').map(Number) : [];
        if (prompt.length)
            tset.context = s.context;
        var tsel = Object.assign({}, tset, {seed: seed, n: n}), fsel = {seed: seed, num_samples: n};
        var argvs = [S.argv('draw', 'transformers-js', src, tsel), S.argv('draw', 'tfjs', src, fsel)];
        var libs = [
            {fw: 'transformers-js', name: 'transformers.js', sam: attempt(function () { return S.draw('transformers-js', src, tsel); }),
             what: 'generate({do_sample: true' + Object.keys(tset).filter(function (k) { return k !== 'context'; }).map(function (k) { return ', ' + k + ': ' + tset[k]; }).join('') +
                   '}) for ' + n + ' steps on these logits' + (left.length ? '; without ' + left.join(', ') + ', which transformers.js lacks' : '')},
            {fw: 'tfjs', name: 'TensorFlow.js', sam: attempt(function () { return S.draw('tfjs', src, fsel); }),
             what: 'tf.multinomial(logits, ' + n + ', ' + seed + ') on the CPU backend: the logits as given (it has no temperature or filter)'}
        ];
        /* a seed above 2^53 reaches the libraries as the nearest JavaScript number, as samplab's
         * tfjs models it (its transformers-js refuses such a seed: random.seed's state would not be exact) */
        var vals = realValues(src), seedOk = /^[0-9]+$/.test(seed);
        if (seedOk && BigInt(seed) > 9007199254740992n)
            libs[1].what += '; seed ' + seed + ' as the JavaScript number ' + String(Number(seed)) + ', as tfjs gets it';
        var why = realErr ? realErr : !R ? (realLoad ? 'loading the real libraries…' : '') : !vals ? 'the real libraries need the vector as numbers: this input is read by samplab only' :
            !seedOk ? 'seed ' + seed + ' is not an integer' : '';
        function row(l, real) {
            var sam = l.sam.ok ? [].concat.apply([], l.sam.r.tokens) : null;
            var same = sam && real && real.length === sam.length && real.every(function (t, i) { return t === sam[i]; });
            var verdict = !l.sam.ok ? l.sam.msg.replace(/^samplab draw: /, '') : !real ? (why || 'running…') :
                same ? 'the same ' + sam.length + ' tokens' : 'differ' + (real.length === sam.length ? ' from draw ' + (1 + real.findIndex(function (t, i) { return t !== sam[i]; })) : '');
            function chips(ts) {
                var d = el('div', {'class': 'toks'});
                (ts || []).forEach(function (i) { d.appendChild(el('span', {'class': 'chip', style: 'background:' + tokColor(i), title: 'token ' + i + ' (' + label(i) + ')', text: shortLabel(i)})); });
                return d;
            }
            return el('tr', {'data-fw': l.fw, 'data-same': same ? '1' : sam && real ? '0' : ''}, [
                el('td', {}, [el('span', {'class': 'fw', text: l.name}), ' ', el('span', {'class': 'muted small', text: R ? R.versions[l.fw === 'tfjs' ? 'tfjs-core' : 'transformers'] : ''}),
                              el('div', {'class': 'muted small', text: l.what})]),
                el('td', {'class': 'realtoks'}, [chips(real)]),
                el('td', {'class': 'samtoks'}, [chips(sam)]),
                el('td', {'class': 'verdict' + (same ? ' same' : sam && real ? ' differs' : ''), text: (same ? '= ' : sam && real ? '≠ ' : '') + verdict})]);
        }
        function draw(reals) {
            box.textContent = '';
            var head = el('tr', {}, [el('th', {text: 'library'}), el('th', {text: 'the library itself'}), el('th', {text: 'samplab'}), el('th', {text: 'same?'})]);
            var body = el('tbody');
            libs.forEach(function (l, i) { body.appendChild(row(l, reals && reals[i])); });
            box.appendChild(el('table', {}, [el('thead', {}, [head]), body]));
        }
        $('realnote').textContent = 'Seed ' + seed + ': the real transformers.js ' + (R ? R.versions.transformers + ' (onnxruntime-web ' + R.versions['onnxruntime-web'] + ' for its TopK)' : '') +
            ' and TensorFlow.js ' + (R ? R.versions['tfjs-core'] : '') + ', bundled into this page from npm, draw next to samplab\'s WebAssembly (' +
            flag('framework') + ' transformers-js and tfjs). Nothing is fetched.';
        draw(null);
        document.body.dataset.real = R ? 'running' : 'loading';
        if (!R || why) {
            if (R || realErr)
                document.body.dataset.real = 'done';
            return argvs;
        }
        var f32 = Float32Array.from(vals), num = Number(seed);
        var jobs = [libs[0].sam.ok ? R.transformersjs(f32, Object.keys(tset).reduce(function (o, k) { if (k !== 'context') o[k] = Number(tset[k]); return o; }, {}), prompt, num, Number(n)) : null,
                    libs[1].sam.ok ? R.tfjs(f32, Number(n), num, false) : null];
        Promise.all(jobs).then(function (reals) {
            if (gen !== realGen)
                return;
            draw(reals);
            document.body.dataset.real = 'done';
            document.body.dataset.realRendered = String(Number(document.body.dataset.realRendered || 0) + 1);
        }, function (e) {
            if (gen !== realGen)
                return;
            box.appendChild(el('p', {'class': 'error', text: 'the real libraries failed: ' + e.message}));
            document.body.dataset.real = 'done';
        });
        return argvs;
    }

    /* ---------------------------------------------------------------- events */
    function setInput(kind) {
        state.input = kind;
        if (kind === 'custom' && PRESETS.weather)
            $('logits').value = state.custom;
        schedule();
    }

    function loadFile(f) {
        var reader = new FileReader();
        reader.onload = function () {
            var name = f.name.replace(/[^A-Za-z0-9._-]/g, '_') || 'logits.txt';
            S.addFile(name, new Uint8Array(reader.result));
            state.input = 'file';
            state.fileName = name;
            schedule();
        };
        reader.readAsArrayBuffer(f);
    }

    function wire() {
        Array.prototype.forEach.call(document.querySelectorAll('#inputs button'), function (b) {
            b.addEventListener('click', function () { setInput(b.dataset.input); });
        });
        $('logits').addEventListener('input', function () {
            state.input = 'custom';
            state.custom = $('logits').value;
            schedule();
        });
        var drop = $('drop');
        drop.addEventListener('dragover', function (e) { e.preventDefault(); drop.classList.add('over'); });
        drop.addEventListener('dragleave', function () { drop.classList.remove('over'); });
        drop.addEventListener('drop', function (e) {
            e.preventDefault();
            drop.classList.remove('over');
            if (e.dataTransfer.files.length)
                loadFile(e.dataTransfer.files[0]);
        });
        document.addEventListener('dragover', function (e) { e.preventDefault(); });
        document.addEventListener('drop', function (e) {
            e.preventDefault();
            if (e.dataTransfer && e.dataTransfer.files.length)
                loadFile(e.dataTransfer.files[0]);
        });
        $('file').addEventListener('change', function () { if ($('file').files.length) loadFile($('file').files[0]); });
        $('cpu').addEventListener('change', function () { state.cpu = $('cpu').value; schedule(); });
        $('seed').addEventListener('change', function () { state.seed = $('seed').value.trim() || '42'; schedule(); });
        $('n').addEventListener('change', function () { state.n = String(Math.max(1, Math.min(64, Number($('n').value) || 1))); schedule(); });
        $('draw').addEventListener('click', function () {
            state.seed = $('seed').value.trim() || '42';
            state.n = String(Math.max(1, Math.min(64, Number($('n').value) || 1)));
            schedule();
        });
        $('nextseed').addEventListener('click', function () {
            var v = /^[0-9]+$/.test(state.seed) ? (BigInt(state.seed) + 1n).toString() : '42';
            state.seed = v;
            schedule();
        });
        $('tocontrols').addEventListener('click', function () { $('controls').scrollIntoView(); });
        $('copy').addEventListener('click', function () {
            var t = $('cmd').textContent;
            (navigator.clipboard ? navigator.clipboard.writeText(t) : Promise.reject()).then(function () {
                $('copy').textContent = 'Copied';
            }, function () {
                var r = document.createRange();
                r.selectNodeContents($('cmd'));
                getSelection().removeAllRanges();
                getSelection().addRange(r);
                $('copy').textContent = 'Selected: Ctrl+C';
            });
            setTimeout(function () { $('copy').textContent = 'Copy'; }, 1500);
        });
        window.addEventListener('hashchange', function () {
            if (location.hash !== toHash()) {
                fromHash();
                schedule();
            }
        });
    }

    fromHash();
    S.ready.then(function () {
        buildSliders(); /* the controls are named by the module's schema */
        wire();
        $('version').textContent = S.version + '.';
        render();
        document.body.dataset.ready = '1';
        loadReal();
    }, function (e) {
        $('error').hidden = false;
        $('error').textContent = 'The WebAssembly module did not load: ' + e.message;
    });
})();
