"""Writes a model of data movement ops and its onnxruntime reference into
argv[2], in the layout `onnxcc verify` reads. argv[1] names the model:

  mixed   one graph, one output per op: Slice (negative step, INT64_MAX /
          INT64_MIN bounds), Pad in every mode (negative pads crop), Tile,
          Expand, Split in uneven parts, DepthToSpace (CRD), SpaceToDepth,
          Gather / GatherElements / GatherND / ScatterElements / ScatterND
          on run-time indices, TopK, CumSum, Trilu, OneHot, ReverseSequence,
          EyeLike, and Range / ConstantOfShape above the folding limit
  typed   Transpose, Concat, Slice, Expand and Gather on f16, bool, int8
          and uint64 tensors
  kv      opset 26: TensorScatter (linear and circular, with and without
          write_indices, f32 / f16 / int32), CenterCropPad (crop and pad,
          negative axes, int8) and CumProd (reverse, exclusive, a run-time
          axis, wrapping int32)
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

name, out = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(11)


def const(n, a, dtype=np.int64):
    return numpy_helper.from_array(np.asarray(a, dtype=dtype), n)


def vi(n, elem, shape):
    return helper.make_tensor_value_info(n, elem, shape)


def mixed():
    F, I64 = TensorProto.FLOAT, TensorProto.INT64
    inits = [
        const("s_starts", [2**63 - 1, 1]), const("s_ends", [-2**63, 5]),
        const("s_steps", [-2, 2]),
        const("p_both", [1, 2, 2, 1]), const("p_crop", [-1, 3, 1, -2]),
        const("p_wide", [3, 5, 2, 4]),
        const("pv", 2.5, np.float32),
        const("reps", [2, 3]), const("e_shape", [3, 1, 6]),
        const("split", [1, 3]), const("k", [3]), const("ax", 1),
        const("depth", 5), const("oh_vals", [0.5, -1.0], np.float32),
        const("r_start", 1.0, np.float32), const("r_limit", 751.0, np.float32),
        const("r_delta", 0.5, np.float32), const("cs_shape", [40, 40]),
        const("tk", -1), const("lens", [3, 0, 4, 1, 5, 2]),
    ]
    nodes = [
        helper.make_node("Slice", ["x", "s_starts", "s_ends", "", "s_steps"], ["slice"]),
        helper.make_node("Pad", ["x", "p_both", "pv"], ["pad_const"], mode="constant"),
        helper.make_node("Pad", ["x", "p_crop", "pv"], ["pad_crop"], mode="constant"),
        helper.make_node("Pad", ["x", "p_wide"], ["pad_reflect"], mode="reflect"),
        helper.make_node("Pad", ["x", "p_wide"], ["pad_edge"], mode="edge"),
        helper.make_node("Pad", ["x", "p_wide"], ["pad_wrap"], mode="wrap"),
        helper.make_node("Tile", ["x", "reps"], ["tile"]),
        helper.make_node("Expand", ["col", "e_shape"], ["expand"]),
        helper.make_node("Split", ["x", "split"], ["split_a", "split_b"], axis=0),
        helper.make_node("Split", ["x_t"], ["u0", "u1", "u2"], axis=0, num_outputs=3),
        helper.make_node("DepthToSpace", ["img"], ["d2s"], blocksize=2, mode="CRD"),
        helper.make_node("SpaceToDepth", ["img2"], ["s2d"], blocksize=2),
        helper.make_node("Gather", ["x", "gi"], ["gather"], axis=1),
        helper.make_node("GatherElements", ["x", "ge"], ["gather_el"], axis=0),
        helper.make_node("GatherND", ["x", "gnd"], ["gather_nd"]),
        helper.make_node("ScatterElements", ["x", "ge", "upd"], ["scatter_el"], axis=0,
                         reduction="add"),
        helper.make_node("ScatterND", ["x", "snd", "rows"], ["scatter_nd"], reduction="mul"),
        helper.make_node("TopK", ["x", "k"], ["top_v", "top_i"], axis=1, largest=1),
        helper.make_node("TopK", ["x", "k"], ["low_v", "low_i"], axis=0, largest=0),
        helper.make_node("CumSum", ["x", "ax"], ["cumsum"], exclusive=1, reverse=1),
        helper.make_node("Trilu", ["x", "tk"], ["tril"], upper=0),
        helper.make_node("OneHot", ["oh", "depth", "oh_vals"], ["onehot"], axis=1),
        helper.make_node("ReverseSequence", ["x_t", "lens"], ["revseq"],
                         batch_axis=1, time_axis=0),
        helper.make_node("EyeLike", ["x"], ["eye"], k=2, dtype=TensorProto.DOUBLE),
        helper.make_node("Range", ["r_start", "r_limit", "r_delta"], ["range"]),
        helper.make_node("ConstantOfShape", ["cs_shape"], ["fill"],
                         value=numpy_helper.from_array(np.array([3], np.int32))),
    ]
    inputs = [vi("x", F, [4, 6]), vi("col", F, [3, 1]), vi("img", F, [1, 8, 2, 3]),
              vi("img2", F, [1, 2, 4, 6]),
              vi("gi", I64, [2, 2]), vi("ge", I64, [3, 6]), vi("gnd", I64, [2, 2]),
              vi("upd", F, [3, 6]), vi("snd", I64, [2, 1]), vi("rows", F, [2, 6]),
              vi("oh", I64, [3, 2]), vi("x_t", F, [5, 6, 2])]
    outputs = [helper.make_empty_tensor_value_info(n) for node in nodes for n in node.output]
    feeds = {
        "x": rng.standard_normal((4, 6)).astype(np.float32),
        "col": rng.standard_normal((3, 1)).astype(np.float32),
        "img": rng.standard_normal((1, 8, 2, 3)).astype(np.float32),
        "img2": rng.standard_normal((1, 2, 4, 6)).astype(np.float32),
        "gi": np.array([[5, -1], [0, -6]], np.int64),
        "ge": np.array([[3, 0, 1, 2, -1, 0], [0, 0, 3, 3, 1, 2], [2, 1, 0, 3, 3, -4]], np.int64),
        "gnd": np.array([[3, 5], [-1, 0]], np.int64),
        "upd": rng.standard_normal((3, 6)).astype(np.float32),
        "snd": np.array([[2], [0]], np.int64),
        "rows": rng.standard_normal((2, 6)).astype(np.float32),
        "oh": np.array([[0, -1], [4, 7], [-5, 2]], np.int64),
        "x_t": rng.standard_normal((5, 6, 2)).astype(np.float32),
    }
    return nodes, inputs, outputs, inits, feeds, 19


def typed():
    H, B, I8, U64 = TensorProto.FLOAT16, TensorProto.BOOL, TensorProto.INT8, TensorProto.UINT64
    inits = [const("st", [1]), const("en", [3]), const("shape", [2, 3, 4]),
             const("idx", [2, 0, 1])]
    nodes = []
    inputs, feeds = [], {}
    for tag, elem, dtype in (("h", H, np.float16), ("b", B, np.bool_),
                             ("i", I8, np.int8), ("u", U64, np.uint64)):
        inputs += [vi(tag + "a", elem, [3, 4]), vi(tag + "b", elem, [3, 2])]
        if dtype == np.bool_:
            feeds[tag + "a"] = rng.random((3, 4)) > 0.5
            feeds[tag + "b"] = rng.random((3, 2)) > 0.5
        elif dtype == np.float16:
            feeds[tag + "a"] = rng.standard_normal((3, 4)).astype(dtype)
            feeds[tag + "b"] = rng.standard_normal((3, 2)).astype(dtype)
        else:
            feeds[tag + "a"] = rng.integers(0, 100, (3, 4)).astype(dtype)
            feeds[tag + "b"] = rng.integers(0, 100, (3, 2)).astype(dtype)
        nodes += [
            helper.make_node("Transpose", [tag + "a"], [tag + "_t"], perm=[1, 0]),
            helper.make_node("Concat", [tag + "a", tag + "b"], [tag + "_c"], axis=1),
            helper.make_node("Slice", [tag + "a", "st", "en"], [tag + "_s"]),
            helper.make_node("Expand", [tag + "a", "shape"], [tag + "_e"]),
            helper.make_node("Gather", [tag + "a", "idx"], [tag + "_g"], axis=0),
        ]
    outputs = [helper.make_empty_tensor_value_info(n) for node in nodes for n in node.output]
    return nodes, inputs, outputs, inits, feeds, 17


def kv():
    F, H, I32, I8, I64 = (TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.INT32,
                          TensorProto.INT8, TensorProto.INT64)
    inits = [const("crop_pad", [2, 7]), const("crop_all", [1, 6, 3]), const("cp_ax", -1)]
    nodes = [
        helper.make_node("TensorScatter", ["cache", "upd", "pos"], ["ts_circ"],
                         mode="circular"),
        helper.make_node("TensorScatter", ["cache", "upd", "pos_lin"], ["ts_lin"]),
        helper.make_node("TensorScatter", ["hcache", "hupd"], ["ts_half"]),
        helper.make_node("TensorScatter", ["icache", "iupd", "pos_lin"], ["ts_int"],
                         axis=1),
        helper.make_node("CenterCropPad", ["img", "crop_pad"], ["ccp"], axes=[-1, 0]),
        helper.make_node("CenterCropPad", ["bytes", "crop_all"], ["ccp_all"]),
        helper.make_node("CumProd", ["img", "cp_ax"], ["cp_f"], reverse=1, exclusive=1),
        helper.make_node("CumProd", ["icache", "cp_rt"], ["cp_i"]),
    ]
    inputs = [vi("cache", F, [2, 3, 6, 5]), vi("upd", F, [2, 3, 3, 5]),
              vi("pos", I64, [2]), vi("pos_lin", I64, [2]),
              vi("hcache", H, [2, 4, 3]), vi("hupd", H, [2, 2, 3]),
              vi("icache", I32, [2, 7]), vi("iupd", I32, [2, 4]),
              vi("img", F, [5, 3, 4]), vi("bytes", I8, [4, 3, 3]), vi("cp_rt", I64, [])]
    outputs = [helper.make_empty_tensor_value_info(n) for node in nodes for n in node.output]
    feeds = {
        "cache": rng.standard_normal((2, 3, 6, 5)).astype(np.float32),
        "upd": rng.standard_normal((2, 3, 3, 5)).astype(np.float32),
        "pos": np.array([4, 5], np.int64),
        "pos_lin": np.array([3, 0], np.int64),
        "hcache": rng.standard_normal((2, 4, 3)).astype(np.float16),
        "hupd": rng.standard_normal((2, 2, 3)).astype(np.float16),
        "icache": rng.integers(-100, 100, (2, 7)).astype(np.int32),
        "iupd": rng.integers(-100, 100, (2, 4)).astype(np.int32),
        "img": rng.standard_normal((5, 3, 4)).astype(np.float32),
        "bytes": rng.integers(-100, 100, (4, 3, 3)).astype(np.int8),
        "cp_rt": np.array(1, np.int64),
    }
    return nodes, inputs, outputs, inits, feeds, 26


nodes, inputs, outputs, inits, feeds, opset = {"mixed": mixed, "typed": typed,
                                               "kv": kv}[name]()
graph = helper.make_graph(nodes, name, inputs, outputs, inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
model.ir_version = 10 if opset >= 24 else 9
model = onnx.shape_inference.infer_shapes(model)
os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
onnx.save(model, os.path.join(out, "model.onnx"))
results = ort.InferenceSession(model.SerializeToString()).run(None, feeds)
for k, i in enumerate(inputs):
    with open(os.path.join(out, "test_data_set_0", "input_%d.pb" % k), "wb") as f:
        f.write(numpy_helper.from_array(feeds[i.name], i.name).SerializeToString())
for k, (o, r) in enumerate(zip(model.graph.output, results)):
    with open(os.path.join(out, "test_data_set_0", "output_%d.pb" % k), "wb") as f:
        f.write(numpy_helper.from_array(np.asarray(r), o.name).SerializeToString())
