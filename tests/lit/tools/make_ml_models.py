"""Writes small ai.onnx.ml models, each with onnxruntime's outputs, into
argv[1]/<name> in the backend-test layout `onnxcc verify` reads. They cover
forms the node tests and the shared scikit-learn models leave out: binary
tree classifiers storing one class, NaN inputs with
missing_value_tracks_true, every branch mode, AVERAGE over several
targets, f64 inputs, SVMs with probabilities and a linear SVM, the linear
ops' post transforms, Binarizer, Imputer, OneHotEncoder and LabelEncoder.

  python make_ml_models.py OUT_DIR [NAME...]
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(5)
T = TensorProto
MODELS = {}


def vi(n, dtype, shape):
    return helper.make_tensor_value_info(n, dtype, shape)


def ml(op, ins, outs, **attrs):
    return helper.make_node(op, ins, outs, name=outs[0], domain="ai.onnx.ml", **attrs)


def model(name, nodes, outputs, feeds, ml_opset=3, inits=()):
    m = helper.make_model(
        helper.make_graph(nodes, name,
                          [vi(k, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
                           for k, v in feeds.items()],
                          [helper.make_empty_tensor_value_info(o) for o in outputs],
                          list(inits)),
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", ml_opset)])
    m.ir_version = 8
    MODELS[name] = (m, feeds)


def features(n, f, nan=False, dtype=np.float32):
    x = np.round(rng.standard_normal((n, f)) * 4) / 4
    if nan:
        x[rng.random((n, f)) < 0.2] = np.nan
    return x.astype(dtype)


def tree_attrs(trees, depth, f, modes, n_out, prefix, rng_weights=True):
    """Complete trees of `depth` levels: nodes_* and <prefix>_* attributes."""
    a = {k: [] for k in ["nodes_treeids", "nodes_nodeids", "nodes_featureids",
                         "nodes_modes", "nodes_values", "nodes_truenodeids",
                         "nodes_falsenodeids", "nodes_missing_value_tracks_true",
                         prefix + "_treeids", prefix + "_nodeids", prefix + "_ids",
                         prefix + "_weights"]}
    for t in range(trees):
        count = 2 ** (depth + 1) - 1
        for i in range(count):
            leaf = i >= 2 ** depth - 1
            a["nodes_treeids"].append(t)
            a["nodes_nodeids"].append(i)
            a["nodes_featureids"].append(int(rng.integers(f)) if not leaf else 0)
            a["nodes_modes"].append("LEAF" if leaf else modes[int(rng.integers(len(modes)))])
            a["nodes_values"].append(float(np.round(rng.standard_normal() * 4) / 4))
            a["nodes_truenodeids"].append(2 * i + 1 if not leaf else 0)
            a["nodes_falsenodeids"].append(2 * i + 2 if not leaf else 0)
            a["nodes_missing_value_tracks_true"].append(int(rng.integers(2)))
            if leaf:
                for c in sorted(set(int(c) for c in rng.integers(n_out, size=2))):
                    a[prefix + "_treeids"].append(t)
                    a[prefix + "_nodeids"].append(i)
                    a[prefix + "_ids"].append(c)
                    a[prefix + "_weights"].append(float(rng.standard_normal()))
    return a


ALL_MODES = ["BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ"]

# A multi-class forest with NaN inputs and every branch mode, SOFTMAX.
a = tree_attrs(4, 3, 5, ALL_MODES, 3, "class")
model("trees_classifier_nan",
      [ml("TreeEnsembleClassifier", ["x"], ["label", "scores"], classlabels_int64s=[4, 5, 6],
          post_transform="SOFTMAX", **a)],
      ["label", "scores"], {"x": features(9, 5, nan=True)})

# A binary classifier storing one class (XGBoost/LightGBM-style), LOGISTIC.
a = tree_attrs(3, 2, 4, ["BRANCH_LEQ", "BRANCH_LT"], 1, "class")
model("trees_binary_logistic",
      [ml("TreeEnsembleClassifier", ["x"], ["label", "scores"], classlabels_int64s=[0, 1],
          post_transform="LOGISTIC", base_values=[0.25], **a)],
      ["label", "scores"], {"x": features(7, 4)})

# A regressor with two targets, AVERAGE, base values, f64 input.
a = tree_attrs(5, 3, 3, ALL_MODES, 2, "target")
model("trees_regressor_avg_f64",
      [ml("TreeEnsembleRegressor", ["x"], ["y"], n_targets=2, aggregate_function="AVERAGE",
          base_values=[0.5, -1.0], **a)],
      ["y"], {"x": features(6, 3, nan=True, dtype=np.float64)})

# ml opset 3's *_as_tensor attributes (f64 thresholds, weights and base).
a = tree_attrs(3, 2, 3, ["BRANCH_LEQ", "BRANCH_GT"], 1, "target")
for k in ["nodes_values", "target_weights"]:
    a[k + "_as_tensor"] = numpy_helper.from_array(np.array(a.pop(k), np.float64), k)
model("trees_regressor_as_tensor",
      [ml("TreeEnsembleRegressor", ["x"], ["y"], n_targets=1,
          base_values_as_tensor=numpy_helper.from_array(np.array([0.125]), "b"), **a)],
      ["y"], {"x": features(5, 3, dtype=np.float64)})

# MIN and MAX aggregation, one row.
for agg in ["MIN", "MAX"]:
    a = tree_attrs(3, 2, 3, ["BRANCH_LEQ"], 2, "target")
    model(f"trees_regressor_{agg.lower()}",
          [ml("TreeEnsembleRegressor", ["x"], ["y"], n_targets=2, aggregate_function=agg, **a)],
          ["y"], {"x": features(1, 3)})

# An RBF SVM with probabilities, and a linear SVM without support vectors.
nsv = [2, 3, 2]
sv = rng.standard_normal((sum(nsv), 4)).astype(np.float32)
model("svm_rbf_proba",
      [ml("SVMClassifier", ["x"], ["label", "scores"], classlabels_ints=[1, 2, 3],
          kernel_type="RBF", kernel_params=[0.3, 0.0, 3.0], vectors_per_class=nsv,
          support_vectors=sv.ravel().tolist(),
          coefficients=rng.standard_normal(2 * sum(nsv)).tolist(),
          rho=rng.standard_normal(3).tolist(), prob_a=[-1.5, -2.0, -1.0],
          prob_b=[0.1, -0.2, 0.05])],
      ["label", "scores"], {"x": features(5, 4)})
model("svm_poly",
      [ml("SVMClassifier", ["x"], ["label", "scores"], classlabels_ints=[0, 1, 2],
          kernel_type="POLY", kernel_params=[0.2, 0.5, 2.0], vectors_per_class=nsv,
          support_vectors=sv.ravel().tolist(),
          coefficients=rng.standard_normal(2 * sum(nsv)).tolist(),
          rho=rng.standard_normal(3).tolist())],
      ["label", "scores"], {"x": features(5, 4)})

# SVM regressors: RBF with support vectors, and linear one-class.
model("svm_regressor_rbf",
      [ml("SVMRegressor", ["x"], ["y"], kernel_type="RBF", kernel_params=[0.4, 0.0, 3.0],
          n_supports=5, support_vectors=rng.standard_normal(20).tolist(),
          coefficients=rng.standard_normal(5).tolist(), rho=[0.3])],
      ["y"], {"x": features(4, 4)})
model("svm_regressor_linear_one_class",
      [ml("SVMRegressor", ["x"], ["y"], coefficients=rng.standard_normal(3).tolist(),
          rho=[0.1], one_class=1, kernel_type="LINEAR", kernel_params=[0.0, 0.0, 1.0],
          n_supports=0)],
      ["y"], {"x": features(6, 3)})

# Linear classifier: softmax over three classes, and one column for two.
model("linear_classifier_softmax",
      [ml("LinearClassifier", ["x"], ["label", "scores"], classlabels_ints=[7, 8, 9],
          coefficients=rng.standard_normal(12).tolist(), intercepts=[0.1, 0.2, -0.3],
          post_transform="SOFTMAX")],
      ["label", "scores"], {"x": features(4, 4)})
model("linear_classifier_binary",
      [ml("LinearClassifier", ["x"], ["label", "scores"], classlabels_ints=[0, 1],
          coefficients=rng.standard_normal(4).tolist(), intercepts=[0.1],
          post_transform="LOGISTIC")],
      ["label", "scores"], {"x": features(6, 4)})
model("linear_regressor_2",
      [ml("LinearRegressor", ["x"], ["y"], targets=2,
          coefficients=rng.standard_normal(6).tolist(), intercepts=[1.0, -1.0])],
      ["y"], {"x": features(3, 3)})

# Scaler and Normalizer on an int64 input; Binarizer; Imputer (NaN).
model("scaler_normalizer_l2",
      [ml("Scaler", ["x"], ["s"], offset=[1.0, 0.5, -2.0], scale=[0.5, 2.0, 1.0]),
       ml("Normalizer", ["s"], ["y"], norm="L2")],
      ["y"], {"x": rng.integers(-5, 5, (4, 3)).astype(np.int64)})
model("binarizer_imputer",
      [ml("Imputer", ["x"], ["i"], imputed_value_floats=[9.0, 8.0, 7.0],
          replaced_value_float=float("nan")),
       ml("Binarizer", ["i"], ["y"], threshold=0.25)],
      ["i", "y"], {"x": features(4, 3, nan=True)})
model("one_hot_label_encoder",
      [ml("OneHotEncoder", ["x"], ["h"], cats_int64s=[3, 1, 4]),
       ml("LabelEncoder", ["x"], ["l"], keys_int64s=[1, 3, 5], values_floats=[0.5, 1.5, 2.5],
          default_float=-1.0)],
      ["h", "l"], {"x": np.array([[1, 3, 2], [4, 5, 1]], np.int64)}, ml_opset=2)

model("feature_vectorizer",
      [ml("FeatureVectorizer", ["a", "b"], ["y"], inputdimensions=[2, 3])],
      ["y"], {"a": rng.integers(-5, 5, (3, 2)).astype(np.int64),
              "b": rng.integers(-5, 5, (3, 3)).astype(np.int64)},
      ml_opset=1)

out_dir, wanted = sys.argv[1], sys.argv[2:]
import onnxruntime as ort  # noqa: E402

for name, (m, feeds) in MODELS.items():
    if wanted and name not in wanted:
        continue
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    results = sess.run(None, feeds)
    outputs = [o.name for o in m.graph.output]
    del m.graph.output[:]
    d = os.path.join(out_dir, name, "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    for i, (o, r) in enumerate(zip(outputs, results)):
        r = np.asarray(r)
        m.graph.output.append(vi(o, helper.np_dtype_to_tensor_dtype(r.dtype), r.shape))
        onnx.save_tensor(numpy_helper.from_array(r, o), os.path.join(d, f"output_{i}.pb"))
    for i, (k, v) in enumerate(feeds.items()):
        onnx.save_tensor(numpy_helper.from_array(v, k), os.path.join(d, f"input_{i}.pb"))
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out_dir, name, "model.onnx"))
