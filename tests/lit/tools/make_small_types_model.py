"""Writes models whose initializers hold ONNX's small element types in each
payload layout the importer reads, each feeding one graph output through
Identity (so the constant survives as the output's value):

  packed.onnx     INT4 [5] in packed raw_data (odd count: a padding
                  nibble), UINT2 [6] in packed int32_data (one byte per
                  int32), FLOAT4E2M1 [3] in packed raw_data
  codes.onnx      FLOAT8E4M3FN [3] in int32_data, FLOAT8E8M0 [2] in raw_data
  short.onnx      INT4 [5] with 2 bytes of raw_data (3 needed)
  long32.onnx     UINT2 [3] with 3 int32_data entries (1 packed byte needed)
  few8.onnx       FLOAT8E4M3FN [2] with 1 int32_data entry
  cast_e8m0.onnx  Cast to FLOAT8E8M0 with round_mode="nearest"
  fold.onnx       Cast of a FLOAT constant [1, 1e6, -0.5, 9.7, -1] to INT4
                  (folded: a dense si4 constant, written as weights)

With `e2e`, also model directories with a data set for `onnxcc verify`:

  casts/          Cast at every format's edges to each small type and back,
                  4/2-bit graph inputs
  quantize/       QuantizeLinear/DequantizeLinear to int4 per axis and to
                  FLOAT8E4M3FN blocked

  python make_small_types_model.py OUT_DIR [e2e]
"""
import os
import sys

import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def tensor(name, dtype, dims, raw=None, int32=None):
    t = TensorProto(name=name, data_type=dtype, dims=dims)
    if raw is not None:
        t.raw_data = bytes(raw)
    if int32 is not None:
        t.int32_data.extend(int32)
    return t


def save(path, inits, extra_nodes=(), extra_inputs=()):
    nodes = [helper.make_node("Identity", [t.name], ["y_" + t.name]) for t in inits]
    nodes += list(extra_nodes)
    outputs = [helper.make_tensor_value_info("y_" + t.name, t.data_type, list(t.dims))
               for t in inits]
    for n in extra_nodes:
        outputs.append(helper.make_tensor_value_info(n.output[0], TensorProto.UNDEFINED, None))
    g = helper.make_graph(nodes, "g", list(extra_inputs), outputs, initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 25)])
    m.ir_version = 11
    onnx.save(m, os.path.join(out, path))


# INT4 1, -2, 7, -8, -1 packed low nibble first: 0xE1, 0x87, 0x0F.
# UINT2 0, 1, 2, 3, 3, 1 packed four to a byte: 0xE4, 0x07.
# FLOAT4E2M1 codes 0x1 (0.5), 0x9 (-0.5), 0x7 (6): 0x91, 0x07.
save("packed.onnx", [
    tensor("i4", 22, [5], raw=[0xE1, 0x87, 0x0F]),
    tensor("u2", 25, [6], int32=[0xE4, 0x07]),
    tensor("f4", 23, [3], raw=[0x91, 0x07]),
])
# FLOAT8E4M3FN codes 0x38 (1.0), 0xB8 (-1.0), 0x7E (448); E8M0 0x7F (1), 0x80 (2).
save("codes.onnx", [
    tensor("f8", 17, [3], int32=[0x38, 0xB8, 0x7E]),
    tensor("e8", 24, [2], raw=[0x7F, 0x80]),
])
save("short.onnx", [tensor("i4", 22, [5], raw=[0xE1, 0x87])])
save("long32.onnx", [tensor("u2", 25, [3], int32=[1, 2, 3])])
save("few8.onnx", [tensor("f8", 17, [2], int32=[0x38])])
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
save("cast_e8m0.onnx", [], [helper.make_node(
    "Cast", ["x"], ["y"], to=24, round_mode="nearest", name="to_e8m0")], [x])
