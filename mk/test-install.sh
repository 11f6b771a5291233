#!/bin/sh
# test-install.sh — what a user of the installed tree gets: `make install` into a
# fresh PREFIX (and a DESTDIR), the library's exports and soname, the README's
# cc line and the examples built through pkg-config against it, shared and static,
# and run; the Python package where Debian's python3 looks under PREFIX, and
# installed by pip offline; `make wheel` installed into a fresh venv; when ldconfig
# runs; then `make uninstall` leaves nothing, folders included, and keeps what was
# there before. Usage: sh mk/test-install.sh BIN (bin/samplab).
# One line per check, then "N passed, N failed".
set -u
bin=${1:-bin/samplab}
py=/usr/bin/python3
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "test-install: ok   $*"; }
bad() { fail=$((fail + 1)); echo "test-install: FAIL $*"; }
check() { what=$1; shift; if "$@" >/dev/null 2>&1; then ok "$what"; else bad "$what"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
p=$tmp/prefix
log=$tmp/log
pyver=$($py -c 'import sys; print("%d.%d" % sys.version_info[:2])')
pydir=lib/python$pyver/dist-packages
# a folder and a file that were there before: uninstall must keep both
mkdir -p "$p/bin" && echo other > "$p/bin/other-tool"
if make --no-print-directory install PREFIX="$p" >"$log" 2>&1; then ok "make install PREFIX=$p"; else cat "$log"; bad "make install"; fi
for f in bin/samplab lib/libsamplab.a lib/libsamplab.so lib/pkgconfig/samplab.pc include/samplab/samplab.h \
  include/samplab/api/sl_api.h include/samplab/framework/sl_fw.h share/man/man1/samplab.1 \
  share/man/man1/samplab-gof.1 share/man/man3/sl_stat_gof_test_run_weights.3 \
  share/man/man3/sl_logits_pipeline_run.3 $pydir/samplab/__init__.py \
  $pydir/samplab/pytest_plugin.py $pydir/samplab/py.typed; do
  check "installed $f" test -e "$p/$f"
done
so=$(readlink -f "$p/lib/libsamplab.so")
check "libsamplab.so's soname is libsamplab.so.0" sh -c "readelf -d '$so' | grep -q 'SONAME.*\[libsamplab.so.0\]'"
others=$(nm -D --defined-only "$so" | awk '{print $3}' | grep -v '^sl_' | head -5)
if [ -z "$others" ]; then ok "nm -D exports only sl_ names ($(nm -D --defined-only "$so" | wc -l) symbols)"; else bad "nm -D exports $others"; fi
if command -v man >/dev/null 2>&1; then
  check "man -l samplab.1 renders" sh -c "man -l '$p/share/man/man1/samplab.1' | grep -q samplab-gof"
  check "man -l sl_stat_gof_test_run.3 renders its declaration" sh -c "man -l '$p/share/man/man3/sl_stat_gof_test_run.3' | grep -q 'int sl_stat_gof_test_run(const double'"
fi

export PKG_CONFIG_PATH="$p/lib/pkgconfig"
check "pkg-config --cflags --libs samplab" pkg-config --exists samplab
check "pkg-config --libs samplab carries -lm for the shared link" sh -c "pkg-config --libs samplab | grep -qw -- -lm"
# the README's line as written, from the repository's top, linked with the shared library
mkdir "$tmp/readme"
if (cc examples/validate_sampler.c $(pkg-config --cflags --libs samplab) -o "$tmp/readme/validate_sampler") >"$log" 2>&1 \
  && LD_LIBRARY_PATH="$p/lib" "$tmp/readme/validate_sampler" >"$log" 2>&1; then
  ok "cc examples/validate_sampler.c \$(pkg-config --cflags --libs samplab) links with libsamplab.so and runs"
else cat "$log"; bad "the README's cc line"; fi
check "the README's validate_sampler needs libsamplab.so.0" sh -c "readelf -d '$tmp/readme/validate_sampler' | grep -q 'NEEDED.*libsamplab.so.0'"
cp examples/*.c examples/Makefile "$tmp/" 2>/dev/null
if make -C "$tmp" --no-print-directory all static >"$log" 2>&1; then ok "examples built through pkg-config, shared and static"; else cat "$log"; bad "examples build"; fi
need=$(readelf -d "$tmp/validate_sampler-static" 2>/dev/null | grep -c 'NEEDED.*libsamplab')
[ "$need" = 0 ] && ok "the static example needs no libsamplab.so" || bad "the static example needs libsamplab.so"
for prog in validate_sampler framework_session; do
  if LD_LIBRARY_PATH="$p/lib" "$tmp/$prog" >"$tmp/$prog.out" 2>&1; then ok "$prog (shared) runs"; else cat "$tmp/$prog.out"; bad "$prog (shared)"; fi
  if "$tmp/$prog-static" >"$tmp/$prog-static.out" 2>&1; then ok "$prog (static) runs"; else bad "$prog (static)"; fi
  check "$prog: shared and static print the same" cmp "$tmp/$prog.out" "$tmp/$prog-static.out"
done
check "validate_sampler: the right sampler passes" grep -q '^sample  *PASS' "$tmp/validate_sampler.out"
check "validate_sampler: the broken sampler is rejected" grep -q '^sample_broken  *FAIL' "$tmp/validate_sampler.out"
want=$("$bin" draw --framework llamacpp --logits 5,4.3,3.9,2.2,1.4,0.7,-0.1,-1.2 --seed 7 --n 10 --top-k 4 --temperature 0.8 | tr '\n' ' ')
got=$(sed -n 's/^llamacpp .*seed 7: \(.*\)  (.*/\1 /p' "$tmp/framework_session.out")
[ "$want" = "$got" ] && ok "framework_session's llama.cpp tokens are samplab draw's ($got)" || bad "framework_session: '$got' vs '$want'"

# the C programs of docs/c-api.md, built through pkg-config against the tree and run: what they print is what the page shows
mkdir -p "$tmp/doc"
for prog in $($py mk/doc-c-examples.py docs/c-api.md "$tmp/doc" || echo doc-c-examples.py-failed); do
  if ! ${CC:-cc} -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags samplab) -o "$tmp/doc/$prog" "$tmp/doc/$prog.c" \
    $(pkg-config --libs samplab) -lm >"$log" 2>&1; then cat "$log"; bad "docs/c-api.md: $prog.c builds"; continue; fi
  if LD_LIBRARY_PATH="$p/lib" "$tmp/doc/$prog" >"$tmp/doc/$prog.got" 2>&1; then ok "docs/c-api.md: $prog runs"; else cat "$tmp/doc/$prog.got"; bad "docs/c-api.md: $prog exits $?"; fi
  [ -e "$tmp/doc/$prog.out" ] && check "docs/c-api.md: $prog prints what the page shows" cmp "$tmp/doc/$prog.out" "$tmp/doc/$prog.got"
