#!/usr/bin/env python3
"""Runs the ONNX node tests of the installed onnx package through onnxcc.

Every test directory (model.onnx, test_data_set_*/input_K.pb, output_K.pb)
goes compile -> build -> run -> compare:

  compile  `onnxcc compile` per model, --jobs at a time, each under a unique
           C++ name (t0001...; test names are not C++ names). Symbolic input
           dims are pinned from each data set's inputs (one compile per
           distinct binding). When onnxcc says a shape depends on the value
           of a graph input (Resize's scales, Slice's starts, Reshape's
           shape: node tests feed them as inputs, real models as constants),
           that input is bound to its data-set value with --const-input and
           the model compiled again, as a user would; the summary and the
           report count these passes. A compile error fails the test with
           onnxcc's error line as the reason and a category from
           CATEGORY_RULES.
  build    The generated .cpp files are batched: unity_K.cpp includes up to
           --chunk of them plus a runner per model (harness.h) and a main()
           that dispatches on the model's name; unity_K.S includes their
           _weights.S. onnxcc/runtime.h is precompiled once. Each chunk is one
           program, built --jobs at a time. A chunk that does not build is
           split: rebuilt without the models its diagnostics name, then those
           (or, failing that, all) one at a time, so a C++ error fails only
           the tests that cause it, with category cxx-build-error.
  run      Each data set runs in its own process with a timeout.
  compare  Floats with |got - ref| <= atol + rtol*|ref| (rtol 1e-3, atol 1e-7
           like onnx's backend runner, or the test's data.json values;
           16-bit float outputs: rtol at least two units in the last place,
           2^-6 for bfloat16, 2^-9 for float16); NaN
           matches NaN, infinities must be equal. Integers and bools exactly.
           Byte sizes must agree.

The summary prints `N passed, M failed of T (P%)`, the failure categories and
the time of each phase. Then the results are checked against the expected
failures file: a listed test that passes, an unlisted failure, or a failure
under another category than listed, exits 1.

  .venv/bin/python tests/conformance/run_node_tests.py [--filter REGEX] [-v]
  .venv/bin/python tests/conformance/run_node_tests.py --update-expected
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import numpy_helper

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
from node_tests import node_test_dir

# onnx.backend.test.loader's defaults; a test's data.json may loosen them.
DEFAULT_RTOL = 1e-3
DEFAULT_ATOL = 1e-7

# Disagreements with the expected-failures file printed at most.
MAX_LISTED = 200

# onnxcc's error text -> failure category; the first matching rule wins.
CATEGORY_RULES = [
    ("opset", r"\bopset\b"),
    ("unsupported-op", r"unsupported operator"),
    ("training-or-random", r"\brandom\b|training[- ]mode"),
    ("dynamic-shape", r"symbolic|dynamic|data-dependent|unknown (dim|shape|rank)"),
    ("unsupported-dtype", r"element type|unsupported type|kernels exist|not a tensor|"
                          r"sequence|\bmaps?\b|dtype|\btype '"),
    ("unsupported-rank", r"\brank\b|\d-D\b"),
    ("unsupported-attribute", r"attribute|kernel_shape|\baxis\b|\bmode\b"),
    ("unsupported-feature", r"not supported|is supported|are supported|no kernel|unsupported"),
]

# Categories the harness itself assigns.
#   compiler-crash   onnxcc died on a signal or exited other than 0/1
#   compile-timeout  onnxcc ran past --compile-timeout
#   io-mismatch      the generated API's input/output count differs from the data
#   harness-dtype    a data-set tensor the harness cannot pass as raw bytes
#   cxx-build-error  the generated C++ does not build
#   size-mismatch    a buffer's size differs from the reference's bytes
#   runtime-crash    the program died or failed
#   timeout          the program ran past --timeout
#   wrong-result     values outside the tolerance
#   no-data          no test_data_set_* directory


def categorize(message):
    for category, pattern in CATEGORY_RULES:
        if re.search(pattern, message):
            return category
    return "other"


def one_line(text, limit=200):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Failure(Exception):
    def __init__(self, category, reason):
        super().__init__(reason)
        self.category = category
        self.reason = one_line(reason)


class Unit:
    """One onnxcc compile of a test: a dims binding and the data sets it runs."""

    def __init__(self, test, name, dims, sets):
        self.test, self.name, self.dims, self.sets = test, name, dims, sets
        self.bound = []  # indices of graph inputs bound with --const-input
        self.bound_names = []
        self.num_inputs = self.num_outputs = 0
        self.exe = None
        self.failure = None


class Test:
    def __init__(self, test_dir, name, index):
        self.name = name
        self.dir = os.path.join(test_dir, name)
        self.cname = "t%04d" % index  # stable across runs: index in the full list
        self.units = []
        self.failure = None
        self.rtol, self.atol = DEFAULT_RTOL, DEFAULT_ATOL

    def fail(self, failure):
        if self.failure is None:
            self.failure = failure

    def bound_inputs(self):
        """Names of the graph inputs some unit bound at compile time."""
        return sorted({n for u in self.units for n in u.bound_names})


# --- discovery and model loading --------------------------------------------

def all_test_names(test_dir):
    return sorted(d for d in os.listdir(test_dir)
                  if os.path.isfile(os.path.join(test_dir, d, "model.onnx")))


def graph_inputs(graph):
    inits = {t.name for t in graph.initializer} | {t.name for t in graph.sparse_initializer}
    return [v for v in graph.input if v.name not in inits]


def read_value(path, type_proto):
    """A data-set file as a numpy array; Failure if it is not a tensor."""
    if not type_proto.HasField("tensor_type"):
        raise Failure("harness-dtype", "%s is a %s, not a tensor"
                      % (os.path.basename(path), type_proto.WhichOneof("value")))
    tensor = onnx.TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    if tensor.data_type == onnx.TensorProto.STRING:
        # The bytes as stored (to_array would decode them as UTF-8).
        strings = list(tensor.string_data)
        if any(b"\0" in v for v in strings):
            raise Failure("harness-dtype", "%s holds a string with a NUL byte"
                          % os.path.basename(path))
        array = np.empty(len(strings), dtype=object)
        array[:] = strings
        return array.reshape(tuple(tensor.dims))
    array = numpy_helper.to_array(tensor)
    return api_layout(array)


def string_bytes(array):
    """A string array as the harness passes it: each string, then a NUL byte."""
    return b"".join(v + b"\0" for v in array.reshape(-1))


def api_layout(array):
    """`array` in the generated API's layout: 4- and 2-bit integers are a
    byte each, sign-extended (INT4, INT2: int8) or not (UINT4, UINT2:
    uint8); the float8/float4 ml_dtypes arrays already hold one code per
    byte."""
    if array.dtype.name in ("int4", "int2"):
        return array.astype(np.int8)
    if array.dtype.name in ("uint4", "uint2"):
        return array.astype(np.uint8)
    return array


def data_set_files(set_dir, kind):
    files = []
    while os.path.exists(os.path.join(set_dir, "%s_%d.pb" % (kind, len(files)))):
        files.append(os.path.join(set_dir, "%s_%d.pb" % (kind, len(files))))
    return files


def dim_name(dim, input_name, axis):
    """How onnxcc names a dim for --dim (compiler/frontend/OnnxImporter.cpp)."""
    return dim.dim_param if dim.dim_param else "%s:%d" % (input_name, axis)


def plan_units(test):
    """Loads the model and groups its data sets by the symbolic-dim binding."""
    data_json = os.path.join(test.dir, "data.json")
    if os.path.exists(data_json):
        with open(data_json) as f:
            data = json.load(f)
        test.rtol, test.atol = data.get("rtol", test.rtol), data.get("atol", test.atol)
    sets = sorted(os.path.join(test.dir, d) for d in os.listdir(test.dir)
                  if d.startswith("test_data_set_"))
    if not sets:
        raise Failure("no-data", "no test_data_set_* directory")
    model = onnx.load(os.path.join(test.dir, "model.onnx"), load_external_data=False)
    inputs = graph_inputs(model.graph)
    symbolic = []
    for k, value in enumerate(inputs):
        if value.type.HasField("tensor_type"):
            for axis, dim in enumerate(value.type.tensor_type.shape.dim):
                if not dim.HasField("dim_value"):
                    symbolic.append((k, axis, dim_name(dim, value.name, axis)))
    groups = {}
    for s in sets:
        dims = {}
        if symbolic:
            files = data_set_files(s, "input")
            for k, axis, name in symbolic:
                if k < len(files):
                    tensor = onnx.TensorProto()
                    with open(files[k], "rb") as f:
                        tensor.ParseFromString(f.read())
                    if axis < len(tensor.dims):
                        dims[name] = tensor.dims[axis]
        groups.setdefault(tuple(sorted(dims.items())), []).append(s)
    for i, (dims, members) in enumerate(sorted(groups.items())):
        name = test.cname if len(groups) == 1 else "%s_%d" % (test.cname, i)
        test.units.append(Unit(test, name, dict(dims), members))
    return model


# --- phase 1: onnxcc compile ---------------------------------------------------

def compile_error(test, output):
    """(category, reason) from onnxcc's error lines, the model path removed."""
    model = os.path.join(test.dir, "model.onnx")
    lines = []
    for line in output.splitlines():
        line = line.strip()
        if not line:
            continue
        line = re.sub(r"^onnxcc: error: ", "", line)
        line = line.replace(model + ":", "").replace(model, "model.onnx").strip()
        lines.append(line)
    if not lines:
        return "other", "onnxcc failed without a message"
    # onnxcc reports every unsupported operator at once: name them all.
    matches = [re.search(r"unsupported operator '([^']*)'", l) for l in lines]
    ops = sorted({m.group(1) for m in matches if m})
    if ops:
        others = sum(1 for m in matches if not m)
        return "unsupported-op", "unsupported operator%s %s%s" % (
            "s" if len(ops) > 1 else "", ", ".join(ops),
            " (+%d more errors)" % others if others else "")
    reason = lines[0] + (" (+%d more)" % (len(lines) - 1) if len(lines) > 1 else "")
    return categorize(lines[0]), reason


