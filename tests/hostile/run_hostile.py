"""Runs the hostile-model suite written by make_hostile.py.

    run_hostile.py CASES_DIR --onnxcc BIN [--cxx g++] [--runtime DIR]

For every case it asserts what the issue promises a user:
  error   exit code 1 (no signal, no hang), exactly `lines` lines on stderr,
          each `onnxcc: error: ...`, printable ASCII, at most 1024 bytes,
          matching the case's regex; nothing on stdout;
  valid   `onnxcc verify` passes against the reference outputs, no injected
          code ran (no marker file), and the generated code is inert;
  compile `onnxcc compile` succeeds and the generated code is inert and
          builds warning-free.
"Inert": the generated files hold no control bytes but newlines, and every
line that mentions the injection marker is a // comment.
Prints one line per case and a summary; exits 1 if any case fails.
"""
import argparse
import glob
import json
import os
import re
import signal
import shutil
import subprocess
import sys
import tempfile
import threading

MARKER = "onnxcc_injected_MARKER"
TIMEOUT = 120


def setup(case):
    for step in case.get("setup", []):
        kind, path = step[0], step[-1] if step[0] != "sparse" else step[1]
        if kind == "mkfifo":
            if not os.path.exists(path):
                os.mkfifo(path)
        elif kind == "symlink":
            if not os.path.lexists(step[2]):
                os.symlink(step[1], step[2])
        elif kind == "sparse":
            with open(step[1], "wb") as f:
                f.truncate(step[2])


def check_inert(out_dir):
    """Problems with the generated files in out_dir, as strings."""
    problems = []
    for path in glob.glob(os.path.join(out_dir, "**", "*"), recursive=True):
        if not path.endswith((".h", ".cpp", ".S")):
            continue
        data = open(path, "rb").read()
        bad = [b for b in data if (b < 0x20 and b != 0x0A) or b >= 0x7F]
        if bad:
            problems.append(f"{os.path.basename(path)} has control or non-ASCII bytes {bad[:4]}")
        for line in data.decode("ascii", "replace").splitlines():
            if MARKER in line and not line.lstrip().startswith(("//", "/*", "*")):
                problems.append(f"{os.path.basename(path)}: injected text outside a comment: {line[:80]!r}")
    return problems


def run(cmd, cwd):
    """Runs cmd; returns (CompletedProcess, peak RSS in KiB of the process
    itself, not of its children), or (None, 0) if it hung."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err)
        timer = threading.Timer(TIMEOUT, p.kill)
        timer.start()
        _, status, usage = os.wait4(p.pid, 0)
        timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
            return None, 0
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(cmd, p.returncode, out.read(), err.read()), usage.ru_maxrss


def run_error(case, args, work):
    r, _ = run([args.onnxcc, "compile", case["model"], "-o", os.path.join(work, "out")] + case["args"], work)
    if r is None:
        return [f"hung (no exit within {TIMEOUT} s)"]
    problems = []
    if r.returncode != 1:
        problems.append(f"exit code {r.returncode}, expected 1")
    if r.stdout:
        problems.append(f"wrote to stdout: {r.stdout[:100]!r}")
    err = r.stderr
    lines = err.split(b"\n")
    if not err.endswith(b"\n") or len(lines) - 1 != case["lines"]:
        problems.append(f"{len(lines) - 1} stderr lines, expected {case['lines']}: {err[:300]!r}")
    for line in lines[:-1]:
        if not line.startswith(b"onnxcc: error: "):
            problems.append(f"not an onnxcc error line: {line[:200]!r}")
        if len(line) > 1024:
            problems.append(f"error line of {len(line)} bytes")
        if any(b < 0x20 or b >= 0x7F for b in line):
            problems.append(f"control or non-ASCII bytes in {line[:200]!r}")
    text = err.decode("ascii", "replace")
    if not re.search(case["expect"], text):
        problems.append(f"expected /{case['expect']}/, got: {text[:400].strip()}")
    return problems


def run_valid(case, args, work):
    keep = os.path.join(work, "keep")
    cmd = [args.onnxcc, "verify", case["dir"], "--keep", keep, "--runtime-dir", args.runtime]
    if args.cxx:
        cmd += ["--cxx", args.cxx]
    r, rss_kb = run(cmd + case["args"], work)
    if r is None:
        return [f"hung (no exit within {TIMEOUT} s)"]
    problems = []
    out = r.stdout.decode("utf-8", "replace")
    if r.returncode != 0 or "PASS" not in out:
        problems.append(f"verify failed (exit {r.returncode}): {(out + r.stderr.decode('utf-8', 'replace'))[-400:].strip()}")
    if os.path.exists(os.path.join(work, MARKER)):
        problems.append("injected code ran: the marker file exists")
    if "max_rss_mb" in case and rss_kb / 1024 > case["max_rss_mb"]:
        problems.append(f"peak RSS {rss_kb / 1024:.0f} MB above {case['max_rss_mb']} MB")
    if "max_source_kb" in case:
        for path in glob.glob(os.path.join(keep, "*", "model.*")):
            if os.path.getsize(path) > case["max_source_kb"] * 1024:
                problems.append(f"{os.path.basename(path)} has {os.path.getsize(path) // 1024} KB")
    return problems + check_inert(keep)


def run_compile(case, args, work):
    out = os.path.join(work, "out")
    r, rss_kb = run([args.onnxcc, "compile", case["model"], "-o", out] + case["args"], work)
    if r is None:
        return [f"hung (no exit within {TIMEOUT} s)"]
    if r.returncode != 0:
        return [f"compile failed: {r.stderr[-300:]!r}"]
    problems = check_inert(out)
    if "max_rss_mb" in case and rss_kb / 1024 > case["max_rss_mb"]:
        problems.append(f"peak RSS {rss_kb / 1024:.0f} MB above {case['max_rss_mb']} MB")
    for cpp in glob.glob(os.path.join(out, "*.cpp")):
        b = subprocess.run([args.cxx or "c++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-c", cpp,
                            "-I", out, "-I", args.runtime, "-o", os.path.join(work, "x.o")],
                           capture_output=True, text=True)
        if b.returncode != 0:
            problems.append(f"generated code does not build: {b.stderr[-300:]}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cases")
    ap.add_argument("--onnxcc", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--cxx", default="")
    ap.add_argument("--filter", default="")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(args.cases, "cases.json")))
    failed = 0
    ran = 0
    for case in cases:
        if args.filter and not re.search(args.filter, case["name"]):
            continue
        ran += 1
        setup(case)
        work = tempfile.mkdtemp(prefix="hostile-")
        try:
            kind = case["kind"]
            problems = {"error": run_error, "valid": run_valid, "compile": run_compile}[kind](case, args, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        status = "FAIL" if problems else "ok"
        print(f"{status:4} {kind:7} {case['name']}")
        for p in problems:
            print(f"       {p}")
        failed += bool(problems)
    print(f"hostile models: {ran - failed} passed, {failed} failed of {ran}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
