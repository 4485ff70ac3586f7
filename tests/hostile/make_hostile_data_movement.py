"""Writes the data movement family's hostile models into argv[1], in the
cases.json format run_hostile.py reads (see make_hostile.py).

Attributes and shape-giving constants a stranger could choose: negative,
huge and mismatched counts must give one error line naming the values;
extreme but legal ones (INT64_MIN steps and diagonals) must compute the
right answer; and run-time indices out of range, which ONNX calls an error
but cannot refuse at compile time, must give the documented clamped
answer rather than a wild read or write.
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
CASES = []
FLOAT, INT64 = TensorProto.FLOAT, TensorProto.INT64
I64_MIN, I64_MAX = -2**63, 2**63 - 1
rng = np.random.default_rng(5)


def vi(name, shape, dtype=FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def const(name, values, dtype=np.int64):
    return numpy_helper.from_array(np.asarray(values, dtype=dtype), name)


def model(nodes, inputs, outputs, inits=(), opset=18):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def case_dir(name):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    return d


def error(name, m, expect):
    path = os.path.join(case_dir(name), "model.onnx")
    open(path, "wb").write(m.SerializeToString())
    CASES.append({"name": name, "kind": "error", "model": path, "args": [],
                  "expect": expect, "lines": 1})


def valid(name, m, feeds, outputs):
    """A legal model with numpy's (or the documented clamped) answer."""
    d = case_dir(name)
    open(os.path.join(d, "model.onnx"), "wb").write(m.SerializeToString())
    ds = os.path.join(d, "test_data_set_0")
    os.makedirs(ds, exist_ok=True)
    for i, (k, v) in enumerate(feeds.items()):
        open(os.path.join(ds, f"input_{i}.pb"), "wb").write(
            numpy_helper.from_array(v, k).SerializeToString())
    for i, v in enumerate(outputs):
        open(os.path.join(ds, f"output_{i}.pb"), "wb").write(
            numpy_helper.from_array(np.asarray(v), m.graph.output[i].name).SerializeToString())
    CASES.append({"name": name, "kind": "valid", "dir": d, "args": []})


def one(op, inputs, inits, name="n", outputs=("y",), out_shape=None, **attrs):
    node = helper.make_node(op, [i if isinstance(i, str) else i.name for i in inputs],
                            list(outputs), name=name, **attrs)
    graph_inputs = [i for i in inputs if not isinstance(i, str)]
    return model([node], graph_inputs, [vi(o, out_shape) for o in outputs], inits)


x23 = vi("x", [2, 3])
x5 = vi("x", [5])
v5 = rng.standard_normal(5).astype(np.float32)

# Slice: counts that disagree, axes out of range or repeated, a zero step.
error("slice_count_mismatch", one("Slice", [x23, "s", "e"], [const("s", [0, 0]), const("e", [1])]),
      r"n \(Slice\): starts \[0, 0\], ends \[1\], axes \(none\) and steps \(none\) differ in length")
error("slice_axis_out_of_range",
      one("Slice", [x23, "s", "e", "a"], [const("s", [0]), const("e", [1]), const("a", [I64_MIN])]),
      r"slice axis -9223372036854775808 is out of range for rank 2")
error("slice_axes_repeat",
      one("Slice", [x23, "s", "e", "a"], [const("s", [0, 0]), const("e", [1, 1]), const("a", [1, -1])]),
      r"axes \[1, -1\] repeat axis 1")
error("slice_float_starts",
      one("Slice", [x23, "s", "e"], [const("s", [0.0], np.float32), const("e", [1])]),
      r"Slice's starts must hold integers, got 'f32'")
# The extreme legal steps: INT64_MAX from INT64_MIN takes the first element,
# INT64_MIN from INT64_MAX the last.
valid("slice_step_int64_max",
      one("Slice", [x5, "s", "e", "a", "t"], [const("s", [I64_MIN]), const("e", [I64_MAX]),
                                              const("a", [0]), const("t", [I64_MAX])]),
      {"x": v5}, [v5[:1]])
