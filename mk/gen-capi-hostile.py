#!/usr/bin/env python3
"""gen-capi-hostile.py — writes the C API's hostile-argument test from the public headers.

The calls in scope are those docs/c-api.md documents: every sl_ name the page
mentions ("sl_fw_session_open / _step" names _step too), each command's family
the page describes (sl_api_CMD, sl_api_CMD_run, _result_free, _result_json), and
every sl_fw_session_* and sl_stat_gof_* call. Each one's prototype is read from
the headers src/samplab.h includes, and each pointer argument is passed NULL in
turn (a length beside it keeps its non-zero value), each size argument 0 in turn
and each double argument NaN; a call taking settings is called with each double
setting of sl_logits_cfg NaN (the has_ flag set); a call taking a session is called
on a closed one and on a zeroed one. Expected, by what the call returns:

  int with an sl_error *   SL_EINVAL and a one-line, non-empty message; again with
                           err NULL: SL_EINVAL and no crash
  a pointer                NULL
  void                     nothing (a NULL argument is a no-op, as free(NULL) is)

An argument a call is documented to accept NULL (an optional progress callback)
is in ACCEPTS_NULL with the reason; a type with no fixture, or a call in scope
that cannot be tested this way and is not in EXEMPT with the reason, stops the
generator, so a new public call without checks fails the build of the test.

Usage: gen-capi-hostile.py OUT.c   (run from the source tree; make test does it)
"""
import glob
import re
import sys

HEADERS = ["src/samplab.h"] + sorted(h for h in glob.glob("src/*/sl_*.h") if not h.startswith("src/cli/"))
COMMANDS_PAGE = "docs/c-api.md"

# (call, argument) -> why NULL is a documented value, not a mistake
ACCEPTS_NULL = {
    ("*", "prog"): "an optional progress report (sl_progress: a NULL one is never called)",
    ("*", "each"): "optional: without it the tokens are kept in the result",
    ("*", "ctx"): "the caller's pointer handed to its own callback, never read by samplab",
    ("*", "s:settings"): "NULL settings are the command's defaults (sl_api_or_defaults, sl_api.h)",
    ("sl_io_vec_read", "tensor"): "a .safetensors tensor name; NULL takes the file's only tensor",
    ("sl_io_steps_read", "tensor"): "a .safetensors tensor name; NULL takes the file's only tensor",
    ("sl_api_gen_replay", "rng_name"): "the generator's name, when the caller wants it (sl_api.h)",
    ("sl_stat_gof_normalise", "sum"): "the sum, when the caller wants it (sl_stat.h: *sum may be NULL)",
    ("sl_base_vec_alloc", "source"): "the name messages give the vector; NULL gives none",
}

# call -> why it is in scope but not tested here
EXEMPT = {
    "sl_api_free": "free(): NULL is a no-op, anything else must come from an sl_api_ call",
}

# sizes that cannot be 0 (a length beside an array may be: no context, counts given as ids)
SIZE_NOT_ZERO = {"V": "a vocabulary of no token"}

