"""Writes small Attention models, each with onnx.reference's outputs, into
argv[1]/<name> in the backend-test layout `onnxcc verify` reads. They cover
what the node tests leave out or only touch alone: combinations (3-D GQA
with a short bool mask, a cache, causal and every qk output mode at once),
integer additive masks, f64, nonpad_kv_seqlen with a window, softcap with
a 2-D float mask holding -inf, and all results requested together.

  python make_attention_models.py OUT_DIR [NAME...]
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

rng = np.random.default_rng(7)
MODELS = {}
OUTS = ["Y", "present_key", "present_value", "qk"]


def randn(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def model(name, opset, feeds, n_outputs=1, **attrs):
    ins = list(feeds)
    names = [k if feeds[k] is not None else "" for k in ins]
    while names and not names[-1]:
        names.pop()
    feeds = {k: v for k, v in feeds.items() if v is not None}
    node = helper.make_node("Attention", names, OUTS[:n_outputs], name="attn", **attrs)
    g = helper.make_graph([node], name,
                          [helper.make_tensor_value_info(k, helper.np_dtype_to_tensor_dtype(v.dtype),
                                                         v.shape) for k, v in feeds.items()],
                          [helper.make_empty_tensor_value_info(o) for o in OUTS[:n_outputs]])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 10
    MODELS[name] = (m, feeds)


model("gqa_3d_all_outputs", 23, {
    "Q": randn(2, 3, 4 * 8), "K": randn(2, 5, 2 * 8), "V": randn(2, 5, 2 * 6),
    "attn_mask": rng.random((3, 7)) > 0.3,
    "past_key": randn(2, 2, 2, 8), "past_value": randn(2, 2, 2, 6)},
    n_outputs=4, q_num_heads=4, kv_num_heads=2, is_causal=1, qk_matmul_output_mode=3)
model("int_mask_mode2", 23, {
    "Q": randn(1, 2, 4, 8), "K": randn(1, 2, 6, 8), "V": randn(1, 2, 6, 8),
    "attn_mask": rng.integers(-3, 3, (2, 1, 6)).astype(np.int32)},
    n_outputs=4, qk_matmul_output_mode=2, scale=0.3)
model("f64_softcap_inf_mask", 23, {
    "Q": randn(1, 1, 3, 4, dtype=np.float64), "K": randn(1, 1, 5, 4, dtype=np.float64),
    "V": randn(1, 1, 5, 2, dtype=np.float64),
    "attn_mask": np.where(rng.random((3, 5)) > 0.5, 0.0, -np.inf).astype(np.float64)},
    n_outputs=4, softcap=2.0, qk_matmul_output_mode=1)
model("nonpad_window", 25, {
    "Q": randn(2, 2, 3, 4), "K": randn(2, 2, 6, 4), "V": randn(2, 2, 6, 4),
    "attn_mask": None, "past_key": None, "past_value": None,
    "nonpad_kv_seqlen": np.array([4, 6], np.int64)},
    is_causal=1, left_window_size=2, right_window_size=0)
model("f16_causal_past", 23, {
    "Q": randn(1, 2, 2, 8, dtype=np.float16), "K": randn(1, 2, 3, 8, dtype=np.float16),
    "V": randn(1, 2, 3, 8, dtype=np.float16), "attn_mask": None,
    "past_key": randn(1, 2, 4, 8, dtype=np.float16),
    "past_value": randn(1, 2, 4, 8, dtype=np.float16)},
    n_outputs=3, is_causal=1)

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
