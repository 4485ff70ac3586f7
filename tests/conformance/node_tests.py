"""Where the ONNX backend node tests of the installed onnx package live.

Older onnx wheels ship the tests' data under onnx/backend/test/data/node;
newer ones ship only the test cases (onnx/backend/test/case/node), from
which this writes the same layout (model.onnx, test_data_set_N/input_K.pb,
output_K.pb) once per onnx version into a cache directory.
"""
import os

import numpy as np
import onnx
from onnx import numpy_helper

PACKAGED = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "node")


def _write(case, out):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "model.onnx"), "wb") as f:
        f.write(case.model.SerializeToString())
    graph = case.model.graph
    for i, (inputs, outputs) in enumerate(case.data_sets):
        d = os.path.join(out, f"test_data_set_{i}")
        os.makedirs(d, exist_ok=True)
        for kind, values, infos in (("input", inputs, graph.input), ("output", outputs, graph.output)):
            for j, value in enumerate(values):
                info = infos[j].type
                if isinstance(value, onnx.TensorProto):  # types numpy lacks (float8, int4)
                    proto = onnx.TensorProto()
                    proto.CopyFrom(value)
                    proto.name = infos[j].name
                elif info.HasField("sequence_type"):
                    proto = numpy_helper.from_list(value, infos[j].name)
                elif info.HasField("optional_type"):
                    proto = numpy_helper.from_optional(value, infos[j].name)
                elif info.HasField("map_type"):
                    proto = numpy_helper.from_dict(value, infos[j].name)
                else:  # a few cases give numpy scalars or lists for tensors
                    proto = numpy_helper.from_array(np.asarray(value), infos[j].name)
                with open(os.path.join(d, f"{kind}_{j}.pb"), "wb") as f:
                    f.write(proto.SerializeToString())


def node_test_dir(cache_root):
    """The directory holding one subdirectory per node test."""
    if os.path.isdir(PACKAGED) and os.listdir(PACKAGED):
        return PACKAGED
    root = os.path.join(cache_root, f"onnx-{onnx.__version__}", "node")
    done = os.path.join(root, ".complete")
    if os.path.exists(done):
        return root
    from onnx.backend.test.case import node as node_cases
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the cases compute inf and nan on purpose
        cases = node_cases.collect_testcases()
    for case in cases:
        _write(case, os.path.join(root, case.name))
    open(done, "w").close()
    return root
