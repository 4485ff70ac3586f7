"""Writes a Resize model whose scales are a graph input (as in the ONNX node
tests), its data set, and TensorProto files for --const-input:
scales.pb (right), scales_i64.pb (wrong type), scales_2.pb (wrong shape),
scales_external.pb (data in an external file).

  python make_const_input_model.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

out = sys.argv[1]
os.makedirs(os.path.join(out, "model", "test_data_set_0"), exist_ok=True)
m = helper.make_model(
    helper.make_graph(
        [helper.make_node("Resize", ["X", "", "scales"], ["Y"], name="up", mode="linear")],
        "const_input",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 1, 3, 3]),
         helper.make_tensor_value_info("scales", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)]),
    opset_imports=[helper.make_opsetid("", 19)])
m.ir_version = 8
onnx.save(m, os.path.join(out, "model", "model.onnx"))

x = np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3)
scales = np.array([1, 1, 2, 1.5], np.float32)
y = ReferenceEvaluator(m).run(None, {"X": x, "scales": scales})[0]
onnx.save_tensor(numpy_helper.from_array(x, "X"),
                 os.path.join(out, "model", "test_data_set_0", "input_0.pb"))
onnx.save_tensor(numpy_helper.from_array(scales, "scales"),
                 os.path.join(out, "model", "test_data_set_0", "input_1.pb"))
onnx.save_tensor(numpy_helper.from_array(y, "Y"),
                 os.path.join(out, "model", "test_data_set_0", "output_0.pb"))
onnx.save_tensor(numpy_helper.from_array(scales, "scales"), os.path.join(out, "scales.pb"))
onnx.save_tensor(numpy_helper.from_array(scales.astype(np.int64)), os.path.join(out, "scales_i64.pb"))
onnx.save_tensor(numpy_helper.from_array(scales[:2]), os.path.join(out, "scales_2.pb"))
ext = numpy_helper.from_array(scales, "scales")
ext.data_location = TensorProto.EXTERNAL
ext.external_data.add(key="location", value="scales.bin")
ext.ClearField("raw_data")
onnx.save_tensor(ext, os.path.join(out, "scales_external.pb"))