# onnxcc's hint when a shape depends on a graph input's value.
CONST_INPUT_HINT = re.compile(r"--const-input (\S+)=FILE\.pb")


def bind_input(unit, model, name):
    """Binds graph input `name` to its value in the unit's data sets, which
    must all agree on it; returns the --const-input argument or None."""
    names = [v.name for v in graph_inputs(model.graph)]
    if name not in names or names.index(name) in unit.bound:
        return None
    k = names.index(name)
    files = [data_set_files(s, "input") for s in unit.sets]
    if any(k >= len(f) for f in files):
        return None
    values = set()
    for f in files:
        with open(f[k], "rb") as fh:
            values.add(fh.read())
    if len(values) != 1:
        raise Failure("dynamic-shape", "graph input '%s' decides a shape and differs "
                      "between data sets" % name)
    unit.bound.append(k)
    unit.bound_names.append(name)
    return "%s=%s" % (name, files[0][k])


def compile_unit(args, unit, gen_dir, model):
    """Compiles the unit; a shape that depends on a graph input's value gets
    that input bound from the data sets (--const-input), as a user would."""
    const_inputs = []
    while True:
        cmd = [args.onnxcc, "compile", os.path.join(unit.test.dir, "model.onnx"),
               "-o", gen_dir, "--name", unit.name]
        for k, v in sorted(unit.dims.items()):
            cmd += ["--dim", "%s=%d" % (k, v)]
        for c in const_inputs:
            cmd += ["--const-input", c]
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  timeout=args.compile_timeout)
        except subprocess.TimeoutExpired:
            raise Failure("compile-timeout", "onnxcc ran past %d s" % args.compile_timeout)
        output = proc.stdout.decode("utf-8", "replace")
        hint = CONST_INPUT_HINT.search(output) if proc.returncode == 1 else None
        bind = hint and not args.no_const_inputs and bind_input(unit, model, hint.group(1))
        if not bind:
            break
        const_inputs.append(bind)
    if proc.returncode == 1:
        raise Failure(*compile_error(unit.test, output))
    if proc.returncode != 0:
        raise Failure("compiler-crash", "onnxcc " + exit_text(proc.returncode) +
                      "".join(": " + l for l in crash_lines(output)[:1]))
    with open(os.path.join(gen_dir, unit.name + ".h")) as f:
        header = f.read()
    unit.num_inputs, unit.num_outputs = (api_count(header, kind) for kind in ("Input", "Output"))