valid("slice_step_int64_min",
      one("Slice", [x5, "s", "e", "a", "t"], [const("s", [I64_MAX]), const("e", [I64_MIN]),
                                              const("a", [0]), const("t", [I64_MIN])]),
      {"x": v5}, [v5[4:]])

# Sizes that overflow or exceed the caps.
error("tile_repeats_overflow", one("Tile", [x23, "r"], [const("r", [2**32, 2**32])]),
      r"n \(Tile\): Tile of \[2, 3\] by \[4294967296, 4294967296\] has a dimension above 4294967296")
error("tile_repeats_huge", one("Tile", [x23, "r"], [const("r", [2**40, 1])]),
      r"repeats \[1099511627776, 1\] must be in \[0, 4294967296\]")
error("tile_repeats_negative", one("Tile", [x23, "r"], [const("r", [1, -1])]),
      r"repeats \[1, -1\] must be in \[0, 4294967296\]")
error("tile_result_too_big", one("Tile", [x23, "r"], [const("r", [65536, 65536])]),
      r"result 'tensor<131072x196608xf32>' needs 103079215104 bytes, more than the limit of 4294967296 bytes")
error("expand_rank_huge", one("Expand", [x23, "s"], [const("s", [1] * 100)]),
      r"Expand's shape has 100 dimensions, more than the limit of 32")
error("expand_negative_dim", one("Expand", [x23, "s"], [const("s", [-1, 3])]),
      r"Expand's shape \[-1, 3\] has dimension -1, outside \[0, 4294967296\]")
error("constant_of_shape_negative",
      one("ConstantOfShape", ["s"], [const("s", [4, -2])]),
      r"shape \[4, -2\] has dimension -2, outside \[0, 4294967296\]")
error("constant_of_shape_two_values",
      one("ConstantOfShape", ["s"], [const("s", [4])], value=numpy_helper.from_array(np.ones(2, np.float32))),
      r"value must have one element, got 2")
error("range_nan", one("Range", ["a", "b", "c"], [const("a", np.nan, np.float32),
                                                  const("b", 4.0, np.float32), const("c", 1.0, np.float32)]),
      r"Range\(nan, 4.000000e\+00, 1.000000e\+00\) has no finite element count")
error("range_too_many", one("Range", ["a", "b", "c"], [const("a", 0.0, np.float32),
                                                       const("b", 1.0, np.float32), const("c", 1e-30, np.float32)]),
      r"has no finite element count up to 4294967296")

# Split, Pad, DepthToSpace, TopK, OneHot parameters.
error("split_negative_size", one("Split", [x23, "s"], [const("s", [-1, 4])], outputs=("a", "b"), axis=1),
      r"split \[-1, 4\] has a size outside \[0, 4294967296\]")
error("split_num_outputs_mismatch", one("Split", [x23], [], outputs=("a", "b"), axis=1, num_outputs=3),
      r"num_outputs 3 differs from the 2 outputs of the node")
error("pad_wrong_count", one("Pad", [x23, "p"], [const("p", [1, 1, 1])]),
      r"pads \[1, 1, 1\] must have 2 x 2 entries")
error("pad_huge", one("Pad", [x23, "p"], [const("p", [2**40, 0, 0, 0])]),
      r"pads \[1099511627776, 0, 0, 0\] must be in \[-4294967296, 4294967296\]")
error("pad_crop_below_zero", one("Pad", [x23, "p"], [const("p", [-2, 0, -1, 0])]),
      r"pads \[-2, 0, -1, 0\] make dimension 0 of \[2, 3\] -1 long")
error("pad_unknown_mode", one("Pad", [x23, "p"], [const("p", [1, 1, 1, 1])], mode="mirror"),
      r"mode must be constant, reflect, edge or wrap, got 'mirror'")
error("depth_to_space_blocksize_zero", one("DepthToSpace", [vi("x", [1, 4, 2, 2])], [], blocksize=0),
      r"blocksize 0 must be in \[1, 65536\]")
error("space_to_depth_blocksize_huge", one("SpaceToDepth", [vi("x", [1, 4, 2, 2])], [], blocksize=2**40),
      r"blocksize 1099511627776 must be in \[1, 65536\]")