# The value each argument takes when it is not the one under test, by type and
# (where one type has several roles) by name. Names refer to the fixture in the
# generated file's setup().
FIXTURE = {
    "sl_error *": "&fx.err", "struct sl_error *": "&fx.err",
    "const sl_api_src *": "&fx.src",
    "const sl_api_settings *": "&fx.settings", "sl_api_settings *": "fx.handle",
    "int is_logits": "1", "int logits_input": "1", "int reps_auto": "0", "int fault": "0",
    "const sl_progress *": "&fx.prog",
    "void (*)(void *ctx, size_t token) each": "fx_each", "void * ctx": "&fx",
    "char ** json": "&fx.json",
    "const uint64_t * counts": "fx.counts", "uint64_t * counts": "fx.counts_out",
    "const long * ids": "fx.ids", "const long * context": "fx.context", "const long * tokens": "fx.obs",
    "const long * obs": "fx.obs", "long * tokens": "fx.tokens_out", "uint64_t * words": "fx.words_out",
    "size_t * kept": "fx.kept_out", "const char ** rng_name": "&fx.cstr",
    "size_t n_counts": "8", "size_t n_ids": "8", "size_t context_n": "2", "size_t n_tokens": "3",
    "size_t V": "8", "size_t n": "sizeof fx.rule", "size_t support": "8", "size_t reps": "100",
    "size_t trials": "10", "uint64_t n": "1000",
    "const double * p": "fx.p", "const double * w": "fx.p", "double * p": "fx.p_out", "double * sum": "&fx.sum",
    "double alpha": "0.01",
    "const sl_fw_type *": "fx.ft", "const sl_fw_opts *": "&fx.fo", "const sl_io_steps *": "&fx.steps",
    "const sl_vec *": "&fx.vec", "sl_vec *": "&fx.out.vec", "sl_io_steps *": "&fx.out.steps",
    "sl_fw_session *": "&fx.sess", "const sl_fw_session *": "&fx.sess",
    "sl_fw_session * s:open": "&fx.out.sess",
    "long token": "0",
    "const sl_stat_gof *": "&fx.gof", "char * rule": "fx.rule",
    "const sl_draw_type *": "fx.dt", "void ** table": "&fx.table",
    "const sl_rng_type *": "fx.rt", "const sl_seed *": "&fx.seed", "sl_rng *": "&fx.out.rng",
    "const sl_logits_pipeline_type *": "fx.pt", "const sl_logits_cfg *": "&fx.fo.cfg",
    "const sl_stat_exact_type *": "fx.et", "const sl_stat_exact_input *": "&fx.ein",
    "const char * spec": "\"5,4.3,3.9,2.2,1.4,0.7,-0.1,-1.2\"", "const char * path": "fx.steps_path",
    "const char * tensor": "NULL", "long row": "-1", "const char * source": "\"fuzz\"",
    "const char * cmd": "\"draw\"", "const char * key": "\"top_k\"", "const char * text": "\"40\"",
    "const char * name": "\"hf\"",
    "const sl_api_draw_result *": "&fx.out.draw", "const sl_api_compare_result *": "&fx.out.compare",
    "const sl_api_power_result *": "&fx.out.power", "const sl_api_calibrate_result *": "&fx.out.calibrate",
    "const sl_api_replay_result *": "&fx.out.replay", "const sl_api_bench_result *": "&fx.out.bench",
    "const sl_api_check_result *": "&fx.out.check", "const sl_api_pipeline_result *": "&fx.out.pipeline",
}
# output structs: the union member each goes to (any pointer to a struct the call fills)
OUT_TYPES = {
    "sl_api_draw_result *": "draw", "sl_api_gof_result *": "gof", "sl_api_pipeline_result *": "pipeline",
    "sl_api_compare_result *": "compare", "sl_api_exact_audit *": "exact", "sl_api_power_result *": "power",
    "sl_api_calibrate_result *": "calibrate", "sl_api_replay_result *": "replay", "sl_api_bench_result *": "bench",
    "sl_api_check_result *": "check", "sl_api_divergence *": "div", "sl_api_check_log_result *": "clog",
    "sl_fw_step *": "step", "sl_logits_result *": "res", "sl_fw_result *": "fwres", "sl_stat_gof *": "g",
    "sl_stat_gof_test *": "t", "sl_stat_exact_result *": "exres",
}


def strip(t):
    t = re.sub(r"/\*.*?\*/", " ", t, flags=re.S)
    t = re.sub(r"//[^\n]*", "", t)
    return re.sub(r"^\s*#[^\n]*", "", t, flags=re.M)


def top_level(t):
    depth, out = 0, []
    for ch in t:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def split_params(p):
    out, depth, cur = [], 0, ""
    for ch in p:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return [] if out == ["void"] else out


def parse_param(p):
    """-> (type, name): 'const double *p' -> ('const double *', 'p'); a function pointer keeps its shape."""
    m = re.match(r"^(.*)\(\s*\*\s*(\w+)\s*\)\s*(\(.*\))$", p)
    if m:
        return (" ".join(m.group(1).split()) + " (*)" + m.group(3), m.group(2))
    if p == "...":
        return ("...", "...")
    p = re.sub(r"\s*\[[^\]]*\]$", "", p)  # an array argument: outside the scope, never called
    m = re.match(r"^(.*?)(\w+)$", p)
    if not m:
        return (p, "")
    ty = " ".join(m.group(1).replace("*", " * ").split()).replace("* *", "**")
    return (ty, m.group(2))


