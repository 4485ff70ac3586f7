"""Writes malformed models for the error-message tests into argv[1]:
each one breaks one rule the importer must check."""
import os
import sys
import onnx
from onnx import TensorProto, helper, numpy_helper
import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

def graph(nodes, inputs, outputs, inits=()):
    return helper.make_graph(nodes, "g", inputs, outputs, list(inits))

def save(name, g, opset=17):
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    onnx.save(m, os.path.join(out, name + ".onnx"))
    return m

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])
relu = helper.make_node("Relu", ["x"], ["y"], name="relu0")
good = save("good", graph([relu], [x], [y]))

data = good.SerializeToString()
open(os.path.join(out, "truncated.onnx"), "wb").write(data[: len(data) // 2])
open(os.path.join(out, "garbage.onnx"), "wb").write(b"\xff\xff\xff\xffnot a model")

save("unknown_op", graph([helper.make_node("FancyOp", ["x"], ["t"], name="fancy1"),
                          helper.make_node("OtherOp", ["t"], ["y"], name="other2")], [x], [y]))
save("missing_init", graph([helper.make_node("Add", ["x", "w"], ["y"], name="add0")], [x], [y]))
save("cycle", graph([helper.make_node("Relu", ["b"], ["a"], name="n1"),
                     helper.make_node("Relu", ["a"], ["b"], name="n2"),
                     helper.make_node("Add", ["x", "b"], ["y"], name="n3")], [x], [y]))
xb = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4, "width"])
save("unbound_dim", graph([relu], [xb], [y]))
xs = helper.make_tensor_value_info("x", TensorProto.STRING, [1, 4])
save("wrong_dtype", graph([relu], [xs], [y]))
xn = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, -3])
save("negative_dim", graph([relu], [xn], [y]))
xh = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1 << 40])
save("huge_dim", graph([relu], [xh], [y]))
# An initializer whose raw data is shorter than its dims say.
w = numpy_helper.from_array(np.ones((4,), np.float32), "w")
w.raw_data = w.raw_data[:6]
save("short_initializer", graph([helper.make_node("Add", ["x", "w"], ["y"], name="add0")], [x], [y], [w]))
# External data pointing outside the model's directory.
we = TensorProto()
we.name, we.data_type = "w", TensorProto.FLOAT
we.dims.extend([4])
we.data_location = TensorProto.EXTERNAL
for k, v in [("location", "../../etc/passwd"), ("offset", "0"), ("length", "16")]:
    e = we.external_data.add(); e.key = k; e.value = v
save("external_escape", graph([helper.make_node("Add", ["x", "w"], ["y"], name="add0")], [x], [y], [we]))
# Conv whose weight does not match the input channels.
xc = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])
wc = numpy_helper.from_array(np.ones((2, 5, 3, 3), np.float32), "wc")
save("conv_channels", graph([helper.make_node("Conv", ["x", "wc"], ["y"], name="conv_bad", kernel_shape=[3, 3])],
                            [xc], [y], [wc]))
# Clip with the attributes of opset 6 in an opset-17 model.
save("clip_attrs", graph([helper.make_node("Clip", ["x"], ["y"], name="clip0", min=0.0, max=6.0)], [x], [y]))
# Squeeze-13 takes axes as an input; an `axes` attribute must not be dropped.
x14 = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 1])
save("squeeze_attr", graph([helper.make_node("Squeeze", ["x"], ["y"], name="sq0", axes=[0])], [x14], [y]))
# BatchNormalization in training mode uses batch statistics.
bn_inputs = [numpy_helper.from_array(np.ones((4,), np.float32), n) for n in ["s", "b", "m", "v"]]
xbn = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 2, 2])
ybn = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 2, 2])
save("bn_training", graph([helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"],
                                            name="bn0", training_mode=1)], [xbn], [ybn], bn_inputs))
