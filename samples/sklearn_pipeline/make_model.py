#!/usr/bin/env python3
"""Regenerates model.onnx and test_data_set_0/ in this folder.

A scikit-learn pipeline (StandardScaler -> CastTransformer ->
RandomForestClassifier) trained on scikit-learn's bundled wine data set
(nothing is downloaded), exported with skl2onnx, with scikit-learn's own
predict()/predict_proba() on the held-out rows as the reference.

Made with Python 3.11, scikit-learn 1.9.1, skl2onnx 1.20.0, onnx 1.23.2,
numpy 2.4.6, in a venv of its own (the test venv has none of these):

    python3 -m venv /tmp/skl
    /tmp/skl/bin/pip install scikit-learn==1.9.1 skl2onnx==1.20.0 onnx==1.23.2 numpy==2.4.6
    /tmp/skl/bin/python samples/sklearn_pipeline/make_model.py

The tests only read the committed files; they never run this script.
"""
import os

import numpy as np
import onnx
from onnx import numpy_helper
from skl2onnx import to_onnx
from skl2onnx.sklapi import CastTransformer
from sklearn.datasets import load_wine
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

here = os.path.dirname(os.path.abspath(__file__))

X, y = load_wine(return_X_y=True)  # 178 wines, 13 features, 3 cultivars
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0)

# The features stay float64 as scikit-learn computes them: the scaler runs in
# double and CastTransformer hands float32 to the trees, which is what
# scikit-learn's trees compare in. Without the cast the ONNX Scaler computes
# in float32, and a feature that lands on a split threshold can take the
# other branch than in scikit-learn (onnxruntime too): one tree's vote,
# 1/20 of a probability, on 1 of these 45 rows.
pipe = Pipeline([
    ("scale", StandardScaler()),
    ("cast", CastTransformer()),  # float64 -> float32
    ("clf", RandomForestClassifier(n_estimators=20, max_depth=5, random_state=0)),
])
pipe.fit(X_train, y_train)
print(f"test accuracy {pipe.score(X_test, y_test):.3f}")

# zipmap=False: the probabilities are a float tensor [N, 3], not a sequence
# of {class: probability} maps (ZipMap, which onnxcc refuses).
# target_opset: pinned, so a newer skl2onnx exports the same operators.
# The batch dimension of X[:1]'s type is left dynamic (no dim_param):
# onnxcc_add_model(... DIMS X:0=1) pins it.
onx = to_onnx(pipe, X[:1], options={"zipmap": False},
              target_opset={"": 17, "ai.onnx.ml": 3})
onnx.checker.check_model(onx)
with open(os.path.join(here, "model.onnx"), "wb") as f:
    f.write(onx.SerializeToString())

# Reference: every held-out wine, labels and probabilities from scikit-learn.
data = os.path.join(here, "test_data_set_0")
os.makedirs(data, exist_ok=True)
names = [o.name for o in onx.graph.output]  # ["label", "probabilities"]
tensors = [
    (os.path.join(data, "input_0.pb"), X_test, onx.graph.input[0].name),
    (os.path.join(data, "output_0.pb"), pipe.predict(X_test).astype(np.int64), names[0]),
    (os.path.join(data, "output_1.pb"), pipe.predict_proba(X_test).astype(np.float32), names[1]),
]
for path, array, name in tensors:
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())
print(f"wrote model.onnx and {len(X_test)} reference rows")