def api_count(header, kind):
    """How many InputK or OutputK types the generated header declares."""
    m = re.search(r"kNum%ss\s*=\s*(\d+)" % kind, header)
    if m:
        return int(m.group(1))
    return len(re.findall(r"^\s*using %s\d+\s*=" % kind, header, re.M))


def exit_text(rc):
    if rc < 0:
        try:
            return "killed by " + signal.Signals(-rc).name
        except ValueError:
            return "killed by signal %d" % -rc
    return "exit %d" % rc


def crash_lines(text):
    """The lines of a crash's output that say what went wrong, first."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return [l for l in lines if re.search(r"Assertion|error|ERROR|UNREACHABLE", l)] + lines


def last_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


# --- phase 2: data sets as raw files -------------------------------------------

def write_data(unit, model, data_dir):
    """in<K>.bin per data set; returns [(set_dir, in_dir, reference arrays)]."""
    inputs = graph_inputs(model.graph)
    prepared = []
    for s in unit.sets:
        in_files, out_files = data_set_files(s, "input"), data_set_files(s, "output")
        # Bound inputs are compiled in; predict() takes the others in order.
        fed = [k for k in range(len(in_files)) if k not in unit.bound]
        if len(fed) != unit.num_inputs or len(out_files) != unit.num_outputs:
            raise Failure("io-mismatch", "%s has %d inputs and %d outputs; the generated "
                          "API takes %d and %d" % (os.path.basename(s), len(in_files),
                                                   len(out_files), unit.num_inputs,
                                                   unit.num_outputs))
        in_dir = os.path.join(data_dir, unit.name, os.path.basename(s))
        os.makedirs(in_dir, exist_ok=True)
        for slot, k in enumerate(fed):
            type_proto = inputs[k].type if k < len(inputs) else onnx.TypeProto(
                tensor_type=onnx.TypeProto.Tensor())
            array = np.ascontiguousarray(read_value(in_files[k], type_proto))
            with open(os.path.join(in_dir, "in%d.bin" % slot), "wb") as f:
                f.write(string_bytes(array) if array.dtype == object else array.tobytes())
        refs = [read_value(path, model.graph.output[k].type if k < len(model.graph.output)
                           else onnx.TypeProto(tensor_type=onnx.TypeProto.Tensor()))
                for k, path in enumerate(out_files)]
        prepared.append((s, in_dir, refs))
    return prepared


# --- phase 3: batched C++ build ------------------------------------------------

def unity_sources(units):
    """unity .cpp and .S text, and for each line range of the .cpp its unit."""
    cpp = ["// Generated by tests/conformance/run_node_tests.py: %d models." % len(units),
           '#include "onnxcc/runtime.h"', '#include "harness.h"', ""]
    owners = []
    for u in units:
        first = len(cpp) + 1
        cpp.append('#include "%s.cpp"' % u.name)
        cpp.append("static int run_%s(const char *in_dir, const char *out_dir) {" % u.name)
        cpp.append("  int rc = 0;")
        for k in range(u.num_inputs):
            cpp.append("  auto &in%d = conformance::buffer<%s::Input%d>(-1);" % (k, u.name, k))
            cpp.append('  if ((rc = conformance::read_port(in_dir, %d, in%d, "%s::Input%d"))) return rc;'
                       % (k, k, u.name, k))
        for k in range(u.num_outputs):
            cpp.append("  auto &out%d = conformance::buffer<%s::Output%d>(0xA5);" % (k, u.name, k))
        cpp.append("  auto &workspace = conformance::buffer<%s::Workspace>(-1);" % u.name)
        args = ["in%d" % k for k in range(u.num_inputs)] + \
               ["out%d" % k for k in range(u.num_outputs)] + ["workspace"]
        cpp.append("  %s::predict(%s);" % (u.name, ", ".join(args)))
        for k in range(u.num_outputs):
            cpp.append("  if ((rc = conformance::write_port(out_dir, %d, out%d))) return rc;" % (k, k))
        cpp.append("  return 0;")
        cpp.append("}")
        owners.append((first, len(cpp), u))
    cpp.append("static const conformance::entry kModels[] = {")
    cpp += ['    {"%s", run_%s},' % (u.name, u.name) for u in units]
    cpp.append("};")
    cpp.append("int main(int argc, char **argv) {")
    cpp.append("  return conformance::dispatch(argc, argv, kModels);")
    cpp.append("}")
    asm = ["/* Generated by tests/conformance/run_node_tests.py: the weights of %d models. */"
           % len(units)] + ['#include "%s_weights.S"' % u.name for u in units]
    return "\n".join(cpp) + "\n", "\n".join(asm) + "\n", owners


def make_chunks(units, size, jobs, gen_dir):
    """Chunks of at most `size` models, a multiple of `jobs` of them, balanced
    by generated-code bytes (largest first onto the lightest chunk)."""
    count = -(-len(units) // size)
    count = min(len(units), -(-count // jobs) * jobs)
    chunks = [[] for _ in range(count)]
    weight = [0] * count
    cost = {u.name: os.path.getsize(os.path.join(gen_dir, u.name + ".cpp")) for u in units}
    for u in sorted(units, key=lambda u: (-cost[u.name], u.name)):
        i = min((i for i in range(count) if len(chunks[i]) < size), key=lambda i: weight[i])
        chunks[i].append(u)
        weight[i] += cost[u.name]
    return [sorted(c, key=lambda u: u.name) for c in chunks]


class Builder:
    def __init__(self, args, gen_dir, build_dir):
        self.args, self.gen_dir, self.build_dir = args, gen_dir, build_dir
        self.cxx = shlex.split(args.cxx)
        self.flags = ["-std=c++17"] + shlex.split(args.cxxflags)
        self.includes = ["-I", gen_dir, "-I", args.runtime, "-I", HERE]
        self.builds = 0
        self.solo_builds = 0

    def precompile(self):
        """Builds onnxcc/runtime.h once, as a precompiled header where the
        compiler has one (every unity file includes it first); returns the
        first error if the runtime headers do not build on their own."""
        pch_dir = os.path.join(self.build_dir, "pch")
        header = os.path.join(self.args.runtime, "onnxcc", "runtime.h")
        probe = subprocess.run(self.cxx + ["-dM", "-E", "-x", "c++", os.devnull],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        clang = b"__clang__" in probe.stdout
        if self.args.no_pch:
            cmd = self.cxx + self.flags + self.includes + ["-fsyntax-only", "-x", "c++", header]
        elif clang:
            pch = os.path.join(pch_dir, "runtime.pch")
            cmd = self.cxx + self.flags + self.includes + ["-x", "c++-header", header, "-o", pch]
            extra = ["-include-pch", pch]
        else:
            # GCC looks for <dir>/onnxcc/runtime.h.gch in each -I dir before
            # the header itself; the header beside it serves later includes.
            pch = os.path.join(pch_dir, "onnxcc", "runtime.h.gch")
            cmd = self.cxx + self.flags + self.includes + ["-x", "c++-header", header, "-o", pch]
            extra = ["-I", pch_dir]
            os.makedirs(os.path.dirname(pch), exist_ok=True)
            os.symlink(header, os.path.join(pch_dir, "onnxcc", "runtime.h"))
        os.makedirs(pch_dir, exist_ok=True)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if proc.returncode != 0:
            return first_error(proc.stdout.decode("utf-8", "replace"))
        if not self.args.no_pch:
            self.includes = extra + self.includes
        return None

    def build(self, tag, units, timeout):
        """Builds units into one program; (ok, compiler output, owners)."""
        cpp_text, asm_text, owners = unity_sources(units)
        cpp, asm = (os.path.join(self.build_dir, tag + ext) for ext in (".cpp", ".S"))
        exe = os.path.join(self.build_dir, tag)
        for path, text in ((cpp, cpp_text), (asm, asm_text)):
            with open(path, "w") as f:
                f.write(text)
        self.builds += 1
        # The weights on their own: a C++ precompiled header must not reach the .S.
        weights = os.path.join(self.build_dir, tag + "_weights.o")
        commands = [self.cxx + ["-I", self.gen_dir, "-c", asm, "-o", weights],
                    self.cxx + self.flags + self.includes + [cpp, weights, "-o", exe]]
        for cmd in commands:
            try:
                proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      timeout=timeout)
            except subprocess.TimeoutExpired:
                return False, "error: the C++ compiler ran past %d s" % timeout, owners
            output = proc.stdout.decode("utf-8", "replace")
            if proc.returncode != 0:
                break
        if proc.returncode == 0:
            for u in units:
                u.exe = exe
        return proc.returncode == 0, output, owners

    def build_chunk(self, tag, units):
        """Builds a chunk; if it fails, finds the models that break it."""
        ok, output, owners = self.build(tag, units, self.args.build_timeout)
        if ok:
            return
        # Suspects: the models the diagnostics name, by file or by runner line.
        suspects = set()
        for m in re.finditer(r"\b(t\d{4,}(?:_\d+)?)(?:\.cpp|\.h|_weights\.S):\d+", output):
            suspects.add(m.group(1))
        for m in re.finditer(re.escape(tag) + r"\.cpp:(\d+):", output):
            line = int(m.group(1))
            suspects.update(u.name for first, last, u in owners if first <= line <= last)
        rest = [u for u in units if u.name not in suspects]
        alone = units
        if suspects and rest:
            ok, _, _ = self.build(tag + "_rest", rest, self.args.build_timeout)
            if ok:
                alone = [u for u in units if u.name in suspects]
        # One build per model left; past --max-solo-builds (a runtime change
        # that breaks most models) the chunk's own first error stands.
        for u in alone:
            self.solo_builds += 1
            if self.solo_builds > self.args.max_solo_builds:
                mine = [l for l in output.splitlines() if re.search(
                    r"\b%s(\.cpp|\.h):\d+:\d+: (fatal )?error" % u.name, l)]
                u.failure = Failure("cxx-build-error", "not isolated: " +
                                    first_error("\n".join(mine) or output))
                continue
            ok, solo_output, _ = self.build("%s_%s" % (tag, u.name), [u],
                                            self.args.build_timeout)
            if not ok:
                u.failure = Failure("cxx-build-error", first_error(solo_output))


def first_error(output):
    """The first error line of a compiler's output, directories dropped."""
    for line in output.splitlines():
        if re.search(r"\berror\b", line, re.I):  # the assembler says "Error:"
            return re.sub(r"(^|\s)(/[^\s:]*/)([^/\s:]+:)", r"\1\3", line).strip()
    return last_line(output) or "the C++ build failed without a message"