done

# Python: the installed package is in the folder Debian's python3 searches under /usr/local
# (the same relative path under any PREFIX), and runs from it with PYTHONPATH alone
case "$pyver" in 3.*) ok "$pydir names $py's own version ($pyver)" ;; *) bad "python version '$pyver'" ;; esac
if [ "$py" = /usr/bin/python3 ] && [ -f /etc/debian_version ]; then
  for sysp in /usr/local /usr; do
    check "/usr/bin/python3 searches $sysp/$pydir" $py -c "import sys; sys.exit('$sysp/$pydir' not in sys.path)"
  done
fi
if (cd "$tmp" && env -i PATH=/usr/bin:/bin PYTHONPATH="$p/$pydir" $py -c 'import samplab, sys; r = samplab.gof(probs=[1, 1], counts=[50, 50]); sys.exit(r.verdict != "PASS")') >"$log" 2>&1; then
  ok "python3 -c 'import samplab' with PYTHONPATH=$p/$pydir only"
else cat "$log"; bad "import samplab from the installed tree"; fi
# the plugin of the installed copy, by -p (a make install has no entry points)
if env -i PATH=/usr/bin:/bin PYTHONPATH="$p/$pydir" $py -m pytest -p no:cacheprovider -p samplab.pytest_plugin --markers 2>"$log" | grep -q '^@pytest.mark.statistical'; then
  ok "pytest -p samplab.pytest_plugin (installed) declares the statistical marker"
else cat "$log"; bad "pytest -p samplab.pytest_plugin from the installed tree"; fi
# pip install ./python, offline, into a target; it finds the library through SAMPLAB_LIB
if $py -m pip install -q --no-index --no-build-isolation --target "$tmp/pip" ./python >"$log" 2>&1; then
  ok "pip install ./python (offline)"
  check "the pip-installed package runs with SAMPLAB_LIB" env -i PATH=/usr/bin:/bin PYTHONPATH="$tmp/pip" SAMPLAB_LIB="$so" $py -c 'import samplab; samplab.draw(method="cdf", probs=[1, 2])'
  # its pytest11 entry point: the fixture without -p, and -p samplab.pytest_plugin loads the same plugin once
  mkdir "$tmp/pt" && printf 'def test_fixture(samplab):\n    assert samplab.version\n' >"$tmp/pt/test_fixture.py"
  for arg in "" "-p samplab.pytest_plugin"; do
    check "pytest $arg finds the pip-installed package's samplab fixture" env -i PATH=/usr/bin:/bin PYTHONPATH="$tmp/pip" \
      SAMPLAB_LIB="$so" $py -m pytest -q -p no:cacheprovider $arg "$tmp/pt/test_fixture.py"
  done
