//===- RecurrentPatterns.cpp - RNN, GRU, LSTM to their kernels ------------===//
//
// Each layer becomes one kernel op with the same operands and results; the
// kernel's attributes are the onnx op's with hidden_size made explicit
// (from R's shape when the model leaves it out). A constant f32 W of a
// layer over several rows is transposed for the input projection, a
// constant f32 R of a layer over one sequence for the recurrent steps.
//
//===----------------------------------------------------------------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

namespace {

/// The element types the recurrent kernels compute with.
LogicalResult checkRecurrentTypes(Operation *op, PatternRewriter &rewriter) {
  Type et = getElementTypeOrSelf(op->getOperand(0).getType());
  if (et.isF32() || et.isF64() || et.isF16() || et.isBF16())
    return success();
  return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
    d << "elements of type " << et
      << " are not supported here (f16, bf16, f32, f64)";
  });
}

/// W for the kernel and whether it was transposed: a constant f32 W [dirs,
/// G, I] of a layer projecting kGemmPanelRows or more rows (sequence x
/// batch) becomes [dirs, I, G], which the runtime's GEMM streams where
/// ONNX's layout takes one horizontal sum per output (lstm_classifier's 50
/// x 256 x 40 projection: 49 -> 8 us).
/// `layoutRows` is LowerToKernel's option: lay W out as if at least that
/// many rows were projected.
std::pair<Value, BoolAttr> kernelWeights(PatternRewriter &rewriter,
                                         Location loc, Value x, Value w,
                                         int64_t layoutRows) {
  auto xs = cast<ShapedType>(x.getType()).getShape();
  if (xs.size() == 3 && std::max(xs[0] * xs[1], layoutRows) >= kGemmPanelRows &&
      getElementTypeOrSelf(w.getType()).isF32())
    if (Value t = transposedWeight(rewriter, loc, w))
      return {t, rewriter.getBoolAttr(true)};
  return {w, rewriter.getBoolAttr(false)};
}

/// R for the kernel and whether it was transposed: a constant f32 R [dirs,
/// G, H] of a layer over one sequence (batch 1) becomes [dirs, H, G], so
/// each step multiplies h(k) into rows of R^T with its G outputs held in
/// vector registers, where ONNX's layout takes one horizontal sum per
/// output (lstm_classifier's 50 steps of 256 x 64: 43 -> 31 us with the
/// cell's rational tanh). Over several sequences the dot products read
/// each row of R once for all of them, so R stays; so it does under
/// `layoutRows` > 1 (shape buckets), which keeps one layout, and one copy,
/// of R for every bucket.
std::pair<Value, BoolAttr> kernelRecurrence(PatternRewriter &rewriter,
                                            Location loc, Value x, Value r,
                                            int64_t layout, int64_t layoutRows) {
  auto xs = cast<ShapedType>(x.getType()).getShape();
  if (xs.size() == 3 && std::max(xs[layout == 1 ? 0 : 1], layoutRows) == 1 &&
      getElementTypeOrSelf(r.getType()).isF32())
    if (Value t = transposedWeight(rewriter, loc, r))
      return {t, rewriter.getBoolAttr(true)};
  return {r, rewriter.getBoolAttr(false)};
}

/// hidden_size: the attribute, or R's last dimension.
IntegerAttr hiddenSize(Operation *op, Value r, std::optional<uint64_t> attr,
                       PatternRewriter &rewriter) {
  int64_t h = attr ? (int64_t)*attr
                   : cast<ShapedType>(r.getType()).getShape().back();
  return rewriter.getI64IntegerAttr(h);
}

/// A recurrent layer's pattern, which knows the layout-rows option.
template <typename Op> struct RecurrentPattern : OpRewritePattern<Op> {
  RecurrentPattern(MLIRContext *ctx, int64_t layoutRows)
      : OpRewritePattern<Op>(ctx), layoutRows(layoutRows) {}
  int64_t layoutRows;
};

