//===- ReductionShapes.h - shape rules of the reductions --------*- C++ -*-===//
//
// ONNX Reduce* and ArgMax/ArgMin: which axes a reduction runs over, the
// shape it leaves, and the type rules the ops of ReductionOps.td call.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_REDUCTIONSHAPES_H
#define ONNXCC_DIALECTS_ONNX_REDUCTIONSHAPES_H

#include "dialects/Onnx/ShapeFunctions.h"
#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"

namespace onnxcc {

/// ONNX Reduce* (opset 18): the axes a rank-`rank` input is reduced over,
/// normalised and sorted. Empty `axes` means all of them, or none with
/// `noopWithEmptyAxes`. Fails on an axis outside [-rank, rank) or one given
/// twice.
mlir::FailureOr<Shape> reducedAxes(OptLoc loc, llvm::ArrayRef<int64_t> axes,
                                   int64_t rank, bool noopWithEmptyAxes);

/// ONNX Reduce*: `in` with the (normalised) `reduced` dims set to 1 when
/// `keepdims`, else removed.
Shape reducedShape(llvm::ArrayRef<int64_t> in, llvm::ArrayRef<int64_t> reduced,
                   bool keepdims);

/// The type rule of Reduce*: unranked while the input is, or while `axes`
/// (null when absent) is not yet a constant.
mlir::LogicalResult inferReduceTypes(OptLoc loc, mlir::Value data,
                                     mlir::Value axes, bool keepdims,
                                     bool noopWithEmptyAxes,
                                     llvm::SmallVectorImpl<mlir::Type> &types);

/// The type rule of ArgMax/ArgMin: an i64 tensor, `axis` kept as 1 or
/// removed.
mlir::LogicalResult inferArgReduceTypes(OptLoc loc, mlir::Value data,
                                        int64_t axis, bool keepdims,
                                        llvm::SmallVectorImpl<mlir::Type> &types);

/// The type rule of GlobalMaxPool/GlobalLpPool: [N, C, D1, ...] (rank >=
/// 2) to [N, C, 1, ...].
mlir::LogicalResult inferGlobalPoolTypes(OptLoc loc, mlir::Value x,
                                         llvm::SmallVectorImpl<mlir::Type> &types);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_REDUCTIONSHAPES_H
