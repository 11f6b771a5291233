/* samplab.js — runs samplab's commands (pipeline, draw, compare, rng), compiled
 * from the CLI's own C sources to WebAssembly (web/main.c), in a page or in node.
 * No sampling code lives here: this file is the WASI system interface that the
 * C program needs (arguments, stdout/stderr, read-only files in memory, exit)
 * and the window.samplab surface over it:
 *
 *   samplab.pipeline(framework, logits, settings)  -> what `samplab pipeline --framework F ... --json` prints
 *   samplab.draw(framework, logits, settings)      -> what `samplab draw --framework F ... --json` prints
 *   samplab.compare(logits, settings)              -> what `samplab compare ... --json` prints
 *   samplab.run(argv, files)                       -> {status, stdout, stderr} of `samplab argv...`
 *   samplab.argv(command, framework, logits, settings) -> the argument list those calls run
 *   samplab.schema()                               -> the settings schema, key -> {option, kind, help, ...}
 *
 * settings: the keys of the library's settings schema (`samplab schema`: the CLI's
 * option names with '_' for '-'; each goes to the command as that schema's option
 * text) ({top_k: 40, repetition_penalty: 1.3,
 * context: [0, 1], seed: 42, n: 10, cpu: "avx2"}); true is a flag, false/null leave
 * the option out. logits: an array of numbers (an inline list), a string (a file the
 * page has by that name, such as "data/weather.txt", else an inline list as the CLI
 * reads it), or {name, bytes|text} (a file: a .npy or a text file). The vector is
 * passed as --logits, or as --probs with settings.probs === true or to a framework
 * that takes probabilities only (torch, numpy, numpy-legacy). A failing command
 * throws an Error whose message is the CLI's one-line diagnostic (e.status = 2). */
