"""scikit-learn's own predict(), timed on estimators equivalent to the
shipped scikit-learn models.

The shipped models (../shared/models/skl_*) keep only their ONNX files, not
the fitted estimators. Each estimator here has the same class and
hyperparameters as the manifest describes and is fitted on synthetic data
of the same width (make_classification / make_regression, the model's
seed), so its trees have the same depth and count and its matrices the same
shapes: predict() does the same amount of work. Timed on one thread
(threadpoolctl), in the same units as bench_main: median ns per call.

Needs scikit-learn (bench/requirements.txt), not part of the test venv.
"""
import time

import numpy as np
from sklearn.cluster import KMeans
from sklearn.datasets import make_classification, make_regression
from sklearn.decomposition import PCA
from sklearn.ensemble import GradientBoostingRegressor, RandomForestClassifier
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits


def _classification(features, seed):
    return make_classification(n_samples=600, n_features=features, n_informative=6,
                               n_classes=3, random_state=seed)


def _regression(features, seed):
    return make_regression(n_samples=600, n_features=features, noise=5.0, random_state=seed)


# name -> (fitted estimator factory, the call the ONNX model stands for)
def _estimators():
    return {
        "skl_scaler_logreg": (lambda: make_pipeline(StandardScaler(), LogisticRegression(max_iter=500))
                              .fit(*_classification(12, 1)), "predict_proba"),
        "skl_linear_regression": (lambda: LinearRegression().fit(*_regression(10, 2)), "predict"),
        "skl_decision_tree": (lambda: DecisionTreeClassifier(max_depth=6, random_state=4)
                              .fit(*_classification(12, 4)), "predict_proba"),
        "skl_random_forest": (lambda: RandomForestClassifier(n_estimators=20, max_depth=6, random_state=5)
                              .fit(*_classification(12, 5)), "predict_proba"),
        "skl_gradient_boosting_regressor": (lambda: GradientBoostingRegressor(
            n_estimators=30, max_depth=3, random_state=6).fit(*_regression(10, 6)), "predict"),
        "skl_svc_rbf": (lambda: SVC(kernel="rbf").fit(*_classification(12, 8)), "decision_function"),
        "skl_mlp_classifier": (lambda: MLPClassifier(hidden_layer_sizes=(32, 16), max_iter=300,
                                                     random_state=11).fit(*_classification(12, 11)),
                               "predict_proba"),
        "skl_kmeans": (lambda: KMeans(n_clusters=4, n_init=3, random_state=14)
                       .fit(_regression(10, 14)[0]), "transform"),
        "skl_pca": (lambda: PCA(n_components=5).fit(_regression(16, 13)[0]), "transform"),
    }


def timer():
    """Returns time(name, x, seconds) -> median ns per call, or None for a
    model without an equivalent here."""
    import warnings
    warnings.filterwarnings("ignore")
    estimators = _estimators()
    fitted = {}

    def time_one(name, x, seconds):
        if name not in estimators:
            return None
        if name not in fitted:
            make, method = estimators[name]
            fitted[name] = getattr(make(), method)
        call = fitted[name]
        x = np.asarray(x, dtype=np.float32)
        with threadpool_limits(1):
            for _ in range(5):
                call(x)
            samples, spent = [], 0.0
            while spent < seconds or len(samples) < 5:
                start = time.perf_counter_ns()
                call(x)
                ns = time.perf_counter_ns() - start
                samples.append(ns)
                spent += ns / 1e9
        return float(np.median(samples))

    return time_one
