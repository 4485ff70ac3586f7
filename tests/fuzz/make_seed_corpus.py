"""Collects the seed models for onnxcc-fuzz into argv[1] (a directory).

scripts/fuzz --make-corpus runs this, then minimises the seeds with
libFuzzer's -merge=1 into tests/fuzz/corpus/. Seeds, all at most MAX_BYTES
(the fuzzer's -max_len):

  - tests/e2e/models/*/model.onnx and ../shared/models/*/model.onnx;
  - the onnx package's backend node tests (onnx/backend/test/data/node/
    */model.onnx), all of them: the merge keeps those that add coverage, so
    the seeds follow the importer's table as operators are added;
  - the hostile-model suite (tests/hostile/make_hostile.py, run into a
    temporary directory);
  - a few small hand-built networks below, covering what the node tests do
    not: fusion chains, Conv+BatchNormalization folding, shape arithmetic
    feeding Reshape, and symbolic dimensions.

Run with the project's venv: .venv/bin/python tests/fuzz/make_seed_corpus.py DIR
"""
import glob
import hashlib
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

MAX_BYTES = 65536
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FLOAT = TensorProto.FLOAT


def save(out, name, data):
    if len(data) > MAX_BYTES:
        return False
    digest = hashlib.sha1(data).hexdigest()[:12]
    with open(os.path.join(out, "%s-%s.onnx" % (name, digest)), "wb") as f:
        f.write(data)
    return True


def copy_models(out, pattern, prefix):
    n = 0
    for path in sorted(glob.glob(pattern)):
        if os.path.getsize(path) > MAX_BYTES:
            continue
        data = open(path, "rb").read()
        name = os.path.basename(os.path.dirname(path))
        n += save(out, prefix + name, data)
    return n


def w(name, shape, scale=0.5):
    rng = np.random.default_rng(len(name) * 7919 + sum(shape))
    return numpy_helper.from_array(
        (rng.standard_normal(shape) * scale).astype(np.float32), name)


