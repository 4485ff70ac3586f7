"""Writes models with hostile attributes for the reductions and
normalisations into argv[1]/<name>.onnx: axes at the int64 extremes, a
million of them, of the wrong rank or type; axes, axis, num_groups, size,
p and stash_type out of range. Each must be refused with one line naming
the value (hostile_reduce_norm.test), or, where the value is legal however
large (an LRN window of 2^63-1 channels, GlobalLpPool p = 2^63-1), compile
into code that builds.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper, numpy_helper

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
I64MIN, I64MAX = -2**63, 2**63 - 1
x = helper.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])
y = helper.make_tensor_value_info("y", T.FLOAT, None)


def const(name, a):
    return numpy_helper.from_array(np.asarray(a), name)


def save(name, op, inputs=("x",), inits=(), opset=18, out=y, **attrs):
    node = helper.make_node(op, list(inputs), ["y"], name="n", **attrs)
    g = helper.make_graph([node], name, [x], [out], list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    onnx.save(m, os.path.join(OUT, name + ".onnx"))


ones = lambda n: const("s", np.ones(n, np.float32))
save("axes_extremes", "ReduceSum", ["x", "a"], [const("a", np.array([I64MIN, I64MAX]))])
save("axes_million", "ReduceMean", opset=13, axes=list(range(10**6)))
save("axes_repeated", "ReduceL1", opset=13, axes=[2, -1])
save("axes_rank2", "ReduceMax", ["x", "a"], [const("a", np.zeros((1, 1), np.int64))])
save("axes_float", "ReduceMax", ["x", "a"], [const("a", np.zeros(1, np.float32))])
save("argmax_axis", "ArgMax", opset=13, out=helper.make_tensor_value_info("y", T.INT64, None),
     axis=I64MIN)
save("layer_norm_axis", "LayerNormalization", ["x", "s"], [ones(4)], opset=17, axis=I64MAX)
save("layer_norm_stash", "LayerNormalization", ["x", "s"], [ones(4)], opset=17,
     stash_type=I64MIN)
save("group_norm_groups", "GroupNormalization", ["x", "s", "s"], [ones(3)], opset=21,
     num_groups=I64MAX)
save("lrn_size", "LRN", opset=13, size=-5)
save("lp_norm_p", "LpNormalization", opset=13, p=I64MIN)
save("global_lp_pool_p", "GlobalLpPool", opset=13, p=-2)
save("hardmax11_axis", "Hardmax", opset=11, axis=I64MAX)
# Legal, however large.
save("lrn_size_max", "LRN", opset=13, size=I64MAX)
save("global_lp_pool_p_max", "GlobalLpPool", opset=13, p=I64MAX)
