#!/usr/bin/env bash
# Builds digits_cnn.wasm for the page in this folder:
#   samples/web/build.sh ONNXCC_BINARY OUT_DIR
# onnxcc compiles tests/e2e/models/digits_cnn with the weights as a C++
# array (wasm-ld has no GNU assembler for .incbin), then clang++-22 links
# it with digits_web.cpp into a WASI reactor: no main(), no heap, and the
# C API of digits_web.cpp as its exports. OUT_DIR gets the page too, so
# it is a site to serve as it is (README.md); OUT_DIR/gen holds the
# generated sources.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$here/../.."
onnxcc="${1:?usage: build.sh ONNXCC_BINARY OUT_DIR}"
out="${2:?usage: build.sh ONNXCC_BINARY OUT_DIR}"
mkdir -p "$out/gen"
"$onnxcc" compile "$root/tests/e2e/models/digits_cnn/model.onnx" -o "$out/gen" \
  --name digits_cnn --dim batch=1 --embed-weights array
# -mexec-model=reactor: the module exports _initialize (constructors)
# instead of _start, and the page calls our exports for as long as it
# lives. --strip-debug keeps the download small; -Werror keeps the sample
# honest about warnings in the generated code.
"$root/tests/targets/wasm/wasi-c++" -std=c++17 -O2 -msimd128 -fno-exceptions -fno-rtti \
  -Wall -Wextra -Werror -mexec-model=reactor -Wl,--strip-debug \
  -I "$out/gen" -I "$root/runtime-support" \
  "$here/digits_web.cpp" "$out/gen/digits_cnn.cpp" "$out/gen/digits_cnn_weights.cpp" \
  -o "$out/digits_cnn.wasm"
cp "$here/index.html" "$here/app.js" "$here/downsample.js" "$out/"
echo "build.sh: $out/digits_cnn.wasm $(stat -c %s "$out/digits_cnn.wasm") bytes"
