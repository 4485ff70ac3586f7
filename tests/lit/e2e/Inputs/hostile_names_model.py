"""Writes argv[1]: a small model whose node names hold XML and terminal
metacharacters (<, &, ", ', ]]>, a newline, a right-to-left override), for
the escaping of onnxcc's memory plan report. Relu -> Concat(t, t) -> Relu:
two arena buffers, each produced by a hostile-named node."""
import sys

from onnx import TensorProto, helper

RELU = 'relu<&"\']]>\n\u202e'
CONCAT = "cat]]><![CDATA[<svg onload=x>"
nodes = [
    helper.make_node("Relu", ["x"], ["t"], name=RELU),
    helper.make_node("Concat", ["t", "t"], ["u"], name=CONCAT, axis=1),
    helper.make_node("Relu", ["u"], ["y"], name="out"),
]
graph = helper.make_graph(
    nodes, "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
open(sys.argv[1], "wb").write(model.SerializeToString())