c = helper.make_node("Constant", [], ["c"], value=helper.make_tensor(
    "c", TensorProto.FLOAT, [5], [1, 1e6, -0.5, 9.7, -1]))
g = helper.make_graph([c, helper.make_node("Cast", ["c"], ["y"], to=22)], "g", [],
                      [helper.make_tensor_value_info("y", 22, [5])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 25)])
m.ir_version = 11
onnx.save(m, os.path.join(out, "fold.onnx"))


def with_data(name, nodes, inputs, outputs, feeds):
    """A model directory for `onnxcc verify`: model.onnx and one data set
    whose outputs are onnx.reference's."""
    import numpy as np
    from onnx import numpy_helper
    from onnx.reference import ReferenceEvaluator

    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    g = helper.make_graph(nodes, name, inputs, outputs)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 25)])
    m.ir_version = 11
    onnx.save(m, os.path.join(d, "model.onnx"))
    results = ReferenceEvaluator(m).run(None, feeds)

    def proto(n, a, dtype):
        if dtype in (21, 22, 23):
            raw = numpy_helper._pack_4bitx2(a).tobytes()
        elif dtype in (25, 26):
            raw = numpy_helper._pack_2bitx4(a).tobytes()
        else:
            raw = np.ascontiguousarray(a).tobytes()
        return helper.make_tensor(n, dtype, a.shape, raw, raw=True)

    for i, v in enumerate(inputs):
        t = proto(v.name, feeds[v.name], v.type.tensor_type.elem_type)
        with open(os.path.join(d, "test_data_set_0", "input_%d.pb" % i), "wb") as f:
            f.write(t.SerializeToString())
    for i, (v, r) in enumerate(zip(outputs, results)):
        t = proto(v.name, r, v.type.tensor_type.elem_type)
        with open(os.path.join(d, "test_data_set_0", "output_%d.pb" % i), "wb") as f:
            f.write(t.SerializeToString())


