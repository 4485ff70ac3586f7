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

# Small targets (tests/targets): Cortex-M7 under qemu-system-arm and
# wasm32-wasip1 under node, each with the toolchain scripts/setup installs.
targets = os.path.join(src, "tests", "targets")
config.substitutions.append(("%targets", targets))
cortex_m = os.path.join(targets, "cortex-m")
config.substitutions.append(("%cortex_m_verify", " ".join([
    "--cxx arm-none-eabi-g++",
    '--cxxflags "-mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard -mthumb -O2'
    " -fno-exceptions -fno-rtti -Wall -Wextra -Werror -nostartfiles"
    " --specs=rdimon.specs -Wl,--no-warn-execstack"
    " -T " + os.path.join(cortex_m, "mps2_an500.ld") +
    " -Wl,--defsym=ONNXCC_ALLOW_HEAP=1 -DONNXCC_SEMIHOST_STDIO -I" + targets +
    " " + os.path.join(cortex_m, "startup.cpp") + '"',
    "--exec-wrapper " + os.path.join(cortex_m, "qemu-run")])))
config.substitutions.append(("%wasm_verify", " ".join([
    "--embed-weights array",
    "--cxx " + os.path.join(targets, "wasm", "wasi-c++"),
    '--cxxflags "-O2 -msimd128 -fno-exceptions -fno-rtti -Wall -Wextra -Werror"',
    '--exec-wrapper "node --no-warnings ' +
    os.path.join(targets, "wasm", "wasi-run.mjs") + '"'])))
# Headless Chromium loads samples/web's page (e2e/web_page.test).
for tool in ["arm-none-eabi-g++", "qemu-system-arm", "node", "chromium"]:
    if shutil.which(tool):
        config.available_features.add(tool)
if all(os.path.exists(p) for p in ["/usr/lib/wasm32-wasi/libc.a",
                                   "/usr/lib/wasm32-wasi/libc++.a",
                                   "/usr/lib/llvm-22/bin/wasm-ld"]):
    config.available_features.add("wasi-sysroot")
