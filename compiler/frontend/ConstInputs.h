//===- ConstInputs.h - graph inputs bound at compile time -------*- C++ -*-===//
//
// --const-input NAME=FILE.pb turns graph input NAME into a constant holding
// FILE's TensorProto: the value a shape depends on (Resize's scales, Slice's
// starts, Reshape's shape, ...) is then known when the model is compiled,
// and predict() no longer takes it.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_COMPILER_FRONTEND_CONSTINPUTS_H
#define ONNXCC_COMPILER_FRONTEND_CONSTINPUTS_H

#include "compiler/frontend/OnnxImporter.h"
#include "mlir/Support/LogicalResult.h"
#include <map>
#include <string>

namespace onnxcc {

/// Moves each named graph input into the graph's initializers, its value
/// read from the TensorProto file it maps to. The file is untrusted like the
/// model: its element type must be the input's, its dims must match the
/// input's declared ones, and its data must be inline. Errors are emitted
/// at the model's location.
mlir::LogicalResult
bindConstInputs(mlir::MLIRContext &ctx, LoadedModel &model,
                const std::map<std::string, std::string> &files);

} // namespace onnxcc

#endif // ONNXCC_COMPILER_FRONTEND_CONSTINPUTS_H
