"""Writes Resize models with hostile scales, sizes, roi and attributes into
argv[1]/<name>.onnx; hostile_resize.test checks each gives one line."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
f32, i64 = np.float32, np.int64


def model(name, inits, ins, **attrs):
    g = helper.make_graph(
        [helper.make_node("Resize", ["X"] + ins, ["Y"], name="r", **attrs)], name,
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 1, 4, 4])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(np.asarray(v), k) for k, v in inits.items()])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)]),
              os.path.join(out, name + ".onnx"))


model("huge_scale", {"s": np.array([1, 1, 1e30, 1], f32)}, ["", "s"])
model("nan_scale", {"s": np.array([1, 1, np.nan, 1], f32)}, ["", "s"])
model("neg_size", {"s": np.array([1, 1, -3, 4], i64)}, ["", "", "s"])
model("huge_product", {"s": np.array([1, 1, 1 << 20, 1 << 20], i64)}, ["", "", "s"])
model("nan_roi", {"r": np.array([0, 0, np.nan, 0, 1, 1, 1, 1], f32), "s": np.array([1, 1, 2, 2], f32)},
      ["r", "s"], coordinate_transformation_mode="tf_crop_and_resize")
model("nan_cubic", {"s": np.array([1, 1, 2, 2], f32)}, ["", "s"], mode="cubic",
      cubic_coeff_a=float("nan"))
model("tiny_antialias", {"s": np.array([1, 1, 1e-6, 1e-6], f32)}, ["", "s"], mode="cubic",
      antialias=1)
model("axes_twice", {"s": np.array([2, 2], f32)}, ["", "s"], axes=[2, -2])
model("scales_and_sizes", {"s": np.array([1, 1, 2, 2], f32), "z": np.array([1, 1, 8, 8], i64)},
      ["", "s", "z"])
