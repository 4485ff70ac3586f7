"""Writes small Resize and Upsample models, each with onnx.reference's
outputs, into argv[1]/<name> in the backend-test layout `onnxcc verify`
reads. They cover what the ONNX node tests feed as graph inputs (scales,
sizes, roi) as constants, the way exported models carry them, plus forms
the node tests leave out: integer and f64 elements, Upsample opsets 7 and
9, opset-10 Resize, axes, antialias with cubic, 3-D inputs.

  python make_resize_models.py OUT_DIR [NAME...]
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

rng = np.random.default_rng(5)
MODELS = {}
# onnx.reference has no Upsample-7 (scales as an attribute) and fails on
# Resize-10: onnxruntime answers for those.
ORT_REFERENCE = {"upsample_opset7", "upsample_opset9_linear", "resize_opset10"}


def vi(n, dtype, shape):
    return helper.make_tensor_value_info(n, dtype, shape)


def f32(a):
    return np.asarray(a, np.float32)


def model(name, opset, nodes, inits, feeds, outputs=("Y",)):
    m = helper.make_model(
        helper.make_graph(nodes, name,
                          [vi(k, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
                           for k, v in feeds.items()],
                          [helper.make_empty_tensor_value_info(o) for o in outputs],
                          [numpy_helper.from_array(np.asarray(v), k) for k, v in inits.items()]),
        opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    MODELS[name] = (m, feeds)


def resize(name, x, opset=19, roi=None, scales=None, sizes=None, **attrs):
    inits, ins = {}, ["X", "", "", ""]
    for slot, key, value, dtype in ((1, "roi", roi, np.float32), (2, "scales", scales, np.float32),
                                    (3, "sizes", sizes, np.int64)):
        if value is not None:
            inits[key] = np.asarray(value, dtype)
            ins[slot] = key
    if opset < 11:  # Resize-10 takes X and scales only
        ins = ["X", ins[2]]
    while ins and ins[-1] == "":
        ins.pop()
    model(name, opset, [helper.make_node("Resize", ins, ["Y"], name="Y", **attrs)],
          inits, {"X": x})


img = rng.standard_normal((1, 2, 5, 7)).astype(np.float32)
resize("nearest_modes_floor", img, scales=[1, 1, 1.6, 0.6], mode="nearest",
       coordinate_transformation_mode="asymmetric", nearest_mode="floor")
resize("nearest_ceil_align", img, sizes=[1, 2, 9, 4], mode="nearest",
       coordinate_transformation_mode="align_corners", nearest_mode="ceil")
resize("nearest_round_up_half_pixel", img, scales=[1, 1, 2.5, 1.5], mode="nearest",
       nearest_mode="round_prefer_ceil")
resize("linear_half_pixel_down", img, scales=[1, 1, 0.6, 0.45], mode="linear")
resize("linear_pytorch_half_pixel", img, sizes=[1, 2, 1, 11], mode="linear",
       coordinate_transformation_mode="pytorch_half_pixel")
resize("linear_antialias", img, scales=[1, 1, 0.5, 0.4], mode="linear", antialias=1)
resize("cubic_exclude_outside", img, scales=[1, 1, 1.7, 2.0], mode="cubic",
       cubic_coeff_a=-0.5, exclude_outside=1)
resize("cubic_antialias", img, sizes=[1, 2, 3, 3], mode="cubic", antialias=1)
resize("half_pixel_symmetric", img, scales=[1, 1, 1.3, 0.7], mode="linear",
       coordinate_transformation_mode="half_pixel_symmetric")
resize("tf_crop_and_resize", img, roi=[0, 0, 0.2, -0.3, 1, 1, 0.9, 1.2], sizes=[1, 2, 4, 6],
       mode="linear", coordinate_transformation_mode="tf_crop_and_resize",
       extrapolation_value=7.5)
resize("axes_not_larger", img, sizes=[8, 8], axes=[3, 2], mode="cubic",
       keep_aspect_ratio_policy="not_larger")
resize("axes_not_smaller", img, sizes=[3, 3], axes=[2, 3], mode="linear",
       keep_aspect_ratio_policy="not_smaller")
resize("int8_linear", rng.integers(-128, 128, (1, 1, 3, 4)).astype(np.int8),
       scales=[1, 1, 2.3, 1.7], mode="linear")
resize("uint8_cubic", rng.integers(0, 256, (1, 3, 4, 1)).astype(np.uint8),
       sizes=[1, 3, 7, 1], mode="cubic")
resize("int32_nearest", rng.integers(-1000, 1000, (2, 3, 4)).astype(np.int32),
       scales=[1, 2, 0.5], mode="nearest")
resize("f64_linear_3d", rng.standard_normal((2, 3, 4)).astype(np.float64),
       scales=[1.5, 1, 2.25], mode="linear")
resize("resize_opset10", img, opset=10, scales=[1, 1, 2, 1.5], mode="linear")
resize("resize_opset11_roi_unused", img, opset=11, roi=[], scales=[1, 1, 0.8, 1.3],
       mode="cubic")
model("upsample_opset7", 7, [helper.make_node("Upsample", ["X"], ["Y"], name="Y",
                                              scales=[1.0, 1.0, 2.0, 3.0], mode="nearest")],
      {}, {"X": img})
model("upsample_opset9_linear", 9, [helper.make_node("Upsample", ["X", "s"], ["Y"], name="Y",
                                                     mode="linear")],
      {"s": f32([1, 1, 2, 2.5])}, {"X": img})

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
    d = os.path.join(out_dir, name, "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    del m.graph.output[:]
    for i, r in enumerate(results):
        r = np.asarray(r)
        m.graph.output.append(vi("Y", helper.np_dtype_to_tensor_dtype(r.dtype), r.shape))
        onnx.save_tensor(numpy_helper.from_array(r, "Y"), os.path.join(d, f"output_{i}.pb"))
    for i, (k, v) in enumerate(feeds.items()):
        onnx.save_tensor(numpy_helper.from_array(v, k), os.path.join(d, f"input_{i}.pb"))
    onnx.save(m, os.path.join(out_dir, name, "model.onnx"))