def prototypes():
    protos = {}
    for h in HEADERS:
        t = top_level(strip(open(h).read()))
        for m in re.finditer(r"([A-Za-z_][\w\s\*]*?)\b(sl_\w+)\s*\(([^;{}]*?)\)\s*(__attribute__\s*\(\(.*?\)\))?\s*;",
                             t, flags=re.S):
            ret = " ".join(m.group(1).split()).split(";")[-1].strip()
            if "typedef" in ret or ret.startswith("extern"):
                continue
            ret = " ".join(ret.replace("*", " * ").split()).replace("* *", "**")
            protos[m.group(2)] = (ret, [parse_param(p) for p in split_params(" ".join(m.group(3).split()))], h)
    return protos


def scope(protos):
    page = open(COMMANDS_PAGE).read()
    names = set(re.findall(r"\bsl_[a-z0-9_]+", page))
    for m in re.finditer(r"\b(sl_[a-z0-9_]+?)_([a-z0-9]+)((?:\s*/\s*_[a-z0-9]+)+)", page):
        for s in re.findall(r"_([a-z0-9]+)", m.group(3)):
            names.add(m.group(1) + "_" + s)
    for n in list(names):
        if n.startswith("sl_api_") and n + "_run" in protos:
            names |= {n + "_run", n + "_result_free", n + "_result_json"}
    names |= {n for n in protos if n.startswith(("sl_fw_session_", "sl_stat_gof_"))}
    return sorted(n for n in names if n in protos)


def key(ty, name):
    t = ty.rstrip()
    if t.endswith("*") and not t.endswith(" *"):
        t = t[:-1].rstrip() + " *"
    return t


def norm(s):
    return " ".join(s.replace("*", " * ").split()).replace("* *", "**")


FIXTURE_N = {norm(k): v for k, v in FIXTURE.items()}


def fixture(fn, ty, name):
    t = key(ty, name)
    ctx = "s:open" if fn.startswith("sl_fw_session_open") and norm(t) == "sl_fw_session *" else None
    for k in ([t + " " + ctx] if ctx else []) + [t + " " + name, t]:
        if norm(k) in FIXTURE_N:
            return FIXTURE_N[norm(k)]
    if norm(t) in {norm(k) for k in OUT_TYPES}:
        return "&fx.out." + {norm(k): v for k, v in OUT_TYPES.items()}[norm(t)]
    sys.exit("gen-capi-hostile: %s: no fixture for argument '%s %s': add one to FIXTURE in %s"
             % (fn, ty, name, sys.argv[0]))


ACCEPTED = []  # (call, argument, reason) of every NULL left untested, for the generated file's head


def accepts_null(fn, ty, name):
    why = None
    for k in ((fn, name), ("*", name)):
        if k in ACCEPTS_NULL:
            why = ACCEPTS_NULL[k]
            break
    if not why and norm(key(ty, name)) == "const sl_api_settings *":
        why = ACCEPTS_NULL[("*", "s:settings")]
    if why:
        ACCEPTED.append((fn, name, why))
    return why is not None


def is_pointer(ty):
    return "*" in ty


CFG_DOUBLES_RE = re.compile(r"int\s+has_(\w+);\s*double\s+(\w+);")


def cfg_doubles():
    t = open("src/logits/sl_logits.h").read()
    body = t[t.index("typedef struct sl_logits_cfg"):]
    body = body[:body.index("} sl_logits_cfg;")]
    return [a for a, b in CFG_DOUBLES_RE.findall(body) if a == b]


