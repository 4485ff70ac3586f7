"""Writes models whose initializers hold ONNX's small element types in each
payload layout the importer reads, each feeding one graph output through
Identity (so the constant survives as the output's value):

  packed.onnx     INT4 [5] in packed raw_data (odd count: a padding
                  nibble), UINT2 [6] in packed int32_data (one byte per
                  int32), FLOAT4E2M1 [3] in packed raw_data
  codes.onnx      FLOAT8E4M3FN [3] in int32_data, FLOAT8E8M0 [2] in raw_data
  short.onnx      INT4 [5] with 2 bytes of raw_data (3 needed)
  cast_e8m0.onnx  Cast to FLOAT8E8M0 with round_mode="nearest"
  fold.onnx       Cast of a FLOAT constant [1, 1e6, -0.5, 9.7, -1] to INT4
                  (folded: a dense si4 constant, written as weights)

  python make_small_types_model.py OUT_DIR
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
