"""Writes DIR/model.onnx and DIR/test_data_set_{0,1} for the GEMMs whose
constant B onnxcc-pack-gemm-weights lays out in panels of 32 columns: a
MatMul of 120 columns (the last panel 24 wide: on every ISA a partial
register panel) with a bias Add and Relu fused into its epilogue, a MatMul
of 300 columns (large enough for --threads to split), a Gemm with transB,
alpha and beta (its [N, K] weights transposed at compile time, then
packed), and a MatMul of 33 columns, left row-major (padded to 64, its
weights would double); onnxruntime computes the references."""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(11)


def weight(name, *shape):
    return numpy_helper.from_array(
        (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32), name)


inits = [weight("w1", 40, 120), weight("b1", 120), weight("w2", 120, 300),
         weight("w3", 64, 300), weight("b3", 64), weight("w4", 64, 33)]
nodes = [
    helper.make_node("MatMul", ["x", "w1"], ["m1"]),
    helper.make_node("Add", ["m1", "b1"], ["a1"]),
    helper.make_node("Relu", ["a1"], ["r1"]),
    helper.make_node("MatMul", ["r1", "w2"], ["m2"]),
    helper.make_node("Gemm", ["m2", "w3", "b3"], ["g"], transB=1, alpha=0.5, beta=2.0),
    helper.make_node("MatMul", ["g", "w4"], ["y"]),
]
graph = helper.make_graph(
    nodes, "packed_gemm",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [32, 40])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [32, 33])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.checker.check_model(model)
os.makedirs(out, exist_ok=True)
onnx.save(model, os.path.join(out, "model.onnx"))
session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
for i in range(2):
    x = rng.standard_normal((32, 40)).astype(np.float32)
    (y,) = session.run(None, {"x": x})
    d = os.path.join(out, f"test_data_set_{i}")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())
    with open(os.path.join(d, "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(y, "y").SerializeToString())
