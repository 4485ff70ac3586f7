#!/usr/bin/env python3
"""Builds a model's generated code for a small target, runs it there on the
first data set and reports what the target pays for it.

  target_report.py --target cortex-m7|wasm32 --onnxcc BIN MODEL_DIR... [--work DIR]
                   [--inject-heap malloc|new] [--json FILE]

For each model: compiles it with onnxcc (batch pinned by the data set),
writes a program that embeds test_data_set_0's inputs and calls predict()
with a static workspace, builds it with the target's toolchain and runs it
(QEMU's mps2-an500 Cortex-M7 through semihosting, or node's WASI). The
outputs are compared with output_K.pb (|got - ref| <= 1e-4 + 1e-4 |ref|,
as `onnxcc verify`). Printed per model: flash (text + rodata + data
initialisers) and weights, RAM (data + bss, the arena among them) and the
measured stack high-water mark, the sum of every intermediate tensor (what
a runtime without a memory plan would hold), and the time of one call:
instructions executed under QEMU's -icount (deterministic; a Cortex-M7
retires about one per cycle), or nanoseconds in node.

The Cortex-M program links with mps2_an500.ld, which fails the link if
malloc or operator new is referenced: --inject-heap adds such a call to
show that it does. Exit status 1 on any mismatch or failure.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
RUNTIME = os.path.join(HERE, "..", "..", "runtime-support")
CORTEX_M_FLAGS = ["-mcpu=cortex-m7", "-mfpu=fpv5-d16", "-mfloat-abi=hard", "-mthumb"]
COMMON_FLAGS = ["-std=c++17", "-O2", "-fno-exceptions", "-fno-rtti", "-Wall",
                "-Wextra", "-Werror"]


def fail(model, message):
    print(f"error: {model}: {message}", file=sys.stderr)
    sys.exit(1)


def run(cmd, model, what, **kw):
    if "stderr" in kw:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, **kw)
    else:
        p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        fail(model, f"{what} failed (exit {p.returncode}): "
             + (p.stderr or p.stdout).strip().splitlines()[-1:][0]
             if (p.stderr or p.stdout).strip() else f"{what} failed")
    return p


def load_set(model_dir):
    d = os.path.join(model_dir, "test_data_set_0")
    def tensors(kind):
        out, k = [], 0
        while os.path.exists(os.path.join(d, f"{kind}_{k}.pb")):
            t = onnx.TensorProto()
            with open(os.path.join(d, f"{kind}_{k}.pb"), "rb") as f:
                t.ParseFromString(f.read())
            out.append(numpy_helper.to_array(t))
            k += 1
        return out
    return tensors("input"), tensors("output")


def symbolic_dims(model_dir, inputs):
    """--dim bindings for each graph input's named dims, from the data."""
    graph = onnx.load(os.path.join(model_dir, "model.onnx"),
                      load_external_data=False).graph
    inits = {i.name for i in graph.initializer}
    dims = {}
    real = [i for i in graph.input if i.name not in inits]
    for vi, value in zip(real, inputs):
        for axis, d in enumerate(vi.type.tensor_type.shape.dim):
            if d.dim_param:
                dims[d.dim_param] = value.shape[axis]
    return [a for k, v in sorted(dims.items()) for a in ("--dim", f"{k}={v}")]


def c_bytes(array):
    data = np.ascontiguousarray(array).tobytes()
    return ",".join(str(b) for b in data) or "0"


