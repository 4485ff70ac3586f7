#!/usr/bin/env python3
"""onnxcc against ONNX Runtime (and scikit-learn), side by side.

    scripts/bench [--models skl_*] [--batches 1,1000] [--threads 1,2]
                  [--seconds 1] [--no-sklearn] [--out bench/results]

For every model of ../shared/models that onnxcc compiles (others are skipped
with the reason), and every batch (fixed-batch models run at their own):

* compiles it as onnxcc_add_model does (batch pinned with --dim) and builds
  bench_main.cpp with the generated code, Release flags and the `native`
  target (-O3 -DNDEBUG -march=native);
* runs predict() and onnxruntime's C API (the venv's libonnxruntime.so,
  graph optimisation ALL, caller-owned outputs) in one process, alternately,
  on the same inputs, after a warm-up, for at least --seconds each, at each
  thread count (ORT's intra-op threads; onnxcc's code compiled with
  --threads T);
* checks that both sides' outputs agree (a relative difference above
  MISMATCH marks the row and makes the run exit 1 once the report is
  written: a timing of wrong code is no result), records median and p90
  latency and
  the ratio ORT / onnxcc, generated code size (.text of the model's object,
  weights apart), the weight bytes and the peak RSS of a process running
  only one side;
* for scikit-learn models, times scikit-learn's own predict() on an
  equivalent estimator (bench/sklearn_equivalents.py) at the same batch;
* times predict() called from Python through ctypes, beside the C++ call;
* counts the model's multiply-add FLOPs (Conv, Gemm, MatMul, recurrent
  cells) and reports achieved GFLOP/s against this core's FMA peak, which
  bench/fma_peak.cpp measures at the widest ISA -march=native gives;
* around each row of two threads or more, measures the one-way latency
  between the first two CPUs (bench/core_latency.cpp): on a shared VM it
  shows when the host has put them on different dies, which slows both
  sides' threaded times;
* adds `classifier` at batch 64 and ORT's per-call floor (a one-node
  Identity model) to the table, and draws the ratios as a PNG bar chart
  (matplotlib, bench/requirements.txt).

Writes bench/results/<date>-<label>.md and .json. A benchmark, not a test:
nothing here asserts a time.
"""
import argparse
import ctypes
import datetime
import glob
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
import onnxruntime
from onnx import numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")

# C++ spelling in the generated header -> (ONNX data type, numpy dtype).
CPP_TYPES = {
    "float": (1, np.float32), "double": (11, np.float64),
    "std::int64_t": (7, np.int64), "std::int32_t": (6, np.int32),
    "std::int16_t": (5, np.int16), "std::int8_t": (3, np.int8),
    "std::uint8_t": (2, np.uint8), "std::uint16_t": (4, np.uint16),
    "std::uint32_t": (12, np.uint32), "std::uint64_t": (13, np.uint64),
    "bool": (9, np.bool_),
}


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def load_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def dynamic_axes(model):
    """(input name, axis) of every free dim of the graph inputs."""
    inits = {i.name for i in model.graph.initializer}
    out = []
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        for axis, d in enumerate(vi.type.tensor_type.shape.dim):
            if not d.HasField("dim_value"):
                out.append((vi.name, axis))
    return out


def parse_ports(header):
    """[(kind, index, name, c++ type, shape)] from the generated header."""
    text = open(header).read()
    ports = []
    for kind, idx, name, ctype in re.findall(
            r"/// (input|output) (\d+): '([^']*)', ([\w:]+)\[", text):
        shape = re.search(rf"k{kind.capitalize()}{idx}Shape\[\] = \{{([^}}]*)\}}", text)
        dims = [int(v) for v in shape.group(1).split(",") if v.strip()] if shape else []
        ports.append((kind, int(idx), name, ctype, dims))
    return ports


