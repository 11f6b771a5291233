#!/bin/sh
# gen3.sh — section-3 pages for the C calls docs/c-api.md names, from their
# declarations and the comments above them in the installed headers, so they
# never drift from the code: sl_NAME(3), one page per function. Usage (from the
# source tree): sh man/gen3.sh OUTDIR
set -eu
out=${1:?usage: gen3.sh OUTDIR}
mkdir -p "$out"
version=$(sed -n 's/^#define SL_VERSION "\(.*\)"/\1/p' src/base/sl_base.h)
headers="src/samplab.h $(ls src/*/sl_*.h | grep -v '^src/cli/')"
# every sl_ name inside `...` on the page ("sl_fw_session_open / _step" is sl_fw_session_step too)
names=$(sed -n 's/`\([^`]*\)`/\n\1\n/gp' docs/c-api.md | grep 'sl_' |
  sed 's|\(sl_[a-z0-9]*_[a-z0-9_]*\)_[a-z0-9]*\(\( */ *_[a-z0-9]*\)\{1,\}\)|&\n\1\2|' |
  awk '{ n = split($0, w, /[^A-Za-z0-9_\/]+/); base = ""
         for (i = 1; i <= n; i++) {
           if (w[i] ~ /^sl_[a-z0-9_]+$/) { print w[i]; base = w[i] }
           else if (w[i] ~ /^\/?_[a-z0-9]+$/ && base != "") { s = w[i]; sub(/^\//, "", s); print base s }
         } }'
  # and every call the page's programs make
  grep -o 'sl_[a-z0-9_]*(' docs/c-api.md | tr -d '(')
names=$(printf '%s\n' "$names" | sort -u)
esc() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }
pages=0
for n in $names; do
  h=""
  for f in $headers; do
    if grep -Eq "^[a-z][a-z0-9_ *]*[ *]$n\(" "$f"; then h=$f; break; fi
  done
  [ -n "$h" ] || continue # a type, a field, a macro, or a shorthand that names no function
  # the declaration (to its ';') and the comment block above it, over the declarations it shares
  awk -v n="$n" -v dout="$out/.decl" -v cout="$out/.comment" -v sout="$out/.shared" '
    { line[NR] = $0 }
    $0 ~ "^[a-z][a-z0-9_ *]*[ *]" n "\\(" && !at { at = NR }
    END {
      for (i = at; i <= NR; i++) { print line[i] > dout; if (line[i] ~ /;/) break }
      j = at - 1
      while (j > 0 && line[j] !~ /\*\/ *$/ && line[j] !~ /^ *$/ && line[j] !~ /^\/\*/) j--
      if (j > 0 && line[j] ~ /\*\/ *$/) {
        e = j
        if (e < at - 1) print "shared" > sout
        while (j > 0 && line[j] !~ /^ *\/\*/) j--
        for (k = j; k <= e; k++) {
          t = line[k]; sub(/ *\*\/ *$/, "", t); sub(/^ *\/\* ?/, "", t); sub(/^ *\* ?/, "", t)
          if (t !~ /^-+ / ) print t > cout
        }
      }
      close(dout); close(cout); close(sout)
    }' "$h"
  [ -e "$out/.comment" ] || echo "(no comment in the header)" > "$out/.comment"
  summary=$(tr '\n' ' ' < "$out/.comment" | sed 's/^ *//; s/\([.:;]\) .*/\1/; s/[.:;]$//')
  intro="The comment above the declaration:"
  if [ -e "$out/.shared" ]; then # the comment heads a group of declarations: it names the first
    summary="a call of samplab's C API, documented with the group its header declares it in"
    intro="The comment above the group of declarations this one belongs to:"
  fi
  {
    printf '.TH %s 3 "" "samplab %s" "samplab C API"\n' "$(echo "$n" | tr a-z A-Z | sed 's/_/\\_/g')" "$version"
    printf '.SH NAME\n%s \\- %s\n' "$n" "$(printf '%s' "$summary" | esc)"
    printf '.SH SYNOPSIS\n.nf\n.B #include <samplab.h>\n.PP\n'
    esc < "$out/.decl"
    printf '.fi\n.PP\nDeclared in \\fI%s\\fR (installed under include/samplab/); link with \\fBpkg\\-config \\-\\-cflags \\-\\-libs samplab\\fR.\n' "${h#src/}"
    printf '.SH DESCRIPTION\n%s\n.PP\n.nf\n' "$intro"
    esc < "$out/.comment"
    printf '.fi\n.SH CONVENTIONS\nA call that returns \\fBint\\fR returns 0 (SL_OK) or a status (SL_EINVAL, SL_ENOMEM, SL_EIO, SL_EINTR) and fills \\fBsl_error.msg\\fR with one line naming the input and the position. The library never prints and never exits, and has no globals.\n'
    printf '.SH SEE ALSO\n.BR samplab (1),\n.BR samplab\\-gof (1);\ndocs/c-api.md of the source tree, which has a worked example for each common question.\n'
  } > "$out/$n.3"
  rm -f "$out/.decl" "$out/.comment" "$out/.shared"
  pages=$((pages + 1))
done
echo "man: $pages section-3 pages in $out"
