#!/bin/sh
# test-install.sh — what a user of the installed tree gets: `make install` into a
# fresh PREFIX (and a DESTDIR), the library's exports and soname, the examples
# built through pkg-config against it, shared and static, and run; the Python
# package imported with PYTHONPATH alone, and installed by pip offline; then
# `make uninstall` leaves nothing. Usage: sh mk/test-install.sh BIN (bin/samplab).
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
if make --no-print-directory install PREFIX="$p" >"$log" 2>&1; then ok "make install PREFIX=$p"; else cat "$log"; bad "make install"; fi
for f in bin/samplab lib/libsamplab.a lib/libsamplab.so lib/pkgconfig/samplab.pc include/samplab/samplab.h \
  include/samplab/api/sl_api.h include/samplab/framework/sl_fw.h share/man/man1/samplab.1 \
  share/man/man1/samplab-gof.1 lib/python3/dist-packages/samplab/__init__.py; do
  check "installed $f" test -e "$p/$f"
done
so=$(readlink -f "$p/lib/libsamplab.so")
check "libsamplab.so's soname is libsamplab.so.0" sh -c "readelf -d '$so' | grep -q 'SONAME.*\[libsamplab.so.0\]'"
others=$(nm -D --defined-only "$so" | awk '{print $3}' | grep -v '^sl_' | head -5)
if [ -z "$others" ]; then ok "nm -D exports only sl_ names ($(nm -D --defined-only "$so" | wc -l) symbols)"; else bad "nm -D exports $others"; fi
if command -v man >/dev/null 2>&1; then
  check "man -l samplab.1 renders" sh -c "man -l '$p/share/man/man1/samplab.1' | grep -q samplab-gof"
fi

export PKG_CONFIG_PATH="$p/lib/pkgconfig"
check "pkg-config --cflags --libs samplab" pkg-config --exists samplab
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

# Python: the installed package, with PYTHONPATH alone
if env -i PATH=/usr/bin:/bin PYTHONPATH="$p/lib/python3/dist-packages" $py -c 'import samplab, sys; r = samplab.gof(probs=[1, 1], counts=[50, 50]); sys.exit(r.verdict != "PASS")' >"$log" 2>&1; then
  ok "python3 -c 'import samplab' with PYTHONPATH=$p/lib/python3/dist-packages only"
else cat "$log"; bad "import samplab from the installed tree"; fi
# pip install ./python, offline, into a target; it finds the library through SAMPLAB_LIB
if $py -m pip install -q --no-index --no-build-isolation --target "$tmp/pip" ./python >"$log" 2>&1; then
  ok "pip install ./python (offline)"
  check "the pip-installed package runs with SAMPLAB_LIB" env -i PATH=/usr/bin:/bin PYTHONPATH="$tmp/pip" SAMPLAB_LIB="$so" $py -c 'import samplab; samplab.draw(method="cdf", probs=[1, 2])'
else cat "$log"; bad "pip install ./python"; fi
rm -rf python/build python/samplab.egg-info

# DESTDIR stages under another root; uninstall removes every file
d=$tmp/stage
if make --no-print-directory install DESTDIR="$d" PREFIX=/opt/samplab >"$log" 2>&1 && [ -e "$d/opt/samplab/lib/libsamplab.so" ] \
  && grep -q '^prefix=/opt/samplab$' "$d/opt/samplab/lib/pkgconfig/samplab.pc"; then
  ok "make install DESTDIR=... PREFIX=/opt/samplab stages under DESTDIR, samplab.pc names PREFIX"
else cat "$log"; bad "DESTDIR install"; fi
make --no-print-directory uninstall PREFIX="$p" >"$log" 2>&1
left=$(find "$p" -type f -o -type l | head -3)
[ -z "$left" ] && ok "make uninstall removes every file" || bad "make uninstall left $left"
echo "test-install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
