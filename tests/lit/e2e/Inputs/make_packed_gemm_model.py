"""Writes DIR/model.onnx and DIR/test_data_set_{0,1} for the GEMMs whose
constant B onnxcc-pack-gemm-weights lays out in panels of 32 columns: a
MatMul of 120 columns (the last panel 24 wide: on every ISA a partial
register panel) with a bias Add and Relu fused into its epilogue, a MatMul
of 300 columns (large enough for --threads to split), a Gemm with transB,
alpha and beta (its [N, K] weights transposed at compile time, then
packed), and a MatMul of 33 columns, left row-major (padded to 64, its
weights would double); onnxruntime computes the references."""
import sys

import numpy as np
from onnx import helper, numpy_helper
from reference_data import save_float_graph

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
save_float_graph(out, "packed_gemm", nodes, inits, (32, 40), (32, 33), rng)