# --- phase 4: run and compare --------------------------------------------------

def is_float(dtype):
    return dtype.kind in "fc" or "float" in dtype.name


def compare(index, got_bytes, ref, rtol, atol):
    """Raises a Failure unless output `index` (raw bytes) matches `ref`."""
    if ref.dtype == object:  # strings, compared byte-exactly
        got = got_bytes.split(b"\0")[:-1] if got_bytes.endswith(b"\0") else None
        if got is None or len(got) != ref.size:
            raise Failure("size-mismatch", "output %d has %s strings, the reference %d"
                          % (index, "unterminated" if got is None else len(got), ref.size))
        bad = [i for i, (g, r) in enumerate(zip(got, ref.reshape(-1))) if g != r]
        if bad:
            raise Failure("wrong-result", "output %d: %d of %d strings differ; at %d got %r, "
                          "expected %r" % (index, len(bad), ref.size, bad[0], got[bad[0]],
                                           ref.reshape(-1)[bad[0]]))
        return
    if len(got_bytes) != ref.nbytes:
        raise Failure("size-mismatch", "output %d has %d bytes, the reference %s%s has %d"
                      % (index, len(got_bytes), ref.dtype.name, list(ref.shape), ref.nbytes))
    if ref.size == 0:
        return
    got = np.frombuffer(got_bytes, dtype=ref.dtype).reshape(ref.shape)
    if ref.dtype.name in ("bfloat16", "float16"):
        # Two units in the last place of the 16-bit output type. The
        # reference rounds every intermediate to it and can be that far
        # from onnxcc, which computes in float and rounds less often:
        # test_attention_4d_causal_bf16 [1,0,2,6] is 0.48116 exactly,
        # 0.480469 rounded (onnxcc), 0.484375 in the reference;
        # test_attention_4d_causal_fp16_expanded [0,0,1,4] is 0.469190
        # exactly, 0.469 in onnxcc and 0.4695 in the reference.
        rtol = max(rtol, 2.0 ** (-6 if ref.dtype.name == "bfloat16" else -9))
    if is_float(ref.dtype):
        wide = np.complex128 if ref.dtype.kind == "c" else np.float64
        g, r = got.astype(wide), ref.astype(wide)
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(g - r)
            # An infinite difference (+inf against -inf) never passes, though
            # an infinite reference makes the tolerance infinite.
            ok = ((np.isfinite(diff) & (diff <= atol + rtol * np.abs(r))) |
                  (np.isnan(g) & np.isnan(r)) | (g == r))
        if ok.all():
            return
        bad = np.flatnonzero(~ok)
        worst = bad[np.argmax(np.nan_to_num(diff.reshape(-1)[bad], nan=np.inf))]
    else:
        # Exact, bytewise: a bool byte other than 0/1 is wrong too.
        g = np.frombuffer(got_bytes, np.uint8).reshape(ref.size, -1)
        r = np.frombuffer(np.ascontiguousarray(ref).tobytes(), np.uint8).reshape(ref.size, -1)
        ok = (g == r).all(axis=1)
        if ok.all():
            return
        bad = np.flatnonzero(~ok)
        worst = bad[0]
    where = list(np.unravel_index(worst, ref.shape)) if ref.shape else []
    got_value = got.reshape(-1)[worst]
    if ref.dtype == np.bool_:
        got_value = "0x%02x" % np.frombuffer(got_bytes, np.uint8)[worst]
    raise Failure("wrong-result", "output %d: %d of %d values differ (rtol %g, atol %g); "
                  "at %s got %s, expected %s" % (index, len(bad), ref.size, rtol, atol,
                                                 [int(i) for i in where], got_value,
                                                 ref.reshape(-1)[worst]))