(function (global) {
    'use strict';

    var E = {SUCCESS: 0, BADF: 8, INVAL: 28, ISDIR: 31, NOENT: 44, NOSYS: 52, NOTDIR: 54, SPIPE: 70};
    var FT_CHAR = 2, FT_DIR = 3, FT_FILE = 4;
    var PROBS_ONLY = {torch: 1, numpy: 1, 'numpy-legacy': 1, gsl: 1};

    function Exit(code) {
        this.code = code;
    }

    var utf8 = typeof TextEncoder !== 'undefined' ? new TextEncoder() : null;
    var utf8d = typeof TextDecoder !== 'undefined' ? new TextDecoder('utf-8') : null;

    function bytesOf(x) {
        if (x instanceof Uint8Array)
            return x;
        if (x instanceof ArrayBuffer)
            return new Uint8Array(x);
        if (ArrayBuffer.isView(x))
            return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
        return utf8.encode(String(x));
    }

    /* "data/./x" and "/data/x" name the same file as "data/x" */
    function normPath(p) {
        var out = [];
        p.split('/').forEach(function (c) {
            if (c === '' || c === '.')
                return;
            if (c === '..')
                out.pop();
            else
                out.push(c);
        });
        return out.join('/');
    }

    var wasmModule = null; /* the compiled WebAssembly.Module */
    var bundled = {};      /* files every run sees: name -> Uint8Array */

    /* One run of the program: a fresh instance, so no state is carried from one
     * command to the next (as with separate processes of the CLI). */
    function run(argv, files) {
        if (!wasmModule)
            throw new Error('samplab: the WebAssembly module is not loaded yet (await samplab.ready)');
        var fs = {};
        Object.keys(bundled).forEach(function (k) { fs[k] = bundled[k]; });
        Object.keys(files || {}).forEach(function (k) { fs[normPath(k)] = bytesOf(files[k]); });
        var args = ['samplab'].concat(argv.map(String)).map(function (a) { return utf8.encode(a); });
        var out = [], err = [], fds = {}, nextFd = 4, mem = null;

        function dv() { return new DataView(mem.buffer); }
        function u8() { return new Uint8Array(mem.buffer); }
        function str(ptr, len) { return utf8d.decode(u8().slice(ptr, ptr + len)); }
        function lookup(dirfd, ptr, len) {
            if (dirfd !== 3)
                return {errno: E.BADF};
            var p = normPath(str(ptr, len));
            if (p === '')
                return {dir: true};
            if (Object.prototype.hasOwnProperty.call(fs, p))
                return {path: p, data: fs[p]};
            var pre = p + '/';
            for (var k in fs)
                if (k.lastIndexOf(pre, 0) === 0)
                    return {dir: true};
            return {errno: E.NOENT};
        }
        function filestat(ptr, type, size) {
            var d = dv();
            for (var i = 0; i < 64; i += 8)
                d.setBigUint64(ptr + i, 0n, true);
            d.setUint8(ptr + 16, type);
            d.setBigUint64(ptr + 24, 1n, true);
            d.setBigUint64(ptr + 32, BigInt(size), true);
        }

        var wasi = {
            args_sizes_get: function (argcPtr, sizePtr) {
                var d = dv(), n = 0;
                args.forEach(function (a) { n += a.length + 1; });
                d.setUint32(argcPtr, args.length, true);
                d.setUint32(sizePtr, n, true);
                return E.SUCCESS;
            },
            args_get: function (argvPtr, bufPtr) {
                var d = dv(), m = u8();
                args.forEach(function (a, i) {
                    d.setUint32(argvPtr + 4 * i, bufPtr, true);
                    m.set(a, bufPtr);
                    m[bufPtr + a.length] = 0;
                    bufPtr += a.length + 1;
                });
                return E.SUCCESS;
            },
            environ_sizes_get: function (cPtr, sPtr) {
                dv().setUint32(cPtr, 0, true);
                dv().setUint32(sPtr, 0, true);
                return E.SUCCESS;
            },
            environ_get: function () { return E.SUCCESS; },
            fd_write: function (fd, iovs, n, nwPtr) {
                var d = dv(), total = 0;
                if (fd !== 1 && fd !== 2)
                    return E.BADF;
                for (var i = 0; i < n; i++) {
                    var p = d.getUint32(iovs + 8 * i, true), l = d.getUint32(iovs + 8 * i + 4, true);
                    (fd === 1 ? out : err).push(u8().slice(p, p + l));
                    total += l;
                }
                dv().setUint32(nwPtr, total, true);
                return E.SUCCESS;
            },
            fd_read: function (fd, iovs, n, nrPtr) {
                var f = fds[fd], d = dv(), total = 0;
                if (!f)
                    return fd === 0 ? (d.setUint32(nrPtr, 0, true), E.SUCCESS) : E.BADF;
                for (var i = 0; i < n; i++) {
                    var p = d.getUint32(iovs + 8 * i, true), l = d.getUint32(iovs + 8 * i + 4, true);
                    var chunk = f.data.subarray(f.pos, Math.min(f.data.length, f.pos + l));
                    u8().set(chunk, p);
                    f.pos += chunk.length;
                    total += chunk.length;
                    if (chunk.length < l)
                        break;
                }
                dv().setUint32(nrPtr, total, true);
                return E.SUCCESS;
            },
            fd_seek: function (fd, offset, whence, newPtr) {
                var f = fds[fd];
                if (!f)
                    return fd <= 2 ? E.SPIPE : E.BADF;
                var base = whence === 0 ? 0 : whence === 1 ? f.pos : f.data.length;
                var pos = base + Number(offset);
                if (pos < 0)
                    return E.INVAL;
                f.pos = pos;
                dv().setBigUint64(newPtr, BigInt(pos), true);
                return E.SUCCESS;
            },
            fd_close: function (fd) {
                if (!fds[fd])
                    return E.BADF;
                delete fds[fd];
                return E.SUCCESS;
            },
            fd_fdstat_get: function (fd, ptr) {
                var d = dv();
                var type = fd <= 2 ? FT_CHAR : fd === 3 ? FT_DIR : fds[fd] ? FT_FILE : -1;
                if (type < 0)
                    return E.BADF;
                d.setUint8(ptr, type);
                d.setUint16(ptr + 2, 0, true);
                d.setBigUint64(ptr + 8, 0xffffffffffffffffn, true);
                d.setBigUint64(ptr + 16, 0xffffffffffffffffn, true);
                return E.SUCCESS;
            },
            fd_fdstat_set_flags: function () { return E.SUCCESS; },
            fd_filestat_get: function (fd, ptr) {
                if (fd <= 2)
                    filestat(ptr, FT_CHAR, 0);
                else if (fd === 3)
                    filestat(ptr, FT_DIR, 0);
                else if (fds[fd])
                    filestat(ptr, FT_FILE, fds[fd].data.length);
                else
                    return E.BADF;
                return E.SUCCESS;
            },
            fd_prestat_get: function (fd, ptr) {
                if (fd !== 3)
                    return E.BADF;
                dv().setUint8(ptr, 0);
                dv().setUint32(ptr + 4, 1, true);
                return E.SUCCESS;
            },
            fd_prestat_dir_name: function (fd, ptr, len) {
                if (fd !== 3)
                    return E.BADF;
                if (len >= 1)
                    u8()[ptr] = 0x2f; /* "/" */
                return E.SUCCESS;
            },
            path_filestat_get: function (dirfd, flags, ptr, len, buf) {
                var r = lookup(dirfd, ptr, len);
                if (r.errno)
                    return r.errno;
                filestat(buf, r.dir ? FT_DIR : FT_FILE, r.dir ? 0 : r.data.length);
                return E.SUCCESS;
            },
            path_open: function (dirfd, dirflags, ptr, len, oflags, rb, ri, fdflags, fdPtr) {
                var r = lookup(dirfd, ptr, len);
                if (r.errno)
                    return r.errno;
                if (oflags & (1 | 4 | 8)) /* O_CREAT, O_EXCL, O_TRUNC: the files are read-only */
                    return E.INVAL;
                if (r.dir && !(oflags & 2))
                    return E.ISDIR;
                if (!r.dir && (oflags & 2))
                    return E.NOTDIR;
                var fd = nextFd++;
                fds[fd] = {data: r.dir ? new Uint8Array(0) : r.data, pos: 0};
                dv().setUint32(fdPtr, fd, true);
                return E.SUCCESS;
            },
            proc_exit: function (code) {
                throw new Exit(code);
            }
        };
        var imports = {wasi_snapshot_preview1: new Proxy(wasi, {
            get: function (t, name) {
                return name in t ? t[name] : function () { return E.NOSYS; };
            }
        })};
        var inst = new WebAssembly.Instance(wasmModule, imports);
        mem = inst.exports.memory;
        var status = 0;
        try {
            inst.exports._start();
        } catch (e) {
            if (!(e instanceof Exit))
                throw e;
            status = e.code;
        }
        function join(parts) {
            var n = 0, o = 0;
            parts.forEach(function (p) { n += p.length; });
            var b = new Uint8Array(n);
            parts.forEach(function (p) { b.set(p, o); o += p.length; });
            return utf8d.decode(b);
        }
        return {status: status, stdout: join(out), stderr: join(err)};
    }

    /* JavaScript numbers as text that strtod reads back to the same double */
    function numText(x) {
        if (Object.is(x, -0))
            return '-0';
        if (x === Infinity)
            return 'inf';
        if (x === -Infinity)
            return '-inf';
        if (x !== x)
            return 'nan';
        return String(x);
    }

    function vectorArg(v, files) {
        if (Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof Uint8Array)))
            return Array.prototype.map.call(v, numText).join(',');
        if (typeof v === 'string')
            return v;
        if (v && v.name) {
            files[v.name] = v.bytes !== undefined ? v.bytes : v.text;
            return v.name;
        }
        throw new Error('samplab: logits must be an array of numbers, a string or {name, bytes|text}');
    }

    /* key -> {option, kind, group, help, ...}: the library's settings schema, read once */
    var schema = null;
    function optionOf(k) {
        if (!schema)
            schema = JSON.parse(run(['schema']).stdout);
        if (!Object.prototype.hasOwnProperty.call(schema, k))
            throw new Error("samplab: '" + k + "' is not a key of samplab's settings (samplab schema)");
        return schema[k].option;
    }

    function optionArgs(settings, skip) {
        var a = [];
        Object.keys(settings || {}).forEach(function (k) {
            var v = settings[k];
            if (skip[k] || v === false || v === null || v === undefined)
                return;
            a.push(optionOf(k));
            if (v === true)
                return;
            a.push(Array.isArray(v) ? v.map(function (x) { return typeof x === 'number' ? numText(x) : String(x); }).join(',')
                   : typeof v === 'number' ? numText(v) : String(v));
        });
        return a;
    }

    /* The arguments of `samplab command ...` for these settings, and the files they name. */
    function argvFor(command, framework, logits, settings) {
        var files = {}, s = settings || {}, a = [command];
        if (framework)
            a.push(optionOf('framework'), framework);
        var asProbs = s.probs === true || (command === 'draw' && PROBS_ONLY[framework]);
        a.push(optionOf(asProbs ? 'probs' : 'logits'), vectorArg(logits, files));
        a = a.concat(optionArgs(s, {probs: s.probs === true, files: 1, json: 1}));
        if (s.json !== false && command !== 'rng')
            a.push(optionOf('json'));
        return {argv: a, files: Object.assign(files, s.files || {})};
    }

    function runJson(command, framework, logits, settings) {
        var c = argvFor(command, framework, logits, settings);
        var r = run(c.argv, c.files);
        if (r.status !== 0) {
            var e = new Error(r.stderr.trim() || ('samplab ' + command + ' exited with status ' + r.status));
            e.status = r.status;
            e.stderr = r.stderr;
            throw e;
        }
        return JSON.parse(r.stdout);
    }

    var api = {
        version: null,
        run: run,
        argv: function (command, framework, logits, settings) { return argvFor(command, framework, logits, settings).argv; },
        schema: function () { optionOf('json'); return schema; },
        pipeline: function (framework, logits, settings) { return runJson('pipeline', framework, logits, settings); },
        draw: function (framework, logits, settings) { return runJson('draw', framework, logits, settings); },
        compare: function (logits, settings) { return runJson('compare', null, logits, settings); },
        /* a file every later run sees (the page's presets, a dropped file) */
        addFile: function (name, data) { bundled[normPath(name)] = bytesOf(data); },
        hasFile: function (name) { return Object.prototype.hasOwnProperty.call(bundled, normPath(name)); },
        fileBytes: function (name) { return bundled[normPath(name)] || null; },
        numText: numText,
        ready: null
    };

    /* The module's bytes: embedded (site/samplab-wasm.js sets SAMPLAB_WASM_BASE64, so
     * the page works from file:// where fetch cannot read a neighbour file), or given. */
    function decodeBase64(b64) {
        if (typeof atob === 'function') {
            var s = atob(b64), b = new Uint8Array(s.length);
            for (var i = 0; i < s.length; i++)
                b[i] = s.charCodeAt(i);
            return b;
        }
        return new Uint8Array(Buffer.from(b64, 'base64'));
    }

    /* any WASI program's bytes (the tests run their own through run()) */
    api.load = function (bytes) {
        return WebAssembly.compile(bytes).then(function (m) {
            wasmModule = m;
            return api;
        });
    };
    if (global.SAMPLAB_WASM_BASE64)
        api.ready = api.load(decodeBase64(global.SAMPLAB_WASM_BASE64)).then(function () {
            api.version = run(['--version']).stdout.trim();
            return api;
        });
    /* the page's example inputs, byte for byte (site/samplab-wasm.js: name -> base64) */
    if (global.SAMPLAB_FILES)
        Object.keys(global.SAMPLAB_FILES).forEach(function (k) { api.addFile(k, decodeBase64(global.SAMPLAB_FILES[k])); });

    global.samplab = api;
})(typeof window !== 'undefined' ? window : globalThis);
