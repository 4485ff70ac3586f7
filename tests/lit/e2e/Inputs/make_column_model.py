"""Writes a model whose dynamic dimension `n` is not the leading one
(x: [3, n] -> Relu -> y), which shape buckets must refuse."""
import sys

import onnx
from onnx import TensorProto, helper

graph = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["y"])], "column",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, "n"])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, "n"])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
          sys.argv[1])
