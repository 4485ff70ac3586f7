//===- MlPatterns.cpp - ai.onnx.ml ops as one kernel each -----------------===//
//
// The importer already normalised the ml ops into constant operands and
// small integer attributes; lowering checks that every shape is static and
// moves the op to the kernel level, the SVM's support vectors transposed
// (the string tables unchanged: their strings stay attributes until the
// emitter prints them).
//
//===----------------------------------------------------------------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

namespace {

bool allStatic(Operation *op) {
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
    auto s = dyn_cast<RankedTensorType>(t);
    if (!s || !s.hasStaticShape())
      return false;
  }
  return true;
}

struct TreeEnsemblePattern : OpRewritePattern<o::MlTreeEnsembleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::MlTreeEnsembleOp op,
                                PatternRewriter &rewriter) const override {
    if (!allStatic(op))
      return rewriter.notifyMatchFailure(op, "shapes are not known");
    rewriter.replaceOpWithNewOp<k::MlTreeEnsembleOp>(
        op, op.getType(), op.getX(), op.getNodes(), op.getThresholds(),
        op.getMembers(), op.getRoots(), op.getTargets(), op.getWeights(),
        op.getBase(), op.getNTargetsAttr(), op.getDepthAttr(),
        op.getAggregateAttr(), op.getPostTransformAttr(), op.getBinaryAttr(),
        op.getMaxFeatureAttr(), op.getBranchModeAttr(), op.getMissingAttr(),
        op.getDenseLeavesAttr(), rewriter.getBoolAttr(false));
    return success();
  }
};

struct SvmClassifierPattern : OpRewritePattern<o::MlSvmClassifierOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::MlSvmClassifierOp op,
                                PatternRewriter &rewriter) const override {
    if (!allStatic(op))
      return rewriter.notifyMatchFailure(op, "shapes are not known");
    // [vectors, F] becomes [F, vectors]: the kernel computes every support
    // vector's kernel value at once, feature by feature, in contiguous loads.
    Value svT = transposedWeight(rewriter, op.getLoc(), op.getSupportVectors());
    if (!svT)
      return rewriter.notifyMatchFailure(op, "support vectors not constant");
    SmallVector<Value> operands(op->getOperands());
    operands[1] = svT;
    rewriter.replaceOpWithNewOp<k::MlSvmClassifierOp>(
        op, op.getResultTypes(), operands, op->getAttrs());
    return success();
  }
};

/// x[..., flat(indices)]: the indices viewed as a vector, a run-time
/// kernel.gather on the last axis (which clamps out-of-range indices), and a
/// view to [1, K] for a 1-D x.
struct ArrayFeatureExtractorPattern
    : OpRewritePattern<o::MlArrayFeatureExtractorOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::MlArrayFeatureExtractorOp op,
                                PatternRewriter &rewriter) const override {
    if (!allStatic(op))
      return rewriter.notifyMatchFailure(op, "shapes are not known");
    auto x = cast<RankedTensorType>(op.getX().getType());
    auto idx = cast<RankedTensorType>(op.getIndices().getType());
    Location loc = op.getLoc();
    Value flat = op.getIndices();
    if (idx.getRank() != 1)
      flat = k::ViewOp::create(rewriter, loc,
                               RankedTensorType::get({idx.getNumElements()},
                                                     idx.getElementType()),
                               flat);
    SmallVector<int64_t> shape(x.getShape().drop_back());
    shape.push_back(idx.getNumElements());
    Value y = k::GatherOp::create(
        rewriter, loc, RankedTensorType::get(shape, x.getElementType()),
        op.getX(), flat, x.getRank() - 1);
    if (x.getRank() == 1)
      y = k::ViewOp::create(rewriter, loc, op.getType(), y);
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// The string ops keep their tables as attributes; only the shapes must be
/// static.
template <typename From, typename To>
struct StringOpPattern : OpRewritePattern<From> {
  using OpRewritePattern<From>::OpRewritePattern;
  LogicalResult matchAndRewrite(From op,
                                PatternRewriter &rewriter) const override {
    if (!allStatic(op))
      return rewriter.notifyMatchFailure(op, "shapes are not known");
    rewriter.replaceOpWithNewOp<To>(op, op->getResultTypes(), op->getOperands(),
                                    op->getAttrs());
    return success();
  }
};

} // namespace

void populateMlPatterns(RewritePatternSet &patterns) {
  patterns.add<TreeEnsemblePattern, SvmClassifierPattern,
               ArrayFeatureExtractorPattern,
               StringOpPattern<o::MlStringTableOp, k::MlStringTableOp>,
               StringOpPattern<o::MlStringLookupOp, k::MlStringLookupOp>>(
      patterns.getContext());
}

} // namespace onnxcc
