"""Writes DIR/model.onnx and DIR/test_data_set_{0,1} for two Gemms of
fewer than 16 output columns over ROWS rows, which run as dot products
with the transposed weights (gemm_few_columns()): 40 -> 10 with a
PyTorch Linear's transposed weight [10, 40], kept as it is, and its bias
and Relu fused; and 40 -> 3 with a weight [40, 3], which the lowering
transposes, alpha and beta, and a bias of the output's shape. onnxruntime
computes the references; the two outputs are concatenated.

    make_few_columns_model.py DIR ROWS
"""
import sys

import numpy as np
from onnx import helper, numpy_helper
from reference_data import save_float_graph

out, rows = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(29)


def weight(name, *shape):
    return numpy_helper.from_array(
        (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32), name)


inits = [weight("w1", 10, 40), weight("b1", 10), weight("w2", 40, 3),
         weight("c2", rows, 3)]
nodes = [
    helper.make_node("Gemm", ["x", "w1", "b1"], ["g1"], transB=1),
    helper.make_node("Relu", ["g1"], ["y1"]),
    helper.make_node("Gemm", ["x", "w2", "c2"], ["y2"], alpha=0.5, beta=2.0),
    helper.make_node("Concat", ["y1", "y2"], ["y"], axis=1),
]
save_float_graph(out, "few_columns", nodes, inits, (rows, 40), (rows, 13), rng)
