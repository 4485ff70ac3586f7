"""Writes small loss, RotaryEmbedding and run-time BatchNormalization
models, each with onnx.reference's outputs, into argv[1]/<name> in the
backend-test layout `onnxcc verify` reads. They cover what the node tests
leave out: f64 and f16 scores, int32 targets, an ignore_index outside the
classes (negative and above C), SoftmaxCrossEntropyLoss's log_prob in f16,
RotaryEmbedding in f16/f64 with packed input, positions and partial
interleaved rotation, and BatchNormalization-15 with f16 parameters for an
f32 input.

  python make_loss_models.py OUT_DIR [NAME...]
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator

rng = np.random.default_rng(11)
MODELS = {}


def randn(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def model(name, op, opset, feeds, n_outputs=1, **attrs):
    outs = ["Y", "Z"][:n_outputs]
    node = helper.make_node(op, list(feeds), outs, name=name, **attrs)
    g = helper.make_graph([node], name,
                          [helper.make_tensor_value_info(k, helper.np_dtype_to_tensor_dtype(v.dtype),
                                                         v.shape) for k, v in feeds.items()],
                          [helper.make_empty_tensor_value_info(o) for o in outs])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 10
    MODELS[name] = (m, feeds)


# Targets with an ignored value outside [0, C): negative, and above C.
t_neg = rng.integers(0, 4, (3, 2, 5)).astype(np.int32)
t_neg[0, 0, :] = -7
t_neg[2, 1, 3] = -7
model("nll_f64_int32_negative_ii", "NegativeLogLikelihoodLoss", 22, {
    "X": randn(3, 4, 2, 5, dtype=np.float64), "T": t_neg,
    "W": rng.random(4).astype(np.float64)}, ignore_index=-7, reduction="mean")
t_high = rng.integers(0, 5, (4, 6)).astype(np.int64)
t_high[1, :4] = 100
model("nll_sum_high_ii_no_weight", "NegativeLogLikelihoodLoss", 13, {
    "X": randn(4, 5, 6), "T": t_high}, ignore_index=100, reduction="sum")
model("sce_f16_none_log_prob", "SoftmaxCrossEntropyLoss", 13, {
    "X": randn(3, 5, 4, dtype=np.float16),
    "T": rng.integers(0, 5, (3, 4)).astype(np.int64)}, n_outputs=2, reduction="none")
model("sce_mean_weight_ii_2d", "SoftmaxCrossEntropyLoss", 13, {
    "X": randn(7, 3), "T": np.array([0, 2, 1, -1, 2, -1, 0], np.int64),
    "W": rng.random(3).astype(np.float32)}, ignore_index=-1)
model("rotary_f16_packed_positions", "RotaryEmbedding", 23, {
    "X": randn(2, 3, 16, dtype=np.float16), "C": randn(8, 3, dtype=np.float16),
    "S": randn(8, 3, dtype=np.float16),
    "P": np.array([[0, 5, 2], [7, 1, 3]], np.int64)},
    num_heads=2, rotary_embedding_dim=6, interleaved=1)
model("rotary_f64_4d_partial", "RotaryEmbedding", 23, {
    "X": randn(2, 3, 4, 10, dtype=np.float64), "C": randn(2, 4, 3, dtype=np.float64),
    "S": randn(2, 4, 3, dtype=np.float64)}, rotary_embedding_dim=6)
model("batchnorm_f16_params", "BatchNormalization", 15, {
    "X": randn(2, 3, 4, 5), "scale": randn(3, dtype=np.float16),
    "B": randn(3, dtype=np.float16), "mean": randn(3, dtype=np.float16),
    "var": (rng.random(3) + 0.5).astype(np.float16)}, epsilon=1e-3)
model("batchnorm_f64_3d", "BatchNormalization", 15, {
    "X": randn(2, 3, 7, dtype=np.float64), "scale": randn(3, dtype=np.float64),
    "B": randn(3, dtype=np.float64), "mean": randn(3, dtype=np.float64),
    "var": (rng.random(3) + 0.5).astype(np.float64)})

out_dir, wanted = sys.argv[1], sys.argv[2:]
for name, (m, feeds) in MODELS.items():
    if wanted and name not in wanted:
        continue
    results = ReferenceEvaluator(m).run(None, feeds)
    d = os.path.join(out_dir, name, "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    outputs = [o.name for o in m.graph.output]
    del m.graph.output[:]
    for i, (o, r) in enumerate(zip(outputs, results)):
        r = np.asarray(r)
        m.graph.output.append(helper.make_tensor_value_info(
            o, helper.np_dtype_to_tensor_dtype(r.dtype), r.shape))
        onnx.save_tensor(numpy_helper.from_array(r, o), os.path.join(d, f"output_{i}.pb"))
    for i, (k, v) in enumerate(feeds.items()):
        onnx.save_tensor(numpy_helper.from_array(v, k), os.path.join(d, f"input_{i}.pb"))
    onnx.save(m, os.path.join(out_dir, name, "model.onnx"))
