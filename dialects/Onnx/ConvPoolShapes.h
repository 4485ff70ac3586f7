//===- ConvPoolShapes.h - shape rules of convolution and pooling -*- C++ -*-===//
//
// The window every convolution and pooling op slides over its n spatial
// axes (n = 1, 2, 3, ...), and the ONNX shape rules built on it: Conv,
// ConvTranspose, the pools, MaxUnpool and Col2Im. Sizes come from untrusted
// attributes: every value is bounded by kMaxDim and every extent computed
// with CheckedInt, and errors name the values they reject.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_CONVPOOLSHAPES_H
#define ONNXCC_DIALECTS_ONNX_CONVPOOLSHAPES_H

#include "dialects/Onnx/ShapeFunctions.h"

namespace onnxcc {

/// A window over n spatial axes: `kernel`, `strides` and `dilations` hold n
/// values, `pads` 2n ([begin_0, ..., begin_n-1, end_0, ..., end_n-1]).
struct Window {
  Shape kernel, pads, strides, dilations;
  int64_t rank() const { return kernel.size(); }
  int64_t padBegin(int64_t i) const { return pads[i]; }
  int64_t padEnd(int64_t i) const { return pads[rank() + i]; }
};

/// Checks the window attributes of an op with `n` spatial axes and fills
/// ONNX's defaults into empty lists: the kernel from `kernelDefault` (a
/// weight's spatial dims; dynamic ones are an error), strides and dilations
/// 1, pads 0. Kernel, strides and dilations must lie in [1, kMaxDim], pads
/// in [0, kMaxDim], and each list must have its length.
mlir::FailureOr<Window> checkWindow(OptLoc loc, int64_t n,
                                    llvm::ArrayRef<int64_t> kernel,
                                    llvm::ArrayRef<int64_t> pads,
                                    llvm::ArrayRef<int64_t> strides,
                                    llvm::ArrayRef<int64_t> dilations,
                                    llvm::ArrayRef<int64_t> kernelDefault = {});

/// ONNX auto_pad for Conv and the pools: replaces `w.pads` for the spatial
/// extents `in` (NOTSET keeps them; VALID zeroes them; SAME_UPPER and
/// SAME_LOWER pad so that out = ceil(in / stride), the odd pixel at the end
/// or at the beginning). SAME_* needs static extents.
mlir::LogicalResult resolveAutoPad(OptLoc loc, llvm::StringRef autoPad,
                                   llvm::ArrayRef<int64_t> in, Window &w);

/// checkWindow, then resolveAutoPad, for an input of shape `x` (N, C,
/// spatial...). Fails for inputs of rank < 3.
mlir::FailureOr<Window>
resolveWindow(OptLoc loc, llvm::ArrayRef<int64_t> x, llvm::StringRef autoPad,
              llvm::ArrayRef<int64_t> kernel, llvm::ArrayRef<int64_t> pads,
              llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> dilations,
              llvm::ArrayRef<int64_t> kernelDefault = {});

/// ONNX Conv: out = floor((in + pads - dil*(k-1) - 1)/stride) + 1 per axis;
/// weight [M, C/group, k...].
mlir::FailureOr<Shape> inferConvShape(OptLoc loc, llvm::ArrayRef<int64_t> x,
                                      llvm::ArrayRef<int64_t> w,
                                      const Window &win, int64_t group);

/// ONNX MaxPool/AveragePool/LpPool, with ceil_mode (the last window must
/// start inside the input or its left padding).
mlir::FailureOr<Shape> inferPoolShape(OptLoc loc, llvm::ArrayRef<int64_t> x,
                                      const Window &win, bool ceilMode);

/// ONNX ConvTranspose: weight [C, M/group, k...], output [N, M, out...] with
/// out = stride*(in-1) + output_padding + dil*(k-1) + 1 - pads, or
/// `outputShape` (n spatial values, or n + 2 with N and C first) when given,
/// in which case the pads follow from it (and auto_pad). On success
/// `w.pads` holds the begin and end pads the output shape implies; the end
/// pads are negative when output_shape asks for more than the taps reach.
mlir::FailureOr<Shape>
inferConvTransposeShape(OptLoc loc, llvm::ArrayRef<int64_t> x,
                        llvm::ArrayRef<int64_t> weight, llvm::StringRef autoPad,
                        Window &w, llvm::ArrayRef<int64_t> outputPadding,
                        llvm::ArrayRef<int64_t> outputShape, int64_t group);

/// ONNX MaxUnpool: the shape the indices address, per axis
/// (in-1)*stride - pads + kernel; `outputShape` (the optional input, all
/// dims) may only enlarge it.
mlir::FailureOr<Shape> inferMaxUnpoolShape(OptLoc loc, llvm::ArrayRef<int64_t> x,
                                           const Window &win,
                                           std::optional<llvm::ArrayRef<int64_t>> outputShape);

/// ONNX Col2Im: input [N, C * prod(block), L] with L the number of blocks
/// the window slides over `image`; output [N, C, image...].
mlir::FailureOr<Shape> inferCol2ImShape(OptLoc loc, llvm::ArrayRef<int64_t> x,
                                        llvm::ArrayRef<int64_t> image,
                                        const Window &win);

/// The list-based forms the quantised convolutions (QuantizationShapes.cpp,
/// QuantizationPatterns.cpp) were written against, over the rules above:
/// the explicit pads for input `x` (N, C, spatial...) after auto_pad, and
/// Conv's output shape.
mlir::FailureOr<Shape> resolveAutoPad(OptLoc loc, llvm::StringRef autoPad,
                                      llvm::ArrayRef<int64_t> x,
                                      llvm::ArrayRef<int64_t> kernel,
                                      llvm::ArrayRef<int64_t> pads,
                                      llvm::ArrayRef<int64_t> strides,
                                      llvm::ArrayRef<int64_t> dilations);
mlir::FailureOr<Shape>
inferConvShape(OptLoc loc, llvm::ArrayRef<int64_t> x, llvm::ArrayRef<int64_t> w,
               llvm::ArrayRef<int64_t> kernel, llvm::ArrayRef<int64_t> pads,
               llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> dilations,
               int64_t group);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_CONVPOOLSHAPES_H
