"""Writes small models of the linear-algebra and conv/pool ops, each with
onnx.reference's outputs, into argv[1]/<name> in the backend-test layout
`onnxcc verify` reads. Each covers forms the ONNX node tests leave out:
integer, f64 and f16 elements, batched MatMul with broadcast batches, Gemm
with a broadcast C, 1-D and 3-D Conv with groups and dilations, MaxPool's
Indices in column-major order, 1-D and 3-D pools with ceil_mode, the
per-column / per-channel zero points of MatMulInteger and ConvInteger, and
DeformConv with groups, offset groups, a mask and offsets leaving the image.

  python make_linalg_convpool_models.py OUT_DIR [NAME...]
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

rng = np.random.default_rng(7)


def vi(n, dtype, shape):
    return helper.make_tensor_value_info(n, dtype, shape)


def node(op, ins, outs, **attrs):
    return helper.make_node(op, ins, outs, name=outs[0], **attrs)


def randn(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def randi(lo, hi, *shape, dtype=np.int32):
    return rng.integers(lo, hi, shape).astype(dtype)


MODELS = {}


def model(name, opset, nodes, outputs, feeds):
    m = helper.make_model(
        helper.make_graph(nodes, name, [vi(k, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
                                        for k, v in feeds.items()],
                          [helper.make_empty_tensor_value_info(o) for o in outputs]),
        opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 10
    MODELS[name] = (m, feeds)


def matmuls():
    model("matmul_types", 21, [
        # Broadcast batches, int32 (wrapping like numpy), f64, 1-D operands.
        node("MatMul", ["a", "b"], ["i32"]),
        node("MatMul", ["c", "d"], ["f64"]),
        node("MatMul", ["v", "d"], ["vec"]),
        node("Gemm", ["e", "f", "g"], ["gemm"], alpha=0.5, beta=2.0, transA=1),
        node("Einsum", ["a", "b"], ["ein"], equation="bij,xjk->bik"),
    ], ["i32", "f64", "vec", "gemm", "ein"], {
        "a": randi(-50, 50, 2, 3, 4), "b": randi(-50, 50, 1, 4, 5),
        "c": randn(3, 1, 2, 4, dtype=np.float64), "d": randn(5, 4, 3, dtype=np.float64),
        "v": randn(4, dtype=np.float64),
        "e": randn(4, 3), "f": randn(4, 5), "g": randn(1, 5)})


def integer_products():
    model("matmul_conv_integer", 21, [
        # A scalar zero point for A, one per column of B.
        node("MatMulInteger", ["a", "b", "az", "bz"], ["mm"]),
        # int8 input, per-output-channel weight zero points, groups, pads.
        node("ConvInteger", ["x", "w", "xz", "wz"], ["conv"], group=2, pads=[1, 0, 0, 1],
             strides=[2, 1]),
    ], ["mm", "conv"], {
        "a": randi(0, 256, 2, 3, 4, dtype=np.uint8), "b": randi(-128, 128, 4, 5, dtype=np.int8),
        "az": np.array(131, np.uint8), "bz": randi(-128, 128, 5, dtype=np.int8),
        "x": randi(-128, 128, 1, 4, 5, 6, dtype=np.int8),
        "w": randi(0, 256, 6, 2, 3, 2, dtype=np.uint8),
        "xz": np.array(-3, np.int8), "wz": randi(0, 256, 6, dtype=np.uint8)})


def convs():
    model("conv_1d_3d", 21, [
        node("Conv", ["x1", "w1", "b1"], ["c1"], pads=[2, 1], dilations=[2], group=2),
        node("Conv", ["x3", "w3"], ["c3"], strides=[1, 2, 1], auto_pad="SAME_UPPER"),
        node("ConvTranspose", ["x1", "wt"], ["t1"], strides=[3], output_padding=[1],
             pads=[1, 0]),
    ], ["c1", "c3", "t1"], {
        "x1": randn(2, 4, 11), "w1": randn(6, 2, 3), "b1": randn(6),
        "x3": randn(1, 2, 4, 5, 3), "w3": randn(3, 2, 2, 3, 2),
        "wt": randn(4, 3, 2)})
    model("conv_f16", 21, [
        node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1]),
    ], ["y"], {"x": randn(1, 3, 6, 5, dtype=np.float16), "w": randn(2, 3, 3, 3, dtype=np.float16)})


def deform_conv():
    # Groups, offset groups, bias, mask, stride, pads and dilation at once;
    # offsets large enough to leave the image.
    model("deform_conv", 22, [
        node("DeformConv", ["x", "w", "off", "b", "m"], ["y"], group=2, offset_group=2,
             strides=[2, 1], pads=[1, 0, 1, 1], dilations=[1, 2]),
    ], ["y"], {
        "x": randn(2, 4, 5, 6), "w": randn(4, 2, 3, 2),
        "off": 2 * randn(2, 2 * 3 * 2 * 2, 3, 5), "b": randn(4),
        "m": randn(2, 2 * 3 * 2, 3, 5)})


def pools():
    model("pools_nd", 21, [
        node("MaxPool", ["x2"], ["mx", "idx"], kernel_shape=[3, 2], strides=[2, 2],
             pads=[1, 0, 1, 1], storage_order=1, ceil_mode=1),
        node("AveragePool", ["x3"], ["avg"], kernel_shape=[2, 2, 3], strides=[2, 1, 2],
             ceil_mode=1, count_include_pad=1, pads=[0, 1, 1, 1, 0, 1]),
        node("LpPool", ["x1"], ["lp"], kernel_shape=[3], p=3, dilations=[2], pads=[1, 1]),
        node("MaxPool", ["i2"], ["imax"], kernel_shape=[2, 2], dilations=[2, 1]),
        node("GlobalAveragePool", ["x3"], ["gap"]),
    ], ["mx", "idx", "avg", "lp", "imax", "gap"], {
        "x2": randn(2, 3, 7, 6), "x3": randn(1, 2, 5, 4, 7), "x1": randn(1, 2, 9),
        "i2": randi(-100, 100, 1, 2, 5, 5, dtype=np.int8)})


for make in [matmuls, integer_products, convs, deform_conv, pools]:
    make()

out_dir, wanted = sys.argv[1], sys.argv[2:]
for name, (m, feeds) in MODELS.items():
    if wanted and name not in wanted:
        continue
    results = ReferenceEvaluator(m).run(None, feeds)
    outputs = [o.name for o in m.graph.output]
    del m.graph.output[:]
    d = os.path.join(out_dir, name, "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    for i, (o, r) in enumerate(zip(outputs, results)):
        r = np.asarray(r)
        m.graph.output.append(vi(o, helper.np_dtype_to_tensor_dtype(r.dtype), r.shape))
        onnx.save_tensor(numpy_helper.from_array(r, o), os.path.join(d, f"output_{i}.pb"))
    for i, (k, v) in enumerate(feeds.items()):
        onnx.save_tensor(numpy_helper.from_array(np.asarray(v), k), os.path.join(d, f"input_{i}.pb"))
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out_dir, name, "model.onnx"))
