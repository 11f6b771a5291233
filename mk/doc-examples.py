#!/usr/bin/python3
"""doc-examples.py: runs the example commands of README.md and docs/*.md
and compares what they print with what the docs show (make test runs it).

The convention, for every Markdown file it reads:

  ```sh            each line is a command (a line ending in \\ continues it;
                   '#' lines are comments). It must exit 0. Its output is not
                   compared.
  ```console       '$ ' lines are commands, the lines after one (up to the
                   next '$ ') what it prints: stdout, then stderr. A line
                   '...' stands for any number of lines, '...' inside a line
                   for any text; a last line '[exit N]' is the exit status
                   expected (default 0). Trailing blanks are ignored.
  <!-- doc-test: skip REASON -->
                   on the line before a fence: the block is not run; the
                   reason is printed.
  <!-- doc-test: needs THING -->
                   the block runs only where THING is there: python3-MOD
                   (importable by /usr/bin/python3) or a command on PATH;
                   elsewhere it is skipped, the reason printed.
  <!-- doc-test: installed -->
                   the block runs as a user's would after `make install`:
                   samplab is installed (once a run) into a temporary PREFIX,
                   and PATH, PKG_CONFIG_PATH, PYTHONPATH (Debian's
                   PREFIX/lib/python3.N/dist-packages) and LD_LIBRARY_PATH (what
                   ldconfig does for /usr/local) point into it.

Any other fence (```text for synopses and output, ```python, ```rust) and
indented code are not run; a line in them that starts like a command
(bin/samplab, samplab, make, sh, python3, $ ) is an error, so no example
escapes the test.

The blocks of one file run in order, each in a /bin/sh of its own (the
commands of a block share variables and the working directory; the next
block starts afresh, but sees the files earlier blocks wrote), in a scratch folder
that holds links to the repository's top-level entries and bin/samplab
pointing at the binary under test: files an example writes land there.

Usage: /usr/bin/python3 mk/doc-examples.py [--bin PATH] [FILE.md ...]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMAND_START = re.compile(r"^\s*(\$ |bin/samplab |samplab |make |sh |python3 |/usr/bin/python3 )")
MARK = re.compile(r"^<!--\s*doc-test:\s*(skip|needs|installed)(?:\s+(.*?))?\s*-->\s*$")
BLOCK_TIMEOUT = 600


class Block:
    def __init__(self, path, line, kind, body, mark):
        self.path, self.line, self.kind, self.body, self.mark = path, line, kind, body, mark
        self.commands = []  # (command text, expected lines or None, expected exit)


def parse(path):
    """The fenced blocks of a Markdown file, and the errors of its untested code."""
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks, errors = [], []
    i, in_fence, prev_blank = 0, None, True
    while i < len(lines):
        ln = lines[i]
        m = re.match(r"^(\s*)(```+)\s*([A-Za-z0-9_+-]*)\s*$", ln)
        if m:
            fence, info = m.group(2), m.group(3)
            start = i
            body = []
            i += 1
            while i < len(lines) and not re.match(r"^\s*" + fence + r"\s*$", lines[i]):
                body.append(lines[i])
                i += 1
            mark = None
            j = start - 1
            if j >= 0:
                mm = MARK.match(lines[j].strip())
                if mm:
                    mark = (mm.group(1), mm.group(2) or "")
            if info in ("sh", "console"):
                blocks.append(Block(path, start + 1, info, body, mark))
            else:
                if mark:
                    errors.append("%s:%d: a doc-test mark on a ```%s block, which is never run" % (path, start + 1, info))
                for k, b in enumerate(body):
                    if COMMAND_START.match(b) and info not in ("text", "python", "rust", "c", "cpp", "json", "gnuplot"):
                        errors.append("%s:%d: a command in an untested block (label it ```sh or ```console, "
                                      "or ```text for a synopsis): %s" % (path, start + 2 + k, b.strip()))
            i += 1
            prev_blank = False
            continue
        # indented code: four spaces after a blank line (not inside a list item's text)
        if ln.startswith("    ") and prev_blank and not re.match(r"^\s*([-*+]|\d+\.)\s", ln):
            k = i
            while k < len(lines) and (lines[k].startswith("    ") or not lines[k].strip()):
                if COMMAND_START.match(lines[k][4:] if lines[k].startswith("    ") else ""):
                    errors.append("%s:%d: a command in indented code, which is never run (use a ```sh or "
                                  "```console fence): %s" % (path, k + 1, lines[k].strip()))
                k += 1
            i = k
            prev_blank = True
            continue
        prev_blank = not ln.strip()
        i += 1
    for b in blocks:
        split_commands(b)
    return blocks, errors


def split_commands(b):
    cmd, out = None, None
    body = list(b.body)
    if b.kind == "sh":
        acc = ""
        for ln in body:
            if not acc and (not ln.strip() or ln.lstrip().startswith("#")):
                continue
            acc += ln + "\n"
            if not ln.rstrip().endswith("\\"):
                b.commands.append((acc, None, 0))
                acc = ""
        if acc:
            b.commands.append((acc, None, 0))
        return
    k = 0
    while k < len(body):
        ln = body[k]
        if ln.startswith("$ "):
            cmd = ln[2:] + "\n"
            while ln.rstrip().endswith("\\") and k + 1 < len(body):
                k += 1
                ln = body[k]
                cmd += ln + "\n"
            out = []
            k += 1
            while k < len(body) and not body[k].startswith("$ "):
                out.append(body[k])
                k += 1
            while out and not out[-1].strip():
                out.pop()
            status = 0
            if out and re.match(r"^\[exit \d+\]$", out[-1].strip()):
                status = int(out[-1].strip()[6:-1])
                out.pop()
            b.commands.append((cmd, out, status))
        else:
            k += 1


def line_matches(want, got):
    if want == "...":
        return True
    if "..." not in want:
        return want == got
    parts = [re.escape(p) for p in want.split("...")]
    return re.fullmatch(".*".join(parts), got) is not None


def output_matches(want, got):
    """want may hold '...' lines (any number of lines) and '...' inside a line."""
    want = [w.rstrip() for w in want]
    got = [g.rstrip() for g in got]
    memo = {}

    def m(i, j):
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(want):
            r = j == len(got)
        elif want[i] == "...":
            r = any(m(i + 1, k) for k in range(j, len(got) + 1))
        else:
            r = j < len(got) and line_matches(want[i], got[j]) and m(i + 1, j + 1)
        memo[key] = r
        return r

    return m(0, 0)


def need_met(thing):
    if thing.startswith("python3-"):
        mod = thing[len("python3-"):]
        if not os.path.exists("/usr/bin/python3"):
            return False
        return subprocess.run(["/usr/bin/python3", "-c", "import " + mod], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0
    return shutil.which(thing) is not None


def scratch_for(binary):
    d = tempfile.mkdtemp(prefix="samplab-doc-")
    for e in os.listdir(ROOT):
        if e in ("bin", ".git"):
            continue
        os.symlink(os.path.join(ROOT, e), os.path.join(d, e))
    os.mkdir(os.path.join(d, "bin"))
    os.symlink(os.path.abspath(binary), os.path.join(d, "bin", "samplab"))
    return d


class Installed:
    """samplab installed by `make install` into a temporary PREFIX, once, on first use."""

    def __init__(self):
        self.root, self.env, self.error = None, None, None

    def get(self):
        if self.env is None and self.error is None:
            self.root = tempfile.mkdtemp(prefix="samplab-doc-prefix-")
            prefix = os.path.join(self.root, "prefix")
            r = subprocess.run(["make", "-C", ROOT, "--no-print-directory", "install", "PREFIX=" + prefix],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            pyver = subprocess.run(["/usr/bin/python3", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                   stdout=subprocess.PIPE, universal_newlines=True).stdout.strip()
            if r.returncode:
                self.error = "make install PREFIX=%s failed:\n%s" % (prefix, r.stdout.decode(errors="replace")[-2000:])
                return None
            env = dict(os.environ)

            def prepend(var, path):
                env[var] = path + (os.pathsep + env[var] if env.get(var) else "")

            prepend("PATH", os.path.join(prefix, "bin"))
            prepend("PKG_CONFIG_PATH", os.path.join(prefix, "lib", "pkgconfig"))
            prepend("LD_LIBRARY_PATH", os.path.join(prefix, "lib"))
            prepend("PYTHONPATH", os.path.join(prefix, "lib", "python" + pyver, "dist-packages"))
            self.env = env
        return self.env

    def close(self):
        if self.root:
            shutil.rmtree(self.root, ignore_errors=True)


def run_block(b, cwd, tmp, env=None):
    script = ["set -u"]
    for n, (cmd, _, _) in enumerate(b.commands):
        script.append("{\n%s} >'%s/o%d' 2>'%s/e%d' </dev/null; echo $? >'%s/s%d'" % (cmd, tmp, n, tmp, n, tmp, n))
    try:
        subprocess.run(["/bin/sh", "-c", "\n".join(script)], cwd=cwd, timeout=BLOCK_TIMEOUT, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pass
    results = []
    for n in range(len(b.commands)):
        def rd(p):
            try:
                return open(p, encoding="utf-8", errors="replace").read()
            except OSError:
                return None
        st = rd("%s/s%d" % (tmp, n))
        out, err = rd("%s/o%d" % (tmp, n)) or "", rd("%s/e%d" % (tmp, n)) or ""
        results.append((None if st is None else int(st.strip() or -1), out, err))
    return results


def main():
    ap = argparse.ArgumentParser(description="run the docs' example commands")
    ap.add_argument("--bin", default=os.path.join(ROOT, "bin", "samplab"))
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files or [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
    passed = failed = skipped = 0
    installed = Installed()
    for f in files:
        rel = os.path.relpath(f, ROOT)
        blocks, errors = parse(f)
        for e in errors:
            print("doc-examples: FAIL " + os.path.relpath(e, ROOT) if e.startswith("/") else "doc-examples: FAIL " + e)
            failed += 1
        cwd = scratch_for(a.bin)
        tmp = tempfile.mkdtemp(prefix="samplab-doc-out-")
        try:
            for b in blocks:
                where = "%s:%d" % (rel, b.line)
                if not b.commands:
                    continue
                if b.mark and b.mark[0] == "skip":
                    print("doc-examples: skip %s (%d commands): %s" % (where, len(b.commands), b.mark[1]))
                    skipped += len(b.commands)
                    continue
                if b.mark and b.mark[0] == "needs":
                    missing = [t for t in b.mark[1].split() if not need_met(t)]
                    if missing:
                        print("doc-examples: skip %s (%d commands): needs %s, not here" % (where, len(b.commands),
                                                                                       " ".join(missing)))
                        skipped += len(b.commands)
                        continue
                env = None
                if b.mark and b.mark[0] == "installed":
                    env = installed.get()
                    if env is None:
                        print("doc-examples: FAIL %s: %s" % (where, installed.error))
                        failed += len(b.commands)
                        continue
                res = run_block(b, cwd, tmp, env)
                for (cmd, want, status), (st, out, err) in zip(b.commands, res):
                    short = cmd.strip().replace("\\\n", " ")
                    short = re.sub(r"\s+", " ", short)
                    problems = []
                    if st is None:
                        problems.append("did not finish (timeout or an earlier command ended the shell)")
                    elif st != status:
                        problems.append("exit %d, the doc says %d" % (st, status))
                    if want is not None and st is not None:
                        got = (out + err).split("\n")
                        if got and got[-1] == "":
                            got.pop()
                        if not output_matches(want, got):
                            problems.append("output differs:\n--- doc\n%s\n--- printed\n%s" % (
                                "\n".join(want), "\n".join(got[:60]) + ("\n..." if len(got) > 60 else "")))
                    elif st is not None and st != status and err:
                        problems.append("stderr: " + err.strip()[:2000])
                    if problems:
                        failed += 1
                        print("doc-examples: FAIL %s: %s\n  %s" % (where, short, "\n  ".join(problems)))
                    else:
                        passed += 1
        finally:
            shutil.rmtree(cwd, ignore_errors=True)
            shutil.rmtree(tmp, ignore_errors=True)
    installed.close()
    print("doc-examples: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