def write_glue(path, name, ports):
    ins = [p for p in ports if p[0] == "input"]
    outs = [p for p in ports if p[0] == "output"]

    def table(ps):
        rows = []
        for _, _, pname, ctype, dims in ps:
            onnx_type, dtype = CPP_TYPES[ctype]
            nbytes = int(np.prod(dims, dtype=np.int64)) * np.dtype(dtype).itemsize
            shape = ", ".join(str(d) for d in dims) or "0"
            rows.append(f'  {{"{pname}", {onnx_type}, {len(dims)}, {{{shape}}}, {nbytes}}},')
        return "\n".join(rows)

    args = [f"static_cast<const {p[3]} *>(in[{p[1]}])" for p in ins]
    args += [f"static_cast<{p[3]} *>(out[{p[1]}])" for p in outs]
    with open(path, "w") as f:
        f.write(f"""// Written by bench/run.py for {name}.
#include "{name}.h"
static const BenchPort kInputs[] = {{
{table(ins)}
}};
static const BenchPort kOutputs[] = {{
{table(outs)}
}};
static constexpr int kNumInputs = {len(ins)};
static constexpr int kNumOutputs = {len(outs)};
static void runOnnxcc(void *const *in, void *const *out, void *ws) {{
  {name}_predict({", ".join(args + ["ws"])});
}}
static size_t workspaceBytes() {{ return {name}_workspace_bytes(); }}
""")
    return ins


def text_bytes(obj):
    """.text (and other code) bytes of an object file, from `size -A`."""
    out = sh(["size", "-A", obj]).stdout
    return sum(int(m.group(2)) for m in re.finditer(r"^(\.text\S*)\s+(\d+)", out, re.M))


def ort_library():
    capi = os.path.join(os.path.dirname(onnxruntime.__file__), "capi")
    libs = sorted(glob.glob(os.path.join(capi, "libonnxruntime.so*")))
    if not libs:
        sys.exit("bench: no libonnxruntime.so in the onnxruntime wheel")
    return libs[0]


def cxx_name(name):
    """The C++ namespace for a model directory's name: onnxcc --name takes
    identifiers only, and split_layers.py's layer directories (and many
    model names) start with a digit or hold a '-'."""
    ident = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return ident if re.match(r"[A-Za-z_]", ident) else "m_" + ident