def end_to_end():
    """Every conversion at its edges (no NaN in an output: onnxcc verify
    compares them): casts to each small type, saturating and not where the
    result stays finite, and back; 4/2-bit graph inputs; QuantizeLinear to
    int4 per axis and to float8 blocked."""
    import ml_dtypes
    import numpy as np

    edges = np.array([0.0, -0.0, 1e-45, -1e-9, 0.3, -0.7, 1.75, 447.0, 449.0, 464.0,
                      465.0, 57344.0, 61440.0, 1e30, np.inf, -np.inf], np.float32)
    finite = np.array([0.0, 1e-45, 3e-39, 0.3, -0.7, 1.5, 3.0, 1e30, -1e30, 2.0 ** 127,
                       1.5 * 2.0 ** 127, 6.0, 4.9, -5.5, 0.24, 0.26], np.float32)
    # Values whose cast to each 4/2-bit integer type is defined: truncated
    # toward zero, they lie in the type's range. Outside it (and for NaN)
    # the result is undefined, and onnx.reference's (ml_dtypes, a C++ cast)
    # differs between machines: a negative value cast to uint4 gives its
    # low bits on an AVX-512 Xeon and 0 on an AVX2 EPYC.
    ints = {
        21: [0.0, -0.0, -0.5, -0.99, 0.5, 0.99, 1.9, 2.5, 7.0, 8.0, 9.9, 12.1, 14.5, 15.0,
             15.5, 15.99],
        22: [-8.0, -8.9, -7.9, -2.5, -0.5, -0.0, 0.0, 0.5, 1.9, 2.5, 3.3, -3.3, 4.5, 6.99,
             7.0, 7.5],
        25: [0.0, -0.0, -0.5, -0.99, 0.5, 0.99, 1.0, 1.5, 1.9, 2.0, 2.5, 2.99, 3.0, 3.5,
             3.99, 0.25],
        26: [-2.0, -2.9, -2.5, -1.5, -1.0, -0.99, -0.5, -0.0, 0.0, 0.5, 0.99, 1.0, 1.5,
             1.99, -1.9, 0.25],
    }
    nodes, outputs = [], []
    def cast(src, to, name, **attrs):
        nodes.append(helper.make_node("Cast", [src], [name], to=to, **attrs))
    def out_(name, dtype):
        outputs.append(helper.make_tensor_value_info(name, dtype, [16]))
    for to in (17, 18, 19, 20):
        cast("edges", to, "sat%d" % to)
        cast("sat%d" % to, 1, "back%d" % to)
        out_("sat%d" % to, to)
        out_("back%d" % to, 1)
    cast("finite", 23, "f4")
    cast("f4", 1, "f4back")
    cast("finite", 24, "e8")
    cast("e8", 1, "e8back")
    cast("finite", 19, "e5nosat", saturate=0)
    for name, dtype in (("f4", 23), ("f4back", 1), ("e8", 24), ("e8back", 1),
                        ("e5nosat", 19)):
        out_(name, dtype)
    for to in (21, 22, 25, 26):
        cast("ints%d" % to, to, "int%d" % to)
        cast("int%d" % to, 1, "intback%d" % to)
        out_("int%d" % to, to)
        out_("intback%d" % to, 1)
    cast("i4in", 6, "i4wide")
    cast("u2in", 1, "u2float")
    out_("i4wide", 6)
    out_("u2float", 1)
    inputs = [helper.make_tensor_value_info(n, t, [16]) for n, t in
              (("edges", 1), ("finite", 1), ("ints21", 1), ("ints22", 1),
               ("ints25", 1), ("ints26", 1), ("i4in", 22), ("u2in", 25))]
    feeds = {"edges": edges, "finite": finite,
             **{"ints%d" % t: np.array(v, np.float32) for t, v in ints.items()},
             "i4in": np.arange(-8, 8).astype(ml_dtypes.int4),
             "u2in": (np.arange(16) % 4).astype(ml_dtypes.uint2)}
    with_data("casts", nodes, inputs, outputs, feeds)

    x = np.linspace(-40, 40, 24, dtype=np.float32).reshape(4, 6)
    scale = helper.make_node("Constant", [], ["s"], value=helper.make_tensor(
        "s", TensorProto.FLOAT, [4], [0.5, 2.0, 4.0, 8.0]))
    zp = helper.make_node("Constant", [], ["z"], value=helper.make_tensor(
        "z", 22, [4], numpy_helper_pack4([1, -2, 0, 7]), raw=True))
    bscale = helper.make_node("Constant", [], ["bs"], value=helper.make_tensor(
        "bs", TensorProto.FLOAT, [4, 2], [0.01, 0.1, 1, 10, 0.5, 0.25, 2, 4]))
    q = helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], axis=0)
    dq = helper.make_node("DequantizeLinear", ["q", "s", "z"], ["dq"], axis=0)
    qf = helper.make_node("QuantizeLinear", ["x", "bs"], ["qf"], axis=1, block_size=3,
                          output_dtype=17)
    dqf = helper.make_node("DequantizeLinear", ["qf", "bs"], ["dqf"], axis=1, block_size=3)
    with_data("quantize", [scale, zp, bscale, q, dq, qf, dqf],
              [helper.make_tensor_value_info("x", 1, [4, 6])],
              [helper.make_tensor_value_info("q", 22, [4, 6]),
               helper.make_tensor_value_info("dq", 1, [4, 6]),
               helper.make_tensor_value_info("qf", 17, [4, 6]),
               helper.make_tensor_value_info("dqf", 1, [4, 6])], {"x": x})


def numpy_helper_pack4(values):
    import ml_dtypes
    import numpy as np
    from onnx import numpy_helper
    return numpy_helper._pack_4bitx2(np.array(values).astype(ml_dtypes.int4)).tobytes()


if len(sys.argv) > 2 and sys.argv[2] == "e2e":
    end_to_end()
