//===- Passes.h - onnxcc passes ---------------------------------*- C++ -*-===//
#ifndef ONNXCC_PASSES_PASSES_H
#define ONNXCC_PASSES_PASSES_H

#include "dialects/Kernel/KernelOps.h"
#include "dialects/Onnx/OnnxOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "passes/Pipelines.h" // option defaults

namespace onnxcc {
#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace onnxcc

#endif // ONNXCC_PASSES_PASSES_H
