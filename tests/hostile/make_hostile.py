"""Writes the hostile-model regression suite into argv[1].

Every case is a model a stranger could hand onnxcc, each probing one way a
loader, folder or emitter can be fooled (issue: "Untrusted models and silent
wrong answers"). A case is either

  error: `onnxcc compile` must exit 1 with exactly one bounded, printable
         error line matching `expect` (a regex) - never a crash or a hang;
  valid: the model is legitimate however strange; `onnxcc verify` must pass
         against onnxruntime's outputs (or numpy's, where onnxruntime cannot
         load the model), and the generated code must stay inert.

The cases go to argv[1]/cases.json for run_hostile.py.
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
# Injected code would create this file next to the program that runs it.
MARKER = "onnxcc_injected_MARKER"
INJECTION = 'hostile\n extern "C" int system(const char*); static int p = system("touch %s");\n' % MARKER
FLOAT = TensorProto.FLOAT


def bare_tensor(name, dtype, dims):
    """A TensorProto with dims and no data: onnx's helper refuses to make
    the inconsistent ones a hostile model needs."""
    t = TensorProto()
    t.name, t.data_type = name, dtype
    t.dims.extend(dims)
    return t


def vi(name, shape, dtype=FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def model(nodes, inputs, outputs, inits=(), opset=17, producer="hostile", **kw):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name=producer, **kw)
    m.ir_version = 8
    return m


def case_dir(name):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    return d


def error(name, m, expect, args=(), lines=1, file_name="model.onnx", raw=None):
    """A model onnxcc must refuse with `lines` one-line errors matching `expect`."""
    d = case_dir(name)
    path = os.path.join(d, file_name)
    if raw is not None:
        open(path, "wb").write(raw)
    elif m is not None:
        open(path, "wb").write(m.SerializeToString())
    CASES.append({"name": name, "kind": "error", "model": path, "args": list(args),
                  "expect": expect, "lines": lines})
    return d


def reference(m, feeds):
    import onnxruntime as ort
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


def valid(name, m, feeds, outputs=None, args=()):
    """A legitimate model: onnxcc verify must pass against the reference.
    `outputs` overrides onnxruntime (for models it refuses)."""
    d = case_dir(name)
    open(os.path.join(d, "model.onnx"), "wb").write(m.SerializeToString())
    if outputs is None:
        outputs = reference(m, feeds)
    ds = os.path.join(d, "test_data_set_0")
    os.makedirs(ds, exist_ok=True)
    for i, (k, v) in enumerate(feeds.items()):
        open(os.path.join(ds, f"input_{i}.pb"), "wb").write(
            numpy_helper.from_array(v, k).SerializeToString())
    for i, v in enumerate(outputs):
        name_i = m.graph.output[i].name
        open(os.path.join(ds, f"output_{i}.pb"), "wb").write(
            numpy_helper.from_array(np.asarray(v), name_i).SerializeToString())
    CASES.append({"name": name, "kind": "valid", "dir": d, "args": list(args)})
    return d


rng = np.random.default_rng(0)
x14 = rng.standard_normal((1, 4)).astype(np.float32)


def relu_model(in_name="x", out_name="y", node_name="relu0", **kw):
    return model([helper.make_node("Relu", [in_name], [out_name], name=node_name)],
                 [vi(in_name, [1, 4])], [vi(out_name, [1, 4])], **kw)


# ---------------------------------------------------------------------------
# 1. Model strings reaching generated code: valid models that must compile
#    into code that does exactly what the graph says and nothing else.
# ---------------------------------------------------------------------------
valid("inject_producer_name", relu_model(producer=INJECTION), {"x": x14})
m = relu_model()
m.producer_version = INJECTION
valid("inject_producer_version", m, {"x": x14})
valid("inject_node_name", relu_model(node_name='x\n std::system("touch %s");\n' % MARKER), {"x": x14})
valid("inject_input_name", relu_model(in_name="in\n" + INJECTION), {"in\n" + INJECTION: x14})
valid("inject_output_name", relu_model(out_name="out\n" + INJECTION), {"x": x14})
valid("inject_doc_string", relu_model(doc_string=INJECTION), {"x": x14})
valid("line_splice_backslash", relu_model(node_name="ends in a backslash\\"), {"x": x14})
valid("trigraph_name", relu_model(node_name="trigraph ??/"), {"x": x14})
valid("block_comment_name", relu_model(node_name="*/ int evil; /*"), {"x": x14})
valid("control_and_utf8_names", relu_model(node_name="\x1b[31mred\x07\u00e9\u4e2d\r"), {"x": x14})
valid("huge_node_name", relu_model(node_name="n" * 1_000_000), {"x": x14})
CASES[-1]["max_source_kb"] = 64
for kw in ["ws", "and", "linux", "INFINITY", "p_in0", "predict", "Workspace", "std", "int"]:
    # GNU modes (CMake's default) predefine `linux` as a macro.
    valid(f"input_named_{kw}", relu_model(in_name=kw), {kw: x14},
          args=["--cxxflags", "-O1 -std=gnu++17"] if kw == "linux" else [])
# Two inputs whose mangled names collide with each other or with generated
# names: x and in_x, y.1 and y_1 (both mangle to y_1).
add2 = model([helper.make_node("Add", ["x", "in_x"], ["t"], name="a"),
              helper.make_node("Add", ["t", "y.1"], ["y_1"], name="b")],
             [vi("x", [1, 4]), vi("in_x", [1, 4]), vi("y.1", [1, 4])], [vi("y_1", [1, 4])])
valid("colliding_names", add2, {"x": x14, "in_x": x14 * 2, "y.1": x14 * 3})
valid("empty_output_name_chars", relu_model(out_name="!!!"), {"x": x14})

# Strings in error lines: escaped and bounded, still one line.
error("error_names_escaped",
      model([helper.make_node("FancyOp", ["x"], ["y"], name="a\nb\x1b[2J")], [vi("x", [1, 4])], [vi("y", [1, 4])]),
      r"a\\x0ab\\x1b\[2J \(FancyOp\): unsupported operator 'FancyOp'")
error("error_huge_name_bounded",
      model([helper.make_node("FancyOp", ["x"], ["y"], name="n" * 1_000_000)], [vi("x", [1, 4])], [vi("y", [1, 4])]),
      r"n{100}.*\(\+999872 bytes\) \(FancyOp\): unsupported operator")
error("error_domain_escaped",
      model([helper.make_node("Op", ["x"], ["y"], name="d", domain="evil\ndomain")], [vi("x", [1, 4])], [vi("y", [1, 4])]),
      r"unsupported operator 'evil\\x0adomain\.Op'")
# A model file name with a newline reaches the banner and every message.
error("newline_in_file_name_error",
      model([helper.make_node("FancyOp", ["x"], ["y"], name="f")], [vi("x", [1, 4])], [vi("y", [1, 4])]),
      r"evil\\x0aname.onnx:f \(FancyOp\)", file_name="evil\nname.onnx")
d = case_dir("newline_in_file_name")
open(os.path.join(d, "evil\n" + INJECTION.replace("/", "_") + ".onnx"), "wb").write(
    relu_model().SerializeToString())
CASES.append({"name": "newline_in_file_name", "kind": "compile",
              "model": os.path.join(d, "evil\n" + INJECTION.replace("/", "_") + ".onnx"), "args": ["--name", "m"]})

# ---------------------------------------------------------------------------
# 2. Size arithmetic: every derived size is checked, one cap (4 GiB).
# ---------------------------------------------------------------------------
w33 = numpy_helper.from_array(np.ones((1, 1, 3, 3), np.float32), "w")
x1188 = vi("x", [1, 1, 8, 8])
error("conv_huge_pads",
      model([helper.make_node("Conv", ["x", "w"], ["y"], name="c", pads=[2**30] * 4)], [x1188], [vi("y", None)], [w33]),
      r"c \(Conv\): result 'tensor<1x1x2147483654x2147483654xf32>' needs 18446744176788766864 bytes, more than the limit of 4294967296")
# Legal, if odd: every 2^31-wide window covers the whole 8x8 image. The
# kernel must visit only the taps inside it, not 2^62 of them.
x8 = rng.standard_normal((1, 1, 8, 8)).astype(np.float32)
valid("maxpool_huge_window",
      model([helper.make_node("MaxPool", ["x"], ["y"], name="p", kernel_shape=[2**31, 2**31], pads=[2**30] * 4)],
            [x1188], [vi("y", [1, 1, 9, 9])]),
      {"x": x8}, outputs=[np.full((1, 1, 9, 9), x8.max(), np.float32)])
error("avgpool_huge_window",
      model([helper.make_node("AveragePool", ["x"], ["y"], name="p", kernel_shape=[2, 2], pads=[1, 1, 1, 1],
                              strides=[1, 1], dilations=[2**31, 2**31])], [x1188], [vi("y", None)]),
      r"p \(AveragePool\): .*(does not fit|dilations|must be)")
shape = numpy_helper.from_array(np.array([274177, 67280421310721], np.int64), "s")
error("reshape_product_wraps",
      model([helper.make_node("Reshape", ["x", "s"], ["y"], name="r")], [vi("x", [1])], [vi("y", None)], [shape]),
      r"r \(Reshape\): shape \[274177, 67280421310721\] has dimension 67280421310721, outside \[0, 4294967296\]")
shape2 = numpy_helper.from_array(np.array([2**31, 2**31, 4], np.int64), "s")
error("reshape_product_overflows",
      model([helper.make_node("Reshape", ["x", "s"], ["y"], name="r")], [vi("x", [1])], [vi("y", None)], [shape2]),
      r"r \(Reshape\): shape \[2147483648, 2147483648, 4\] has more elements than fit in 64 bits")
error("conv_dilation_wraps",
      model([helper.make_node("Conv", ["x", "w"], ["y"], name="c", dilations=[2**62 + 1, 1])], [x1188], [vi("y", None)], [w33]),
      r"c \(Conv\): kernel_shape \[3, 3\], strides \[1, 1\] and dilations \[4611686018427387905, 1\] must be in \[1, 4294967296\]")
error("input_2g_by_2g",
      model([helper.make_node("Relu", ["x"], ["y"], name="r")], [vi("x", [2**31, 2**31])], [vi("y", None)]),
      r"x: graph input 'x' tensor<2147483648x2147483648xf32> needs 18446744073709551616|overflows|more than the limit")
error("input_dim_above_cap",
      model([helper.make_node("Relu", ["x"], ["y"], name="r")], [vi("x", [1, 2**40])], [vi("y", None)]),
      r"graph input 'x' dim 1 has invalid size 1099511627776")
big_init = bare_tensor("big", FLOAT, [2**20, 2**20, 2**20])
big_init.raw_data = b""
error("initializer_2_60_elements",
      model([helper.make_node("Add", ["x", "big"], ["y"], name="a")], [vi("x", [1])], [vi("y", None)], [big_init]),
      r"tensor 'big' needs more than 2\^63 bytes|tensor 'big' needs \d+ bytes, more than the limit")
error("initializer_negative_dim",
      model([helper.make_node("Add", ["x", "n"], ["y"], name="a")], [vi("x", [1])], [vi("y", None)],
            [bare_tensor("n", FLOAT, [-1])]),
      r"tensor 'n' has invalid dimension -1")
# Each input is under the cap, the concatenation is not.
big_x = vi("x", [1, 2**29])
error("concat_exceeds_cap",
      model([helper.make_node("Concat", ["x", "x", "x"], ["y"], name="cat", axis=1)], [big_x], [vi("y", None)]),
      r"cat \(Concat\): result 'tensor<1x1610612736xf32>' needs 6442450944 bytes, more than the limit")
# Three 1.5 GiB intermediates live together: the arena, not one tensor, is
# too big (Softmax does not fuse, so each has a buffer of its own).
xa = vi("x", [1, 3 * 2**27])
error("arena_exceeds_cap",
      model([helper.make_node("Softmax", ["x"], ["a"], name="s1"), helper.make_node("Softmax", ["a"], ["b"], name="s2"),
             helper.make_node("Softmax", ["b"], ["c"], name="s3"), helper.make_node("Add", ["a", "b"], ["t"], name="k1"),
             helper.make_node("Add", ["t", "c"], ["y"], name="k2")],
            [xa], [vi("y", None)]),
      r"the memory plan needs an arena of 4831838208 bytes, more than the limit of 4294967296 bytes")
axes = numpy_helper.from_array(np.arange(40, dtype=np.int64), "axes")
error("unsqueeze_rank_above_cap",
      model([helper.make_node("Unsqueeze", ["x", "axes"], ["y"], name="u")], [vi("x", [2])], [vi("y", None)], [axes]),
      r"u \(Unsqueeze\): result has rank 41, more than the limit of 32")
error("input_rank_above_cap",
      model([helper.make_node("Relu", ["x"], ["y"], name="r")], [vi("x", [1] * 40)], [vi("y", None)]),
      r"graph input 'x' has rank 40, more than the limit of 32")

# ---------------------------------------------------------------------------
# 3. Crashes: external data past the end of its file, integer folding traps,
#    zero-sized products.
# ---------------------------------------------------------------------------
def external_model(name, location, offset, length, dims=(8192,), used=True, extra_files=None):
    d = case_dir(name)
    t = bare_tensor("w", FLOAT, list(dims))
    t.data_location = TensorProto.EXTERNAL
    for k, v in [("location", location), ("offset", offset), ("length", length)]:
        if v is not None:
            e = t.external_data.add()
            e.key, e.value = k, str(v)
    n = int(np.prod(dims))
    nodes = [helper.make_node("Add", ["x", "w"], ["y"], name="add")] if used else \
            [helper.make_node("Relu", ["x"], ["y"], name="relu")]
    return d, model(nodes, [vi("x", list(dims))], [vi("y", list(dims))], [t])


d, m = external_model("external_offset_past_eof", "w.bin", 1 << 20, 32768)
open(os.path.join(d, "w.bin"), "wb").write(b"\0" * 20000)
error("external_offset_past_eof", m,
      r"w: tensor 'w' expects 32768 bytes of external data at offset 1048576 in 'w.bin', but the file has only 20000 bytes")
d, m = external_model("external_length_past_eof", "w.bin", 0, 32768)
open(os.path.join(d, "w.bin"), "wb").write(b"\0" * 20000)
error("external_length_past_eof", m, r"but the file has only 20000 bytes")
d, m = external_model("external_short", "w.bin", None, None)
open(os.path.join(d, "w.bin"), "wb").write(b"\0" * 100)
error("external_short", m, r"expects 32768 bytes .* but the file has only 100 bytes")
d, m = external_model("external_wrong_length", "w.bin", 0, 100)
open(os.path.join(d, "w.bin"), "wb").write(b"\0" * 40000)
error("external_wrong_length", m, r"expects 32768 bytes .* but its length is 100")
d, m = external_model("external_offset_overflow", "w.bin", 2**63 - 10, 32768)
open(os.path.join(d, "w.bin"), "wb").write(b"\0" * 40000)
error("external_offset_overflow", m, r"but the file has only 40000 bytes")
d, m = external_model("external_bad_offset", "w.bin", "12abc", 32768)
open(os.path.join(d, "w.bin"), "wb").write(b"\0" * 40000)
error("external_bad_offset", m, r"invalid external data offset '12abc'")
d, m = external_model("external_escape", "../../../etc/passwd", 0, 32768)
error("external_escape", m, r"external data location '../../../etc/passwd' escapes the model directory")
d, m = external_model("external_absolute", "/etc/passwd", 0, 32768)
error("external_absolute", m, r"must be a relative path inside the model directory")
d, m = external_model("external_symlink_out", "link.bin", 0, 32768)
error("external_symlink_out", m, r"escapes the model directory", )
CASES[-1]["setup"] = [["symlink", "/dev/zero", os.path.join(d, "link.bin")]]
d, m = external_model("external_fifo", "fifo.bin", 0, 32768)
error("external_fifo", m, r"but it is not a regular file")
CASES[-1]["setup"] = [["mkfifo", os.path.join(d, "fifo.bin")]]
d, m = external_model("external_directory", "sub", 0, 32768)
os.makedirs(os.path.join(d, "sub"), exist_ok=True)
error("external_directory", m, r"but it is not a regular file")
d, m = external_model("external_missing", "absent.bin", 0, 32768)
error("external_missing", m, r"external data file 'absent.bin' not found next to the model")
d, m = external_model("external_nul_in_location", "w.bin\x00../x", 0, 32768)
error("external_nul_in_location", m, r"contains control characters")
# An unused initializer pointing at a 1 GiB sparse file is never read.
d, m = external_model("external_unused_sparse_1g", "sparse.bin", 0, 2**30, dims=(2**28,), used=False)
m.graph.input[0].type.tensor_type.shape.dim[0].dim_value = 4
m.graph.output[0].type.tensor_type.shape.dim[0].dim_value = 4
CASES.append({"name": "external_unused_sparse_1g", "kind": "valid", "dir": d, "args": [],
              "setup": [["sparse", os.path.join(d, "sparse.bin"), 2**30]], "max_rss_mb": 400})
open(os.path.join(d, "model.onnx"), "wb").write(m.SerializeToString())
ds = os.path.join(d, "test_data_set_0")
os.makedirs(ds, exist_ok=True)
x4 = rng.standard_normal(4).astype(np.float32)
open(os.path.join(ds, "input_0.pb"), "wb").write(numpy_helper.from_array(x4, "x").SerializeToString())
open(os.path.join(ds, "output_0.pb"), "wb").write(numpy_helper.from_array(np.maximum(x4, 0), "y").SerializeToString())

# A used 256 MiB weight in a sparse file: streamed from the mapping into the
# blob, not copied twice (a 1 GiB one took 2.1 GB of RSS).
d, m = external_model("external_used_sparse_256m", "sparse.bin", 0, 2**28, dims=(2**26,))
open(os.path.join(d, "model.onnx"), "wb").write(m.SerializeToString())
CASES.append({"name": "external_used_sparse_256m", "kind": "compile", "model": os.path.join(d, "model.onnx"),
              "args": [], "setup": [["sparse", os.path.join(d, "sparse.bin"), 2**28]], "max_rss_mb": 200})

# INT64_MIN / -1 folded: it wraps (numpy's answer), no SIGFPE. The result
# then feeds a Reshape, which rejects the negative dimension.
imin = numpy_helper.from_array(np.array([np.iinfo(np.int64).min], np.int64), "a")
neg1 = numpy_helper.from_array(np.array([-1], np.int64), "b")
error("fold_int64_min_div_minus_one",
      model([helper.make_node("Div", ["a", "b"], ["s"], name="div"),
             helper.make_node("Reshape", ["x", "s"], ["y"], name="r")], [vi("x", [1])], [vi("y", None)], [imin, neg1]),
      r"r \(Reshape\): shape \[-9223372036854775808\] has dimension -9223372036854775808, outside")
zero = numpy_helper.from_array(np.array([0], np.int64), "b")
error("fold_int_div_by_zero",
      model([helper.make_node("Div", ["a", "b"], ["s"], name="div"),
             helper.make_node("Reshape", ["x", "s"], ["y"], name="r")], [vi("x", [1])], [vi("y", None)], [imin, zero]),
      r"(div \(Div\)|r \(Reshape\)): ")
# Cast of 1e30 to int64 is out of range: folding must not be undefined.
big = numpy_helper.from_array(np.array([1e30], np.float32), "f")
error("fold_cast_out_of_range",
      model([helper.make_node("Cast", ["f"], ["s"], name="cast", to=TensorProto.INT64),
             helper.make_node("Reshape", ["x", "s"], ["y"], name="r")], [vi("x", [1])], [vi("y", None)], [big]),
      r"r \(Reshape\): shape \[9223372036854775807\] has dimension")
# int64 above 2^53 survives folding exactly (through Concat, Gather).
exact = numpy_helper.from_array(np.array([2**53 + 1, 4], np.int64), "e")
idx = numpy_helper.from_array(np.array([0], np.int64), "i")
error("fold_int64_exact",
      model([helper.make_node("Gather", ["e", "i"], ["g"], name="gather", axis=0),
             helper.make_node("Concat", ["g", "g"], ["s"], name="cat", axis=0),
             helper.make_node("Reshape", ["x", "s"], ["y"], name="r")], [vi("x", [1])], [vi("y", None)], [exact, idx]),
      r"shape \[9007199254740993, 9007199254740993\] has dimension 9007199254740993")
# MatMul with K = 0 is a zero matrix; the lowering divided by K.
a20 = numpy_helper.from_array(np.zeros((2, 0), np.float32), "a")
b03 = numpy_helper.from_array(np.zeros((0, 3), np.float32), "b")
mk0 = model([helper.make_node("MatMul", ["a", "b"], ["m"], name="mm"),
             helper.make_node("Add", ["m", "x"], ["y"], name="add")], [vi("x", [2, 3])], [vi("y", [2, 3])], [a20, b03])
x23 = rng.standard_normal((2, 3)).astype(np.float32)
valid("matmul_k_zero", mk0, {"x": x23})
bn0 = [numpy_helper.from_array(np.zeros((0,), np.float32), n) for n in ["s", "b", "m", "v"]]
# Zero channels give an output with no elements, which the typed API passes
# as an empty tag (onnxruntime refuses the model, so the reference is given).
valid("batchnorm_zero_channels",
      model([helper.make_node("Conv", ["x", "w0"], ["c"], name="conv", kernel_shape=[1, 1]),
             helper.make_node("BatchNormalization", ["c", "s", "b", "m", "v"], ["y"], name="bn")],
            [vi("x", [1, 1, 2, 2])], [vi("y", None)],
            [numpy_helper.from_array(np.zeros((0, 1, 1, 1), np.float32), "w0")] + bn0),
      {"x": rng.standard_normal((1, 1, 2, 2)).astype(np.float32)},
      outputs=[np.zeros((1, 0, 2, 2), np.float32)])

# ---------------------------------------------------------------------------
# 4. Hangs: the model file itself as a FIFO or a directory.
# ---------------------------------------------------------------------------
d = case_dir("model_is_fifo")
CASES.append({"name": "model_is_fifo", "kind": "error", "model": os.path.join(d, "model.onnx"), "args": [],
              "expect": r"cannot read model file: not a regular file", "lines": 1,
              "setup": [["mkfifo", os.path.join(d, "model.onnx")]]})
d = case_dir("model_is_directory")
os.makedirs(os.path.join(d, "model.onnx"), exist_ok=True)
CASES.append({"name": "model_is_directory", "kind": "error", "model": os.path.join(d, "model.onnx"), "args": [],
              "expect": r"cannot read model file: not a regular file", "lines": 1})

# ---------------------------------------------------------------------------
# 5. Silent wrong semantics: what onnxruntime rejects must not be guessed.
# ---------------------------------------------------------------------------
def attr_of_type(name, value, attr_type):
    a = helper.make_attribute(name, value)
    assert a.type == attr_type
    return a


def node_with(op, ins, outs, name, **attrs):
    n = helper.make_node(op, ins, outs, name=name)
    for k, v in attrs.items():
        n.attribute.append(helper.make_attribute(k, v))
    return n


xs = vi("x", [2, 3])
error("attr_concat_axis_list", model([node_with("Concat", ["x", "x"], ["y"], "cat", axis=[1])], [xs], [vi("y", None)]),
      r"cat \(Concat\): attribute 'axis' must be INT, got INTS")
error("attr_softmax_axis_float", model([node_with("Softmax", ["x"], ["y"], "sm", axis=1.0)], [xs], [vi("y", None)]),
      r"sm \(Softmax\): attribute 'axis' must be INT, got FLOAT")
error("attr_flatten_axis_string", model([node_with("Flatten", ["x"], ["y"], "fl", axis="1")], [xs], [vi("y", None)]),
      r"fl \(Flatten\): attribute 'axis' must be INT, got STRING")
error("attr_conv_strides_int",
      model([node_with("Conv", ["x", "w"], ["y"], "c", strides=2)], [x1188], [vi("y", None)], [w33]),
      r"c \(Conv\): attribute 'strides' must be INTS, got INT")
error("attr_transpose_perm_int", model([node_with("Transpose", ["x"], ["y"], "t", perm=1)], [xs], [vi("y", None)]),
      r"t \(Transpose\): attribute 'perm' must be INTS, got INT")
wg = numpy_helper.from_array(np.ones((3, 3), np.float32), "wg")
error("attr_gemm_transb_float",
      model([node_with("Gemm", ["x", "wg"], ["y"], "gemm", transB=1.0)], [xs], [vi("y", None)], [wg]),
      r"gemm \(Gemm\): attribute 'transB' must be INT, got FLOAT")
error("attr_gemm_alpha_int",
      model([node_with("Gemm", ["x", "wg"], ["y"], "gemm", alpha=2)], [xs], [vi("y", None)], [wg]),
      r"gemm \(Gemm\): attribute 'alpha' must be FLOAT, got INT")
error("attr_conv_autopad_int",
      model([node_with("Conv", ["x", "w"], ["y"], "c", auto_pad=1)], [x1188], [vi("y", None)], [w33]),
      r"c \(Conv\): attribute 'auto_pad' must be STRING, got INT")
error("attr_cast_to_float",
      model([node_with("Cast", ["x"], ["y"], "cast", to=1.0)], [xs], [vi("y", None)]),
      r"cast \(Cast\): attribute 'to' must be INT, got FLOAT")
error("attr_constant_value_ints",
      model([node_with("Constant", [], ["c"], "k", value=[1, 2]), helper.make_node("Add", ["x", "c"], ["y"], name="a")],
            [xs], [vi("y", None)]),
      r"k \(Constant\): attribute 'value' must be TENSOR, got INTS")
# An attribute without a declared type (IR version 1) holding the right field.
sm = helper.make_node("Softmax", ["x"], ["y"], name="sm")
a = sm.attribute.add()
a.name, a.i = "axis", 1
sm_model = model([sm], [xs], [vi("y", [2, 3])])
e = np.exp(x23 - x23.max(axis=1, keepdims=True))
valid("attr_untyped_but_int", sm_model, {"x": x23}, outputs=[e / e.sum(axis=1, keepdims=True)])
error("duplicate_input_names",
      model([helper.make_node("Add", ["x", "x"], ["y"], name="a")], [vi("x", [1, 4]), vi("x", [1, 4])], [vi("y", None)]),
      r"x: graph input 'x' is listed twice")
error("duplicate_initializer",
      model([helper.make_node("Add", ["x", "c"], ["y"], name="a")], [vi("x", [4])], [vi("y", None)],
            [numpy_helper.from_array(np.ones(4, np.float32), "c"), numpy_helper.from_array(np.ones(4, np.float32), "c")]),
      r"c: initializer 'c' is defined twice")
error("duplicate_node_output",
      model([helper.make_node("Relu", ["x"], ["t"], name="r1"), helper.make_node("Relu", ["x"], ["t"], name="r2"),
             helper.make_node("Relu", ["t"], ["y"], name="r3")], [vi("x", [4])], [vi("y", None)]),
      r"value 't' is defined more than once")
error("avgpool_pads_ge_kernel",
      model([helper.make_node("AveragePool", ["x"], ["y"], name="p", kernel_shape=[2, 2], pads=[2, 0, 0, 0])],
            [x1188], [vi("y", None)]),
      r"p \(AveragePool\): pads \[2, 0, 0, 0\] must be smaller than kernel_shape \[2, 2\]")
error("maxpool_pads_ge_kernel",
      model([helper.make_node("MaxPool", ["x"], ["y"], name="p", kernel_shape=[3, 3], pads=[0, 0, 0, 3])],
            [x1188], [vi("y", None)]),
      r"p \(MaxPool\): pads \[0, 0, 0, 3\] must be smaller than kernel_shape \[3, 3\]")
x1422 = vi("x", [1, 4, 2, 2])
bn_ok = {n: numpy_helper.from_array(np.ones((4,), np.float32), n) for n in ["s", "b", "m", "v"]}
for bad, arr in [("s", np.ones(3, np.float32)), ("m", np.ones((4, 1), np.float32)), ("v", np.ones(5, np.float32))]:
    params = dict(bn_ok)
    params[bad] = numpy_helper.from_array(arr, bad)
    error(f"batchnorm_{bad}_wrong_size",
          model([helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], name="bn")],
                [x1422], [vi("y", None)], list(params.values())),
          r"bn \(BatchNormalization\): (scale|mean|variance) must have shape \[4\] \(one value per channel\)")
error("declared_output_shape_differs",
      model([helper.make_node("Relu", ["x"], ["y"], name="r")], [vi("x", [1, 4])], [vi("y", [1, 5])]),
      r"graph output 'y' is declared as 'tensor<1x5xf32>' but computes 'tensor<1x4xf32>'")
error("declared_output_type_differs",
      model([helper.make_node("Relu", ["x"], ["y"], name="r")], [vi("x", [1, 4])], [vi("y", [1, 4], TensorProto.INT64)]),
      r"graph output 'y' is declared as 'tensor<1x4xi64>' but computes 'tensor<1x4xf32>'")
no_shape = helper.make_tensor_value_info("x", FLOAT, None)
error("input_without_shape",
      model([helper.make_node("Relu", ["x"], ["y"], name="r")], [no_shape], [vi("y", None)]),
      r"graph input 'x' has no shape \(onnxcc compiles ranked inputs\)")
error("clip_attrs_in_opset_17",
      model([helper.make_node("Clip", ["x"], ["y"], name="clip0", min=0.0, max=6.0)], [xs], [vi("y", None)]),
      r"clip0 \(Clip\): min/max attributes are not defined for Clip in opset 17")

# Model-local functions: recursion and exponential expansion are refused.
def with_functions(nodes, functions):
    m = model(nodes, [vi("x", [4])], [vi("y", None)])
    m.opset_import.append(helper.make_opsetid("local", 1))
    m.functions.extend(functions)
    return m


def function(name, nodes, inputs=("x",), outputs=("y",)):
    return helper.make_function("local", name, list(inputs), list(outputs), nodes,
                                [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)])


error("function_recursive",
      with_functions([helper.make_node("F", ["x"], ["y"], domain="local", name="call")],
                     [function("F", [helper.make_node("F", ["x"], ["y"], domain="local")])]),
      r"function 'local.F' calls itself")
# F0 calls F1 twice, F1 calls F2 twice... 2^24 nodes if expanded blindly.
chain = [function(f"F{i}", [helper.make_node(f"F{i + 1}", ["x"], ["t"], domain="local"),
                            helper.make_node(f"F{i + 1}", ["t"], ["y"], domain="local")])
         for i in range(24)] + [function("F24", [helper.make_node("Relu", ["x"], ["y"])])]
error("function_exponential",
      with_functions([helper.make_node("F0", ["x"], ["y"], domain="local", name="call")], chain),
      r"function 'local.F\d+' is nested more than 16 deep|more than 1048576 nodes")
error("function_too_many_inputs",
      with_functions([helper.make_node("G", ["x", "x", "x"], ["y"], domain="local", name="call")],
                     [function("G", [helper.make_node("Relu", ["x"], ["y"])])]),
      r"call of function 'local.G' passes 3 inputs and 1 outputs; it takes 1 and 1")

# ---------------------------------------------------------------------------
# 7. Messages: one line each, naming the real cause, bounded.
# ---------------------------------------------------------------------------
error("conv_shape_error_one_line",
      model([helper.make_node("Conv", ["x", "w5"], ["y"], name="conv_bad", kernel_shape=[3, 3])],
            [vi("x", [1, 3, 8, 8])], [vi("y", None)], [numpy_helper.from_array(np.ones((2, 5, 3, 3), np.float32), "w5")]),
      r"conv_bad \(Conv\): input channels 3 != weight \[2, 5, 3, 3\] channels 5 x group 1$")
data = numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(3, 4), "d")
bad_idx = numpy_helper.from_array(np.array([7], np.int64), "i")
error("gather_index_out_of_range",
      model([helper.make_node("Gather", ["d", "i"], ["g"], name="gather", axis=0),
             helper.make_node("Add", ["g", "x"], ["y"], name="a")], [vi("x", [1, 4])], [vi("y", None)], [data, bad_idx]),
      r"gather \(Gather\): index 7 is out of range for axis 0 of size 3")
error("transpose_million_perm",
      model([helper.make_node("Transpose", ["x"], ["y"], name="t", perm=list(range(10**6)))], [xs], [vi("y", None)]),
      r"t \(Transpose\): perm \[0, 1, 2, .*\(1000000 in all\)\] does not match rank 2")
error("reshape_two_minus_one",
      model([helper.make_node("Reshape", ["x", "s"], ["y"], name="r")], [xs], [vi("y", None)],
            [numpy_helper.from_array(np.array([-1, -1], np.int64), "s")]),
      r"r \(Reshape\): shape \[-1, -1\] has more than one -1")
error("softmax_axis_out_of_range",
      model([helper.make_node("Softmax", ["x"], ["y"], name="sm", axis=5)], [xs], [vi("y", None)]),
      r"sm \(Softmax\): axis 5 is out of range for rank 2")
error("concat_axis_out_of_range",
      model([helper.make_node("Concat", ["x", "x"], ["y"], name="cat", axis=-3)], [xs], [vi("y", None)]),
      r"cat \(Concat\): axis -3 is out of range for rank 2")
error("conv_group_zero",
      model([helper.make_node("Conv", ["x", "w"], ["y"], name="c", group=0)], [x1188], [vi("y", None)], [w33]),
      r"c \(Conv\): group 0 must be >= 1")
error("gemm_rank_one",
      model([helper.make_node("Gemm", ["x", "wg"], ["y"], name="gemm")], [vi("x", [3])], [vi("y", None)], [wg]),
      r"gemm \(Gemm\): expects 2-D A and B, got \[3\] and \[3, 3\]")
error("node_missing_input",
      model([helper.make_node("Add", ["x", "nowhere"], ["y"], name="a")], [xs], [vi("y", None)]),
      r"a \(Add\): input 'nowhere' is not produced by any node, initializer or graph input")
error("output_not_produced",
      model([helper.make_node("Relu", ["x"], ["t"], name="r")], [xs], [vi("y", None)]),
      r"graph output 'y' is not produced by the graph")
error("empty_required_input",
      model([helper.make_node("Add", ["x", ""], ["y"], name="a")], [xs], [vi("y", None)]),
      r"a \(Add\): required input 1 is empty")
error("string_initializer",
      model([helper.make_node("Identity", ["s"], ["y"], name="i")], [], [vi("y", None)],
            [helper.make_tensor("s", TensorProto.STRING, [1], vals=[b"x"])]),
      r"tensor 's' has string elements, which onnxcc compiles only as graph inputs and outputs")
error("undefined_dtype_input",
      model([helper.make_node("Relu", ["x"], ["y"], name="r")], [vi("x", [2], TensorProto.UNDEFINED)], [vi("y", None)]),
      r"graph input 'x' has unsupported element type UNDEFINED")
error("not_a_protobuf", None, r"not a valid ONNX model \(protobuf parse failed", raw=b"\xff\xff\xff\xffnot a model")
error("empty_file", None, r"not a valid ONNX model|the model has no graph", raw=b"")
error("no_opset",
      helper.make_model(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [xs], [vi("y", None)]),
                        opset_imports=[]),
      r"the model imports no ai.onnx opset")
error("future_opset", relu_model(opset=99), r"opset 99 is newer than the supported 28")
error("unknown_ops_all_reported",
      model([helper.make_node("FancyOp", ["x"], ["t"], name="f1"), helper.make_node("OtherOp", ["t"], ["y"], name="f2")],
            [xs], [vi("y", None)]),
      r"unsupported operator '(FancyOp|OtherOp)'", lines=2)
error("cycle", model([helper.make_node("Relu", ["b"], ["a"], name="n1"), helper.make_node("Relu", ["a"], ["b"], name="n2"),
                      helper.make_node("Add", ["x", "b"], ["y"], name="n3")], [xs], [vi("y", None)]),
      r"the graph has a cycle through nodes: n1, n2, n3")

json.dump(CASES, open(os.path.join(OUT, "cases.json"), "w"), indent=1)
print(f"{len(CASES)} cases written to {OUT}")