def build(model_dir, name, batch, work, args, threads=1):
    """Compiles (onnxcc --threads `threads`) and builds one model at one
    batch in `work`; returns (exe, ports, info). `name` is the C++ one
    (cxx_name())."""
    model_path = os.path.join(model_dir, "model.onnx")
    model = onnx.load(model_path, load_external_data=False)
    gen = os.path.join(work, "gen")
    os.makedirs(gen, exist_ok=True)
    dims = [x for i, a in dynamic_axes(model) if a == 0 for x in ("--dim", f"{i}:{a}={batch}")]
    r = subprocess.run([args.onnxcc, "compile", model_path, "-o", gen, "--name", name,
                        "--threads", str(threads)] + dims,
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None, (r.stderr.strip().splitlines() or ["failed"])[-1], None
    ports = parse_ports(os.path.join(gen, f"{name}.h"))
    write_glue(os.path.join(work, "bench_glue.inc"), name, ports)
    flags = ["-std=c++17", "-O3", "-DNDEBUG", "-march=native"] + (
        ["-pthread"] if threads > 1 else [])
    obj = os.path.join(work, f"{name}.o")
    sh([args.cxx] + flags + ["-c", "-I", gen, "-I", args.runtime,
                             os.path.join(gen, f"{name}.cpp"), "-o", obj])
    exe = os.path.join(work, "bench_main")
    sh([args.cxx] + flags + ["-I", gen, "-I", BENCH, "-I", work, "-I", args.runtime,
                             os.path.join(BENCH, "bench_main.cpp"), obj,
                             os.path.join(gen, f"{name}_weights.S"), "-o", exe, "-ldl"])
    header = open(os.path.join(gen, f"{name}.h")).read()
    weights = int(re.search(r"kWeightBytes = (\d+)", header).group(1))
    return exe, ports, {"text_bytes": text_bytes(obj), "weight_bytes": weights,
                        "dynamic_batch": bool(dims)}


def inputs_for(model_dir, ports, batch, work):
    """Test-data inputs. For a larger batch, each new row takes every
    feature from a random test row (seeded), so rows differ as real data
    does: repeating a few rows would let the branch predictor learn them."""
    files = []
    rng = np.random.default_rng(0)
    for _, idx, _, ctype, dims in [p for p in ports if p[0] == "input"]:
        sets = sorted(glob.glob(os.path.join(model_dir, "test_data_set_*")))
        rows = [load_pb(os.path.join(s, f"input_{idx}.pb")) for s in sets]
        x = rows[0]
        if list(x.shape) != dims and all(r.shape[1:] == x.shape[1:] for r in rows):
            pool = np.concatenate(rows, axis=0)
            flat = pool.reshape(pool.shape[0], -1)
            pick = rng.integers(0, flat.shape[0], size=(dims[0], flat.shape[1]))
            x = np.take_along_axis(flat, pick, axis=0).reshape([dims[0]] + list(pool.shape[1:]))
        x = np.ascontiguousarray(x.astype(CPP_TYPES[ctype][1]))
        path = os.path.join(work, f"input_{idx}.bin")
        x.tofile(path)
        files.append((path, x))
    return files


def run_one(exe, model_path, threads, seconds, mode, files, lib):
    r = subprocess.run([exe, model_path, lib, str(threads), str(seconds), mode] +
                       [p for p, _ in files], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip())
    return json.loads(r.stdout)


def model_flops(model_path, ports):
    """Multiply-add FLOPs (2 per MAC) of one predict() call at the compiled
    shapes: Conv, ConvTranspose, Gemm, MatMul and the recurrent cells."""
    model = onnx.load(model_path, load_external_data=False)
    shapes = {p[2]: p[4] for p in ports if p[0] == "input"}
    for vi in model.graph.input:
        if vi.name in shapes:
            for d, v in zip(vi.type.tensor_type.shape.dim, shapes[vi.name]):
                d.dim_value = v
    try:
        model = onnx.shape_inference.infer_shapes(model, data_prop=True)
    except Exception:  # noqa: BLE001 - a count is optional
        return None
    dims = {}
    for vi in list(model.graph.value_info) + list(model.graph.input) + list(model.graph.output):
        dims[vi.name] = [d.dim_value if d.HasField("dim_value") else 0
                         for d in vi.type.tensor_type.shape.dim]
    for init in model.graph.initializer:
        dims[init.name] = list(init.dims)
    total = 0
    for node in model.graph.node:
        ins = [dims.get(i, []) for i in node.input]
        out = dims.get(node.output[0], []) if node.output else []
        if node.op_type in ("Conv", "ConvTranspose") and len(ins) > 1 and ins[1]:
            w = ins[1]
            k = int(np.prod(w[1:]))  # C/group * kernel
            ref = out if node.op_type == "Conv" else ins[0]
            total += 2 * int(np.prod(ref)) * k if ref else 0
        elif node.op_type in ("Gemm", "MatMul") and len(ins) > 1 and ins[0] and ins[1] and out:
            k = ins[0][-1] if node.op_type == "MatMul" else (
                ins[0][0] if any(a.name == "transA" and a.i for a in node.attribute) else ins[0][-1])
            total += 2 * int(np.prod(out)) * k
        elif node.op_type in ("LSTM", "GRU", "RNN") and len(ins) > 2 and ins[1] and ins[2] and ins[0]:
            seq, batch = ins[0][0], ins[0][1]
            total += 2 * seq * batch * (int(np.prod(ins[1])) + int(np.prod(ins[2])))
    return total or None


def time_ctypes(gen, name, ports, files, work, args):
    """Median ns of predict() called from Python through ctypes."""
    so = os.path.join(work, f"lib{name}.so")
    sh([args.cxx, "-std=c++17", "-O3", "-DNDEBUG", "-march=native", "-fPIC", "-shared",
        "-I", gen, "-I", args.runtime, os.path.join(gen, f"{name}.cpp"),
        os.path.join(gen, f"{name}_weights.S"), "-o", so])
    lib = ctypes.CDLL(so)
    fn = getattr(lib, f"{name}_predict")
    arrays = [x for _, x in files]
    arrays += [np.zeros(p[4], dtype=CPP_TYPES[p[3]][1]) for p in ports if p[0] == "output"]
    pointers = [a.ctypes.data_as(ctypes.c_void_p) for a in arrays] + [None]
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * len(pointers)
    for _ in range(10):
        fn(*pointers)
    samples, spent, chunk = [], 0.0, 1
    while chunk < 1 << 20:
        start = time.perf_counter_ns()
        for _ in range(chunk):
            fn(*pointers)
        if time.perf_counter_ns() - start > 2e5:
            break
        chunk *= 2
    while spent < args.seconds:
        start = time.perf_counter_ns()
        for _ in range(chunk):
            fn(*pointers)
        ns = time.perf_counter_ns() - start
        samples.append(ns / chunk)
        spent += ns / 1e9
    return float(np.median(samples))


def bench_model(name, model_dir, args, lib, sklearn_timer):
    rows = []
    ident = cxx_name(name)
    model_path = os.path.join(model_dir, "model.onnx")
    batches = list(args.batches)
    if name == "classifier" and 64 not in batches:
        batches.append(64)  # the batched case
    for batch in batches:
        with tempfile.TemporaryDirectory(prefix=f"onnxcc-bench-{name}-") as work:
            exe, ports, info = build(model_dir, ident, batch, work, args)
            if exe is None:
                print(f"skip {name}: {ports}", file=sys.stderr)
                return rows
            files = inputs_for(model_dir, ports, batch, work)
            rss = {m: run_one(exe, model_path, 1, 0, m, files, lib)["peak_rss_kib"]
                   for m in ("onnxcc", "ort")}
            flops = model_flops(model_path, ports)
            ctypes_ns = time_ctypes(os.path.join(work, "gen"), ident, ports, files, work, args)
            actual = ports[0][4][0] if ports[0][4] else 1
            for threads in args.threads:
                # onnxcc at T threads is the code compiled with --threads T.
                texe = exe
                if threads > 1:
                    tdir = os.path.join(work, f"threads{threads}")
                    texe, _, _ = build(model_dir, ident, batch, tdir, args, threads)
                before = args.core_latency() if threads > 1 else None
                t = run_one(texe, model_path, threads, args.seconds, "both", files, lib)
                row = {"model": name, "batch": actual, **info, **t,
                       "onnxcc_peak_rss_kib": rss["onnxcc"], "ort_peak_rss_kib": rss["ort"],
                       "onnxcc_ctypes_median_ns": ctypes_ns, "flops": flops}
                if flops:
                    row["onnxcc_gflops"] = flops / t["onnxcc_median_ns"]
                    row["ort_gflops"] = flops / t["ort_median_ns"]
                row["ratio"] = t["ort_median_ns"] / t["onnxcc_median_ns"]
                if threads > 1:
                    row["core_latency_ns"] = [before, args.core_latency()]
                if sklearn_timer and threads == 1:
                    ns = sklearn_timer(name, files[0][1], args.seconds)
                    if ns is not None:
                        row["sklearn_median_ns"] = ns
                        row["sklearn_ratio"] = ns / t["onnxcc_median_ns"]
                rows.append(row)
                if mismatched(row):
                    print(f"bench: {name} batch {actual} threads {threads}: outputs differ from "
                          f"ORT's by {row['largest_relative_difference']:.3g} (relative)",
                          file=sys.stderr)
                cores = (f", core-to-core {row['core_latency_ns'][0]}/{row['core_latency_ns'][1]} ns"
                         if threads > 1 else "")
                print(f"{name} batch {actual} threads {threads}: onnxcc {t['onnxcc_median_ns']/1e3:.3f} us, "
                      f"ORT {t['ort_median_ns']/1e3:.3f} us, ratio {row['ratio']:.1f}x{cores}",
                      file=sys.stderr)
            if not info["dynamic_batch"]:
                break
    return rows


# Largest |onnxcc - ORT| / (1 + |ORT|) over the outputs (bench_main.cpp)
# above which a row's timing is of code that computes the wrong answer.
MISMATCH = 1e-3


def mismatched(row):
    return row.get("largest_relative_difference", 0) > MISMATCH


def fmt_us(ns):
    return f"{ns / 1e3:.3g}" if ns < 1e5 else f"{ns / 1e3:,.0f}"


def fma_peak(args, work):
    exe = os.path.join(work, "fma_peak")
    sh([args.cxx, "-O3", "-march=native", os.path.join(BENCH, "fma_peak.cpp"), "-o", exe])
    return json.loads(sh([exe]).stdout)


def core_latency_probe(args, work):
    """Builds bench/core_latency.cpp; returns a function giving the one-way
    latency between the first two CPUs now, in ns (None where unknown)."""
    exe = os.path.join(work, "core_latency")
    sh([args.cxx, "-O2", "-pthread", os.path.join(BENCH, "core_latency.cpp"), "-o", exe])
    return lambda: json.loads(sh([exe]).stdout)["ns"]


def ort_floor_model(work):
    """A one-node model (Identity of one float) in the backend-test layout:
    what ORT costs per call when the graph does nothing."""
    d = os.path.join(work, "ort_floor")
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    from onnx import TensorProto, helper
    g = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "ort_floor",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, os.path.join(d, "model.onnx"))
    t = numpy_helper.from_array(np.ones([1], np.float32), "x")
    with open(os.path.join(d, "test_data_set_0", "input_0.pb"), "wb") as f:
        f.write(t.SerializeToString())
    return d


