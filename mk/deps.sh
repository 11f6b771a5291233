#!/bin/sh
# Checks what a make target needs; installs what is missing with apt-get when
# run as root, otherwise prints the exact apt-get line and exits 2.
# Usage: mk/deps.sh build|test|report|golden|fuzz|bench|explorer|browser
set -u
what=${1:-build}
missing=""
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkgconf() { pkg-config --exists "$1" 2>/dev/null; }
need_cmd() { if have_cmd "$1"; then echo "deps: found $1"; else echo "deps: missing $1 (Debian: $2)"; missing="$missing $2"; fi; }
need_pc() { if have_pkgconf "$1"; then echo "deps: found $1 $(pkg-config --modversion "$1")"; else echo "deps: missing $1 (Debian: $2)"; missing="$missing $2"; fi; }
need_file() { if [ -e "$1" ]; then echo "deps: found $1"; else echo "deps: missing $1 (Debian: $2)"; missing="$missing $2"; fi; }
need_py() { if /usr/bin/python3 -c "import $1" >/dev/null 2>&1; then echo "deps: found python3 module $1"; else echo "deps: missing python3 module $1 (Debian: $2)"; missing="$missing $2"; fi; }

need_cmd make make
need_cmd pkg-config pkg-config
need_cmd gcc gcc
need_pc gsl libgsl-dev
need_pc jansson libjansson-dev
# samplab audit: HTTP to a serving engine (libcurl's headers; libcurl.so.4 is opened at run time)
need_pc libcurl libcurl4-openssl-dev
# the sweep's checkpoint digests (SHA-256)
need_pc nettle nettle-dev
# OpenMP: gcc ships libgomp; clang needs LLVM's runtime (make CC=clang).
case "${CC:-}" in *clang*) need_file /usr/lib/llvm-14/lib/libomp.so libomp-14-dev ;; esac
case "$what" in
  test)
    need_pc criterion libcriterion-dev
    # mk/doc-examples.py runs the docs' examples with Debian's interpreter
    need_file /usr/bin/python3 python3
    need_cmd g++ g++
    need_file /usr/include/pcg_random.hpp libpcg-cpp-dev
    # samplab sweep on MPI ranks: mpirun, and the library it is built with
    need_cmd mpirun openmpi-bin
    need_pc ompi-c libopenmpi-dev
    # the Python package's tests (pytest), and pip install ./python offline (setuptools)
    need_py pytest python3-pytest
    need_py setuptools python3-setuptools
    need_py pip python3-pip
    # make wheel (bdist_wheel), and the wheel installed into a fresh venv (ensurepip)
    need_py wheel python3-wheel
    need_py ensurepip python3-venv
    # the Python package's locale test: a decimal-comma locale, made by localedef (Debian's locales)
    need_cmd localedef locales
    want_locale=de_DE.UTF-8
    # llama.cpp's test vocabularies for the DRY tests: mk/vocab.sh fetches them (npm pack, git)
    need_cmd npm npm
    need_cmd git git
    ;;
  report)
    need_cmd gnuplot gnuplot-nox
    ;;
  golden)
    need_cmd g++ g++
    # Random123, the reference Threefry and Philox (analysis/golden/random123/)
    need_file /usr/include/Random123/threefry.h librandom123-dev
    need_file /usr/include/pcg_random.hpp libpcg-cpp-dev
    need_py torch python3-torch
    need_py numpy python3-numpy
    need_cmd cargo cargo
    need_file /usr/share/cargo/registry librust-rand-dev
    ;;
  bench)
    # make bench compares with the real libraries in the same run: torch and
    # NumPy through Debian's own interpreter (/usr/bin/python3, never a python3
    # found first on PATH), Rust rand built offline from Debian's crates; the
    # report's timing runs gnuplot; bench_stats.sh uses /usr/bin/time and bc.
    need_file /usr/bin/python3 python3
    need_py torch python3-torch
    need_py numpy python3-numpy
    need_cmd cargo cargo
    # the crate's folder carries its version (rand-0.8.5 on Debian 12)
    rand_dir=$(ls -d /usr/share/cargo/registry/rand-0.* 2>/dev/null | head -n 1)
    need_file "${rand_dir:-/usr/share/cargo/registry/rand-0.x}" librust-rand-dev
    need_cmd gnuplot gnuplot-nox
    need_file /usr/bin/time time
    need_cmd bc bc
    ;;
  fuzz)
    need_cmd clang clang
    # libFuzzer's runtime ships apart from clang (compiler-rt)
    if ! have_cmd clang; then
      missing="$missing libclang-rt-dev"
    else
      t=$(mktemp -d)
      printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$t/f.c"
      if clang -fsanitize=fuzzer,address,undefined -o "$t/f" "$t/f.c" >/dev/null 2>&1; then
        echo "deps: found libFuzzer (clang -fsanitize=fuzzer)"
      else
        echo "deps: missing libFuzzer runtime (Debian: libclang-rt-dev)"; missing="$missing libclang-rt-dev"
      fi
      rm -rf "$t"
    fi
    ;;
  explorer|browser)
    # the page: clang for wasm32-wasi, wasi-libc, compiler-rt's wasm32 builtins, wasm-ld, llvm-ar
    need_cmd clang clang
    need_cmd wasm-ld lld
    need_cmd llvm-ar-14 llvm-14
    need_file /usr/lib/wasm32-wasi/libc.a wasi-libc
    need_file /usr/lib/llvm-14/lib/clang/14.0.6/lib/wasi/libclang_rt.builtins-wasm32.a libclang-rt-14-dev-wasm32
    # the real transformers.js and TensorFlow.js beside it: npm into a cache, esbuild (mk/real.sh)
    need_cmd node nodejs
    need_cmd npm npm
    if [ "$what" = browser ]; then
      # the test: Debian's chromium driven through puppeteer-core (npm, into build/browser)
      need_cmd chromium chromium
      # the weather example's Japanese words in the screenshots
      need_file /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf fonts-droid-fallback
    fi
    ;;
esac
# A locale is no package: localedef makes it once locales is there (python/tests skips its test without it).
make_locale() {
  [ -n "$want_locale" ] || return 0
  if locale -a 2>/dev/null | grep -qix 'de_DE.utf-\{0,1\}8'; then echo "deps: found locale $want_locale"; return 0; fi
  if [ "$(id -u)" = 0 ] && have_cmd localedef; then
    echo "deps: making locale $want_locale (localedef)"
    localedef -i de_DE -f UTF-8 "$want_locale" || echo "deps: localedef failed; python/tests skips its locale test"
  else
    echo "deps: no locale $want_locale (python/tests skips its locale test); as root: localedef -i de_DE -f UTF-8 $want_locale"
  fi
}
want_locale=${want_locale:-}
[ -z "$missing" ] && { make_locale; exit 0; }
if [ "$(id -u)" = 0 ]; then
  echo "deps: installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq $missing >/dev/null || { echo "deps: apt-get install failed:$missing" >&2; exit 2; }
  make_locale
  exit 0
fi
echo "deps: missing packages; run as root:" >&2
echo "  apt-get install -y$missing" >&2
exit 2
