#!/usr/bin/python3
"""doc-c-examples.py: the C programs of a Markdown file, for mk/test-install.sh to
build against the installed tree and run. Usage: doc-c-examples.py DOC OUTDIR

A ```c block whose first line is `/* NAME.c ...` is a program: written to
OUTDIR/NAME.c. A ```console line `$ ... ./NAME` shows its run: the lines after it
(up to the next `$ ` line or the fence) are written to OUTDIR/NAME.out, what it
must print. Prints the program names, one a line; exits 1 when a shown run has
no program."""
import os
import re
import sys


def main():
    doc, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    lines = open(doc, encoding="utf-8").read().split("\n")
    progs, runs = [], {}
    i = 0
    while i < len(lines):
        fence = lines[i].strip()
        if fence in ("```c", "```console"):
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            body = lines[i + 1:j]
            if fence == "```c":
                m = re.match(r"/\* (\w+)\.c\b", body[0]) if body else None
                if m:
                    progs.append(m.group(1))
                    with open(os.path.join(out, m.group(1) + ".c"), "w", encoding="utf-8") as f:
                        f.write("\n".join(body) + "\n")
            else:
                cur = None
                for ln in body:
                    if ln.startswith("$ "):
                        m = re.search(r"\./(\w+)\s*$", ln)
                        cur = m.group(1) if m else None
                        if cur:
                            runs[cur] = []
                    elif cur:
                        runs[cur].append(ln)
            i = j
        i += 1
    for name, shown in runs.items():
        if name not in progs:
            print("doc-c-examples: %s: ./%s is run but no ```c block is %s.c" % (doc, name, name), file=sys.stderr)
            sys.exit(1)
        with open(os.path.join(out, name + ".out"), "w", encoding="utf-8") as f:
            f.write("\n".join(shown) + "\n")
    print("\n".join(progs))


main()
