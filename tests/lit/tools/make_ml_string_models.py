"""Writes small ai.onnx.ml models with string labels or string tensors, each
with reference outputs, into argv[1]/<name> in the backend-test layout
`onnxcc verify` reads: TreeEnsembleClassifier, LinearClassifier and
SVMClassifier with classlabels_strings (multi-class and binary forms),
LabelEncoder with string keys and/or values, and `hostile_labels`, a
classifier whose class names hold quotes, backslashes, newlines, `*/`,
`??/`, control bytes and non-ASCII (also invalid UTF-8) bytes.

References come from onnxruntime, except for hostile_labels, whose labels
onnxruntime's Python API cannot return as bytes: its identity linear
classifier labels row i with class i, so the reference is the labels
themselves.

  python make_ml_string_models.py OUT_DIR [NAME...]
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(11)
T = TensorProto
MODELS = {}

# Each class name is a test of the generated string literals.
HOSTILE = [b'quote " and \\" end', b"back\\slash\\", b"new\nline\r\n", b"*/ not a comment end /*",
           b"??/ trigraph ??= ??' ??!", b"caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac", b"\xff\xfe invalid utf-8",
           b"\x01\x1b[31m\x7f tab\t", b"\x07B hex-looking \xffF after", b""]


def vi(n, dtype, shape):
    return helper.make_tensor_value_info(n, dtype, shape)


def ml(op, ins, outs, **attrs):
    return helper.make_node(op, ins, outs, name=outs[0], domain="ai.onnx.ml", **attrs)


def dtype_of(v):
    return T.STRING if v.dtype == object else helper.np_dtype_to_tensor_dtype(v.dtype)


def model(name, nodes, outputs, feeds, ml_opset=3, reference=None):
    m = helper.make_model(
        helper.make_graph(nodes, name, [vi(k, dtype_of(v), v.shape) for k, v in feeds.items()],
                          [helper.make_empty_tensor_value_info(o) for o in outputs]),
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", ml_opset)])
    m.ir_version = 8
    MODELS[name] = (m, feeds, reference)


def features(n, f, nan=False):
    x = np.round(rng.standard_normal((n, f)) * 4) / 4
    if nan:
        x[rng.random((n, f)) < 0.2] = np.nan
    return x.astype(np.float32)


def tree_attrs(trees, depth, f, n_out):
    """Complete trees of `depth` levels with class_* leaf weights."""
    a = {k: [] for k in ["nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_modes",
                         "nodes_values", "nodes_truenodeids", "nodes_falsenodeids",
                         "nodes_missing_value_tracks_true", "class_treeids", "class_nodeids",
                         "class_ids", "class_weights"]}
    for t in range(trees):
        for i in range(2 ** (depth + 1) - 1):
            leaf = i >= 2 ** depth - 1
            a["nodes_treeids"].append(t)
            a["nodes_nodeids"].append(i)
            a["nodes_featureids"].append(int(rng.integers(f)) if not leaf else 0)
            a["nodes_modes"].append("LEAF" if leaf else "BRANCH_LEQ")
            a["nodes_values"].append(float(np.round(rng.standard_normal() * 4) / 4))
            a["nodes_truenodeids"].append(2 * i + 1 if not leaf else 0)
            a["nodes_falsenodeids"].append(2 * i + 2 if not leaf else 0)
            a["nodes_missing_value_tracks_true"].append(int(rng.integers(2)))
            if leaf:
                for c in sorted(set(int(c) for c in rng.integers(n_out, size=2))):
                    a["class_treeids"].append(t)
                    a["class_nodeids"].append(i)
                    a["class_ids"].append(c)
                    a["class_weights"].append(float(rng.standard_normal()))
    return a


NAMES = ["setosa", "versicolor", "virginica"]

a = tree_attrs(4, 3, 5, 3)
model("trees_classifier_strings",
      [ml("TreeEnsembleClassifier", ["x"], ["label", "scores"], classlabels_strings=NAMES,
          post_transform="SOFTMAX", **a)],
      ["label", "scores"], {"x": features(9, 5, nan=True)})

a = tree_attrs(3, 2, 4, 1)
model("trees_binary_strings",
      [ml("TreeEnsembleClassifier", ["x"], ["label", "scores"], classlabels_strings=["no", "yes"],
          post_transform="LOGISTIC", base_values=[0.25], **a)],
      ["label", "scores"], {"x": features(8, 4)})

model("linear_classifier_strings",
      [ml("LinearClassifier", ["x"], ["label", "scores"], classlabels_strings=NAMES,
          coefficients=rng.standard_normal(12).tolist(), intercepts=[0.1, 0.2, -0.3],
          post_transform="SOFTMAX")],
      ["label", "scores"], {"x": features(6, 4)})
model("linear_classifier_binary_strings",
      [ml("LinearClassifier", ["x"], ["label", "scores"], classlabels_strings=["neg", "pos"],
          coefficients=rng.standard_normal(4).tolist(), intercepts=[0.1],
          post_transform="LOGISTIC")],
      ["label", "scores"], {"x": features(6, 4)})

nsv = [2, 3, 2]
model("svm_rbf_proba_strings",
      [ml("SVMClassifier", ["x"], ["label", "scores"], classlabels_strings=["b", "a", "c"],
          kernel_type="RBF", kernel_params=[0.3, 0.0, 3.0], vectors_per_class=nsv,
          support_vectors=rng.standard_normal(sum(nsv) * 4).tolist(),
          coefficients=rng.standard_normal(2 * sum(nsv)).tolist(),
          rho=rng.standard_normal(3).tolist(), prob_a=[-1.5, -2.0, -1.0],
          prob_b=[0.1, -0.2, 0.05])],
      ["label", "scores"], {"x": features(5, 4)})
# LabelEncoder: string keys and/or values, unknown inputs taking the default.
WORDS = np.array([["a", "bb", "zz", "é"], ["", "a", "c", "bb"], ["x\\y", "Bb", "c", "b"]],
                 dtype=object)
KEYS = ["bb", "a", "c", "é", "", "x\\y", "b"]
model("label_encoder_string_int",
      [ml("LabelEncoder", ["x"], ["y"], keys_strings=KEYS, values_int64s=[5, -3, 7, 1, 0, 9, 2 ** 40],
          default_int64=42)],
      ["y"], {"x": WORDS}, ml_opset=2)
model("label_encoder_string_float",
      [ml("LabelEncoder", ["x"], ["y"], keys_strings=KEYS[:3], values_floats=[0.5, -1.25, 3.0],
          default_float=-7.5)],
      ["y"], {"x": WORDS}, ml_opset=2)
model("label_encoder_int_string",
      [ml("LabelEncoder", ["x"], ["y"], keys_int64s=[3, 1, 4, -2],
          values_strings=["three", "one", "four", "minus \"two\""], default_string="??/none")],
      ["y"], {"x": np.array([[1, 3, 2], [4, -2, 1]], np.int64)}, ml_opset=2)
model("label_encoder_float_string",
      [ml("LabelEncoder", ["x"], ["y"], keys_floats=[0.5, -1.0, 2.25],
          values_strings=["half", "minus one", "two and a quarter"])],
      ["y"], {"x": np.array([0.5, 2.25, 0.0, -1.0, 3.0], np.float32)}, ml_opset=2)
model("label_encoder_string_string",
      [ml("LabelEncoder", ["x"], ["y"], keys_strings=KEYS[:4], values_strings=["B", "A", "C", "E"],
          default_string="?")],
      ["y"], {"x": WORDS}, ml_opset=2)
model("label_encoder_v1_classes",
      [ml("LabelEncoder", ["x"], ["y"], classes_strings=["red", "green", "blue"],
          default_int64=-9)],
      ["y"], {"x": np.array(["blue", "red", "pink", "green"], dtype=object)}, ml_opset=1)
# A classifier's string labels through a LabelEncoder (a string intermediate).
a = tree_attrs(2, 2, 3, 3)
model("classifier_then_encoder",
      [ml("TreeEnsembleClassifier", ["x"], ["label", "scores"], classlabels_strings=NAMES, **a),
       ml("LabelEncoder", ["label"], ["code"], keys_strings=NAMES[::-1], values_int64s=[30, 20, 10])],
      ["label", "code"], {"x": features(6, 3)})

# Identity scores: row i is one-hot at i, so its label is HOSTILE[i].
k = len(HOSTILE)
model("hostile_labels",
      [ml("LinearClassifier", ["x"], ["label", "scores"], classlabels_strings=HOSTILE,
          coefficients=np.eye(k).ravel().tolist())],
      ["label", "scores"], {"x": np.eye(k, dtype=np.float32)},
      reference=[np.array(HOSTILE, dtype=object), np.eye(k, dtype=np.float32)])

out_dir, wanted = sys.argv[1], sys.argv[2:]
import onnxruntime as ort  # noqa: E402

for name, (m, feeds, reference) in MODELS.items():
    if wanted and name not in wanted:
        continue
    if reference is None:
        sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        reference = sess.run(None, feeds)
    outputs = [o.name for o in m.graph.output]
    del m.graph.output[:]
    d = os.path.join(out_dir, name, "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    for i, (o, r) in enumerate(zip(outputs, reference)):
        r = np.asarray(r)
        m.graph.output.append(vi(o, dtype_of(r), r.shape))
        onnx.save_tensor(numpy_helper.from_array(r, o), os.path.join(d, f"output_{i}.pb"))
    for i, (name_, v) in enumerate(feeds.items()):
        onnx.save_tensor(numpy_helper.from_array(v, name_), os.path.join(d, f"input_{i}.pb"))
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out_dir, name, "model.onnx"))
