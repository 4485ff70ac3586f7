"""Writes DIR/clamp/ and DIR/nan_bound/ (model.onnx, test_data_set_N/).
clamp: Relu(x) + Clip(x, 0, 6) over rows of 37 (a vector and a tail on
every ISA), the input holding NaN, infinities and signed zeros: the
epilogue's bounds are constants, so the emitter picks vmax_num and
vmin_num, and a NaN input must still come out NaN. nan_bound: Clip(x,
NaN, 6), whose lower bound is a NaN constant and must keep the general
vmax (it is only compiled: ONNX leaves a NaN bound's result open).
onnxruntime computes the references."""
import os
import sys

import numpy as np
from onnx import TensorProto, helper
from reference_data import save_with_references

out = sys.argv[1]
shape = [1, 2, 5, 37]


def model(name, nodes, inits):
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def scalar(name, value):
    return helper.make_tensor(name, TensorProto.FLOAT, [], [value])


rng = np.random.default_rng(5)
inputs = []
for i in range(2):
    x = (rng.standard_normal(shape) * 5).astype(np.float32)
    special = [np.nan, np.inf, -np.inf, -0.0, 0.0, 6.0, np.nan]
    at = rng.choice(x.size, size=len(special), replace=False)
    x.flat[at] = special
    x.flat[i * 36] = np.nan  # the first and the last lane of a row
    inputs.append(x)

clamp = model("clamp", [
    helper.make_node("Relu", ["x"], ["r"]),
    helper.make_node("Clip", ["x", "lo", "hi"], ["c"]),
    helper.make_node("Add", ["r", "c"], ["y"]),
], [scalar("lo", 0.0), scalar("hi", 6.0)])
save_with_references(os.path.join(out, "clamp"), clamp, inputs)

nan_bound = model("nan_bound", [helper.make_node("Clip", ["x", "nan", "hi"], ["y"])],
                  [scalar("nan", float("nan")), scalar("hi", 6.0)])
save_with_references(os.path.join(out, "nan_bound"), nan_bound, inputs)
