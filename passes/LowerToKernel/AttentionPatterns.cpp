//===- AttentionPatterns.cpp - Attention as one kernel --------------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APFloat.h"
#include <cmath>

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

namespace {

/// The kernel keeps one accumulator row of the value head size on the
/// stack: bound it well below any stack limit.
constexpr int64_t kMaxValueHeadSize = 16384;

/// onnx.reference scales Q and K each by sqrt(scale) rounded to their
/// element type; the product of the two is the scale of the scores.
float scoreScale(std::optional<float> scale, int64_t headSize, Type element) {
  double s = scale ? double(*scale) : 1.0 / std::sqrt(double(std::max<int64_t>(headSize, 1)));
  llvm::APFloat root(std::sqrt(s));
  bool lost;
  root.convert(cast<FloatType>(element).getFloatSemantics(),
               llvm::APFloat::rmNearestTiesToEven, &lost);
  root.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
               &lost);
  double r = root.convertToDouble();
  return float(r * r);
}

struct AttentionPattern : OpRewritePattern<o::AttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::AttentionOp op,
                                PatternRewriter &rewriter) const override {
    auto dims = op.getDims();
    if (failed(dims))
      return rewriter.notifyMatchFailure(op, "shapes are not known");
    Type element = getElementTypeOrSelf(op.getQ().getType());
    for (Value v : {op.getK(), op.getV(), op.getPastKey(), op.getPastValue()})
      if (v && getElementTypeOrSelf(v.getType()) != element)
        return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
          d << "Q, K, V and the cache must share one element type, got "
            << element << " and " << getElementTypeOrSelf(v.getType());
        });
    if (!isa<FloatType>(element))
      return rewriter.notifyMatchFailure(op, "Attention needs float elements");
    if (dims->vHeadSize > kMaxValueHeadSize)
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
        d << "value head size " << dims->vHeadSize << " is above the supported "
          << kMaxValueHeadSize;
      });
    if (Value m = op.getAttnMask()) {
      Type me = getElementTypeOrSelf(m.getType());
      if (!isa<FloatType, IntegerType>(me))
        return rewriter.notifyMatchFailure(op, "the mask must be bool or numeric");
    }
    // Only the results that are used are computed.
    auto typeIfUsed = [&](Value r) { return r.use_empty() ? Type() : r.getType(); };
    std::optional<float> scale;
    if (auto s = op.getScale())
      scale = s->convertToFloat();
    auto kernel = k::AttentionOp::create(
        rewriter, op.getLoc(), op.getY().getType(), typeIfUsed(op.getPresentKey()),
        typeIfUsed(op.getPresentValue()), typeIfUsed(op.getQkMatmulOutput()),
        op.getQ(), op.getK(), op.getV(), op.getAttnMask(), op.getPastKey(),
        op.getPastValue(), op.getNonpadKvSeqlen(),
        rewriter.getI64IntegerAttr(dims->qHeads),
        rewriter.getI64IntegerAttr(dims->kvHeads), rewriter.getBoolAttr(dims->packed),
        rewriter.getF32FloatAttr(scoreScale(scale, dims->headSize, element)),
        op.getSoftcapAttr(), rewriter.getBoolAttr(op.getIsCausal() != 0),
        op.getLeftWindowSizeAttr(), op.getRightWindowSizeAttr(),
        op.getQkMatmulOutputModeAttr());
    SmallVector<Value> results{kernel.getY(), Value(), Value(), Value()};
    if (Value v = kernel.getPresentKey())
      results[1] = v;
    if (Value v = kernel.getPresentValue())
      results[2] = v;
    if (Value v = kernel.getQk())
      results[3] = v;
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void populateAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<AttentionPattern>(patterns.getContext());
}

} // namespace onnxcc