def main_source(inputs, n_outputs, repeats, inject):
    lines = ['#include "model.h"', '#include "board.h"', "#include <cstring>"]
    if inject:
        lines.append("#include <cstdlib>\n#include <new>")
    for k, x in enumerate(inputs):
        lines.append(f"alignas(8) static const unsigned char kIn{k}[] = {{{c_bytes(x)}}};")
        lines.append(f"static model::Input{k} in{k};")
    for k in range(n_outputs):
        lines.append(f"static model::Output{k} out{k};")
    lines += ["static model::Workspace workspace;", "",
              "static void dump(const char *label, const void *p, std::size_t n) {",
              "  board_puts(label);",
              "  const unsigned char *b = static_cast<const unsigned char *>(p);",
              "  for (std::size_t i = 0; i < n; i += 4) {",
              "    uint32_t w = 0;",
              "    std::memcpy(&w, b + i, n - i < 4 ? n - i : 4);",
              "    board_put_hex(w);",
              "    board_puts(\" \");",
              "  }",
              "  board_puts(\"\\n\");",
              "}", "",
              "int main(int, char **) {"]
    if inject == "malloc":
        lines.append("  void *volatile leak = std::malloc(16);\n  (void)leak;")
    elif inject == "new":
        lines.append("  int *volatile leak = new int(1);\n  (void)leak;")
    for k in range(len(inputs)):
        lines.append(f"  std::memcpy(&in{k}, kIn{k}, sizeof in{k});")
    args = ", ".join([f"in{k}" for k in range(len(inputs))] +
                     [f"out{k}" for k in range(n_outputs)] + ["workspace"])
    lines += ["  uint64_t best = ~uint64_t(0);",
              f"  for (int r = 0; r < {repeats}; ++r) {{",
              "    uint64_t t0 = board_ticks();",
              f"    model::predict({args});",
              "    uint64_t t = board_ticks() - t0;",
              "    if (t < best) best = t;",
              "  }",
              '  board_puts("ticks "); board_put_dec(best); board_puts("\\n");',
              '  board_puts("stack "); board_put_dec(board_stack_used()); board_puts("\\n");']
    for k in range(n_outputs):
        lines.append(f'  dump("output {k} ", &out{k}, sizeof out{k});')
    lines += ["  return 0;", "}"]
    return "\n".join(lines) + "\n"


def section_sizes(tool, exe):
    out = subprocess.run([tool, "-A", exe], capture_output=True, text=True,
                         check=True).stdout
    sizes = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith(".") and parts[1].isdigit():
            sizes[parts[0]] = int(parts[1])
    return sizes


def compare(model, k, got_hex, ref):
    words = np.array([int(w, 16) for w in got_hex], dtype="<u4").tobytes()
    got = np.frombuffer(words[:ref.nbytes], dtype=ref.dtype).reshape(ref.shape)
    a, b = got.astype(np.float64), ref.astype(np.float64)
    err = np.abs(a - b)
    bad = int((err > 1e-4 + 1e-4 * np.abs(b)).sum())
    if bad:
        fail(model, f"output {k}: {bad} of {ref.size} values out of tolerance "
             f"(max abs err {err.max():.3g})")
    return float(err.max()) if err.size else 0.0


