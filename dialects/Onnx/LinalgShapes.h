//===- LinalgShapes.h - shape rules of the linear-algebra ops --*- C++ -*-===//
//
// Gemm, MatMul and Einsum. Einsum's equation is parsed once into label
// lists (EinsumSpec) that both its shape rule and its lowering read.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_LINALGSHAPES_H
#define ONNXCC_DIALECTS_ONNX_LINALGSHAPES_H

#include "dialects/Onnx/ShapeFunctions.h"
#include "llvm/ADT/DenseMap.h"

namespace onnxcc {

/// ONNX Gemm: A' is MxK, B' is KxN, result MxN.
mlir::FailureOr<Shape> inferGemmShape(OptLoc loc, llvm::ArrayRef<int64_t> a,
                                      llvm::ArrayRef<int64_t> b, bool transA,
                                      bool transB);
/// ONNX MatMul: numpy.matmul with 1-D promotion and batch broadcasting.
mlir::FailureOr<Shape> inferMatMulShape(OptLoc loc, llvm::ArrayRef<int64_t> a,
                                        llvm::ArrayRef<int64_t> b);

/// An Einsum equation as label ids: one list per operand (one id per
/// dimension, repeated for a diagonal) and one for the output. Letters are
/// ids 0..51; the dims an ellipsis stands for get ids from kEllipsisBase
/// on, right-aligned across operands as numpy broadcasts them.
struct EinsumSpec {
  static constexpr int64_t kEllipsisBase = 64;
  llvm::SmallVector<llvm::SmallVector<int64_t, 4>> inputs;
  llvm::SmallVector<int64_t, 4> output;
};

/// Parses `equation` for operands of the given ranks: explicit (`ij,jk->ik`)
/// or implicit (`ij,jk`: the labels seen once, sorted, after the ellipsis)
/// form, spaces ignored.
mlir::FailureOr<EinsumSpec> parseEinsum(OptLoc loc, llvm::StringRef equation,
                                        llvm::ArrayRef<int64_t> ranks);

/// The extent of each label (kDynamic while unknown), checking that every
/// occurrence agrees; ellipsis dims broadcast (1 against n).
mlir::FailureOr<llvm::DenseMap<int64_t, int64_t>>
einsumLabelSizes(OptLoc loc, const EinsumSpec &spec,
                 llvm::ArrayRef<llvm::ArrayRef<int64_t>> shapes);

/// ONNX Einsum: the output's shape.
mlir::FailureOr<Shape> inferEinsumShape(OptLoc loc, const EinsumSpec &spec,
                                        llvm::ArrayRef<llvm::ArrayRef<int64_t>> shapes);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_LINALGSHAPES_H
