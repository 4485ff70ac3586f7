//===- RecurrentPatterns.cpp - RNN, GRU, LSTM to their kernels ------------===//
//
// Each layer becomes one kernel op with the same operands and results; the
// kernel's attributes are the onnx op's with hidden_size made explicit
// (from R's shape when the model leaves it out). A constant f32 W of a
// layer over several rows is transposed for the input projection.
//
//===----------------------------------------------------------------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "dialects/Onnx/ConstantData.h"
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

/// W [dirs, G, I] as a constant [dirs, I, G] (each direction transposed)
/// when it is a constant f32 and the layer projects at least kPanelRows
/// rows: the runtime's GEMM streams the transposed form, where ONNX's takes
/// one horizontal sum per output (lstm_classifier's 50 x 256 x 40
/// projection: 49 -> 8 us). Null otherwise.
constexpr int64_t kPanelRows = 4;

Value transposedInputWeights(PatternRewriter &rewriter, Location loc, Value x,
                             Value w) {
  auto xs = cast<ShapedType>(x.getType()).getShape();
  ElementsAttr attr = getConstantElements(w);
  auto type = cast<RankedTensorType>(w.getType());
  std::vector<double> v;
  if (xs.size() != 3 || xs[0] * xs[1] < kPanelRows || !attr ||
      !type.getElementType().isF32() || type.getRank() != 3 ||
      !readAsDoubles(attr, v))
    return Value();
  int64_t dirs = type.getDimSize(0), g = type.getDimSize(1),
          in = type.getDimSize(2);
  std::vector<double> t(v.size());
  for (int64_t d = 0; d < dirs; ++d)
    for (int64_t r = 0; r < g; ++r)
      for (int64_t c = 0; c < in; ++c)
        t[(d * in + c) * g + r] = v[(d * g + r) * in + c];
  auto tType = RankedTensorType::get({dirs, in, g}, type.getElementType());
  return k::WeightOp::create(rewriter, loc, tType, makeElements(tType, t));
}

/// W for the kernel and whether it was transposed.
std::pair<Value, BoolAttr> kernelWeights(PatternRewriter &rewriter,
                                         Location loc, Value x, Value w) {
  if (Value t = transposedInputWeights(rewriter, loc, x, w))
    return {t, rewriter.getBoolAttr(true)};
  return {w, rewriter.getBoolAttr(false)};
}

/// hidden_size: the attribute, or R's last dimension.
IntegerAttr hiddenSize(Operation *op, Value r, std::optional<uint64_t> attr,
                       PatternRewriter &rewriter) {
  int64_t h = attr ? (int64_t)*attr
                   : cast<ShapedType>(r.getType()).getShape().back();
  return rewriter.getI64IntegerAttr(h);
}

struct RNNPattern : OpRewritePattern<o::RNNOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::RNNOp op, PatternRewriter &rewriter) const override {
    if (failed(checkRecurrentTypes(op, rewriter)))
      return failure();
    auto [w, wt] = kernelWeights(rewriter, op.getLoc(), op.getX(), op.getW());
    rewriter.replaceOpWithNewOp<k::RNNOp>(
        op, op->getResultTypes(), op.getX(), w, op.getR(), op.getB(),
        op.getSequenceLens(), op.getInitialH(), op.getActivationsAttr(),
        op.getActivationAlphaAttr(), op.getActivationBetaAttr(),
        op.getClipAttr(), rewriter.getStringAttr(op.getDirection()),
        hiddenSize(op, op.getR(), op.getHiddenSize(), rewriter),
        rewriter.getI64IntegerAttr(op.getLayout()), wt);
    return success();
  }
};

struct GRUPattern : OpRewritePattern<o::GRUOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::GRUOp op, PatternRewriter &rewriter) const override {
    if (failed(checkRecurrentTypes(op, rewriter)))
      return failure();
    auto [w, wt] = kernelWeights(rewriter, op.getLoc(), op.getX(), op.getW());
    rewriter.replaceOpWithNewOp<k::GRUOp>(
        op, op->getResultTypes(), op.getX(), w, op.getR(), op.getB(),
        op.getSequenceLens(), op.getInitialH(), op.getActivationsAttr(),
        op.getActivationAlphaAttr(), op.getActivationBetaAttr(),
        op.getClipAttr(), rewriter.getStringAttr(op.getDirection()),
        hiddenSize(op, op.getR(), op.getHiddenSize(), rewriter),
        rewriter.getI64IntegerAttr(op.getLayout()), wt,
        rewriter.getBoolAttr(op.getLinearBeforeReset() != 0));
    return success();
  }
};

struct LSTMPattern : OpRewritePattern<o::LSTMOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::LSTMOp op, PatternRewriter &rewriter) const override {
    if (failed(checkRecurrentTypes(op, rewriter)))
      return failure();
    auto [w, wt] = kernelWeights(rewriter, op.getLoc(), op.getX(), op.getW());
    rewriter.replaceOpWithNewOp<k::LSTMOp>(
        op, op->getResultTypes(), op.getX(), w, op.getR(), op.getB(),
        op.getSequenceLens(), op.getInitialH(), op.getInitialC(), op.getP(),
        op.getActivationsAttr(), op.getActivationAlphaAttr(),
        op.getActivationBetaAttr(), op.getClipAttr(), rewriter.getStringAttr(op.getDirection()),
        hiddenSize(op, op.getR(), op.getHiddenSize(), rewriter),
        rewriter.getI64IntegerAttr(op.getLayout()), wt,
        rewriter.getBoolAttr(op.getInputForget() != 0));
    return success();
  }
};

} // namespace

void populateRecurrentPatterns(RewritePatternSet &patterns) {
  patterns.add<RNNPattern, GRUPattern, LSTMPattern>(patterns.getContext());
}

} // namespace onnxcc