def i64(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def vi(name, shape, dtype=FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def model(nodes, inputs, outputs, inits=(), opset=17):
    g = helper.make_graph(nodes, "seed", inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="onnxcc-fuzz-seed")
    m.ir_version = 8
    return m.SerializeToString()


def hand_built():
    """Small networks shaped like the real ones (LeNet, MLPs) and the
    patterns the passes look for."""
    n = helper.make_node
    yield "small_cnn", model(
        [n("Conv", ["x", "c1w", "c1b"], ["c1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
         n("Relu", ["c1"], ["r1"]),
         n("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
         n("Conv", ["p1", "c2w"], ["c2"], kernel_shape=[3, 3], strides=[1, 1]),
         n("Relu", ["c2"], ["r2"]),
         n("AveragePool", ["r2"], ["p2"], kernel_shape=[2, 2], strides=[1, 1]),
         n("Flatten", ["p2"], ["f"], axis=1),
         n("Gemm", ["f", "fw", "fb"], ["g"], transB=1),
         n("Softmax", ["g"], ["y"], axis=-1)],
        [vi("x", [1, 1, 8, 8])], [vi("y", [1, 3])],
        [w("c1w", [2, 1, 3, 3]), w("c1b", [2]), w("c2w", [3, 2, 3, 3]),
         w("fw", [3, 12]), w("fb", [3])])
    yield "conv_bn_relu", model(
        [n("Conv", ["x", "cw"], ["c"], kernel_shape=[3, 3], group=1,
           dilations=[1, 1], auto_pad="SAME_UPPER"),
         n("BatchNormalization", ["c", "s", "b", "m", "v"], ["bn"], epsilon=1e-5),
         n("Relu", ["bn"], ["r"]),
         n("GlobalAveragePool", ["r"], ["y"])],
        [vi("x", ["N", 2, 5, 5])], [vi("y", ["N", 2, 1, 1])],
        [w("cw", [2, 2, 3, 3]), w("s", [2]), w("b", [2]), w("m", [2]),
         numpy_helper.from_array(np.array([1.0, 2.0], np.float32), "v")])
    yield "depthwise_conv", model(
        [n("Conv", ["x", "cw", "cb"], ["y"], kernel_shape=[3, 3], group=4,
           pads=[1, 1, 1, 1], strides=[2, 2])],
        [vi("x", [1, 4, 6, 6])], [vi("y", [1, 4, 3, 3])],
        [w("cw", [4, 1, 3, 3]), w("cb", [4])])
    yield "mlp", model(
        [n("MatMul", ["x", "w1"], ["m1"]), n("Add", ["m1", "b1"], ["a1"]),
         n("Relu", ["a1"], ["h"]), n("MatMul", ["h", "w2"], ["m2"]),
         n("Add", ["m2", "b2"], ["a2"]), n("Sigmoid", ["a2"], ["s"]),
         n("Mul", ["s", "a2"], ["y"])],
        [vi("x", ["batch", 4])], [vi("y", ["batch", 3])],
        [w("w1", [4, 5]), w("b1", [5]), w("w2", [5, 3]), w("b2", [3])])
    yield "elementwise_chain", model(
        [n("Sub", ["x", "c"], ["a"]), n("Abs", ["a"], ["b"]),
         n("Sqrt", ["b"], ["s"]), n("Neg", ["s"], ["ng"]), n("Exp", ["ng"], ["e"]),
         n("Tanh", ["e"], ["t"]), n("Clip", ["t", "lo", "hi"], ["cl"]),
         n("Div", ["cl", "x"], ["y"])],
        [vi("x", [2, 3])], [vi("y", [2, 3])],
        [w("c", [3]), numpy_helper.from_array(np.array(-0.5, np.float32), "lo"),
         numpy_helper.from_array(np.array(0.5, np.float32), "hi")])
    yield "shape_arith", model(
        [n("Shape", ["x"], ["sh"]),
         n("Gather", ["sh", "idx"], ["d0"], axis=0),
         n("Concat", ["d0", "minus1"], ["newshape"], axis=0),
         n("Reshape", ["x", "newshape"], ["r"]),
         n("Transpose", ["r"], ["t"], perm=[1, 0]),
         n("Unsqueeze", ["t", "ax"], ["u"]),
         n("Squeeze", ["u", "ax"], ["y"])],
        [vi("x", [2, 3, 4])], [vi("y", [12, 2])],
        [i64("idx", [0]), i64("minus1", [-1]), i64("ax", [0])])
    yield "cast_constant_gather", model(
        [n("Constant", [], ["k"], value=helper.make_tensor(
            "k", TensorProto.INT64, [2], [2, 0])),
         n("Gather", ["x", "k"], ["g"], axis=1),
         n("Cast", ["g"], ["c"], to=TensorProto.INT32),
         n("Cast", ["c"], ["f"], to=FLOAT),
         n("Identity", ["f"], ["i"]),
         n("Dropout", ["i"], ["y"]),
         n("Constant", [], ["z"], value_floats=[1.0, 2.0])],
        [vi("x", [3, 4])], [vi("y", [3, 2]), vi("z", [2])])
    yield "gemm_trans", model(
        [n("Gemm", ["a", "b", "c"], ["y"], alpha=0.5, beta=2.0, transA=1, transB=1)],
        [vi("a", [3, 2])], [vi("y", [2, 4])],
        [w("b", [4, 3]), w("c", [4])])
    yield "opset11_squeeze_attr", model(
        [n("Unsqueeze", ["x"], ["u"], axes=[0, 3]),
         n("Squeeze", ["u"], ["s"], axes=[0]),
         n("Clip", ["s"], ["y"], min=-1.0, max=1.0),
         n("Softmax", ["y"], ["z"], axis=1)],
        [vi("x", [2, 3])], [vi("z", [2, 3, 1])], opset=11)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    counts = {}
    counts["e2e"] = copy_models(out, os.path.join(ROOT, "tests/e2e/models/*/model.onnx"), "e2e-")
    counts["shared"] = copy_models(
        out, os.path.join(ROOT, "..", "shared/models/*/model.onnx"), "shared-")
    node_dir = os.path.join(os.path.dirname(onnx.__file__), "backend/test/data/node")
    counts["node"] = copy_models(out, os.path.join(node_dir, "*/model.onnx"), "node-")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, os.path.join(ROOT, "tests/hostile/make_hostile.py"),
                        tmp], check=True, stdout=subprocess.DEVNULL)
        counts["hostile"] = 0
        for path in sorted(glob.glob(os.path.join(tmp, "*/*"))):
            if os.path.isfile(path) and path.endswith(".onnx") and \
                    os.path.getsize(path) <= MAX_BYTES:
                name = "hostile-" + os.path.basename(os.path.dirname(path))
                counts["hostile"] += save(out, name, open(path, "rb").read())
    counts["hand"] = sum(save(out, "hand-" + name, data) for name, data in hand_built())
    print("seeds in %s: %s" % (out, ", ".join("%s %d" % kv for kv in counts.items())))


if __name__ == "__main__":
    main()