def main():
    out = sys.argv[1]
    protos = prototypes()
    names = scope(protos)
    cases, listed = [], []
    nan_fields = cfg_doubles()
    for fn in names:
        ret, params, hdr = protos[fn]
        if fn in EXEMPT:
            listed.append("%s: %s" % (fn, EXEMPT[fn]))
            continue
        has_err = any(key(t, n) in ("sl_error *", "struct sl_error *") for t, n in params)
        if ret == "int" and has_err:
            kind = "status"
        elif ret == "int":
            kind = "int"
        elif "*" in ret:
            kind = "pointer"
        elif ret == "void":
            kind = "void"
        else:
            sys.exit("gen-capi-hostile: %s returns %s: say in EXEMPT why it is not tested" % (fn, ret))
        base = [fixture(fn, t, n) for t, n in params]
        for i, (t, n) in enumerate(params):
            variants = []
            if is_pointer(t) and not accepts_null(fn, t, n):
                variants.append(("NULL", "%s NULL" % n))
            elif t == "size_t" and n in SIZE_NOT_ZERO and kind in ("status", "int"):
                variants.append(("0", "%s 0" % n))
            elif t == "double":
                variants.append(("NAN", "%s NaN" % n))
            for val, what in variants:
                if key(t, n) in ("sl_error *", "struct sl_error *") and kind == "status":
                    continue  # err NULL is run beside every other case
                args = list(base)
                # NULL cast to the argument's type (a function pointer's NULL as is)
                args[i] = ("(%s)NULL" % t if "(*)" not in t else "NULL") if val == "NULL" else val
                cases.append((fn, kind, what, args, params))
        # the settings NaN, and the closed and zeroed sessions
        for i, (t, n) in enumerate(params):
            kt = key(t, n)
            if kind == "status" and kt in ("const sl_fw_opts *", "const sl_api_settings *", "const sl_logits_cfg *"):
                for f in nan_fields:
                    cases.append((fn, kind, "%s NaN" % f, list(base), params, ("nan", i, kt, f)))
            if kt in ("sl_fw_session *", "const sl_fw_session *") and not fn.startswith("sl_fw_session_open"):
                for state in ("closed", "zeroed"):
                    args = list(base)
                    args[i] = "&fx.%s" % state
                    cases.append((fn, kind, "a %s session" % state, args, params))
    write(out, names, cases, listed)


def write(out, names, cases, listed):
    L = []
    w = L.append
    w("/* capi_hostile.c — GENERATED by mk/gen-capi-hostile.py from the public headers and")
    w(" * docs/c-api.md: do not edit. %d calls in scope, %d hostile calls. Each public call" % (len(names), len(cases)))
    w(" * with each pointer argument NULL in turn, each size 0, each double NaN, each double")
    w(" * setting NaN, and each session closed or zeroed: SL_EINVAL and a one-line message")
    w(" * (again with err NULL: SL_EINVAL, no crash); a pointer result NULL; a void call a no-op.")
    w(" * Not tested, with the reason:")
    for x in listed:
        w(" *   " + x)
    w(" * Arguments documented to accept NULL, so not passed NULL:")
    for fn, name, why in ACCEPTED:
        w(" *   %s(%s): %s" % (fn, name, why))
    w(" */")
    w('#include "capi_hostile_fixture.h"')
    w("")
    n = 0
    for c in cases:
        fn, kind, what, args, params = c[:5]
        nan = c[5] if len(c) > 5 else None
        n += 1
        w("static void case_%d(void)" % n)
        w("{")
        w("    fx_setup();")
        if nan:
            _, i, kt, f = nan
            target = {"const sl_fw_opts *": "fx.fo.cfg", "const sl_api_settings *": "fx.settings.cfg",
                      "const sl_logits_cfg *": "fx.fo.cfg"}[kt]
            w("    %s.has_%s = 1, %s.%s = NAN;" % (target, f, target, f))
        call = "%s(%s)" % (fn, ", ".join(args))
        label = "%s with %s" % (fn, what)
        if kind == "status":
            w("    int rc = %s;" % call)
            w('    fx_expect_status(rc, "%s");' % label)
            errs = [i for i, (t, nm) in enumerate(params) if key(t, nm) in ("sl_error *", "struct sl_error *")]
            a2 = list(args)
            a2[errs[0]] = "NULL"
            w("    fx_reset();")
            if nan:
                w("    %s.has_%s = 1, %s.%s = NAN;" % (target, f, target, f))
            w("    rc = %s(%s);" % (fn, ", ".join(a2)))
            w('    fx_expect_rc(rc, "%s, err NULL");' % label)
        elif kind == "int":
            w("    int rc = %s;" % call)
            w('    fx_expect_rc(rc, "%s");' % label)
        elif kind == "pointer":
            w("    const void *r = %s;" % call)
            w('    fx_expect_null(r, "%s");' % label)
        else:
            w("    %s;" % call)
            w('    fx_expect_done("%s");' % label)
        w("    fx_teardown();")
        w("}")
    w("")
    w("const fx_case fx_cases[] = {")
    for i, c in enumerate(cases):
        w('    {"%s", "%s", case_%d},' % (c[0], c[2], i + 1))
    w("    {NULL, NULL, NULL}};")
    w("const size_t fx_n_calls = %d;" % len(names))
    open(out + ".tmp", "w").write("\n".join(L) + "\n")
    import os
    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main()
