//===- OnnxTypes.h - element types of the onnx dialect ----------*- C++ -*-===//
//
// !onnx.string, on its own so that the kernel dialect and the emitter can
// name it without the onnx ops.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_ONNXTYPES_H
#define ONNXCC_DIALECTS_ONNX_ONNXTYPES_H

#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "dialects/Onnx/OnnxTypes.h.inc"

namespace onnxcc {
/// Whether `t` (a tensor or an element type) holds !onnx.string elements.
bool isStringTensor(mlir::Type t);
} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_ONNXTYPES_H
