#!/usr/bin/env python3
"""Compile-time scaling of onnxcc on long chains: wall time and peak RSS of
`onnxcc compile` for chains of 1k, 10k and 100k nodes of one kind.

    .venv/bin/python bench/compile_scaling.py [--sizes 1000,10000,100000]

Kinds: `elementwise` alternates Add (of a constant), Mul, Relu and Tanh,
which fusion merges into loops; `softmax` chains Softmax nodes, which stay
separate kernels (the planner sees one buffer per node). Prints a markdown
table. A benchmark, not a test: nothing here asserts a time.
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def chain(kind, n):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 64])
    inits = [numpy_helper.from_array(np.full([64], 0.5, np.float32), "c")]
    nodes, prev = [], "x"
    for i in range(n):
        out = "y" if i == n - 1 else f"t{i}"
        if kind == "softmax":
            nodes.append(helper.make_node("Softmax", [prev], [out], name=f"n{i}", axis=-1))
        else:
            op = ["Add", "Mul", "Relu", "Tanh"][i % 4]
            ins = [prev, "c"] if op in ("Add", "Mul") else [prev]
            nodes.append(helper.make_node(op, ins, [out], name=f"n{i}"))
        prev = out
    g = helper.make_graph(nodes, f"{kind}_{n}", [x], [y], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--kinds", default="elementwise,softmax")
    ap.add_argument("--onnxcc", default=os.path.join(ROOT, "build", "bin", "onnxcc"))
    args = ap.parse_args()
    print("| chain | nodes | compile time (s) | peak RSS (MB) | generated .cpp (KB) |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.kinds.split(","):
            for n in [int(s) for s in args.sizes.split(",")]:
                path = os.path.join(tmp, f"{kind}_{n}.onnx")
                onnx.save(chain(kind, n), path)
                out = os.path.join(tmp, f"out_{kind}_{n}")
                # /usr/bin/time is not always installed: fork a child that
                # runs onnxcc and reports its own rusage.
                code = ("import resource,subprocess,sys,time;"
                        "t=time.perf_counter();"
                        "r=subprocess.run(sys.argv[1:],capture_output=True);"
                        "d=time.perf_counter()-t;"
                        "m=resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss;"
                        "print(r.returncode,d,m);sys.stderr.write(r.stderr.decode())")
                r = subprocess.run([sys.executable, "-c", code, args.onnxcc, "compile",
                                    path, "-o", out], capture_output=True, text=True)
                rc, seconds, rss_kb = r.stdout.split()
                if rc != "0":
                    print(f"| {kind} | {n} | failed: {r.stderr.strip()[:200]} | | |")
                    continue
                cpp = os.path.getsize(os.path.join(out, f"{kind}_{n}.cpp")) / 1024
                print(f"| {kind} | {n} | {float(seconds):.2f} | {int(rss_kb) / 1024:.0f} | {cpp:.0f} |",
                      flush=True)


if __name__ == "__main__":
    main()
