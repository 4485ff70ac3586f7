#!/usr/bin/env python3
"""Writes docs/operators.md: every ONNX operator of the pinned onnx package,
whether onnxcc imports it, its opset versions onnxcc accepts, the element
types seen in passing node tests and its node-test pass count.

Sources, nothing hand-maintained:
  - onnxcc itself: one probe model holding a node of every ONNX op type; the
    ops it does not report as unsupported are the ones its importer takes,
    and its opset error names the newest default-domain opset it accepts
  - onnx.defs (every schema and its versions)
  - the node-test models (ops per test, element types by shape inference)
  - a run_node_tests.py --report JSON (which tests pass)

  .venv/bin/python tests/conformance/run_node_tests.py --report build/conformance.json
  .venv/bin/python tests/conformance/gen_operators_md.py --report build/conformance.json
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import onnx
from onnx import helper, shape_inference

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
from node_tests import node_test_dir
NODE_TEST_DIR = None  # set in main() from --cache
DEFAULT_DOMAIN = ""
COMMAND = (".venv/bin/python tests/conformance/run_node_tests.py --report build/conformance.json"
           " && .venv/bin/python tests/conformance/gen_operators_md.py"
           " --report build/conformance.json")


def run_onnxcc(onnxcc, model, work):
    path = os.path.join(work, "probe.onnx")
    onnx.save(model, path)
    proc = subprocess.run([onnxcc, "compile", path, "-o", work, "--name", "probe"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return proc.stdout.decode("utf-8", "replace")


def probe_onnxcc(onnxcc, schemas):
    """What the importer accepts, asked of onnxcc itself: (ops, lowest opset,
    highest opset). onnxcc checks the opset first, then reports every
    unsupported operator at once, so one model that holds a node of every op
    type answers which ops it imports."""
    def model(opset):
        domains = sorted({d for d, _ in schemas})
        nodes = [helper.make_node(op, ["x"], ["y_%s_%s" % (d, op)], domain=d)
                 for d, op in sorted(schemas)]
        graph = helper.make_graph(nodes, "probe", [helper.make_tensor_value_info(
            "x", onnx.TensorProto.FLOAT, [1])], [helper.make_tensor_value_info(
                nodes[0].output[0], onnx.TensorProto.FLOAT, [1])])
        return helper.make_model(graph, opset_imports=[
            helper.make_opsetid(d, opset if d == DEFAULT_DOMAIN else 1) for d in domains])

    with tempfile.TemporaryDirectory(prefix="onnxcc-probe-") as work:
        text = run_onnxcc(onnxcc, model(10 ** 6), work)
        m = re.search(r"newer than the supported (\d+)", text)
        if not m:
            sys.exit("gen_operators_md: onnxcc did not name its newest opset:\n" + text)
        highest = int(m.group(1))
        lowest = 1
        if re.search(r"\bopset\b", run_onnxcc(onnxcc, model(lowest), work)):
            sys.exit("gen_operators_md: onnxcc rejects opset 1; teach the probe its range")
        text = run_onnxcc(onnxcc, model(highest), work)
    unsupported = set()
    for m in re.finditer(r"unsupported operator '([^']*)'", text):
        domain, _, op = m.group(1).rpartition(".")
        unsupported.add(("" if domain == "ai.onnx" else domain, op))
    if not unsupported:
        sys.exit("gen_operators_md: the probe model got no unsupported-operator errors:\n" + text)
    return {key for key in schemas if key not in unsupported}, lowest, highest


def schema_versions():
    """{(domain, op): ([since_version...], deprecated)} from onnx.defs."""
    out = {}
    for s in onnx.defs.get_all_schemas_with_history():
        versions, deprecated = out.get((s.domain, s.name), ([], False))
        versions.append(s.since_version)
        out[(s.domain, s.name)] = (versions, deprecated or s.deprecated)
    return {k: (sorted(set(v)), d) for k, (v, d) in out.items()}


def type_name(elem_type):
    return onnx.TensorProto.DataType.Name(elem_type).lower()


def graph_nodes(graph):
    for node in graph.node:
        yield node
        for attr in node.attribute:
            for g in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                yield from graph_nodes(g)


def value_types(graph, types):
    for v in list(graph.input) + list(graph.output) + list(graph.value_info):
        if v.type.HasField("tensor_type") and v.type.tensor_type.elem_type:
            types[v.name] = type_name(v.type.tensor_type.elem_type)
    for t in graph.initializer:
        types[t.name] = type_name(t.data_type)
    for node in graph.node:
        for attr in node.attribute:
            for g in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                value_types(g, types)


def test_ops(name):
    """{(domain, op): set of element types} for one node test, and its opsets."""
    model = onnx.load(os.path.join(NODE_TEST_DIR, name, "model.onnx"), load_external_data=False)
    try:
        model = shape_inference.infer_shapes(model)
    except Exception:
        pass  # element types then come from the declared inputs and outputs only
    types = {}
    value_types(model.graph, types)
    for node in graph_nodes(model.graph):
        if node.op_type == "Constant":
            for attr in node.attribute:
                if attr.HasField("t"):
                    types[node.output[0]] = type_name(attr.t.data_type)
    ops = {}
    for node in graph_nodes(model.graph):
        domain = "" if node.domain == "ai.onnx" else node.domain
        seen = ops.setdefault((domain, node.op_type), set())
        seen.update(types[v] for v in list(node.input) + list(node.output) if v in types)
    opsets = {("" if o.domain == "ai.onnx" else o.domain): o.version for o in model.opset_import}
    return ops, opsets


def version_for(versions, opset):
    """The op version a model importing `opset` uses, or None."""
    usable = [v for v in versions if v <= opset]
    return max(usable) if usable else None


def markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def generate(report, onnxcc):
    schemas = schema_versions()
    supported, lowest, highest = probe_onnxcc(onnxcc, schemas)
    results = report["tests"]

    stats = {}  # (domain, op) -> {"tests", "passed", "dtypes", "versions"}
    for name in sorted(results):
        passed = results[name]["status"] == "pass"
        ops, opsets = test_ops(name)
        for key, dtypes in ops.items():
            s = stats.setdefault(key, {"tests": 0, "passed": 0, "dtypes": set(),
                                       "versions": set()})
            s["tests"] += 1
            if passed:
                s["passed"] += 1
                s["dtypes"] |= dtypes
                v = version_for(schemas.get(key, ([], False))[0], opsets.get(key[0], 0))
                if v:
                    s["versions"].add(v)

    passed = sum(1 for r in results.values() if r["status"] == "pass")
    total = len(results)
    default_ops = sorted(op for d, op in schemas if d == DEFAULT_DOMAIN)
    imported = sorted(op for d, op in supported if d == DEFAULT_DOMAIN)
    out = [
        "<!-- Generated by tests/conformance/gen_operators_md.py; do not edit. -->",
        "<!-- Regenerate: %s -->" % COMMAND,
        "",
        "# ONNX operator support",
        "",
        "What onnxcc's importer accepts (asked of onnxcc), the operators of onnx %s and "
        "a run of its node tests%s." % (report.get("onnx_version", onnx.__version__),
                                        " filtered by `%s`" % report["filter"]
                                        if report.get("filter") else ""),
        "",
        "- Node tests passed: %d of %d (%.1f%%)." % (passed, total,
                                                    100.0 * passed / total if total else 0),
        "- Of those, %d bind graph inputs that decide a shape (Resize's scales, Slice's "
        "starts, Reshape's shape, ...) to their data-set values with `--const-input`, "
        "as a user compiling that graph would; without it they fail as dynamic-shape."
        % sum(1 for r in results.values() if r.get("const_inputs")),
        "- `ai.onnx` operators imported: %d of %d; default-domain opsets accepted: %d to %d."
        % (len(imported), len(default_ops), lowest, highest),
        "- *Versions*: the operator's versions that an accepted opset selects. "
        "*Passing versions* and *passing types*: the versions and element types (of any "
        "input or output of the operator's nodes) in passing node tests. "
        "*Node tests*: passed / node tests whose graph uses the operator.",
        "",
    ]
    categories = {}
    for r in results.values():
        if r["status"] != "pass":
            categories[r["category"]] = categories.get(r["category"], 0) + 1
    if categories:
        out += ["Failing node tests by category:", "",
                markdown_table(["Category", "Tests"],
                               sorted(categories.items(), key=lambda kv: (-kv[1], kv[0]))),
                ""]

    def rows_for(domain):
        rows = []
        ops = sorted({op for d, op in schemas if d == domain} |
                     {op for d, op in stats if d == domain})
        for op in ops:
            versions, deprecated = schemas.get((domain, op), ([], False))
            s = stats.get((domain, op), {"tests": 0, "passed": 0, "dtypes": set(),
                                         "versions": set()})
            is_supported = (domain, op) in supported
            accepted = [v for v in versions if v <= highest]
            if not accepted and versions:
                first_above = min(versions)
                accepted_text = "none (first version %d)" % first_above
            else:
                accepted_text = ", ".join(str(v) for v in accepted) or "-"
            status = "yes" if is_supported else "no"
            if not versions:
                status += " (not an onnx %s op)" % onnx.__version__
            elif deprecated:
                status += " (deprecated)"
            rows.append([
                "`%s`" % op, status,
                accepted_text if is_supported else "-",
                ", ".join(str(v) for v in sorted(s["versions"])) or "-",
                ", ".join(sorted(s["dtypes"])) or "-",
                "%d / %d" % (s["passed"], s["tests"]) if s["tests"] else "-",
            ])
        return rows

    header = ["Operator", "Imported", "Versions", "Passing versions", "Passing types",
              "Node tests"]
    domains = [DEFAULT_DOMAIN] + sorted({d for d, _ in schemas if d != DEFAULT_DOMAIN} |
                                        {d for d, _ in stats if d != DEFAULT_DOMAIN})
    for domain in domains:
        out += ["## `%s`" % (domain or "ai.onnx"), "", markdown_table(header, rows_for(domain)),
                ""]
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", required=True, help="run_node_tests.py --report output")
    parser.add_argument("--cache", default=os.path.join(REPO, "build", "onnx-node-tests"),
                        help="where node tests are generated when the onnx wheel ships none")
    parser.add_argument("--onnxcc", default=os.path.join(REPO, "build", "bin", "onnxcc"),
                        help="the compiler whose importer is described")
    parser.add_argument("-o", "--output", default=os.path.join(REPO, "docs", "operators.md"))
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the output file differs instead of writing it")
    args = parser.parse_args()
    global NODE_TEST_DIR
    NODE_TEST_DIR = node_test_dir(args.cache)
    with open(args.report) as f:
        report = json.load(f)
    text = generate(report, args.onnxcc)
    if args.check:
        current = open(args.output).read() if os.path.exists(args.output) else ""
        if current != text:
            print("%s is out of date; regenerate: %s" % (args.output, COMMAND))
            return 1
        return 0
    with open(args.output, "w") as f:
        f.write(text)
    print("wrote %s" % args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