else cat "$log"; bad "pip install ./python"; fi
rm -rf python/build python/samplab.egg-info

# make wheel, then the wheel into a fresh venv without network; it loads its own library
ver=$(sed -n 's/^#define SL_VERSION "\(.*\)"/\1/p' src/base/sl_base.h)
check "python/pyproject.toml's version is SL_VERSION ($ver)" grep -qx "version = \"$ver\"" python/pyproject.toml
if make --no-print-directory wheel >"$log" 2>&1 && whl=$(ls dist/samplab-"$ver"-*.whl 2>/dev/null) && [ -n "$whl" ]; then
  ok "make wheel writes $whl"
  check "the wheel carries libsamplab.so" sh -c "$py -m zipfile -l '$whl' | grep -q '^samplab/libsamplab.so '"
  if $py -m venv "$tmp/venv" >"$log" 2>&1 && "$tmp/venv/bin/pip" install -q --no-index "$whl" >"$log" 2>&1; then
    ok "pip install --no-index $whl into a fresh python3 -m venv"
    if (cd "$tmp" && env -i PATH=/usr/bin:/bin "$tmp/venv/bin/python" -c '
import os, sys, samplab, samplab._lib as l
sys.exit(0 if samplab.draw(method="cdf", probs=[1, 2]).tokens and l.lib._name == os.path.join(os.path.dirname(l.__file__), "libsamplab.so") else 1)') >"$log" 2>&1; then
      ok "import samplab in the venv, no environment variable: it loads the wheel's own libsamplab.so"
    else cat "$log"; bad "import samplab in the venv"; fi
  else cat "$log"; bad "pip install the wheel into a venv"; fi
else cat "$log"; bad "make wheel"; fi

# ldconfig: run for a system prefix with DESTDIR empty, by install and by uninstall, else not
ldc() { make --no-print-directory -n "$1" LDCONFIG=run-ldconfig PREFIX="$2" DESTDIR="$3" 2>/dev/null | grep -cx run-ldconfig; }
for case in "install /usr/local  1" "install /usr/local/  1" "install /usr  1" "uninstall /usr/local  1" \
  "install /usr/local $tmp/stage 0" "install $p  0" "install /opt/samplab  0" "uninstall /opt/samplab  0"; do
  set -- $case
  if [ $# = 3 ]; then t=$1 pre=$2 dd= want=$3; else t=$1 pre=$2 dd=$3 want=$4; fi
  [ "$(ldc "$t" "$pre" "$dd")" = "$want" ] && ok "make $t PREFIX=$pre${dd:+ DESTDIR=...} runs ldconfig $want time(s)" \
    || bad "make $t PREFIX=$pre DESTDIR=$dd: ldconfig not run $want time(s)"
done

# DESTDIR stages under another root (twice, as a re-install does); uninstall empties it
d=$tmp/stage
if make --no-print-directory install DESTDIR="$d" PREFIX=/opt/samplab >"$log" 2>&1 && [ -e "$d/opt/samplab/lib/libsamplab.so" ] \
  && grep -q '^prefix=/opt/samplab$' "$d/opt/samplab/lib/pkgconfig/samplab.pc" \
  && make --no-print-directory install DESTDIR="$d" PREFIX=/opt/samplab >"$log" 2>&1; then
  ok "make install DESTDIR=... PREFIX=/opt/samplab stages under DESTDIR, samplab.pc names PREFIX"
else cat "$log"; bad "DESTDIR install"; fi
make --no-print-directory uninstall DESTDIR="$d" PREFIX=/opt/samplab >"$log" 2>&1
left=$(find "$d" -mindepth 1 | head -3)
[ -z "$left" ] && ok "make uninstall DESTDIR=... removes every file and folder it installed" || bad "make uninstall DESTDIR=... left $left"
make --no-print-directory uninstall PREFIX="$p" >"$log" 2>&1
left=$(find "$p" -mindepth 1 ! -path "$p/bin" ! -path "$p/bin/other-tool" | head -3)
[ -z "$left" ] && ok "make uninstall removes every file and folder it installed" || bad "make uninstall left $left"
check "make uninstall keeps the folder and file that were there before" grep -qx other "$p/bin/other-tool"
echo "test-install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
