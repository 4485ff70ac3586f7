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

namespace onnxcc {

using Shape = llvm::SmallVector<int64_t, 4>;
using OptLoc = std::optional<mlir::Location>;

/// ONNX "Broadcasting in ONNX": multidirectional (numpy) broadcasting.
mlir::FailureOr<Shape> inferBroadcastShape(OptLoc loc, llvm::ArrayRef<int64_t> a,
                                           llvm::ArrayRef<int64_t> b);
/// ONNX Gemm: A' is MxK, B' is KxN, result MxN.
mlir::FailureOr<Shape> inferGemmShape(OptLoc loc, llvm::ArrayRef<int64_t> a,
                                      llvm::ArrayRef<int64_t> b, bool transA,
                                      bool transB);
/// ONNX MatMul: numpy.matmul with 1-D promotion and batch broadcasting.
mlir::FailureOr<Shape> inferMatMulShape(OptLoc loc, llvm::ArrayRef<int64_t> a,
                                        llvm::ArrayRef<int64_t> b);
/// ONNX auto_pad for Conv and the pools: the explicit [top, left, bottom,
/// right] pads for a static NCHW input. NOTSET returns `pads` unchanged.
mlir::FailureOr<Shape> resolveAutoPad(OptLoc loc, llvm::StringRef autoPad,
                                      llvm::ArrayRef<int64_t> x,
                                      llvm::ArrayRef<int64_t> kernel,
                                      llvm::ArrayRef<int64_t> pads,
                                      llvm::ArrayRef<int64_t> strides,
                                      llvm::ArrayRef<int64_t> dilations);
/// ONNX Conv (2-D, NCHW): out = floor((in + pads - dil*(k-1) - 1)/stride) + 1.
mlir::FailureOr<Shape>
inferConvShape(OptLoc loc, llvm::ArrayRef<int64_t> x, llvm::ArrayRef<int64_t> w,
               llvm::ArrayRef<int64_t> kernel, llvm::ArrayRef<int64_t> pads,
               llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> dilations,
               int64_t group);
/// ONNX MaxPool/AveragePool (2-D, NCHW), with ceil_mode.
mlir::FailureOr<Shape>
inferPoolShape(OptLoc loc, llvm::ArrayRef<int64_t> x,
               llvm::ArrayRef<int64_t> kernel, llvm::ArrayRef<int64_t> pads,
               llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> dilations,
               bool ceilMode);
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

/// Normalises a possibly negative axis into [0, rank); fails outside
/// [-rank, rank).
mlir::FailureOr<int64_t> normalizeAxis(OptLoc loc, int64_t axis, int64_t rank,
                                       llvm::StringRef what = "axis");

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_SHAPEFUNCTIONS_H
