//===- ShapeFunctions.h - ONNX shape rules ----------------------*- C++ -*-===//
//
// One free function per ONNX shape rule, named after the operator whose
// specification section it implements. Inputs are static or dynamic
// (ShapedType::kDynamic) dimensions; errors go to `loc` when one is given,
// naming the offending values.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_SHAPEFUNCTIONS_H
#define ONNXCC_DIALECTS_ONNX_SHAPEFUNCTIONS_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace onnxcc {

using Shape = llvm::SmallVector<int64_t, 4>;
using OptLoc = std::optional<mlir::Location>;

/// ONNX "Broadcasting in ONNX": multidirectional (numpy) broadcasting.
mlir::FailureOr<Shape> inferBroadcastShape(OptLoc loc, llvm::ArrayRef<int64_t> a,
                                           llvm::ArrayRef<int64_t> b);
/// ONNX Concat: all dims but `axis` equal.
mlir::FailureOr<Shape> inferConcatShape(OptLoc loc,
                                        llvm::ArrayRef<llvm::ArrayRef<int64_t>> in,
                                        int64_t axis);
/// ONNX Reshape: 0 copies the input dim (unless allowzero), one -1 is inferred.
mlir::FailureOr<Shape> inferReshapeShape(OptLoc loc, llvm::ArrayRef<int64_t> in,
                                         llvm::ArrayRef<int64_t> target,
                                         bool allowZero);
/// ONNX Flatten: [prod(in[:axis]), prod(in[axis:])].
mlir::FailureOr<Shape> inferFlattenShape(OptLoc loc, llvm::ArrayRef<int64_t> in,
                                         int64_t axis);
/// ONNX Unsqueeze (opset 13): axes index the output.
mlir::FailureOr<Shape> inferUnsqueezeShape(OptLoc loc, llvm::ArrayRef<int64_t> in,
                                           llvm::ArrayRef<int64_t> axes);
/// ONNX Squeeze (opset 13): no axes removes every 1.
mlir::FailureOr<Shape> inferSqueezeShape(OptLoc loc, llvm::ArrayRef<int64_t> in,
                                         std::optional<llvm::ArrayRef<int64_t>> axes);
/// ONNX Transpose.
mlir::FailureOr<Shape> inferTransposeShape(OptLoc loc, llvm::ArrayRef<int64_t> in,
                                           llvm::ArrayRef<int64_t> perm);
/// ONNX Gather: data[:axis] + indices + data[axis+1:].
mlir::FailureOr<Shape> inferGatherShape(OptLoc loc, llvm::ArrayRef<int64_t> data,
                                        llvm::ArrayRef<int64_t> indices,
                                        int64_t axis);

/// A shape for an error message, [1, 3, ?, 224] (long ones shortened).
std::string formatShape(llvm::ArrayRef<int64_t> shape);
/// Attribute or constant values for an error message, [1, 2, ...].
std::string formatValues(llvm::ArrayRef<int64_t> values);

/// Normalises a possibly negative axis into [0, rank); fails outside
/// [-rank, rank).
mlir::FailureOr<int64_t> normalizeAxis(OptLoc loc, int64_t axis, int64_t rank,
                                       llvm::StringRef what = "axis");

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_SHAPEFUNCTIONS_H
