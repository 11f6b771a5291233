#!/bin/sh
# gen.sh — the man pages, from the program's own --help texts, so they never
# drift from it: samplab(1), the command list, and samplab-CMD(1) for each
# subcommand. Usage: sh man/gen.sh BIN OUTDIR
set -eu
bin=${1:?usage: gen.sh BIN OUTDIR}
out=${2:?usage: gen.sh BIN OUTDIR}
mkdir -p "$out"
version=$("$bin" --version | sed 's/^samplab //')
# roff: a backslash is \e; a line starting with . or ' is protected by \&
p() { printf '%s\n' "$*"; }
esc() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }
cmds=$("$bin" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
{
  p ".TH SAMPLAB 1 \"\" \"samplab $version\" \"User Commands\""
  p ".SH NAME"
  p "samplab \\- verify LLM token samplers and explain their randomness"
  p ".SH SYNOPSIS"
  p ".B samplab"
  p ".I command"
  p "[options]"
  p ".SH DESCRIPTION"
  p "Results go to standard output, diagnostics to standard error."
  p "Every command has \\fB\\-\\-help\\fR, and a page of its own: \\fBsamplab\\-\\fIcommand\\fR(1)."
  p ".SH COMMANDS"
  "$bin" --help | sed -n 's/^  \([a-z][a-z]*\)  *\(.*\)/\1\t\2/p' | while IFS="$(printf '\t')" read -r c s; do
    p ".TP"
    p ".B $c"
    printf '%s\n' "$s" | esc
  done
  p ".SH EXIT STATUS"
  p "0 success, 1 a statistical rejection (gof, check), 2 bad input or usage: one line on standard error naming the file and position, and nothing on standard output."
  p ".SH SEE ALSO"
  first=1
  for c in $cmds; do
    [ $first = 1 ] || echo ","
    printf '.BR samplab\\-%s (1)' "$c"
    first=0
  done
  p ""
} > "$out/samplab.1"
for c in $cmds; do
  summary=$("$bin" --help | sed -n "s/^  $c  *//p")
  {
    p ".TH SAMPLAB\\-$(echo "$c" | tr a-z A-Z) 1 \"\" \"samplab $version\" \"User Commands\""
    p ".SH NAME"
    printf 'samplab\\-%s \\- %s\n' "$c" "$(printf '%s' "$summary" | esc)"
    p ".SH DESCRIPTION"
    p "The text of \\fBsamplab $c \\-\\-help\\fR:"
    p ".PP"
    p ".nf"
    "$bin" "$c" --help | esc
    p ".fi"
    p ".SH SEE ALSO"
    p ".BR samplab (1)"
  } > "$out/samplab-$c.1"
done
p "man: $(ls "$out" | wc -l) pages in $out"
