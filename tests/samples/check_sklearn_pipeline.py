#!/usr/bin/env python3
"""Builds samples/sklearn_pipeline as a user would and checks its answers.

For each C++ compiler: configures the sample with `cmake
-Donnxcc_DIR=<onnxcc build tree>` in a fresh directory (-Wall -Wextra -Werror,
so the generated code and main.cpp must be warning-free), builds it, feeds
every row of test_data_set_0/input_0.pb to `wine_demo` on stdin and compares
its printed labels and probabilities with scikit-learn's (output_0.pb,
output_1.pb): labels exactly, probabilities within --atol. The first row is
also given as 13 arguments and must print the same line.
"""
import argparse
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def load(path):
    return numpy_helper.to_array(onnx.load_tensor(path))


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {r.returncode}\n{r.stdout}{r.stderr}")
    return r.stdout


def parse(line, row):
    # "label 1 probabilities 0.050000 0.900000 0.050000"
    f = line.split()
    if len(f) < 3 or f[0] != "label" or f[2] != "probabilities":
        sys.exit(f"FAIL: row {row}: cannot parse {line!r}")
    return int(f[1]), np.array([float(p) for p in f[3:]], dtype=np.float64)


def check(exe, x, labels, probs, atol):
    rows = "".join(" ".join(repr(float(v)) for v in r) + "\n" for r in x)
    lines = run([exe], input=rows).splitlines()
    if len(lines) != len(x):
        sys.exit(f"FAIL: {len(x)} rows in, {len(lines)} lines out")
    bad = 0
    for i, line in enumerate(lines):
        label, p = parse(line, i)
        err = np.abs(p - probs[i]).max() if p.shape == probs[i].shape else np.inf
        if label != labels[i] or err > atol:
            print(f"row {i}: got label {label} probabilities {p.tolist()}, "
                  f"scikit-learn label {labels[i]} probabilities {probs[i].tolist()}")
            bad += 1
    argv_line = run([exe] + [repr(float(v)) for v in x[0]]).strip()
    if argv_line != lines[0]:
        print(f"row 0 as arguments: {argv_line!r}, on stdin: {lines[0]!r}")
        bad += 1
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--onnxcc-dir", required=True, help="onnxcc build tree")
    ap.add_argument("--sample", required=True, help="samples/sklearn_pipeline")
    ap.add_argument("--data", help="reference data set (default SAMPLE/test_data_set_0)")
    ap.add_argument("--work", required=True)
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--generator", default="Ninja")
    ap.add_argument("--make-program", help="CMAKE_MAKE_PROGRAM, if not on PATH")
    ap.add_argument("--cxx", nargs="+", default=["g++", "clang++-22"])
    ap.add_argument("--atol", type=float, default=1e-4)
    args = ap.parse_args()
    for a in ("onnxcc_dir", "sample", "data", "work"):
        if getattr(args, a):
            setattr(args, a, os.path.abspath(getattr(args, a)))

    data = args.data or os.path.join(args.sample, "test_data_set_0")
    x = load(os.path.join(data, "input_0.pb"))
    labels = load(os.path.join(data, "output_0.pb"))
    probs = load(os.path.join(data, "output_1.pb"))
    compilers = [c for c in args.cxx if shutil.which(c)]
    if not compilers:
        sys.exit(f"FAIL: none of {args.cxx} found")
    failed = False
    for cxx in compilers:
        build = os.path.join(args.work, cxx)
        shutil.rmtree(build, ignore_errors=True)
        configure = [args.cmake, "-G", args.generator, "-S", args.sample, "-B", build,
                     "-DCMAKE_BUILD_TYPE=Release", f"-Donnxcc_DIR={args.onnxcc_dir}",
                     f"-DCMAKE_CXX_COMPILER={cxx}",
                     "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Werror"]
        if args.make_program:
            configure.append(f"-DCMAKE_MAKE_PROGRAM={args.make_program}")
        run(configure)
        run([args.cmake, "--build", build])
        bad = check(os.path.join(build, "wine_demo"), x, labels, probs, args.atol)
        print(f"{cxx}: {len(x)} rows, {bad} differ from scikit-learn"
              f" {'MISMATCH' if bad else 'ok'}")
        failed |= bad > 0
    print("FAIL" if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