def write_chart(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        print(f"bench: no chart ({e})", file=sys.stderr)
        return False
    labels = [f"{r['model']} b{r['batch']} {r['threads']}T" for r in rows]
    ratios = [r["ratio"] for r in rows]
    fig, ax = plt.subplots(figsize=(9, 0.28 * len(rows) + 1.2))
    colors = ["tab:green" if v >= 1 else "tab:red" for v in ratios]
    ax.barh(range(len(rows)), ratios, color=colors)
    ax.set_yticks(range(len(rows)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xlabel("ORT median / onnxcc median (log scale; > 1: onnxcc faster)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def fmt_cores(row):
    ns = row.get("core_latency_ns")
    return "–" if not ns or None in ns else f"{ns[0]:.0f} / {ns[1]:.0f}"


def write_report(rows, args, out_base, peak):
    cpu = "unknown"
    try:
        cpu = re.search(r"model name\s*:\s*(.*)", open("/proc/cpuinfo").read()).group(1)
    except (OSError, AttributeError):
        pass
    lines = [f"# onnxcc vs ONNX Runtime {rows[0]['ort_version'] if rows else ''}",
             "",
             f"{datetime.date.today()}, {cpu}, {os.cpu_count()} CPUs, {args.cxx} -O3 -march=native. "
             "Latencies in microseconds per predict() call, medians (p90 in brackets) "
             "of samples of ~0.2 ms chunks, both sides alternating in one process for "
             f"at least {args.seconds} s each. `threads` is onnxruntime's intra-op thread "
             "count and onnxcc's --threads. ORT runs with `session.force_spinning_stop=1`: "
             "its workers still spin inside a Run but stop when it returns (by default they "
             "spin on for tens of milliseconds, holding the core the other side's worker "
             "needs in this alternating run). Ratio = ORT median / onnxcc median. "
             f"FMA peak of one core: {peak['gflops']:.0f} GFLOP/s ({peak['isa']}, bench/fma_peak.cpp). "
             "GFLOP/s counts the model's operations as written (a convolution's direct "
             "multiply-adds), so a layer run as Winograd F(2,3), 2.25x fewer multiply-adds, "
             "counts more than it executes. `cores ns`, for rows of two threads or more, is the "
             "one-way latency between the first two CPUs just before and just after the row "
             f"(bench/core_latency.cpp; {args.core_latency_at_start} ns at the start of the run): "
             "a shared VM's host moves its vCPUs, and at several times the usual figure they "
             "sit on different dies, where every line one thread writes and the other reads "
             "crosses between them. Both sides' multi-threaded times are then slower, not "
             "comparable with rows measured at the usual figure.",
             "",
             "| model | batch | threads | onnxcc µs | ORT µs | ORT ÷ onnxcc | onnxcc via ctypes µs "
             "| GFLOP/s onnxcc / ORT (% of 1-core peak) | scikit-learn µs | sklearn ÷ onnxcc "
             "| code (text) | weights | peak RSS onnxcc / ORT | cores ns |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        sk = (f"{fmt_us(r['sklearn_median_ns'])} | {r['sklearn_ratio']:.0f}×"
              if "sklearn_median_ns" in r else "– | –")
        gf = (f"{r['onnxcc_gflops']:.1f} / {r['ort_gflops']:.1f} "
              f"({100 * r['onnxcc_gflops'] / peak['gflops']:.0f}% / {100 * r['ort_gflops'] / peak['gflops']:.0f}%)"
              if r.get("onnxcc_gflops") else "–")
        lines.append(
            f"| {r['model']}{' (**outputs differ from ORT**)' if mismatched(r) else ''} | {r['batch']} | {r['threads']} | {fmt_us(r['onnxcc_median_ns'])} "
            f"({fmt_us(r['onnxcc_p90_ns'])}) | {fmt_us(r['ort_median_ns'])} ({fmt_us(r['ort_p90_ns'])}) "
            f"| {r['ratio']:.2f}× | {fmt_us(r['onnxcc_ctypes_median_ns'])} | {gf} | {sk} "
            f"| {r['text_bytes']:,} B | {r['weight_bytes']:,} B "
            f"| {r['onnxcc_peak_rss_kib'] / 1024:.1f} / {r['ort_peak_rss_kib'] / 1024:.1f} MiB "
            f"| {fmt_cores(r)} |")
    lines += ["", "`ort_floor` is a one-node model (Identity of one float): ORT's cost per call "
              "when the graph does nothing. scikit-learn times an equivalent estimator (same "
              "hyperparameters, trained on synthetic data of the same shape, "
              "bench/sklearn_equivalents.py): the shipped models' estimators are not stored. Code "
              "size is the .text of the generated model's object file; weights are linked "
              "separately. Rows of a batch above the test data's mix features of random test rows. "
              "At batch 1 every call gets the same input, so branchy code (nested trees, ORT's "
              "tree walk) runs with a trained branch predictor."]
    if write_chart(rows, out_base + ".png"):
        lines += ["", f"![ratios]({os.path.basename(out_base)}.png)"]
    with open(out_base + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(out_base + ".json", "w") as f:
        json.dump({"machine": {"cpu": cpu, "cpus": os.cpu_count(), "python": platform.python_version(),
                               "fma_peak": peak,
                               "core_latency_ns_at_start": args.core_latency_at_start},
                   "rows": rows}, f, indent=1)
    print("\n".join(lines))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--models", default="*", help="glob over the model folder names")
    p.add_argument("--models-dir", default=os.path.join(ROOT, "..", "shared", "models"))
    p.add_argument("--batches", default="1", help="batches for dynamic-batch models")
    p.add_argument("--threads", default="1,2", help="thread counts: ORT intra-op threads and onnxcc --threads")
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    p.add_argument("--onnxcc", default=os.path.join(ROOT, "build", "bin", "onnxcc"))
    p.add_argument("--runtime", default=os.path.join(ROOT, "runtime-support"))
    p.add_argument("--no-sklearn", action="store_true", help="skip scikit-learn's own predict")
    p.add_argument("--label", default="bench")
    p.add_argument("--out", default=os.path.join(BENCH, "results"))
    args = p.parse_args()
    args.batches = [int(b) for b in args.batches.split(",")]
    args.threads = [int(t) for t in args.threads.split(",")]
    lib = ort_library()
    sklearn_timer = None
    if not args.no_sklearn:
        try:
            sys.path.insert(0, BENCH)
            import sklearn_equivalents
            sklearn_timer = sklearn_equivalents.timer()
        except ImportError as e:
            print(f"bench: scikit-learn timings skipped ({e})", file=sys.stderr)
    rows = []
    with tempfile.TemporaryDirectory(prefix="onnxcc-bench-") as work:
        peak = fma_peak(args, work)
        args.core_latency = core_latency_probe(args, work)
        args.core_latency_at_start = args.core_latency()
        rows += bench_model("ort_floor", ort_floor_model(work), args, lib, None)
        for model_dir in sorted(glob.glob(os.path.join(args.models_dir, args.models))):
            if os.path.isfile(os.path.join(model_dir, "model.onnx")):
                rows += bench_model(os.path.basename(model_dir), model_dir, args, lib, sklearn_timer)
    os.makedirs(args.out, exist_ok=True)
    write_report(rows, args, os.path.join(args.out, f"{datetime.date.today()}-{args.label}"), peak)
    bad = sorted({r["model"] for r in rows if mismatched(r)})
    if bad:
        sys.exit(f"bench: outputs differ from ORT's by more than {MISMATCH} (relative) for "
                 f"{', '.join(bad)}: their timings are of wrong code")


if __name__ == "__main__":
    main()
