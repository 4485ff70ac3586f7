"""Writes small quantised models with references into argv[1]/<case>/, in
the backend-test layout `onnxcc verify` reads. They cover what the ONNX node
tests leave out: per-axis and blocked scales of int16/int8, int32 and
float16 dequantisation, per-row/per-column zero points and scales of the
integer products, batch broadcasting, grouped/strided/padded QLinearConv
with per-channel weights and bias, auto_pad, and a QDQ chain around a float
Conv. References are onnxruntime's where it implements the case (it does
the requantisation in f32 like onnxcc), else numpy's, written next to the
case's name below.
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

out = sys.argv[1]
rng = np.random.default_rng(11)
TYPES = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16,
         np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8,
         np.int16: TensorProto.INT16, np.uint16: TensorProto.UINT16,
         np.int32: TensorProto.INT32}


def vi(name, a):
    return helper.make_tensor_value_info(name, TYPES[a.dtype.type], a.shape)


def ints(dtype, shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype)


def write(case, nodes, feeds, inits, outputs, opset=21, reference=None):
    """outputs: name -> (dtype, shape); reference: feeds -> list of arrays
    (numpy), or "onnx" for onnx.reference, else onnxruntime runs the model
    ("ort-unfused": without its graph optimisations)."""
    ins = [vi(k, v) for k, v in feeds.items()]
    outs = [helper.make_tensor_value_info(k, TYPES[np.dtype(t).type], s)
            for k, (t, s) in outputs.items()]
    init = [numpy_helper.from_array(np.asarray(v), k) for k, v in inits.items()]
    m = helper.make_model(helper.make_graph(nodes, case, ins, outs, init),
                          opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 10
    onnx.checker.check_model(m, full_check=True)
    d = os.path.join(out, case)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(m, os.path.join(d, "model.onnx"))
    if reference == "onnx":
        results = ReferenceEvaluator(m).run(None, feeds)
    elif reference in (None, "ort-unfused"):
        so = ort.SessionOptions()
        so.log_severity_level = 3
        if reference:
            so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        results = ort.InferenceSession(m.SerializeToString(), so).run(None, feeds)
    else:
        results = reference(**feeds)
    for i, (k, v) in enumerate(feeds.items()):
        with open(os.path.join(d, "test_data_set_0", f"input_{i}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(v, k).SerializeToString())
    for i, (k, v) in enumerate(zip(outputs, results)):
        assert v.dtype == np.dtype(outputs[k][0]), (case, k, v.dtype)
        with open(os.path.join(d, "test_data_set_0", f"output_{i}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(v, k).SerializeToString())


def node(op, ins, outs, **attrs):
    return helper.make_node(op, ins, outs, name=f"{op.lower()}_{outs[0]}", **attrs)


def saturate(v, dtype):
    info = np.iinfo(dtype)
    return np.clip(v, info.min, info.max).astype(dtype)


# int16 per axis (axis 1 of 3-D) there and back: numpy (onnxruntime has no
# int16 QuantizeLinear kernel in every build). Ties and saturation included.
s16 = np.array([0.5, 0.25, 2.0], np.float32)
z16 = np.array([-3, 100, 32000], np.int16)
x16 = (rng.standard_normal((2, 3, 4)) * 3000).astype(np.float32)
x16[0, 0, :3] = [1.25, -1.25, 1e9]  # 2.5 -> 2, -2.5 -> -2, saturates


def ref_q16(x):
    q = saturate(np.rint(x / s16[None, :, None]) + z16[None, :, None], np.int16)
    return [q, ((q.astype(np.float32) - z16[None, :, None]) * s16[None, :, None])]


write("quantize_int16_per_axis",
      [node("QuantizeLinear", ["x", "s", "z"], ["q"], axis=1),
       node("DequantizeLinear", ["q", "s", "z"], ["y"], axis=1)],
      {"x": x16}, {"s": s16, "z": z16},
      {"q": (np.int16, [2, 3, 4]), "y": (np.float32, [2, 3, 4])}, reference=ref_q16)

# int8 blocked along axis 0 (block 2 of 6 rows), negative axis: onnxruntime.
xb = rng.standard_normal((6, 3)).astype(np.float32)
sb = rng.uniform(0.01, 0.05, (3, 3)).astype(np.float32)
zb = ints(np.int8, (3, 3)) // 4
write("quantize_int8_blocked",
      [node("QuantizeLinear", ["x", "s", "z"], ["q"], axis=-2, block_size=2),
       node("DequantizeLinear", ["q", "s", "z"], ["y"], axis=-2, block_size=2)],
      {"x": xb}, {"s": sb, "z": zb},
      {"q": (np.int8, [6, 3]), "y": (np.float32, [6, 3])})

# int32 and uint16 dequantisation, float16 scale and output: onnxruntime.
write("dequantize_int32_uint16_f16",
      [node("DequantizeLinear", ["a", "sa"], ["ya"]),
       node("DequantizeLinear", ["b", "sb", "zb"], ["yb"], axis=0)],
      {"a": ints(np.int32, (5,)), "b": ints(np.uint16, (2, 3))},
      {"sa": np.float32(1e-6), "sb": np.array([0.5, 0.125], np.float16),
       "zb": np.array([7, 60000], np.uint16)},
      {"ya": (np.float32, [5]), "yb": (np.float16, [2, 3])})

# DynamicQuantizeLinear of a random tensor: onnxruntime.
write("dynamic_quantize", [node("DynamicQuantizeLinear", ["x"], ["y", "s", "z"])],
      {"x": rng.uniform(-1.5, 4.0, (3, 5)).astype(np.float32)}, {},
      {"y": (np.uint8, [3, 5]), "s": (np.float32, []), "z": (np.uint8, [])})

# MatMulInteger [2,1,3,5] x [4,5,6] with per-row and per-column zero
# points: numpy.
az = ints(np.uint8, (3,))
bz = ints(np.int8, (6,))
write("matmul_integer_broadcast_per_row",
      [node("MatMulInteger", ["a", "b", "az", "bz"], ["y"])],
      {"a": ints(np.uint8, (2, 1, 3, 5)), "b": ints(np.int8, (4, 5, 6))},
      {"az": az, "bz": bz}, {"y": (np.int32, [2, 4, 3, 6])},
      reference=lambda a, b: [np.matmul(a.astype(np.int64) - az[:, None],
                                        b.astype(np.int64) - bz).astype(np.int32)])

# MatMulInteger of a 1-D a: numpy.
write("matmul_integer_vector",
      [node("MatMulInteger", ["a", "b"], ["y"])],
      {"a": ints(np.int8, (5,)), "b": ints(np.int8, (3, 5, 2))}, {},
      {"y": (np.int32, [3, 2])},
      reference=lambda a, b: [np.matmul(a.astype(np.int32), b.astype(np.int32))])

# QLinearMatMul, 3-D a with a 2-D b, per-column b scale and zero point,
# int8 out: onnxruntime.
write("qlinear_matmul_per_column",
      [node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"])],
      {"a": ints(np.uint8, (2, 3, 4)), "b": ints(np.uint8, (4, 5))},
      {"as": np.float32(0.02), "az": np.uint8(120),
       "bs": rng.uniform(0.01, 0.03, 5).astype(np.float32), "bz": ints(np.uint8, (5,)),
       "ys": np.float32(0.5), "yz": np.uint8(128)},
      {"y": (np.uint8, [2, 3, 5])})

# QLinearMatMul with per-row a parameters and a 1-D b: numpy in f32 like
# the kernels (onnxruntime takes a scalar a_scale only).
pa_s = np.array([0.05, 0.02, 0.1], np.float32)
pa_z = np.array([-5, 0, 9], np.int8)


def ref_per_row(a, b):
    acc = np.matmul(a.astype(np.int32) - pa_z[:, None], b.astype(np.int32) - 3)
    v = acc.astype(np.float32) * (pa_s * np.float32(0.04) / np.float32(0.25))
    return [saturate(np.rint(v) + 1, np.int8)]


write("qlinear_matmul_per_row_vector",
      [node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"])],
      {"a": ints(np.int8, (3, 6)), "b": ints(np.int8, (6,))},
      {"as": pa_s, "az": pa_z, "bs": np.float32(0.04), "bz": np.int8(3),
       "ys": np.float32(0.25), "yz": np.int8(1)},
      {"y": (np.int8, [3])}, reference=ref_per_row)

# QLinearConv: groups, stride 2, asymmetric pads, dilation, per-channel
# int8 weights, bias: onnx.reference.
write("qlinear_conv_grouped_per_channel",
      [node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "bias"], ["y"],
            group=2, strides=[2, 1], pads=[1, 0, 2, 1], dilations=[1, 2])],
      {"x": ints(np.uint8, (2, 4, 7, 6))},
      {"xs": np.float32(0.03), "xz": np.uint8(100), "w": ints(np.int8, (6, 2, 3, 2)),
       "ws": rng.uniform(0.005, 0.02, 6).astype(np.float32), "wz": np.zeros(6, np.int8),
       "ys": np.float32(0.4), "yz": np.uint8(90),
       "bias": rng.integers(-2000, 2000, 6).astype(np.int32)},
      {"y": (np.uint8, [2, 6, 4, 5])},
      # Not onnxruntime: on x86 without VNNI its u8 x s8 kernel adds
      # products in pairs in int16 (vpmaddubsw), which saturates here (off
      # by up to 15 on an AVX2 EPYC). onnx.reference sums exactly.
      reference="onnx")

# QLinearConv with auto_pad SAME_UPPER, int8 activations: onnxruntime.
write("qlinear_conv_same_upper",
      [node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["y"],
            auto_pad="SAME_UPPER", strides=[2, 2], kernel_shape=[3, 3])],
      {"x": ints(np.int8, (1, 3, 5, 6))},
      {"xs": np.float32(0.05), "xz": np.int8(-3), "w": ints(np.int8, (2, 3, 3, 3)),
       "ws": np.float32(0.01), "wz": np.int8(0), "ys": np.float32(0.3), "yz": np.int8(5)},
      {"y": (np.int8, [1, 2, 3, 3])})

# ConvInteger with per-channel weight zero points and padding: numpy.
cx_z, cw_z = np.uint8(17), np.array([3, 250, 128], np.uint8)


def ref_conv_integer(x):
    xp = np.pad(x.astype(np.int64) - cx_z, ((0, 0), (0, 0), (1, 1), (2, 0)))
    w = cw.astype(np.int64) - cw_z[:, None, None, None]
    y = np.zeros((1, 3, 6, 6), np.int64)
    for oh in range(6):
        for ow in range(6):
            y[0, :, oh, ow] = np.tensordot(w, xp[0, :, oh:oh + 2, ow:ow + 2], 3)
    return [y.astype(np.int32)]


cw = ints(np.uint8, (3, 2, 2, 2))
write("conv_integer_per_channel",
      [node("ConvInteger", ["x", "w", "xz", "wz"], ["y"], pads=[1, 2, 1, 0])],
      {"x": ints(np.uint8, (1, 2, 5, 5))}, {"w": cw, "xz": cx_z, "wz": cw_z},
      {"y": (np.int32, [1, 3, 6, 6])}, reference=ref_conv_integer)

# A QDQ chain around a float Conv (what quantisation tools emit): the
# (de)quantisations fuse with their neighbours. onnxruntime node by node:
# its optimiser would fuse the chain into its u8 x s8 QLinearConv, which
# saturates on x86 without VNNI (see qlinear_conv_grouped_per_channel).
write("qdq_conv_chain",
      [node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
       helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"], name="dqx"),
       helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["wd"], name="dqw", axis=0),
       # kernel_shape given: onnxcc's Conv importer needs it when the
       # weight is computed (a DequantizeLinear here).
       node("Conv", ["xd", "wd"], ["c"], pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
       node("Relu", ["c"], ["r"]),
       helper.make_node("QuantizeLinear", ["r", "ys", "yz"], ["y"], name="qy")],
      {"x": rng.standard_normal((1, 3, 6, 6)).astype(np.float32)},
      {"xs": np.float32(0.02), "xz": np.uint8(128), "wq": ints(np.int8, (4, 3, 3, 3)),
       "ws": rng.uniform(0.002, 0.01, 4).astype(np.float32), "wz": np.zeros(4, np.int8),
       "ys": np.float32(0.01), "yz": np.uint8(0)},
      {"y": (np.uint8, [1, 4, 6, 6])}, reference="ort-unfused")
