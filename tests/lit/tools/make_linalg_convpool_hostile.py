"""Writes models with hostile attributes for the linear-algebra and
convolution/pooling ops into argv[1]/<name>.onnx: window lists at the int64
extremes, of the wrong length, zero strides and groups, pads reaching past
the kernel, storage_order and p out of range, and malformed Einsum
equations. Each must be refused with one line naming
the value (hostile_linalg_convpool.test), or, where the value is legal
however large (pads of 1000 around a 5x5 image), compile into code that
builds.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper, numpy_helper

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
I64MIN, I64MAX = -2**63, 2**63 - 1


def save(name, op, inputs, opset=21, out_type=T.FLOAT, outputs=1, **attrs):
    """inputs: (name, element type, shape) graph inputs."""
    ins = [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs]
    outs = [helper.make_tensor_value_info("y%d" % i, out_type if i == 0 else T.INT64, None)
            for i in range(outputs)]
    node = helper.make_node(op, [n for n, _, _ in inputs], [o.name for o in outs],
                            name="n", **attrs)
    g = helper.make_graph([node], name, ins, outs)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 10
    onnx.save(m, os.path.join(OUT, name + ".onnx"))


X = ("x", T.FLOAT, [1, 2, 5, 5])
W = ("w", T.FLOAT, [4, 2, 3, 3])
save("conv_kernel_extremes", "Conv", [X, W], kernel_shape=[I64MIN, I64MAX])
save("conv_kernel_count", "Conv", [X, W], kernel_shape=[3, 3, 3])
save("conv_stride_zero", "Conv", [X, W], strides=[0, 1])
save("conv_dilation_min", "Conv", [X, W], dilations=[1, I64MIN])
save("conv_pads_max", "Conv", [X, W], pads=[I64MAX, 0, I64MAX, 0])
save("conv_group_zero", "Conv", [X, W], group=0)
save("conv_group_max", "Conv", [X, W], group=I64MAX)
save("conv_transpose_output_shape", "ConvTranspose", [X, ("w", T.FLOAT, [2, 2, 3, 3])],
     output_shape=[-1, I64MAX])
save("max_pool_storage_order", "MaxPool", [X], outputs=2, kernel_shape=[2, 2],
     storage_order=I64MAX)
save("max_pool_pads", "MaxPool", [X], kernel_shape=[2, 2], pads=[2, 2, 2, 2])
save("lp_pool_p", "LpPool", [X], kernel_shape=[2, 2], p=I64MIN)
save("einsum_ellipses", "Einsum", [("a", T.FLOAT, [2, 3]), ("b", T.FLOAT, [3])],
     equation="...i...,j->")
save("einsum_label", "Einsum", [("a", T.FLOAT, [2, 3]), ("b", T.FLOAT, [3, 4])],
     equation="ij,jk->iz")
save("gemm_inner", "Gemm", [("a", T.FLOAT, [2, 3]), ("b", T.FLOAT, [5, 4])])
# Legal, however large.
save("conv_pads_large", "Conv", [X, W], pads=[1000, 0, 0, 1000])
