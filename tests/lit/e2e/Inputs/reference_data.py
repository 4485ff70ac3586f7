"""Saves a model and its backend-test-layout references: DIR/model.onnx and
DIR/test_data_set_N/{input,output}_0.pb for each input array, the outputs
computed by onnxruntime. Shared by this folder's model generators."""
import os

import onnx
import onnxruntime as ort
from onnx import numpy_helper


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
