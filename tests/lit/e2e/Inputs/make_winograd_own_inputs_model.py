"""Writes DIR/model.onnx and DIR/test_data_set_{0,1}: a 3x3 stride-1
convolution of 32 -> 64 channels over 14x14 (49 Winograd tiles) with a
Relu, then a 1x1 to 8 channels. At two threads its Winograd runs with
each thread's own transformed input (winograd_own_inputs()), which the
planner reserves after the shared scratch; onnxruntime computes the
references."""
import sys

import numpy as np
from onnx import helper, numpy_helper
from reference_data import save_float_graph

out = sys.argv[1]
rng = np.random.default_rng(11)


def weight(name, *shape):
    return numpy_helper.from_array(
        (rng.standard_normal(shape) / np.sqrt(np.prod(shape[1:]))).astype(np.float32), name)


inits = [weight("w", 64, 32, 3, 3), weight("b", 64),
         weight("pw", 8, 64, 1, 1), weight("pb", 8)]
nodes = [
    helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c"], ["r"]),
    helper.make_node("Conv", ["r", "pw", "pb"], ["y"]),
]
save_float_graph(out, "winograd_own_inputs", nodes, inits, (1, 32, 14, 14),
                 (1, 8, 14, 14), rng)
