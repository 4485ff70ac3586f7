"""Writes control-flow models and their onnxruntime references into
argv[1]/<name>/ (backend-test layout, for `onnxcc verify`):

  loop_scan        Loop, static trip count 4: a carried sum and a scan output
                   (stacked per iteration), the iteration number in the body
  loop_while       Loop without M: the body's condition (i < 3) ends it after
                   it folds during import
  if_const         If on a constant condition: only its branch is imported
  if_runtime       If on a graph-input condition: both branches and a select
  scan_reverse     Scan-16 with a reversed input, a scan axis of 1 and a
                   reversed output on axis 1, plus a carried state
  nested           a Loop whose body holds an If on the iteration number
  if_shapes_differ If on a graph input whose branches differ in shape (an
                   error: the condition must be bound)
  loop_input_trip  Loop whose trip count is a graph input (an error naming
                   the input to bind)
  loop_huge_trip   Loop of 10^9 iterations (an error, before unrolling any)
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(11)
F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def vi(n, t, shape):
    return helper.make_tensor_value_info(n, t, shape)


def const_node(name, value):
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.asarray(value), name))


def save(name, graph, feeds, opset=17, reference=True):
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    if reference:
        onnx.checker.check_model(m)
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(m, os.path.join(d, "model.onnx"))
    if not reference:
        return
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    results = sess.run(None, feeds)
    for i, (k, v) in enumerate(feeds.items()):
        onnx.save_tensor(numpy_helper.from_array(v, k), os.path.join(d, "test_data_set_0", f"input_{i}.pb"))
    for i, v in enumerate(results):
        onnx.save_tensor(numpy_helper.from_array(v, graph.output[i].name),
                         os.path.join(d, "test_data_set_0", f"output_{i}.pb"))


def loop_body(extra_nodes=()):
    # (i, cond, acc) -> (cond, acc + x * i, acc * 2)
    return helper.make_graph(
        [helper.make_node("Cast", ["i"], ["fi"], to=F),
         helper.make_node("Mul", ["x", "fi"], ["xi"]),
         helper.make_node("Add", ["acc", "xi"], ["acc_out"]),
         const_node("two", np.float32(2)),
         helper.make_node("Mul", ["acc_out", "two"], ["scan"]),
         helper.make_node("Identity", ["cond"], ["cond_out"])] + list(extra_nodes),
        "body", [vi("i", I64, []), vi("cond", B, []), vi("acc", F, [2, 3])],
        [vi("cond_out", B, []), vi("acc_out", F, [2, 3]), vi("scan", F, [2, 3])])


x23 = rng.standard_normal((2, 3)).astype(np.float32)

# loop_scan
g = helper.make_graph(
    [const_node("M", np.int64(4)), const_node("T", np.bool_(True)),
     helper.make_node("Loop", ["M", "T", "acc0"], ["sum", "scans"], name="loop", body=loop_body())],
    "loop_scan", [vi("x", F, [2, 3]), vi("acc0", F, [2, 3])], [vi("sum", F, [2, 3]), vi("scans", F, [4, 2, 3])])
save("loop_scan", g, {"x": x23, "acc0": rng.standard_normal((2, 3)).astype(np.float32)})

# loop_while: no M; cond_out = i + 1 < 3
body = helper.make_graph(
    [const_node("one", np.int64(1)), const_node("three", np.int64(3)),
     helper.make_node("Add", ["i", "one"], ["next"]),
     helper.make_node("Less", ["next", "three"], ["cond_out"]),
     helper.make_node("Add", ["acc", "x"], ["acc_out"])],
    "while_body", [vi("i", I64, []), vi("cond", B, []), vi("acc", F, [2, 3])],
    [vi("cond_out", B, []), vi("acc_out", F, [2, 3])])
g = helper.make_graph(
    [const_node("T", np.bool_(True)),
     helper.make_node("Loop", ["", "T", "x"], ["y"], name="while", body=body)],
    "loop_while", [vi("x", F, [2, 3])], [vi("y", F, [2, 3])])
save("loop_while", g, {"x": x23})


def branch(name, op):
    return helper.make_graph([helper.make_node(op, ["x"], [name + "_y"])], name, [],
                             [vi(name + "_y", F, [2, 3])])


# if_const
g = helper.make_graph(
    [const_node("c", np.bool_(False)),
     helper.make_node("If", ["c"], ["y"], name="if", then_branch=branch("then", "Relu"),
                      else_branch=branch("else", "Neg"))],
    "if_const", [vi("x", F, [2, 3])], [vi("y", F, [2, 3])])
save("if_const", g, {"x": x23})

# if_runtime
g = helper.make_graph(
    [helper.make_node("If", ["c"], ["y"], name="if", then_branch=branch("then", "Relu"),
                      else_branch=branch("else", "Neg"))],
    "if_runtime", [vi("c", B, []), vi("x", F, [2, 3])], [vi("y", F, [2, 3])])
save("if_runtime", g, {"c": np.array(True), "x": x23})

# scan_reverse: state s (3), input x (3 x T=4 along axis 1, reversed);
# body: s_out = s + x_t, y_t = s_out * x_t; y stacked on axis 1, reversed
body = helper.make_graph(
    [helper.make_node("Add", ["s", "xt"], ["s_out"]),
     helper.make_node("Mul", ["s_out", "xt"], ["yt"])],
    "scan_body", [vi("s", F, [3]), vi("xt", F, [3])], [vi("s_out", F, [3]), vi("yt", F, [3])])
g = helper.make_graph(
    [helper.make_node("Scan", ["s0", "x"], ["s", "y"], name="scan", body=body, num_scan_inputs=1,
                      scan_input_axes=[1], scan_input_directions=[1], scan_output_axes=[1],
                      scan_output_directions=[1])],
    "scan_reverse", [vi("s0", F, [3]), vi("x", F, [3, 4])], [vi("s", F, [3]), vi("y", F, [3, 4])])
save("scan_reverse", g, {"s0": rng.standard_normal(3).astype(np.float32),
                         "x": rng.standard_normal((3, 4)).astype(np.float32)}, opset=16)

# nested: Loop of 3 whose body has If(i == 1) -> add x, else subtract x
inner = helper.make_node(
    "If", ["is_one"], ["acc_out"], name="inner_if",
    then_branch=helper.make_graph([helper.make_node("Add", ["acc", "x"], ["t_y"])], "t", [], [vi("t_y", F, [2, 3])]),
    else_branch=helper.make_graph([helper.make_node("Sub", ["acc", "x"], ["e_y"])], "e", [], [vi("e_y", F, [2, 3])]))
body = helper.make_graph(
    [const_node("one", np.int64(1)), helper.make_node("Equal", ["i", "one"], ["is_one"]), inner,
     helper.make_node("Identity", ["cond"], ["cond_out"])],
    "nested_body", [vi("i", I64, []), vi("cond", B, []), vi("acc", F, [2, 3])],
    [vi("cond_out", B, []), vi("acc_out", F, [2, 3])])
g = helper.make_graph(
    [const_node("M", np.int64(3)), const_node("T", np.bool_(True)),
     helper.make_node("Loop", ["M", "T", "x"], ["y"], name="loop", body=body)],
    "nested", [vi("x", F, [2, 3])], [vi("y", F, [2, 3])])
save("nested", g, {"x": x23})

# if_shapes_differ (error)
g = helper.make_graph(
    [helper.make_node("If", ["c"], ["y"], name="if_shapes",
                      then_branch=helper.make_graph([helper.make_node("Identity", ["x"], ["t_y"])], "t", [],
                                                    [vi("t_y", F, None)]),
                      else_branch=helper.make_graph(
                          [const_node("ax", np.array([0], np.int64)),
                           helper.make_node("ReduceSum", ["x", "ax"], ["e_y"])], "e", [], [vi("e_y", F, None)]))],
    "if_shapes_differ", [vi("c", B, []), vi("x", F, [2, 3])], [vi("y", F, None)])
save("if_shapes_differ", g, {}, reference=False)

# loop_input_trip (error)
g = helper.make_graph(
    [const_node("T", np.bool_(True)),
     helper.make_node("Loop", ["M", "T", "acc0"], ["sum", "scans"], name="loop_m", body=loop_body())],
    "loop_input_trip", [vi("M", I64, []), vi("x", F, [2, 3]), vi("acc0", F, [2, 3])],
    [vi("sum", F, [2, 3]), vi("scans", F, None)])
save("loop_input_trip", g, {}, reference=False)

# loop_huge_trip (error)
g = helper.make_graph(
    [const_node("M", np.int64(10**9)), const_node("T", np.bool_(True)),
     helper.make_node("Loop", ["M", "T", "acc0"], ["sum", "scans"], name="loop_huge", body=loop_body())],
    "loop_huge_trip", [vi("x", F, [2, 3]), vi("acc0", F, [2, 3])], [vi("sum", F, [2, 3]), vi("scans", F, None)])
save("loop_huge_trip", g, {}, reference=False)
