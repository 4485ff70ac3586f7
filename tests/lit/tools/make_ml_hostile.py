"""Writes hostile ai.onnx.ml models into argv[1]/<name>.onnx: trees with a
cycle, a branch to a missing node, a feature X lacks, a class id outside
the labels, a huge feature id; an SVM with too few coefficients; ZipMap;
string labels (NUL bytes, both kinds, too many, one label); a string
input into a numeric op; a default-domain node in a model that imports only
ai.onnx.ml; an ml opset from the future.

  python make_ml_hostile.py OUT_DIR
"""
import os
import sys

from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(name, nodes, outputs, ml_opset=3, default=True, feats=3):
    opsets = [helper.make_opsetid("ai.onnx.ml", ml_opset)]
    if default:
        opsets.append(helper.make_opsetid("", 17))
    g = helper.make_graph(nodes, name,
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, feats])],
                          [helper.make_empty_tensor_value_info(o) for o in outputs])
    m = helper.make_model(g, opset_imports=opsets)
    m.ir_version = 8
    with open(os.path.join(out, name + ".onnx"), "wb") as f:
        f.write(m.SerializeToString())


def tree(name, true_ids=(1, 0, 0), false_ids=(2, 0, 0), features=(0, 0, 0),
         class_ids=(0, 1), labels=(0, 1), **extra):
    if labels:
        extra["classlabels_int64s"] = list(labels)
    save(name, [helper.make_node(
        "TreeEnsembleClassifier", ["x"], ["label", "scores"], name="n", domain="ai.onnx.ml",
        nodes_treeids=[0, 0, 0], nodes_nodeids=[0, 1, 2], nodes_featureids=list(features),
        nodes_modes=["BRANCH_LEQ", "LEAF", "LEAF"], nodes_values=[0.5, 0, 0],
        nodes_truenodeids=list(true_ids), nodes_falsenodeids=list(false_ids),
        class_treeids=[0, 0], class_nodeids=[1, 2], class_ids=list(class_ids),
        class_weights=[1.0, 1.0], **extra)],
        ["label", "scores"])


tree("tree_ok")
tree("tree_cycle", true_ids=(0, 0, 0))
tree("tree_missing_child", false_ids=(7, 0, 0))
tree("tree_feature", features=(3, 0, 0))
tree("tree_feature_huge", features=(2 ** 40, 0, 0))
tree("tree_class", class_ids=(0, 5))
tree("tree_binary_class1", class_ids=(1, 1))
tree("tree_binary_positive_logistic", class_ids=(0, 0), post_transform="LOGISTIC")
save("svm_coefficients", [helper.make_node(
    "SVMClassifier", ["x"], ["label", "scores"], name="n", domain="ai.onnx.ml",
    classlabels_ints=[0, 1, 2], kernel_type="RBF", vectors_per_class=[1, 1, 1],
    support_vectors=[0.0] * 9, coefficients=[1.0] * 5, rho=[0.0] * 3)],
    ["label", "scores"])
save("svm_linear_two_class", [helper.make_node(
    "SVMClassifier", ["x"], ["label", "scores"], name="n", domain="ai.onnx.ml",
    classlabels_ints=[0, 1], kernel_type="LINEAR", coefficients=[0.5, -1.0, 0.25, -0.5, 1.0, -0.25],
    rho=[0.1])], ["label", "scores"])
save("targets_huge", [helper.make_node(
    "TreeEnsembleRegressor", ["x"], ["y"], name="n", domain="ai.onnx.ml", n_targets=2 ** 40,
    nodes_treeids=[0], nodes_nodeids=[0], nodes_featureids=[0], nodes_modes=["LEAF"],
    nodes_values=[0.0], nodes_truenodeids=[0], nodes_falsenodeids=[0])], ["y"])
save("zipmap", [helper.make_node("ZipMap", ["x"], ["z"], name="n", domain="ai.onnx.ml",
                                 classlabels_int64s=[0, 1, 2])], ["z"])
def linear_strings(name, **labels):
    save(name, [helper.make_node(
        "LinearClassifier", ["x"], ["label", "scores"], name="n", domain="ai.onnx.ml",
        coefficients=[1.0] * 6, **labels)], ["label", "scores"])


# String class labels: a NUL byte, ints and strings both, too many.
linear_strings("string_labels_nul", classlabels_strings=[b"a\0*/", b"b"])
linear_strings("string_labels_both", classlabels_strings=["a", "b"], classlabels_ints=[0, 1])
linear_strings("string_labels_many", classlabels_strings=[str(i) for i in range(70000)])
tree("tree_one_string_label", class_ids=(0, 0), labels=(), classlabels_strings=["only"])


def save_strings(name, node, ml_opset=2):
    """A model whose input `s` is a STRING [2] tensor."""
    m = helper.make_model(helper.make_graph(
        [node], name, [helper.make_tensor_value_info("s", TensorProto.STRING, [2])],
        [helper.make_empty_tensor_value_info(node.output[0])]),
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", ml_opset)])
    m.ir_version = 8
    with open(os.path.join(out, name + ".onnx"), "wb") as f:
        f.write(m.SerializeToString())


def encoder(name, **attrs):
    save_strings(name, helper.make_node("LabelEncoder", ["s"], ["y"], name="n",
                                        domain="ai.onnx.ml", **attrs))


# A string graph input into an op that takes numbers; a Cast to STRING.
save_strings("string_identity", helper.make_node("Identity", ["s"], ["y"], name="n"))
save("cast_to_string", [helper.make_node("Cast", ["x"], ["y"], name="n", to=TensorProto.STRING)],
     ["y"])
# LabelEncoder: repeated or NUL string keys, numeric keys for a string
# input, values of two kinds.
encoder("encoder_key_twice", keys_strings=["a", "b", "a"], values_int64s=[1, 2, 3])
encoder("encoder_key_nul", keys_strings=[b"a\0b"], values_int64s=[1])
encoder("encoder_int_keys", keys_int64s=[1, 2], values_strings=["a", "b"])
encoder("encoder_two_values", keys_strings=["a"], values_int64s=[1], values_floats=[1.0])
save("ml_only_relu", [helper.make_node("Relu", ["x"], ["y"], name="n")], ["y"], default=False)
save("ml_only_ok", [helper.make_node("Binarizer", ["x"], ["y"], name="n", domain="ai.onnx.ml")],
     ["y"], default=False)
save("ml_opset_9", [helper.make_node("Binarizer", ["x"], ["y"], name="n", domain="ai.onnx.ml")],
     ["y"], ml_opset=9)