error("top_k_negative", one("TopK", [x23, "k"], [const("k", [-1])], outputs=("v", "i")),
      r"k -1 is outside \[0, 3\]")
error("top_k_axis", one("TopK", [x23, "k"], [const("k", [1])], outputs=("v", "i"), axis=I64_MAX),
      r"axis 9223372036854775807 is out of range for rank 2")
error("one_hot_depth_huge", one("OneHot", [vi("x", [3], INT64), "d", "v"],
                                [const("d", 2**40), const("v", [0, 1], np.float32)]),
      r"depth 1099511627776 is outside \[1, 4294967296\]")
error("one_hot_axis", one("OneHot", [vi("x", [3], INT64), "d", "v"],
                          [const("d", 4), const("v", [0, 1], np.float32)], axis=-3),
      r"axis -3 is out of range for rank 2")
error("gather_nd_batch_dims", one("GatherND", [x23, vi("i", [2, 1], INT64)], [], batch_dims=2**62),
      r"batch_dims 4611686018427387904 must be below the ranks")
error("scatter_reduction", one("ScatterElements", [x23, vi("i", [2, 3], INT64), vi("u", [2, 3])], [],
                               reduction="avg"),
      r"reduction must be none, add, mul, max or min, got 'avg'")
error("reverse_sequence_axes", one("ReverseSequence", [x23, vi("l", [2], INT64)], [], batch_axis=0, time_axis=0),
      r"batch_axis 0 and time_axis 0 must be 0 and 1 in some order")
error("cumsum_axis", one("CumSum", [x23, "a"], [const("a", 7)]),
      r"axis 7 is out of range for rank 2")

# Legal extremes: a diagonal INT64_MIN away is empty, and so is a run-time
# Trilu k of INT64_MAX above the diagonal (upper keeps nothing).
valid("eye_like_k_min", one("EyeLike", [x23], [], k=I64_MIN), {"x": np.ones((2, 3), np.float32)},
      [np.zeros((2, 3), np.float32)])
x23v = rng.standard_normal((2, 3)).astype(np.float32)
valid("trilu_k_max", one("Trilu", [x23, vi("k", [], INT64)], []),
      {"x": x23v, "k": np.array(I64_MAX, np.int64)}, [np.zeros((2, 3), np.float32)])
valid("trilu_k_min_lower", one("Trilu", [x23, vi("k", [], INT64)], [], upper=0),
      {"x": x23v, "k": np.array(I64_MIN, np.int64)}, [np.zeros((2, 3), np.float32)])

# Run-time indices out of range: clamped into the axis (documented in
# runtime-support/onnxcc/indexing.h), never a wild read or write.
data = rng.standard_normal((4, 3)).astype(np.float32)
idx = np.array([I64_MIN, -1, 4, I64_MAX], np.int64)
valid("gather_indices_clamped", one("Gather", [vi("x", [4, 3]), vi("i", [4], INT64)], []),
      {"x": data, "i": idx}, [data[[0, 3, 3, 3]]])
upd = rng.standard_normal((2, 3)).astype(np.float32)
want = data.copy()
want[0] += upd[0]
want[3] += upd[1]
valid("scatter_nd_indices_clamped",
      one("ScatterND", [vi("x", [4, 3]), vi("i", [2, 1], INT64), vi("u", [2, 3])], [], reduction="add"),
      {"x": data, "i": np.array([[-99], [99]], np.int64), "u": upd}, [want])
lens = np.array([I64_MAX, I64_MIN], np.int64)
rs = rng.standard_normal((3, 2)).astype(np.float32)
valid("reverse_sequence_lens_clamped",
      one("ReverseSequence", [vi("x", [3, 2]), vi("l", [2], INT64)], [], batch_axis=1, time_axis=0),
      {"x": rs, "l": lens}, [np.stack([rs[::-1, 0], rs[:, 1]], axis=1)])

