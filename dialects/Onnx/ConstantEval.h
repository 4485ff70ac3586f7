//===- ConstantEval.h - compile-time arithmetic on constants ----*- C++ -*-===//
//
// The one implementation of constant arithmetic: the op folders (small
// shape arithmetic) and --onnxcc-fold-constants (larger tensors, up to a
// size limit) both call it, so they agree on broadcasting and on integer
// rules. Integers are computed as integers (never through double, which
// loses values above 2^53) and wrap like the generated code; an integer
// division by zero is not folded (left to run time).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_CONSTANTEVAL_H
#define ONNXCC_DIALECTS_ONNX_CONSTANTEVAL_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

namespace onnxcc {

enum class BinaryKind { Add, Sub, Mul, Div };

/// `a op b` with numpy broadcasting to `resultType` (static), or null when
/// an operand cannot be read or an integer division by zero occurs.
mlir::ElementsAttr evalBinary(BinaryKind kind, mlir::ElementsAttr a,
                              mlir::ElementsAttr b,
                              mlir::RankedTensorType resultType);

/// For each element of a tensor of shape `out`, the linear index of the
/// element of a tensor of shape `in` broadcast to it (numpy rules), in
/// order. One pass, no per-element division.
std::vector<int64_t> broadcastIndices(llvm::ArrayRef<int64_t> out,
                                      llvm::ArrayRef<int64_t> in);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_CONSTANTEVAL_H