def run_set(args, unit, in_dir, refs):
    """Runs one data set (in<K>.bin in in_dir) and compares out<K>.bin."""
    out_dir = in_dir
    for k in range(len(refs)):
        path = os.path.join(out_dir, "out%d.bin" % k)
        if os.path.exists(path):
            os.remove(path)
    try:
        proc = subprocess.run([unit.exe, unit.name, in_dir, out_dir], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        raise Failure("timeout", "ran past %d s" % args.timeout)
    output = proc.stdout.decode("utf-8", "replace")
    if proc.returncode == 3:
        raise Failure("size-mismatch", last_line(output))
    if proc.returncode != 0:
        raise Failure("runtime-crash", exit_text(proc.returncode) +
                      "".join(": " + l for l in crash_lines(output)[:1]))
    for k, ref in enumerate(refs):
        with open(os.path.join(out_dir, "out%d.bin" % k), "rb") as f:
            compare(k, f.read(), ref, unit.test.rtol, unit.test.atol)


# --- expected failures ---------------------------------------------------------

EXPECTED_HEADER = """\
# Expected failures of the ONNX node tests (onnx {version}), one per line:
#   test_name  category  reason
# Checked by tests/conformance/run_node_tests.py: a listed test that passes, a
# failure not listed, or one listed under another category fails the run.
# Regenerate from a full run (never edit by hand):
#   .venv/bin/python tests/conformance/run_node_tests.py --update-expected
"""


def read_expected(path):
    expected = {}
    if not os.path.exists(path):
        return expected
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 2:
                sys.exit("%s:%d: expected 'test_name category reason'" % (path, number))
            expected[parts[0]] = (parts[1], parts[2] if len(parts) > 2 else "")
    return expected


def write_expected(path, entries):
    # Names are aligned up to a width most fit; the longest few push the rest.
    width = min(max([len(n) for n in entries] + [0]), 52)
    cat_width = max([len(c) for c, _ in entries.values()] + [0])
    with open(path, "w") as f:
        f.write(EXPECTED_HEADER.format(version=onnx.__version__))
        for name in sorted(entries):
            category, reason = entries[name]
            f.write(("%-*s  %-*s  %s" % (width, name, cat_width, category, reason)).rstrip() + "\n")


def check_expected(tests, expected, all_names, filtered):
    """Lines describing every disagreement with the expected-failures file."""
    problems = []
    for t in tests:
        listed = expected.get(t.name)
        if t.failure is None and listed:
            problems.append("passes but is listed as expected to fail (%s): %s"
                            % (listed[0], t.name))
        elif t.failure and not listed:
            problems.append("new failure: %s [%s] %s" % (t.name, t.failure.category,
                                                          t.failure.reason))
        elif t.failure and listed[0] != t.failure.category:
            problems.append("fails as %s, listed as %s: %s [%s]" % (
                t.failure.category, listed[0], t.name, t.failure.reason))
    if not filtered:
        known = set(all_names)
        problems += ["listed but no such node test: %s" % n for n in sorted(expected)
                     if n not in known]
    return problems


# --- driver ----------------------------------------------------------------------

def parallel(jobs, fn, items):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(fn, items))


