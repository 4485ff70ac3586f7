#!/usr/bin/env python3
"""Cuts a model into one-layer models, to compare onnxcc and ONNX Runtime
layer by layer:

    .venv/bin/python bench/split_layers.py MODEL.onnx OUT_DIR [--ops Conv,MaxPool]
    .venv/bin/python bench/run.py --models-dir OUT_DIR --models '*' --threads 1,2

Each node of the given op types (with a Relu or Clip right after it, as
onnxcc fuses them, and the Constant nodes they read) becomes
OUT_DIR/NN_OP_SHAPE/model.onnx with a random input in test_data_set_0, the
backend-test layout bench/run.py reads. Layers of the same op, shapes and
attributes are written once; the listing says how many times each occurs.

A single-layer model is not the layer inside its model: ONNX Runtime
reorders each one's input and output to and from its blocked layout
(NCHWc), which inside the model happens once, so its per-layer times are
pessimistic. A layer where it still wins is one to look at."""
import argparse
import os

import numpy as np
import onnx
from onnx import helper, numpy_helper, shape_inference

FUSED = ("Relu", "Clip")


def dims(value_info):
    return [d.dim_value for d in value_info.type.tensor_type.shape.dim]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model")
    ap.add_argument("out")
    ap.add_argument("--ops", default="Conv", help="comma-separated op types (Conv)")
    args = ap.parse_args()
    ops = set(args.ops.split(","))

    model = shape_inference.infer_shapes(onnx.load(args.model))
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    infos = {v.name: v for v in list(graph.value_info) + list(graph.input) + list(graph.output)}
    producer = {o: n for n in graph.node for o in n.output}
    consumers = {}
    for n in graph.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)

    layers = {}  # key -> [directory name, occurrences]
    for node in graph.node:
        if node.op_type not in ops:
            continue
        nodes = [node]
        after = consumers.get(node.output[0], [])
        if len(after) == 1 and after[0].op_type in FUSED:
            nodes.append(after[0])
        x, y = node.input[0], nodes[-1].output[0]
        if x not in infos or y not in infos or not all(dims(infos[x])) or not all(dims(infos[y])):
            print(f"skip {node.name or node.op_type}: no static shape for its input or output")
            continue
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        weight = list(inits[node.input[1]].dims) if len(node.input) > 1 and node.input[1] in inits else []
        key = (node.op_type, tuple(dims(infos[x])), tuple(dims(infos[y])), tuple(weight),
               repr(sorted(attrs.items())), tuple(n.op_type for n in nodes))
        if key in layers:
            layers[key][1] += 1
            continue
        constants = [producer[i] for n in nodes for i in n.input
                     if i in producer and producer[i].op_type == "Constant"]
        used = {i: inits[i] for n in nodes for i in n.input if i in inits and i != x}
        xt, yt = infos[x].type.tensor_type, infos[y].type.tensor_type
        layer = helper.make_graph(
            constants + nodes, "layer",
            [helper.make_tensor_value_info(x, xt.elem_type, dims(infos[x]))],
            [helper.make_tensor_value_info(y, yt.elem_type, dims(infos[y]))], list(used.values()))
        one = helper.make_model(layer, opset_imports=model.opset_import, producer_name="split_layers")
        one.ir_version = model.ir_version
        shape = "x".join(map(str, dims(infos[x])[1:]))
        name = f"{len(layers):02d}_{node.op_type}_{shape}_to_{dims(infos[y])[1]}"
        if weight[2:]:
            name += "_k" + "x".join(map(str, weight[2:]))
        if attrs.get("group", 1) != 1:
            name += f"_g{attrs['group']}"
        if any(s != 1 for s in attrs.get("strides", [])):
            name += f"_s{attrs['strides'][0]}"
        d = os.path.join(args.out, name)
        os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
        onnx.save(one, os.path.join(d, "model.onnx"))
        data = np.random.default_rng(0).random(dims(infos[x]), dtype=np.float32)
        with open(os.path.join(d, "test_data_set_0", "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(data, x).SerializeToString())
        layers[key] = [name, 1]
    for name, count in layers.values():
        print(f"{count} x {name}")


if __name__ == "__main__":
    main()
