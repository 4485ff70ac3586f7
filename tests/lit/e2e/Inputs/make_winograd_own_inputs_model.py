"""Writes DIR/model.onnx and DIR/test_data_set_{0,1}: 3x3 stride-1
convolutions of 32 -> 128 channels over 18x18 (81 Winograd tiles, M 4x
V) with a Relu, and after a 2x2 max pool of 128 -> 32 over 9x9 (25
tiles). At two threads both Winograds run with each thread's own
transformed input (winograd_own_inputs()), which the planner reserves
after the shared scratch; onnxruntime computes the references."""
import sys

import numpy as np
from onnx import helper
from reference_data import fan_in_weight, save_float_graph

out = sys.argv[1]
rng = np.random.default_rng(11)


def weight(name, *shape):
    return fan_in_weight(rng, name, *shape)


inits = [weight("w", 128, 32, 3, 3), weight("b", 128),
         weight("w2", 32, 128, 3, 3), weight("b2", 32)]
nodes = [
    helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c"], ["r"]),
    helper.make_node("MaxPool", ["r"], ["m"], kernel_shape=[2, 2], strides=[2, 2]),
    helper.make_node("Conv", ["m", "w2", "b2"], ["y"], pads=[1, 1, 1, 1]),
]
save_float_graph(out, "winograd_own_inputs", nodes, inits, (1, 32, 18, 18),
                 (1, 32, 9, 9), rng)
