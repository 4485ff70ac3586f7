"""Writes DIR/model.onnx and DIR/test_data_set_{0,1} for a chain of
PyTorch-Linear-style Gemms (transB, constant [N, K] weights) over ROWS rows
(1 to 3), whose weights onnxcc-pack-gemm-weights lays out in groups of 16
rows: 50 -> 250 (a partial last group of 10 rows, 2 k past the last block
of 16) with a bias and Relu fused into its epilogue, 250 -> 300 with alpha
and beta (large enough for --threads to split), and 300 -> 10, left row by row
(10 rows padded to 16 would grow its weights 60%). onnxruntime computes
the references.

    make_packed_dots_model.py DIR ROWS
"""
import sys

import numpy as np
from onnx import helper, numpy_helper
from reference_data import save_float_graph

out, rows = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(13)


def weight(name, *shape):
    return numpy_helper.from_array(
        (rng.standard_normal(shape) / np.sqrt(shape[-1])).astype(np.float32), name)


inits = [weight("w1", 250, 50), weight("b1", 250), weight("w2", 300, 250),
         weight("b2", 300), weight("w3", 10, 300)]
nodes = [
    helper.make_node("Gemm", ["x", "w1", "b1"], ["g1"], transB=1),
    helper.make_node("Relu", ["g1"], ["r1"]),
    helper.make_node("Gemm", ["r1", "w2", "b2"], ["g2"], transB=1, alpha=0.5, beta=2.0),
    helper.make_node("Gemm", ["g2", "w3"], ["y"], transB=1),
]
save_float_graph(out, "packed_dots", nodes, inits, (rows, 50), (rows, 10), rng)