def parse_args():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--filter", help="run only the tests whose name matches this regex")
    parser.add_argument("--test-dir",
                        help="directory of tests in the onnx backend-test layout "
                             "(default: the installed onnx package's node tests)")
    parser.add_argument("--cache", default=os.path.join(REPO, "build", "onnx-node-tests"),
                        help="where node tests are generated when the onnx wheel ships none")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="parallel processes")
    parser.add_argument("--work", help="work directory (default: a temporary one, removed)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary work directory")
    parser.add_argument("--onnxcc", default=os.path.join(REPO, "build", "bin", "onnxcc"),
                        help="the compiler under test")
    parser.add_argument("--runtime", default=os.path.join(REPO, "runtime-support"),
                        help="runtime-support directory for the generated code")
    parser.add_argument("--cxx", default=shutil.which("g++") and "g++" or "c++",
                        help="C++ compiler command, e.g. 'clang++-22' or 'ccache g++'")
    parser.add_argument("--cxxflags", default="-O1", help="flags for the generated code")
    parser.add_argument("--chunk", type=int, default=40, help="most models per unity build")
    parser.add_argument("--no-pch", action="store_true",
                        help="do not precompile onnxcc/runtime.h")
    parser.add_argument("--max-solo-builds", type=int, default=400,
                        help="most one-model builds spent finding the models that break chunks")
    parser.add_argument("--timeout", type=int, default=20, help="seconds per data-set run")
    parser.add_argument("--compile-timeout", type=int, default=120, help="seconds per onnxcc run")
    parser.add_argument("--build-timeout", type=int, default=900, help="seconds per C++ build")
    parser.add_argument("--expected", default=os.path.join(HERE, "expected_failures.txt"),
                        help="the expected-failures file")
    parser.add_argument("--update-expected", action="store_true",
                        help="rewrite the expected-failures file from this run's results")
    parser.add_argument("--report", help="write per-test results as JSON (gen_operators_md.py)")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per failing test")
    parser.add_argument("--no-const-inputs", action="store_true",
                        help="do not bind shape-giving graph inputs with --const-input")
    args = parser.parse_args()
    args.onnxcc = os.path.abspath(args.onnxcc)
    args.runtime = os.path.abspath(args.runtime)
    return args


