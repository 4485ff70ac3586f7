//===- ImagePatterns.cpp - Resize as one kernel per resized axis ----------===//
#include "passes/LowerToKernel/Patterns.h"

#include "dialects/Onnx/ResizeMath.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

namespace {

/// Nearest taps have a single weight of 1: keep only that index.
void collapseNearest(AxisTaps &taps) {
  std::vector<int64_t> indices;
  for (size_t j = 0; j < taps.indices.size(); j += taps.taps) {
    int64_t pick = taps.indices[j];
    if (pick >= 0)
      for (int64_t t = 0; t < taps.taps; ++t)
        if (taps.weights[j + t] != 0)
          pick = taps.indices[j + t];
    indices.push_back(pick);
  }
  taps = AxisTaps{1, std::move(indices), {}};
}

/// Resize is separable: a chain of kernel.resize_axis, one per axis that
/// changes. Interpolated intermediates stay in f32 (f64 for f64 and integer
/// inputs) so that only the last axis rounds to the output type.
struct ResizePattern : OpRewritePattern<o::ResizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::ResizeOp op, PatternRewriter &rewriter) const override {
    auto plan = op.getPlan();
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, "scales, sizes or roi are not constants");
    ResizeAttrs attrs = op.getResizeAttrs();
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    Type element = inType.getElementType();
    bool nearest = attrs.mode == "nearest";
    if (!nearest && (!isa<FloatType, IntegerType>(element) || element.isInteger(1)))
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
        d << "cannot interpolate elements of type " << element;
      });
    Type acc = element.isF64() || isa<IntegerType>(element) ? rewriter.getF64Type()
                                                            : rewriter.getF32Type();
    Value v = op.getInput();
    SmallVector<int64_t> shape(inType.getShape());
    for (auto [i, axis] : llvm::enumerate(plan->order)) {
      AxisTaps taps = resizeAxisTaps(attrs, *plan, shape, axis);
      for (double w : taps.weights)
        if (!std::isfinite(w))
          return op.emitError() << "gives axis " << axis << " a weight of " << w
                                << " (cubic_coeff_a " << attrs.cubicCoeffA << ")";
      if (nearest)
        collapseNearest(taps);
      shape[axis] = plan->outShape[axis];
      bool last = i + 1 == plan->order.size();
      Type out = last || nearest ? element : acc;
      v = k::ResizeAxisOp::create(rewriter, op.getLoc(), RankedTensorType::get(shape, out),
                                  v, axis, taps.taps, taps.indices, taps.weights,
                                  APFloat(attrs.extrapolationValue));
    }
    if (v == op.getInput()) // every axis is the identity
      v = k::ViewOp::create(rewriter, op.getLoc(), op.getType(), v);
    rewriter.replaceOp(op, v);
    return success();
  }
};

/// GridSample is one kernel; the shape rule already checked its operands.
struct GridSamplePattern : OpRewritePattern<o::GridSampleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::GridSampleOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<k::GridSampleOp>(
        op, op.getType(), op.getInput(), op.getGrid(), op.getMode(),
        op.getPaddingMode(), op.getAlignCorners() != 0);
    return success();
  }
};

} // namespace

void populateImagePatterns(RewritePatternSet &patterns) {
  patterns.add<ResizePattern, GridSamplePattern>(patterns.getContext());
}

} // namespace onnxcc
