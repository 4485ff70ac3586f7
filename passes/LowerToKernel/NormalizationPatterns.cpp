//===- NormalizationPatterns.cpp - Softmax and normalisations -------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "dialects/Onnx/ShapeFunctions.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

namespace {

struct SoftmaxPattern : OpRewritePattern<o::SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::SoftmaxOp s, PatternRewriter &rewriter) const override {
    auto type = cast<ShapedType>(s.getType());
    if (!isa<FloatType>(type.getElementType()))
      return rewriter.notifyMatchFailure(s, "Softmax needs float elements");
    auto axis = normalizeAxis(std::nullopt, (int64_t)s.getAxis(), type.getRank());
    if (failed(axis))
      return rewriter.notifyMatchFailure(s, "axis out of range");
    rewriter.replaceOpWithNewOp<k::SoftmaxOp>(s, type, s.getInput(), *axis);
    return success();
  }
};

} // namespace

void populateNormalizationPatterns(RewritePatternSet &patterns) {
  patterns.add<SoftmaxPattern>(patterns.getContext());
}

} // namespace onnxcc
