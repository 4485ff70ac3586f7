"""Writes small recurrent models with references into
argv[1]/<case>/, in the backend-test layout `onnxcc verify` reads:

  lstm_bidirectional  LSTM, both directions, bias, sequence_lens shorter than
                      the sequence, initial h and c, peepholes
  gru_batch_first     GRU, layout 1, linear_before_reset (reference:
                      onnx.reference; onnxruntime has no layout 1)
  gru_clip            GRU, clip 0.5 (onnx.reference ignores clip), bias
  rnn_reverse_relu    RNN, reverse, Relu, initial h, only Y_h used
  lstm_one_sequence   LSTM over one sequence (batch 1), both directions,
                      hidden 20 (a vector and a tail at AVX-512 and AVX2
                      widths): R laid out k-major, the cell in vectors
  gru_one_sequence    GRU over one sequence, reverse, hidden 37, the reset
                      applied before the product (linear_before_reset 0)
  rnn_one_sequence    RNN over one sequence, layout 1 (onnx.reference)
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

out = sys.argv[1]
rng = np.random.default_rng(5)
TYPES = {np.float32: TensorProto.FLOAT, np.int32: TensorProto.INT32}


def f32(*shape):
    return rng.uniform(-0.8, 0.8, shape).astype(np.float32)


def write(case, node, feeds, inits, outputs, onnx_reference=False):
    """outputs: name -> shape. The reference is onnxruntime's, or the ONNX
    reference implementation's where onnxruntime lacks the case."""
    ins = [helper.make_tensor_value_info(k, TYPES[v.dtype.type], v.shape)
           for k, v in feeds.items()]
    outs = [helper.make_tensor_value_info(k, TensorProto.FLOAT, s) for k, s in outputs.items()]
    init = [numpy_helper.from_array(v, k) for k, v in inits.items()]
    m = helper.make_model(helper.make_graph([node], case, ins, outs, init),
                          opset_imports=[helper.make_opsetid("", 14)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    d = os.path.join(out, case)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(m, os.path.join(d, "model.onnx"))
    if onnx_reference:
        results = ReferenceEvaluator(m).run(None, feeds)
    else:
        so = ort.SessionOptions()
        so.log_severity_level = 3
        results = ort.InferenceSession(m.SerializeToString(), so).run(None, feeds)
    for i, (k, v) in enumerate(feeds.items()):
        with open(os.path.join(d, "test_data_set_0", f"input_{i}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(v, k).SerializeToString())
    for i, (k, v) in enumerate(zip(outputs, results)):
        with open(os.path.join(d, "test_data_set_0", f"output_{i}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(v, k).SerializeToString())


H = 6
write("lstm_bidirectional",
      helper.make_node("LSTM", ["x", "w", "r", "b", "lens", "h0", "c0", "p"], ["y", "yh", "yc"],
                       name="lstm", hidden_size=H, direction="bidirectional"),
      {"x": f32(5, 3, 4), "lens": np.array([5, 2, 3], np.int32)},
      {"w": f32(2, 4 * H, 4), "r": f32(2, 4 * H, H), "b": f32(2, 8 * H),
       "h0": f32(2, 3, H), "c0": f32(2, 3, H), "p": f32(2, 3 * H)},
      {"y": [5, 2, 3, H], "yh": [2, 3, H], "yc": [2, 3, H]})

write("gru_batch_first",
      helper.make_node("GRU", ["x", "w", "r", "b"], ["y", "yh"], name="gru",
                       hidden_size=5, layout=1, linear_before_reset=1),
      {"x": f32(2, 4, 3)},
      {"w": f32(1, 15, 3), "r": f32(1, 15, 5), "b": f32(1, 30)},
      {"y": [2, 4, 1, 5], "yh": [2, 1, 5]},
      onnx_reference=True)  # onnxruntime has no layout 1

write("rnn_reverse_relu",
      helper.make_node("RNN", ["x", "w", "r", "", "", "h0"], ["", "yh"], name="rnn",
                       hidden_size=4, direction="reverse", activations=["Relu"]),
      {"x": f32(7, 2, 3)},
      {"w": f32(1, 4, 3), "r": f32(1, 4, 4), "h0": f32(1, 2, 4)},
      {"yh": [1, 2, 4]})

write("gru_clip",
      helper.make_node("GRU", ["x", "w", "r", "b"], ["y", "yh"], name="gru",
                       hidden_size=5, clip=0.5),
      {"x": f32(4, 2, 3) * 3},
      {"w": f32(1, 15, 3), "r": f32(1, 15, 5), "b": f32(1, 30)},
      {"y": [4, 1, 2, 5], "yh": [1, 2, 5]})

write("lstm_one_sequence",
      helper.make_node("LSTM", ["x", "w", "r", "b"], ["y", "yh", "yc"],
                       name="lstm", hidden_size=20, direction="bidirectional"),
      {"x": f32(9, 1, 6)},
      {"w": f32(2, 80, 6), "r": f32(2, 80, 20) * 0.5, "b": f32(2, 160)},
      {"y": [9, 2, 1, 20], "yh": [2, 1, 20], "yc": [2, 1, 20]})

write("gru_one_sequence",
      helper.make_node("GRU", ["x", "w", "r", "b"], ["y", "yh"], name="gru",
                       hidden_size=37, direction="reverse"),
      {"x": f32(6, 1, 5)},
      {"w": f32(1, 111, 5), "r": f32(1, 111, 37) * 0.3, "b": f32(1, 222)},
      {"y": [6, 1, 1, 37], "yh": [1, 1, 37]})

write("rnn_one_sequence",
      helper.make_node("RNN", ["x", "w", "r", "b"], ["y", "yh"], name="rnn",
                       hidden_size=18, layout=1),
      {"x": f32(1, 5, 4)},
      {"w": f32(1, 18, 4), "r": f32(1, 18, 18) * 0.4, "b": f32(1, 36)},
      {"y": [1, 5, 1, 18], "yh": [1, 1, 18]},
      onnx_reference=True)  # onnxruntime has no layout 1
