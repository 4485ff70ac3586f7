"""Writes small models of the reduction and normalisation ops, each with
onnx.reference's outputs, into argv[1]/<name> in the backend-test layout
`onnxcc verify` reads. Each covers forms the ONNX node tests leave out:
axes as attributes (old opsets) and as constants, element types other than
float, empty reductions, optional outputs, parameters that only broadcast,
and the pre-opset-13 flattening of LogSoftmax and Hardmax.

  python make_reduce_norm_models.py OUT_DIR [NAME...]
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

rng = np.random.default_rng(11)
T = TensorProto


def vi(n, dtype, shape):
    return helper.make_tensor_value_info(n, dtype, shape)


def const(n, a):
    return numpy_helper.from_array(np.asarray(a), n)


def node(op, ins, outs, **attrs):
    return helper.make_node(op, ins, outs, name=outs[0], **attrs)


def ints(a):
    return np.asarray(a, np.int64)


def randn(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


MODELS = {}
# Models whose reference is onnxruntime: onnx.reference has no GlobalLpPool,
# gives LogSoftmax/Hardmax opset 13's per-axis meaning in every opset, and
# takes LpNormalization p=1 without the absolute value.
ORT_REFERENCE = {"softmax_kin_opset11", "mvn_lpnorm", "global_pools"}


def model(name, opset, nodes, outputs, inits, feeds):
    """Registers a model reading `feeds` (the graph inputs) and `inits`."""
    m = helper.make_model(
        helper.make_graph(nodes, name, [vi(k, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
                                        for k, v in feeds.items()],
                          [helper.make_empty_tensor_value_info(o) for o in outputs],
                          list(inits)),
        opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8 if opset < 21 else 10
    MODELS[name] = (m, feeds)


def reduce_axes_attr():
    # Before opset 18 (13 for ReduceSum) axes are an attribute.
    x = randn(3, 4, 5)
    model("reduce_axes_attr", 13, [
        node("ReduceMean", ["x"], ["mean"], axes=[1], keepdims=0),
        node("ReduceMax", ["x"], ["max"], axes=[-1]),
        node("ReduceMin", ["x"], ["min"], axes=[0, 2], keepdims=0),
        node("ReduceLogSumExp", ["x"], ["lse"]),
        node("ReduceL2", ["x"], ["l2"], axes=[1]),
        node("ReduceProd", ["x"], ["prod"], axes=[2], keepdims=0),
        node("ReduceSumSquare", ["x"], ["sumsq"], axes=[0, 1]),
        node("ReduceSum", ["x", "ax"], ["sum"], keepdims=0),
    ], ["mean", "max", "min", "lse", "l2", "prod", "sumsq", "sum"],
        [const("ax", ints([0, -1]))], {"x": x})
    model("reduce_sum_opset11", 11, [
        node("ReduceSum", ["x"], ["sum"], axes=[0, 2]),
        node("ReduceL1", ["x"], ["l1"], axes=[1], keepdims=0),
        node("ReduceLogSum", ["a"], ["ls"], axes=[2]),
    ], ["sum", "l1", "ls"], [], {"x": x, "a": np.abs(x) + 0.1})


def reduce_const_axes():
    # Opset 18: axes as a constant input, noop_with_empty_axes.
    x = randn(2, 3, 4)
    model("reduce_const_axes", 18, [
        node("ReduceSumSquare", ["x", "a1"], ["sumsq"]),
        node("ReduceL1", ["x", "a02"], ["l1"], keepdims=0),
        node("ReduceMin", ["x", "am1"], ["min"]),
        node("ReduceMean", ["x", "a02"], ["mean"]),
        node("ReduceSum", ["x", "none"], ["noop"], noop_with_empty_axes=1),
        node("ReduceL2", ["x", "none"], ["noop_l2"], noop_with_empty_axes=1),
        node("ReduceSum", ["x", "none"], ["all"], keepdims=0),
        node("ReduceMax", ["x", "a1"], ["max_size1"]),
        node("ReduceMean", ["max_size1", "a1"], ["mean_of_1"], keepdims=0),
    ], ["sumsq", "l1", "min", "mean", "noop", "noop_l2", "all", "mean_of_1"],
        [const("a1", ints([1])), const("a02", ints([0, 2])), const("am1", ints([-1])),
         const("none", ints([]))], {"x": x})


def reduce_types():
    # Integers exactly (numpy wraps in the element type; the mean truncates),
    # f16, f64 and bool.
    i32 = rng.integers(-50, 50, (3, 5)).astype(np.int32)
    big = rng.integers(-2**31, 2**31 - 1, (2, 6)).astype(np.int32)
    i64 = rng.integers(-10**12, 10**12, (3, 4)).astype(np.int64)
    u8 = rng.integers(0, 256, (2, 7)).astype(np.uint8)
    u32 = rng.integers(0, 2**32, (2, 7), dtype=np.uint64).astype(np.uint32)
    red = lambda op, x, out, **kw: node(op, [x, "a1"], [out], **kw)
    model("reduce_ints", 18, [
        red("ReduceSum", "i32", "sum32"), red("ReduceMean", "i32", "mean32"),
        red("ReduceProd", "i32", "prod32"), red("ReduceL2", "i32", "l2_32"),
        red("ReduceL1", "i32", "l1_32"), red("ReduceMax", "i32", "max32"),
        red("ReduceMin", "i32", "min32"), red("ReduceSumSquare", "i32", "sq32"),
        red("ReduceSum", "big", "wrap32"), red("ReduceProd", "big", "wrapprod32"),
        red("ReduceMean", "big", "wrapmean32"),
        red("ReduceSum", "i64", "sum64"), red("ReduceMean", "i64", "mean64"),
        red("ReduceMax", "i64", "max64"),
        red("ReduceSum", "u32", "sumu"), red("ReduceProd", "u32", "produ"),
        red("ReduceMean", "u32", "meanu"), red("ReduceMin", "u8", "min8"),
        node("ArgMax", ["i32"], ["argmax32"], axis=1),
        node("ArgMin", ["u8"], ["argmin8"], axis=1, keepdims=0, select_last_index=1),
    ], ["sum32", "mean32", "prod32", "l2_32", "l1_32", "max32", "min32", "sq32",
            "wrap32", "wrapprod32", "wrapmean32", "sum64", "mean64", "max64",
            "sumu", "produ", "meanu", "min8", "argmax32", "argmin8"],
        [const("a1", ints([1]))], {"i32": i32, "big": big, "i64": i64, "u8": u8,
                                          "u32": u32})
    h = randn(4, 6, dtype=np.float16)
    d = randn(3, 5, dtype=np.float64)
    b = rng.integers(0, 2, (3, 4)).astype(bool)
    model("reduce_floats_bool", 20, [
        node("ReduceMean", ["h", "a1"], ["hmean"]), node("ReduceSum", ["h", "a0"], ["hsum"]),
        node("ReduceLogSumExp", ["h", "a1"], ["hlse"]), node("ArgMax", ["h"], ["hargmax"], axis=1),
        node("ReduceL2", ["d", "a1"], ["dl2"]), node("ReduceProd", ["d", "a0"], ["dprod"]),
        node("ReduceMax", ["b", "a1"], ["bmax"]), node("ReduceMin", ["b", "a0"], ["bmin"],
                                                      keepdims=0),
    ], ["hmean", "hsum", "hlse", "hargmax", "dl2", "dprod", "bmax", "bmin"],
        [const("a0", ints([0])), const("a1", ints([1]))], {"h": h, "d": d, "b": b})


def reduce_empty():
    # A reduced dimension of size 0 (a constant: graph inputs may not have
    # one) gives the identity: 0, 1, -inf, the type's extremes, NaN.
    x = randn(2, 3)
    e = np.zeros((2, 0, 3), np.float32)
    ei = np.zeros((2, 0, 3), np.int32)
    add = lambda r, out: node("Add", ["x", r], [out])
    red = lambda op, src, out: node(op, [src, "a1"], [out], keepdims=0)
    model("reduce_empty", 18, [
        red("ReduceSum", "e", "s"), add("s", "sum"),
        red("ReduceProd", "e", "p"), add("p", "prod"),
        red("ReduceMax", "e", "mx"), add("mx", "max"),
        red("ReduceMin", "e", "mn"), add("mn", "min"),
        red("ReduceL2", "e", "l2r"), add("l2r", "l2"),
        red("ReduceLogSum", "e", "lsr"), add("lsr", "logsum"),
        red("ReduceLogSumExp", "e", "lser"), add("lser", "lse"),
        red("ReduceMax", "ei", "maxint"), red("ReduceMin", "ei", "minint"),
        red("ReduceSum", "ei", "sumint"),
    ], ["sum", "prod", "max", "min", "l2", "logsum", "lse", "maxint", "minint", "sumint"],
        [const("e", e), const("ei", ei), const("a1", ints([1]))], {"x": x})


def arg_reduce():
    # Ties, both tie rules, keepdims=0, negative axes.
    x = rng.integers(0, 3, (3, 4, 5)).astype(np.float32)
    model("arg_reduce", 13, [
        node("ArgMax", ["x"], ["first"], axis=1),
        node("ArgMax", ["x"], ["last"], axis=1, select_last_index=1),
        node("ArgMin", ["x"], ["min0"], axis=0, keepdims=0),
        node("ArgMin", ["x"], ["minlast"], axis=-1, select_last_index=1, keepdims=0),
    ], ["first", "last", "min0", "minlast"], [], {"x": x})


def softmax_kin():
    # Before opset 13: flattened to 2-D at axis (default 1).
    x = randn(2, 3, 4)
    ties = rng.integers(0, 2, (2, 3, 4)).astype(np.float32)
    model("softmax_kin_opset11", 11, [
        node("LogSoftmax", ["x"], ["logsm"]),
        node("LogSoftmax", ["x"], ["logsm2"], axis=2),
        node("Hardmax", ["ties"], ["hard"]),
        node("Hardmax", ["ties"], ["hard0"], axis=0),
    ], ["logsm", "logsm2", "hard", "hard0"], [], {"x": x, "ties": ties})
    model("softmax_kin_opset13", 13, [
        node("LogSoftmax", ["x"], ["logsm"], axis=1),
        node("Hardmax", ["ties"], ["hard"], axis=0),
        node("Hardmax", ["ties"], ["hard_last"]),
    ], ["logsm", "hard", "hard_last"], [], {"x": x, "ties": ties})


def layer_norm():
    # All three outputs; a bias that broadcasts from [4]; a scale of [1, 4];
    # a scale with the input's shape (one row each).
    x = randn(2, 3, 4) * 3 + 1
    model("layer_norm", 17, [
        node("LayerNormalization", ["x", "s34", "b4"], ["y", "mean", "inv"], axis=1,
             epsilon=1e-3),
        node("LayerNormalization", ["x", "s14"], ["y2"]),
        node("LayerNormalization", ["x", "sfull", "b4"], ["y3"], axis=-1),
    ], ["y", "mean", "inv", "y2", "y3"],
        [const("s34", randn(3, 4)), const("b4", randn(4)), const("s14", randn(1, 4)),
         const("sfull", randn(2, 3, 4))], {"x": x})
    h = randn(3, 8, dtype=np.float16)
    model("layer_norm_f16", 17, [
        node("LayerNormalization", ["h", "s", "b"], ["y"]),
    ], ["y"], [const("s", randn(8, dtype=np.float16)),
                   const("b", randn(8, dtype=np.float16))], {"h": h})
    model("rms_norm", 23, [
        node("RMSNormalization", ["x", "s"], ["y"], axis=1, epsilon=1e-4),
        node("RMSNormalization", ["x", "s4"], ["y_last"]),
        node("RMSNormalization", ["h", "hs"], ["y_f16"]),
    ], ["y", "y_last", "y_f16"],
        [const("s", randn(3, 4)), const("s4", randn(4)), const("hs", randn(8, dtype=np.float16))],
        {"x": x, "h": h})


def group_norm():
    x = randn(2, 4, 3, 3)
    model("group_norm_opset18", 18, [  # scale and bias per group
        node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2),
    ], ["y"], [const("s", randn(2)), const("b", randn(2))], {"x": x})
    model("group_norm_opset21", 21, [  # per channel
        node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2, epsilon=1e-2),
        node("InstanceNormalization", ["x", "s", "b"], ["inst"]),
    ], ["y", "inst"], [const("s", randn(4)), const("b", randn(4))], {"x": x})
    d = randn(1, 3, 5, dtype=np.float64)
    model("instance_norm_f64", 13, [
        node("InstanceNormalization", ["d", "s", "b"], ["y"], epsilon=1e-3),
    ], ["y"], [const("s", randn(3, dtype=np.float64)),
                   const("b", randn(3, dtype=np.float64))], {"d": d})


def misc_norms():
    # onnx.reference's LRN is 4-D only and loops over N where it means C
    # (N == C keeps it right); onnxruntime's takes odd sizes only.
    x = randn(5, 5, 2, 3)
    model("lrn", 13, [
        node("LRN", ["x"], ["lrn4"], size=4, alpha=0.01, beta=0.5, bias=2.0),
        node("LRN", ["x"], ["lrn1"], size=1),
        node("LRN", ["x"], ["lrn9"], size=9),
    ], ["lrn4", "lrn1", "lrn9"], [], {"x": x})
    z = randn(3, 4)
    z[:, 1] = 0  # a zero norm gives 0
    model("mvn_lpnorm", 13, [
        node("MeanVarianceNormalization", ["x4"], ["mvn"]),
        node("MeanVarianceNormalization", ["x3"], ["mvn1"], axes=[1]),
        node("LpNormalization", ["z"], ["l1"], axis=0, p=1),
        node("LpNormalization", ["z"], ["l2"]),
    ], ["mvn", "mvn1", "l1", "l2"], [],
        {"x4": randn(2, 3, 4, 2), "x3": randn(2, 5, 6), "z": z})
    p = randn(2, 3, 4, 5)
    model("global_pools", 13, [
        node("GlobalMaxPool", ["p"], ["max"]),
        node("GlobalLpPool", ["p"], ["lp3"], p=3),
        node("GlobalLpPool", ["p"], ["lp1"], p=1),
        node("GlobalLpPool", ["p"], ["lp2"]),
    ], ["max", "lp3", "lp1", "lp2"], [], {"p": p})


for make in [reduce_axes_attr, reduce_const_axes, reduce_types, reduce_empty, arg_reduce,
             softmax_kin, layer_norm, group_norm, misc_norms]:
    make()

out_dir, wanted = sys.argv[1], sys.argv[2:]
for name, (m, feeds) in MODELS.items():
    if wanted and name not in wanted:
        continue
    if name in ORT_REFERENCE:
        import onnxruntime as ort
        sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        results = sess.run(None, feeds)
    else:
        results = ReferenceEvaluator(m).run(None, feeds)
    # The outputs get the types ONNX's shape inference gives them; the
    # reference sometimes answers another (ReduceSumSquare of int32 in
    # int64), which the cast wraps back as the element type does.
    inferred = {v.name: v.type.tensor_type.elem_type
                for v in onnx.shape_inference.infer_shapes(m).graph.output}
    outputs = [o.name for o in m.graph.output]
    del m.graph.output[:]
    d = os.path.join(out_dir, name, "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    for i, (o, r) in enumerate(zip(outputs, results)):
        r = np.asarray(r)
        if inferred.get(o):  # function ops (GroupNormalization) infer none
            r = r.astype(helper.tensor_dtype_to_np_dtype(inferred[o]))
        m.graph.output.append(vi(o, helper.np_dtype_to_tensor_dtype(r.dtype), r.shape))
        onnx.save_tensor(numpy_helper.from_array(r, o), os.path.join(d, f"output_{i}.pb"))
    for i, (k, v) in enumerate(feeds.items()):
        onnx.save_tensor(numpy_helper.from_array(v, k), os.path.join(d, f"input_{i}.pb"))
    if name != "group_norm_opset18":  # the checker calls that version deprecated
        onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out_dir, name, "model.onnx"))
