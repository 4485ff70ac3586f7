#!/usr/bin/env python3
"""Copies ONNX node tests with their shape-giving inputs made constants.

The node tests feed every input from the data sets, also those that decide
an output's shape (Slice's starts, Tile's repeats, TopK's k, ...). onnxcc
compiles static shapes, so it refuses those as "data-dependent output
shape". Real models compute them from constants; this script writes a copy
of each matching test in which such inputs are initializers holding the data
set's value (when every data set agrees on it), so that the kernels behind
the ops can be checked against the tests' reference outputs:

  .venv/bin/python tests/conformance/constant_shape_inputs.py \
      --cache /work/main/build/onnx-node-tests --out /tmp/const-tests \
      --filter 'slice|tile|top_k'
  .venv/bin/python tests/conformance/run_node_tests.py --cache /tmp/const-tests \
      --expected /dev/null ...

The output has run_node_tests.py's cache layout (onnx-VERSION/node/TEST).
Tests with nothing to make constant are not copied.
"""
import argparse
import os
import re
import shutil

import onnx

from node_tests import node_test_dir

# Op type -> indices of the inputs whose values decide the output's shape
# (or that a kernel needs at compile time, like CumSum's axis).
SHAPE_INPUTS = {
    "Slice": [1, 2, 3, 4],
    "Expand": [1],
    "Tile": [1],
    "Split": [1],
    "Pad": [1, 3],
    "ConstantOfShape": [0],
    "Range": [0, 1, 2],
    "OneHot": [1],
    "CumSum": [1],
    "TopK": [1],
    "Compress": [1],
    "Reshape": [1],
    "Squeeze": [1],
    "Unsqueeze": [1],
    "NonZero": [0],
}


def read(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return t


def convert(src, dst):
    model = onnx.load(os.path.join(src, "model.onnx"))
    graph = model.graph
    inits = {t.name for t in graph.initializer}
    inputs = [i for i in graph.input if i.name not in inits]
    wanted = set()
    for node in graph.node:
        for k in SHAPE_INPUTS.get(node.op_type, []):
            if k < len(node.input) and node.input[k]:
                wanted.add(node.input[k])
    positions = [k for k, i in enumerate(inputs) if i.name in wanted]
    if not positions:
        return False
    sets = sorted(d for d in os.listdir(src) if d.startswith("test_data_set_"))
    values = {}
    for k in positions:
        tensors = [read(os.path.join(src, s, "input_%d.pb" % k)) for s in sets]
        if any(t.SerializeToString() != tensors[0].SerializeToString() for t in tensors):
            return False  # the data sets disagree: not a constant
        values[k] = tensors[0]
    for k in positions:
        t = values[k]
        t.name = inputs[k].name
        graph.initializer.append(t)
    kept = [i for k, i in enumerate(inputs) if k not in values]
    del graph.input[:]
    graph.input.extend(kept)
    os.makedirs(dst, exist_ok=True)
    onnx.save(model, os.path.join(dst, "model.onnx"))
    for s in sets:
        os.makedirs(os.path.join(dst, s), exist_ok=True)
        j = 0
        for k in range(len(inputs)):
            if k in values:
                continue
            shutil.copy(os.path.join(src, s, "input_%d.pb" % k),
                        os.path.join(dst, s, "input_%d.pb" % j))
            j += 1
        for f in os.listdir(os.path.join(src, s)):
            if f.startswith("output_"):
                shutil.copy(os.path.join(src, s, f), os.path.join(dst, s, f))
    for f in os.listdir(src):
        if f == "data.json":
            shutil.copy(os.path.join(src, f), os.path.join(dst, f))
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", required=True, help="run_node_tests.py's --cache")
    parser.add_argument("--out", required=True, help="the new cache directory")
    parser.add_argument("--filter", default="", help="regex on test names")
    args = parser.parse_args()
    src_root = node_test_dir(args.cache)
    dst_root = os.path.join(args.out, "onnx-%s" % onnx.__version__, "node")
    os.makedirs(dst_root, exist_ok=True)
    copied = 0
    for name in sorted(os.listdir(src_root)):
        if not re.search(args.filter, name):
            continue
        src = os.path.join(src_root, name)
        if os.path.isfile(os.path.join(src, "model.onnx")):
            copied += convert(src, os.path.join(dst_root, name))
    open(os.path.join(dst_root, ".complete"), "w").close()
    print("%d tests written to %s" % (copied, dst_root))


if __name__ == "__main__":
    main()
