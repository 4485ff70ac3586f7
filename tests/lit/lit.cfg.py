# lit configuration for onnxcc.
import os
import shutil
import lit.formats

config.name = "onnxcc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test", ".onnxtxt"]
config.excludes = ["tools", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.onnxcc_obj_root, "tests", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.onnxcc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
src = config.onnxcc_src_root
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%tools", os.path.join(src, "tests", "lit", "tools")))
config.substitutions.append(("%models", os.path.join(src, "tests", "e2e", "models")))
config.substitutions.append(("%runtime", os.path.join(src, "runtime-support")))
config.substitutions.append(("%hostile", os.path.join(src, "tests", "hostile")))
config.substitutions.append(("%onnxcc_obj_root", config.onnxcc_obj_root))
config.substitutions.append(("%samples", os.path.join(src, "samples")))
config.substitutions.append(("%onnxcc_bin", os.path.join(config.onnxcc_tools_dir, "onnxcc")))
shared = os.path.normpath(os.path.join(src, "..", "shared", "models"))
config.substitutions.append(("%shared_models", shared))
if os.path.isdir(os.path.join(shared, "resnet18")):
    config.available_features.add("shared-models")
for tool in ["g++", "clang++-22", "aarch64-linux-gnu-g++", "qemu-aarch64"]:
    if shutil.which(tool):
        config.available_features.add(tool)