# TensorScatter, CenterCropPad and CumProd (opset 26): axes, modes, sizes.
def opset26(op, inputs, inits=(), **attrs):
    m = model([helper.make_node(op, [i if isinstance(i, str) else i.name for i in inputs],
                                ["y"], name="n", **attrs)],
              [i for i in inputs if not isinstance(i, str)], [vi("y", None)], inits, opset=26)
    m.ir_version = 10
    return m


c242, u222 = vi("c", [2, 4, 2]), vi("u", [2, 2, 2])
error("tensor_scatter_axis_huge", opset26("TensorScatter", [c242, u222], axis=I64_MAX),
      r"axis 9223372036854775807 is out of range for rank 3")
error("tensor_scatter_batch_axis", opset26("TensorScatter", [c242, u222], axis=-3),
      r"axis -3 is the batch axis")
error("tensor_scatter_mode", opset26("TensorScatter", [c242, u222], mode="ring"),
      r"mode must be linear or circular, got 'ring'")
error("tensor_scatter_update_too_long",
      opset26("TensorScatter", [vi("c", [2, 1, 2]), u222], axis=1),
      r"update \[2, 2, 2\] does not fit cache \[2, 1, 2\] along axis 1")
error("center_crop_pad_huge", opset26("CenterCropPad", [x23, "s"], [const("s", [2**40, 3])]),
      r"shape \[1099511627776, 3\] has size 1099511627776, outside \[0, 4294967296\]")
error("center_crop_pad_too_big", opset26("CenterCropPad", [x23, "s"], [const("s", [2**20, 2**20])]),
      r"needs 4398046511104 bytes, more than the limit of 4294967296 bytes")
error("center_crop_pad_axis_range",
      opset26("CenterCropPad", [x23, "s"], [const("s", [1, 1])], axes=[I64_MIN]),
      r"axis -9223372036854775808 is out of range for rank 2")

# An empty axes list means every axis (as in onnx.reference), not none.
ccp = opset26("CenterCropPad", [vi("x", [5, 2]), "s"], [const("s", [3, 4])])
ccp.graph.node[0].attribute.append(
    helper.make_attribute("axes", [], attr_type=onnx.AttributeProto.INTS))
xc = rng.standard_normal((5, 2)).astype(np.float32)
valid("center_crop_pad_empty_axes", ccp, {"x": xc},
      [np.pad(xc[1:4], ((0, 0), (1, 1)))])

# Write positions outside the axis: linear clamps them into it (ONNX calls
# them undefined), circular takes the true remainder of INT64_MIN / MAX.
cache = rng.standard_normal((2, 4, 2)).astype(np.float32)
upd = rng.standard_normal((2, 2, 2)).astype(np.float32)
pos = np.array([I64_MAX, I64_MIN], np.int64)
lin = cache.copy()
lin[0, 3] = upd[0, 1]
lin[1, 0] = upd[1, 1]
valid("tensor_scatter_linear_clamped",
      opset26("TensorScatter", [c242, u222, vi("p", [2], INT64)], axis=1),
      {"c": cache, "u": upd, "p": pos}, [lin])
circ = cache.copy()
circ[0, 3], circ[0, 0] = upd[0, 0], upd[0, 1]  # INT64_MAX % 4 == 3
circ[1, 0], circ[1, 1] = upd[1, 0], upd[1, 1]  # INT64_MIN % 4 == 0
valid("tensor_scatter_circular_extremes",
      opset26("TensorScatter", [c242, u222, vi("p", [2], INT64)], axis=1, mode="circular"),
      {"c": cache, "u": upd, "p": pos}, [circ])

error("cum_prod_axis", opset26("CumProd", [x23, "a"], [const("a", I64_MIN)]),
      r"axis -9223372036854775808 is out of range for rank 2")
# A run-time axis outside the rank is clamped into it (ONNX: an error).
cp = rng.standard_normal((2, 3)).astype(np.float32)
valid("cum_prod_runtime_axis_clamped", opset26("CumProd", [x23, vi("a", [], INT64)]),
      {"x": cp, "a": np.array(99, np.int64)}, [np.cumprod(cp, axis=1)])

json.dump(CASES, open(os.path.join(OUT, "cases.json"), "w"), indent=1)
print(f"{len(CASES)} cases written to {OUT}")