def run_tests(args, tests, work):
    """All phases; sets each test's failure. Returns [(phase, seconds)]."""
    gen_dir, data_dir, build_dir = (os.path.join(work, d) for d in ("gen", "data", "build"))
    for d in (gen_dir, data_dir, build_dir):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    phases = []
    clock = [time.monotonic()]

    def phase(name):
        now = time.monotonic()
        phases.append((name, now - clock[0]))
        clock[0] = now

    models = {}
    for t in tests:
        try:
            models[t.name] = plan_units(t)
        except Failure as f:
            t.fail(f)
        except Exception as e:  # a model that onnx itself cannot load
            t.fail(Failure("other", "cannot load the test: %s" % e))
    units = [u for t in tests if t.failure is None for u in t.units]
    phase("load")

    def do_compile(u):
        try:
            compile_unit(args, u, gen_dir, models[u.test.name])
        except Failure as f:
            u.failure = f
    parallel(args.jobs, do_compile, units)
    phase("onnxcc compile")

    prepared = {}
    for u in units:
        if u.failure is None:
            try:
                prepared[u.name] = write_data(u, models[u.test.name], data_dir)
            except Failure as f:
                u.failure = f
            except Exception as e:
                u.failure = Failure("harness-dtype", "cannot convert the data: %s" % e)
    phase("data")

    builder = Builder(args, gen_dir, build_dir)
    to_build = [u for u in units if u.failure is None]
    if to_build:
        error = builder.precompile()
        if error:
            for u in to_build:
                u.failure = Failure("cxx-build-error", "runtime headers: " + error)
        else:
            chunks = make_chunks(to_build, args.chunk, args.jobs, gen_dir)
            parallel(args.jobs, lambda c: builder.build_chunk("unity_%d" % c[0], c[1]),
                     list(enumerate(chunks)))
    phase("C++ build (%d program%s)" % (builder.builds, "" if builder.builds == 1 else "s"))

    def do_run(item):
        u, (set_dir, in_dir, refs) = item
        try:
            run_set(args, u, in_dir, refs)
        except Failure as f:
            return u, f
        except Exception as e:
            return u, Failure("other", "harness: %s" % e)
        return u, None
    runs = [(u, p) for u in units if u.failure is None and u.exe for p in prepared[u.name]]
    for u, failure in parallel(args.jobs, do_run, runs):
        if failure and u.failure is None:
            u.failure = failure
    phase("run + compare (%d runs)" % len(runs))

    for t in tests:
        for u in t.units:
            if u.failure:
                t.fail(u.failure)
    return phases