struct RNNPattern : RecurrentPattern<o::RNNOp> {
  using RecurrentPattern::RecurrentPattern;
  LogicalResult matchAndRewrite(o::RNNOp op, PatternRewriter &rewriter) const override {
    if (failed(checkRecurrentTypes(op, rewriter)))
      return failure();
    auto [w, wt] = kernelWeights(rewriter, op.getLoc(), op.getX(), op.getW(), layoutRows);
    auto [r, rt] = kernelRecurrence(rewriter, op.getLoc(), op.getX(), op.getR(),
                                    op.getLayout(), layoutRows);
    rewriter.replaceOpWithNewOp<k::RNNOp>(
        op, op->getResultTypes(), op.getX(), w, r, op.getB(),
        op.getSequenceLens(), op.getInitialH(), op.getActivationsAttr(),
        op.getActivationAlphaAttr(), op.getActivationBetaAttr(),
        op.getClipAttr(), rewriter.getStringAttr(op.getDirection()),
        hiddenSize(op, op.getR(), op.getHiddenSize(), rewriter),
        rewriter.getI64IntegerAttr(op.getLayout()), wt, rt);
    return success();
  }
};

struct GRUPattern : RecurrentPattern<o::GRUOp> {
  using RecurrentPattern::RecurrentPattern;
  LogicalResult matchAndRewrite(o::GRUOp op, PatternRewriter &rewriter) const override {
    if (failed(checkRecurrentTypes(op, rewriter)))
      return failure();
    auto [w, wt] = kernelWeights(rewriter, op.getLoc(), op.getX(), op.getW(), layoutRows);
    auto [r, rt] = kernelRecurrence(rewriter, op.getLoc(), op.getX(), op.getR(),
                                    op.getLayout(), layoutRows);
    rewriter.replaceOpWithNewOp<k::GRUOp>(
        op, op->getResultTypes(), op.getX(), w, r, op.getB(),
        op.getSequenceLens(), op.getInitialH(), op.getActivationsAttr(),
        op.getActivationAlphaAttr(), op.getActivationBetaAttr(),
        op.getClipAttr(), rewriter.getStringAttr(op.getDirection()),
        hiddenSize(op, op.getR(), op.getHiddenSize(), rewriter),
        rewriter.getI64IntegerAttr(op.getLayout()), wt, rt,
        rewriter.getBoolAttr(op.getLinearBeforeReset() != 0));
    return success();
  }
};

struct LSTMPattern : RecurrentPattern<o::LSTMOp> {
  using RecurrentPattern::RecurrentPattern;
  LogicalResult matchAndRewrite(o::LSTMOp op, PatternRewriter &rewriter) const override {
    if (failed(checkRecurrentTypes(op, rewriter)))
      return failure();
    auto [w, wt] = kernelWeights(rewriter, op.getLoc(), op.getX(), op.getW(), layoutRows);
    auto [r, rt] = kernelRecurrence(rewriter, op.getLoc(), op.getX(), op.getR(),
                                    op.getLayout(), layoutRows);
    rewriter.replaceOpWithNewOp<k::LSTMOp>(
        op, op->getResultTypes(), op.getX(), w, r, op.getB(),
        op.getSequenceLens(), op.getInitialH(), op.getInitialC(), op.getP(),
        op.getActivationsAttr(), op.getActivationAlphaAttr(),
        op.getActivationBetaAttr(), op.getClipAttr(), rewriter.getStringAttr(op.getDirection()),
        hiddenSize(op, op.getR(), op.getHiddenSize(), rewriter),
        rewriter.getI64IntegerAttr(op.getLayout()), wt, rt,
        rewriter.getBoolAttr(op.getInputForget() != 0));
    return success();
  }
};

} // namespace

void populateRecurrentPatterns(RewritePatternSet &patterns, int64_t layoutRows) {
  patterns.add<RNNPattern, GRUPattern, LSTMPattern>(patterns.getContext(),
                                                    layoutRows);
}

} // namespace onnxcc
