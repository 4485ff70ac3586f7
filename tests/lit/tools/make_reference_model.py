"""Writes one small model and its onnxruntime reference into argv[2], in the
backend-test layout `onnxcc verify` reads (model.onnx,
test_data_set_0/input_K.pb, output_K.pb). argv[1] names the model:

  conv_bn          Conv -> BatchNormalization -> Relu -> BatchNormalization
                   (one folds into the Conv, the other is a scale and shift)
  softmax_opset11  Softmax of opset 11 with its default axis=1 on a 3-D input:
                   the old flatten-to-2-D semantics, not per-axis
  unnamed_dim      an input whose batch dim has neither dim_value nor
                   dim_param, as skl2onnx writes it (data set at batch 3)
  cast_bool        Cast of constants 0.5, 2.0, 0.0, -1e-30, NaN to BOOL and
                   back: every nonzero value is true
  local_function   a model-local function (with an attribute reference and
                   a nested call of another function) called twice
  bisect_chain     Relu -> Mul -> Exp -> Tanh -> Sin on 4096 values: at zero
                   tolerance the transcendental ones differ from onnxruntime
                   in the last bits, the first two never
  signal           HannWindow (symmetric), HammingWindow, BlackmanWindow and
                   MelWeightMatrix of constant sizes, each added to an input
  grid_sample      GridSample-20: cubic with reflection and linear with
                   border, coordinates beyond [-1, 1]
  dropout_mask     Dropout-13 at inference with its mask output (all true)
  empty_ports      an input with no elements (2x0x4) reduced to zeros, and
                   an output with no elements (an empty Slice of 3x4)
  broadcast_rows   broadcasts whose loops merge axes: an SE block's
                   [1,C,H,W] * [1,C,1,1], a three-input Where, an outer
                   sum [N,1,W] + [1,C,1], an int32 Add, each with rows
                   that end in a partial vector
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

name, out = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(7)
F = TensorProto.FLOAT


def vi(n, shape):
    return helper.make_tensor_value_info(n, F, shape)


def const(n, a):
    return numpy_helper.from_array(np.asarray(a), n)


def model(nodes, inputs, outputs, inits, opset=17):
    m = helper.make_model(helper.make_graph(nodes, name, inputs, outputs, inits),
                          opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


if name == "conv_bn":
    c = 4
    bn = lambda p: [const(p + k, rng.uniform(0.5, 1.5, c).astype(np.float32)) for k in "sbmv"]
    m = model([helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
               helper.make_node("BatchNormalization", ["c", "1s", "1b", "1m", "1v"], ["b1"], name="bn1"),
               helper.make_node("Relu", ["b1"], ["r"], name="relu"),
               helper.make_node("BatchNormalization", ["r", "2s", "2b", "2m", "2v"], ["y"], name="bn2")],
              [vi("x", [1, 3, 6, 6])], [vi("y", [1, c, 6, 6])],
              [const("w", rng.standard_normal((c, 3, 3, 3)).astype(np.float32))] + bn("1") + bn("2"))
    feeds = {"x": rng.standard_normal((1, 3, 6, 6)).astype(np.float32)}
elif name == "softmax_opset11":
    m = model([helper.make_node("Softmax", ["x"], ["y"], name="softmax")],
              [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])], [], opset=11)
    feeds = {"x": rng.standard_normal((2, 3, 4)).astype(np.float32)}
elif name == "unnamed_dim":
    x, y = vi("x", [None, 4]), vi("y", [None, 4])  # neither dim_value nor dim_param
    m = model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [x], [y], [])
    feeds = {"x": rng.standard_normal((3, 4)).astype(np.float32)}
elif name == "cast_bool":
    vals = np.array([0.5, 2.0, 0.0, -1e-30, np.nan], np.float32)
    m = model([helper.make_node("Cast", ["k"], ["b"], name="to_bool", to=TensorProto.BOOL),
               helper.make_node("Cast", ["b"], ["f"], name="to_float", to=F),
               helper.make_node("Add", ["x", "f"], ["y"], name="add")],
              [vi("x", [5])], [vi("y", [5])], [const("k", vals)])
    feeds = {"x": rng.standard_normal(5).astype(np.float32)}
elif name == "local_function":
    import onnx.parser
    m = onnx.parser.parse_model("""
    <ir_version: 8, opset_import: ["" : 17, "local" : 1]>
    g (float[2, 3] x) => (float[2, 3] y) {
      a = local.ScaledRelu <alpha = 2.0> (x)
      y = local.ScaledRelu <alpha = 0.5> (a)
    }
    <domain: "local", opset_import: ["" : 17, "local" : 1]>
    ScaledRelu <alpha> (x) => (y) {
      s = Constant <value_float = @alpha> ()
      r = local.Shifted (x)
      y = Mul (r, s)
    }
    <domain: "local", opset_import: ["" : 17]>
    Shifted (x) => (y) {
      one = Constant <value_float = 1.0> ()
      t = Add (x, one)
      y = Relu (t)
    }
    """)
    feeds = {"x": rng.standard_normal((2, 3)).astype(np.float32)}
elif name == "bisect_chain":
    m = model([helper.make_node("Relu", ["x"], ["r"], name="relu"),
               helper.make_node("Mul", ["r", "half"], ["h"], name="halve"),
               helper.make_node("Exp", ["h"], ["e"], name="exp"),
               helper.make_node("Tanh", ["e"], ["t"], name="tanh"),
               helper.make_node("Sin", ["t"], ["y"], name="sin")],
              [vi("x", [4096])], [vi("y", [4096])], [const("half", np.float32(0.5))])
    feeds = {"x": rng.standard_normal(4096).astype(np.float32)}
elif name == "signal":
    i64 = lambda n, v: const(n, np.array(v, np.int64))
    m = model([helper.make_node("HannWindow", ["n"], ["hann"], name="hann", periodic=0),
               helper.make_node("HammingWindow", ["n"], ["hamming"], name="hamming"),
               helper.make_node("BlackmanWindow", ["n"], ["blackman"], name="blackman"),
               helper.make_node("Add", ["hann", "hamming"], ["hh"]),
               helper.make_node("Add", ["hh", "blackman"], ["w"]),
               helper.make_node("Add", ["x", "w"], ["y"], name="add"),
               helper.make_node("MelWeightMatrix", ["bins", "dft", "rate", "lo", "hi"], ["mel"], name="mel"),
               helper.make_node("Mul", ["mel", "s"], ["z"], name="scale")],
              [vi("x", [12]), vi("s", [9, 8])], [vi("y", [12]), vi("z", [9, 8])],
              [i64("n", 12), i64("bins", 8), i64("dft", 16), i64("rate", 8192),
               const("lo", np.float32(0)), const("hi", np.float32(4096))])
    feeds = {"x": rng.standard_normal(12).astype(np.float32),
             "s": rng.standard_normal((9, 8)).astype(np.float32)}
elif name == "grid_sample":
    g = rng.uniform(-1.6, 1.6, (2, 3, 5, 2)).astype(np.float32)
    m = model([helper.make_node("GridSample", ["x", "g"], ["y"], name="cubic", mode="cubic",
                                padding_mode="reflection"),
               helper.make_node("GridSample", ["x", "g"], ["z"], name="linear", mode="linear",
                                padding_mode="border", align_corners=1)],
              [vi("x", [2, 3, 4, 6]), vi("g", [2, 3, 5, 2])], [vi("y", [2, 3, 3, 5]), vi("z", [2, 3, 3, 5])],
              [], opset=20)
    feeds = {"x": rng.standard_normal((2, 3, 4, 6)).astype(np.float32), "g": g}
elif name == "dropout_mask":
    m = model([helper.make_node("Dropout", ["x", "ratio"], ["y", "mask"], name="drop")],
              [vi("x", [2, 3])], [vi("y", [2, 3]), helper.make_tensor_value_info("mask", TensorProto.BOOL, [2, 3])],
              [const("ratio", np.array(0.3, np.float32))], opset=13)
    feeds = {"x": rng.standard_normal((2, 3)).astype(np.float32)}
elif name == "empty_ports":
    m = model([helper.make_node("ReduceSum", ["e", "axis1"], ["s"], name="sum_empty"),
               helper.make_node("Slice", ["z", "start", "end", "axis0"], ["none"], name="slice_none"),
               helper.make_node("Relu", ["z"], ["r"], name="relu")],
              [vi("e", [2, 0, 4]), vi("z", [3, 4])], [vi("s", [2, 1, 4]), vi("none", [0, 4]), vi("r", [3, 4])],
              [const("axis1", np.array([1], np.int64)), const("axis0", np.array([0], np.int64)),
               const("start", np.array([2], np.int64)), const("end", np.array([1], np.int64))])
    feeds = {"e": np.zeros((2, 0, 4), np.float32),
             "z": rng.standard_normal((3, 4)).astype(np.float32)}
elif name == "broadcast_rows":
    i32 = lambda n, s: helper.make_tensor_value_info(n, TensorProto.INT32, s)
    m = model([helper.make_node("Mul", ["x", "s"], ["se"], name="se_scale"),
               helper.make_node("Greater", ["c", "zero"], ["mask"], name="mask"),
               helper.make_node("Where", ["mask", "x", "s"], ["sel"], name="select"),
               helper.make_node("Add", ["p", "q"], ["outer"], name="outer_sum"),
               helper.make_node("Add", ["i", "j"], ["isum"], name="int_add")],
              [vi("x", [1, 5, 3, 7]), vi("s", [1, 5, 1, 1]), vi("c", [1, 1, 7]),
               vi("p", [2, 1, 19]), vi("q", [1, 3, 1]), i32("i", [4, 11]), i32("j", [4, 1])],
              [vi("se", [1, 5, 3, 7]), vi("sel", [1, 5, 3, 7]), vi("outer", [2, 3, 19]),
               i32("isum", [4, 11])],
              [const("zero", np.float32(0))])
    feeds = {"x": rng.standard_normal((1, 5, 3, 7)).astype(np.float32),
             "s": rng.standard_normal((1, 5, 1, 1)).astype(np.float32),
             "c": rng.standard_normal((1, 1, 7)).astype(np.float32),
             "p": rng.standard_normal((2, 1, 19)).astype(np.float32),
             "q": rng.standard_normal((1, 3, 1)).astype(np.float32),
             "i": rng.integers(-100, 100, (4, 11)).astype(np.int32),
             "j": rng.integers(-100, 100, (4, 1)).astype(np.int32)}
else:
    sys.exit(f"unknown model {name}")

os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
onnx.save(m, os.path.join(out, "model.onnx"))
sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
results = sess.run(None, feeds)
for i, (k, v) in enumerate(feeds.items()):
    onnx.save_tensor(numpy_helper.from_array(v, k), os.path.join(out, "test_data_set_0", f"input_{i}.pb"))
for i, v in enumerate(results):
    onnx.save_tensor(numpy_helper.from_array(v, m.graph.output[i].name),
                     os.path.join(out, "test_data_set_0", f"output_{i}.pb"))