def print_summary(tests, phases, verbose):
    failed = [t for t in tests if t.failure]
    passed = len(tests) - len(failed)
    if verbose:
        for t in failed:
            print("FAIL %s [%s] %s" % (t.name, t.failure.category, t.failure.reason))
    rate = 100.0 * passed / len(tests) if tests else 0.0
    bound = sum(1 for t in tests if not t.failure and t.bound_inputs())
    print("%d passed, %d failed of %d (%.1f%%); %d of the passes bind shape-giving "
          "inputs with --const-input" % (passed, len(failed), len(tests), rate, bound))
    categories = {}
    for t in failed:
        categories[t.failure.category] = categories.get(t.failure.category, 0) + 1
    for category, count in sorted(categories.items(), key=lambda kv: (-kv[1], kv[0])):
        print("  %-24s %5d" % (category, count))
    print("time: " + ", ".join("%s %.1f s" % p for p in phases))


def write_report(path, args, tests):
    failed = sum(1 for t in tests if t.failure)
    with open(path, "w") as f:
        json.dump({
            "onnx_version": onnx.__version__,
            "filter": args.filter,
            "passed": len(tests) - failed, "failed": failed, "total": len(tests),
            "tests": {t.name: (dict({"status": "pass"}, **({"const_inputs": t.bound_inputs()}
                                                          if t.bound_inputs() else {}))
                               if t.failure is None else
                               {"status": "fail", "category": t.failure.category,
                                "reason": t.failure.reason}) for t in tests},
        }, f, indent=1, sort_keys=True)
        f.write("\n")


def main():
    args = parse_args()
    if not os.access(args.onnxcc, os.X_OK):
        sys.exit("run_node_tests: no onnxcc at %s (see --onnxcc)" % args.onnxcc)
    start = time.monotonic()
    if not args.test_dir:
        args.test_dir = node_test_dir(args.cache)
    all_names = all_test_names(args.test_dir)
    pattern = re.compile(args.filter) if args.filter else None
    tests = [Test(args.test_dir, n, i) for i, n in enumerate(all_names)
             if not pattern or pattern.search(n)]
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(
        prefix="onnxcc-conformance-")
    try:
        phases = run_tests(args, tests, work)
    finally:
        if not args.work and not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    phases.append(("total", time.monotonic() - start))
    print_summary(tests, phases, args.verbose)
    if args.keep or args.work:
        print("work directory: %s" % work)
    if args.report:
        write_report(args.report, args, tests)

    expected = read_expected(args.expected)
    if args.update_expected:
        ran = {t.name for t in tests}
        entries = {n: e for n, e in expected.items() if n not in ran and n in set(all_names)}
        entries.update({t.name: (t.failure.category, t.failure.reason)
                        for t in tests if t.failure})
        write_expected(args.expected, entries)
        print("wrote %s: %d expected failures" % (args.expected, len(entries)))
        return 0
    if not os.path.exists(args.expected):
        print("no expected-failures file %s: create it with --update-expected" % args.expected)
        return 1
    problems = check_expected(tests, expected, all_names, bool(args.filter))
    if problems:
        print("%d disagreement%s with %s:" % (len(problems), "" if len(problems) == 1 else "s",
                                             os.path.relpath(args.expected)))
        for p in problems[:MAX_LISTED]:
            print("  " + p)
        if len(problems) > MAX_LISTED:
            print("  ... and %d more (-v lists every failure)" % (len(problems) - MAX_LISTED))
        print("fix the compiler, or if the change is intended rerun with --update-expected")
        return 1
    print("as expected by %s" % os.path.relpath(args.expected))
    return 0


if __name__ == "__main__":
    sys.exit(main())
