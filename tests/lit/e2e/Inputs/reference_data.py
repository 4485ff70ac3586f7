"""Saves a model and its backend-test-layout references: DIR/model.onnx and
DIR/test_data_set_N/{input,output}_0.pb for each input array, the outputs
computed by onnxruntime. Shared by this folder's model generators."""
import os

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def fan_in_weight(rng, name, *shape):
    """A standard-normal initializer `name` of `shape` scaled by the square
    root of its fan-in (every axis after the first)."""
    return numpy_helper.from_array(
        (rng.standard_normal(shape) / np.sqrt(np.prod(shape[1:]))).astype(np.float32), name)


def save_with_references(out, model, inputs):
    """`model` has one input and one output; `inputs` holds one array per
    data set."""
    onnx.checker.check_model(model)
    os.makedirs(out, exist_ok=True)
    onnx.save(model, os.path.join(out, "model.onnx"))
    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    x_name = model.graph.input[0].name
    y_name = model.graph.output[0].name
    for i, x in enumerate(inputs):
        (y,) = session.run(None, {x_name: x})
        d = os.path.join(out, f"test_data_set_{i}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x, x_name).SerializeToString())
        with open(os.path.join(d, "output_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(y, y_name).SerializeToString())


def save_float_graph(out, name, nodes, inits, x_shape, y_shape, rng, sets=2):
    """The opset-17 graph `name` of `nodes` and initializers `inits`, from a
    float input `x` of `x_shape` to a float output `y` of `y_shape`, saved
    with `sets` data sets of standard-normal inputs drawn from `rng`."""
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x_shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y_shape))],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    save_with_references(
        out, model,
        [rng.standard_normal(x_shape).astype(np.float32) for _ in range(sets)])
