#!/bin/sh
# check-layers.sh — the layering cannot rot: every layer header compiles on its
# own, every #include names a layer the including file may use, no library
# file includes the umbrella samplab.h, and the objects export only their
# layer's prefix (statics carry none). Usage: sh mk/check-layers.sh CC
# OBJECTS... (the build's src/LAYER/*.o). Prints one line per failed check and a
# summary; exits 1 on a failure.
set -u
cc=${1:?usage: check-layers.sh CC OBJECTS...}
shift
fail=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "check-layers: FAIL $*"; }

# who may include whom (DESIGN.md): base <- rng <- draw <- logits <- framework;
# stats and io use base only; draw and above may use stats' bookkeeping types;
# api (each command's computation and its JSON) uses framework and io and
# what they use; report uses every layer below api; cli uses everything.
allowed() {
  case $1 in
    base) echo "base" ;;
    rng) echo "base rng" ;;
    stats) echo "base stats" ;;
    io) echo "base io" ;;
    draw) echo "base rng stats draw" ;;
    logits) echo "base rng stats draw logits" ;;
    framework) echo "base rng stats draw logits framework" ;;
    api) echo "base rng stats draw logits framework io api" ;;
    report) echo "base rng stats draw logits framework io report" ;;
    cli) echo "base rng stats draw logits framework io api report cli" ;;
    *) echo "" ;;
  esac
}
prefix() {
  case $1 in
    framework) echo "sl_fw_" ;;
    stats) echo "sl_stat_" ;;
    *) echo "sl_$1_" ;;
  esac
}

cflags=$(pkg-config --cflags gsl jansson 2>/dev/null)
for h in src/*/sl_*.h; do
  # a translation unit that includes only this header (as its first line)
  if printf '#include "%s"\n' "${h#src/}" |
    $cc -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Isrc $cflags -fsyntax-only -x c - 2>/dev/null; then
    ok
  else
    bad "$h does not compile on its own"
  fi
done

for f in src/*/*.c src/*/*.h; do
  layer=$(basename "$(dirname "$f")")
  may=$(allowed "$layer")
  [ -n "$may" ] || { bad "$f: $layer is not a known layer"; continue; }
  for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
    case $inc in
      samplab.h) bad "$f includes the umbrella samplab.h (include your layer's header)"; continue ;;
      */*) dep=${inc%%/*} ;;
      *) bad "$f: #include \"$inc\" names no layer"; continue ;;
    esac
    case " $may " in
      *" $dep "*) ok ;;
      *) bad "$f ($layer) includes $inc, a layer it may not use ($may)" ;;
    esac
  done
done

for o in "$@"; do
  layer=$(basename "$(dirname "$o")")
  want=$(prefix "$layer")
  for s in $(nm -g --defined-only "$o" | awk '$2 ~ /^[TDRBC]$/ {print $3}'); do
    case $s in
      "$want"*) ok ;;
      main) [ "$layer" = cli ] && ok || bad "$o exports main" ;;
      .gomp_critical_user_*) ok ;; # OpenMP's named critical sections
      *) bad "$o exports $s (the $layer layer's prefix is $want)" ;;
    esac
  done
  for s in $(nm --defined-only "$o" | awk '$2 ~ /^[tdbr]$/ {print $3}'); do
    case $s in
      *.*) ok ;; # the compiler's clones of a function (.part.0, .isra.0, .constprop.0)
      sl_*) bad "$o: static $s carries the sl_ prefix" ;;
      *) ok ;;
    esac
  done
done
echo "check-layers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