def report_model(args, model_dir):
    name = os.path.basename(os.path.normpath(model_dir))
    work = os.path.join(args.work, f"{args.target}-{name}")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    inputs, refs = load_set(model_dir)
    wasm = args.target == "wasm32"
    run([args.onnxcc, "compile", os.path.join(model_dir, "model.onnx"), "-o", work,
         "--name", "model"] + symbolic_dims(model_dir, inputs)
        + (["--embed-weights", "array"] if wasm else []), name, "onnxcc compile")
    header = open(os.path.join(work, "model.h")).read()
    source = open(os.path.join(work, "model.cpp")).read()
    arena = int(re.search(r"kWorkspaceBytes = (\d+)", header).group(1))
    plan = re.search(r"all intermediates (\d+) bytes", source)
    weights = int(re.search(r"The weights of model, (\d+) bytes",
                            open(os.path.join(work, "model_weights.cpp" if wasm
                                              else "model_weights.S")).read()).group(1))
    with open(os.path.join(work, "main.cpp"), "w") as f:
        f.write(main_source(inputs, len(refs), 20 if wasm else 2, args.inject_heap))
    exe = os.path.join(work, "model.wasm" if wasm else "model.elf")
    sources = [os.path.join(work, "main.cpp"), os.path.join(work, "model.cpp")]
    includes = ["-I" + work, "-I" + HERE, "-I" + os.path.abspath(RUNTIME)]
    if wasm:
        cmd = [os.path.join(HERE, "wasm", "wasi-c++"), "-msimd128"] + COMMON_FLAGS + \
            includes + sources + [os.path.join(work, "model_weights.cpp"),
                                  os.path.join(HERE, "wasm", "board.cpp"), "-o", exe]
    else:
        cm = os.path.join(HERE, "cortex-m")
        cmd = ["arm-none-eabi-g++"] + CORTEX_M_FLAGS + COMMON_FLAGS + includes + \
            ["-ffunction-sections", "-fdata-sections", "-nostartfiles",
             "-Wl,--gc-sections", "-Wl,--no-warn-execstack",
             "-T", os.path.join(cm, "mps2_an500.ld"), "-Wl,-Map=" + exe + ".map"] + \
            sources + [os.path.join(work, "model_weights.S"),
                       os.path.join(cm, "startup.cpp"), "-lm", "-o", exe]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        heap = [l for l in p.stderr.splitlines() if "heap use" in l]
        fail(name, heap[0].split(": ", 1)[-1] if heap else
             "building for " + args.target + " failed: " + p.stderr.strip()[-2000:])
    if wasm:
        run_cmd = ["node", "--no-warnings", os.path.join(HERE, "wasm", "wasi-run.mjs"), exe]
    else:
        run_cmd = ["qemu-system-arm", "-M", "mps2-an500", "-nographic", "-monitor", "none",
                   "-serial", "none", "-icount", "shift=0",
                   "-semihosting-config", "enable=on,target=native", "-kernel", exe]
    # QEMU writes semihosting output to stderr when stdout is not a terminal.
    p = run(run_cmd, name, "running on " + args.target, timeout=600,
            **({} if wasm else {"stderr": subprocess.STDOUT}))
    lines = dict(l.split(" ", 1) for l in p.stdout.splitlines() if " " in l)
    ticks, stack = int(lines["ticks"]), int(lines["stack"])
    max_err = 0.0
    for k, ref in enumerate(refs):
        got = p.stdout.split(f"output {k} ", 1)[1].splitlines()[0].split()
        max_err = max(max_err, compare(name, k, got, ref))
    result = {"model": name, "target": args.target, "weights": weights, "arena": arena,
              "all_intermediates": int(plan.group(1)) if plan else None,
              "max_abs_err": max_err}
    if wasm:
        result.update(wasm_bytes=os.path.getsize(exe), ns_per_call=ticks)
        print(f"{name} wasm32: ok (max abs err {max_err:.2g}); .wasm {os.path.getsize(exe)} "
              f"bytes (weights {weights}); arena {arena}; "
              f"{ticks / 1000:.1f} us per call in node (best of 20)")
    else:
        s = section_sizes("arm-none-eabi-size", exe)
        flash = sum(s.get(k, 0) for k in (".text", ".ARM.exidx", ".ARM.extab",
                                           ".init_array", ".data"))
        ram = s.get(".data", 0) + s.get(".bss", 0)
        # SysTick runs at 25 MHz of virtual time; -icount shift=0 makes one
        # instruction 1 ns, so 40 instructions per tick.
        result.update(flash=flash, ram_static=ram, stack=stack, instructions=ticks * 40)
        print(f"{name} cortex-m7: ok (max abs err {max_err:.2g}); flash {flash} bytes "
              f"(weights {weights}); RAM {ram} static (arena {arena}) + {stack} stack; "
              f"all intermediates {result['all_intermediates']}; "
              f"{ticks * 40} instructions per call")
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="+")
    ap.add_argument("--target", choices=["cortex-m7", "wasm32"], required=True)
    ap.add_argument("--onnxcc", required=True)
    ap.add_argument("--work", default=None)
    ap.add_argument("--inject-heap", choices=["malloc", "new"])
    ap.add_argument("--json")
    args = ap.parse_args()
    if args.work is None:
        import tempfile
        args.work = tempfile.mkdtemp(prefix="onnxcc-target-")
    results = [report_model(args, m) for m in args.models]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
