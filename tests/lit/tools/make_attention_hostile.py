"""Writes Attention models with hostile shapes and attributes into
argv[1]/<name>.onnx; hostile_attention.test checks each gives one line."""
import os
import sys

import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def model(name, shapes, ins=("Q", "K", "V"), opset=23, **attrs):
    vis = [helper.make_tensor_value_info(n, TensorProto.BOOL if n == "M" else TensorProto.FLOAT, s)
           for n, s in zip(ins, shapes)]
    g = helper.make_graph([helper.make_node("Attention", list(ins), ["Y"], name="a", **attrs)],
                          name, vis, [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)]),
              os.path.join(out, name + ".onnx"))


packed, four = [[1, 2, 8]] * 3, [[1, 2, 2, 4]] * 3
model("no_heads", packed)
model("negative_heads", packed, q_num_heads=-2, kv_num_heads=-2)
model("huge_heads", packed, q_num_heads=1 << 62, kv_num_heads=1 << 62)
model("nan_softcap", four, softcap=float("nan"))
model("mode_7", four, qk_matmul_output_mode=7)
model("mask_shape", four + [[3, 3]], ins=("Q", "K", "V", "M"))
model("opset_22", four, opset=22)
model("rank_5", [[1, 1, 2, 2, 4]] * 3)
model("big_value_head", [[1, 1, 1, 4], [1, 1, 1, 4], [1, 1, 1, 20000]])
