//===- FoldBatchNorm.cpp - BatchNormalization into Conv -------------------===//
#include "passes/Passes.h"

#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/NodeLocation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include <cmath>

namespace onnxcc {
#define GEN_PASS_DEF_FOLDBATCHNORM
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;

namespace {

/// The per-channel affine map of an inference BatchNormalization:
/// y = x * scale + shift.
struct ChannelAffine {
  std::vector<double> scale, shift;
};

static std::optional<ChannelAffine> readAffine(onnx::BatchNormalizationOp bn) {
  std::vector<double> gamma, beta, mean, var;
  ElementsAttr g = getConstantElements(bn.getScale());
  ElementsAttr b = getConstantElements(bn.getBias());
  ElementsAttr m = getConstantElements(bn.getMean());
  ElementsAttr v = getConstantElements(bn.getVariance());
  if (!g || !b || !m || !v || !readAsDoubles(g, gamma) ||
      !readAsDoubles(b, beta) || !readAsDoubles(m, mean) ||
      !readAsDoubles(v, var))
    return std::nullopt;
  size_t c = gamma.size();
  if (beta.size() != c || mean.size() != c || var.size() != c)
    return std::nullopt;
  ChannelAffine a;
  double eps = bn.getEpsilon().convertToDouble();
  for (size_t i = 0; i < c; ++i) {
    double s = gamma[i] / std::sqrt(var[i] + eps);
    a.scale.push_back(s);
    a.shift.push_back(beta[i] - mean[i] * s);
  }
  return a;
}

struct FoldIntoConv : OpRewritePattern<onnx::BatchNormalizationOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(onnx::BatchNormalizationOp bn,
                                PatternRewriter &rewriter) const override {
    auto conv = bn.getInput().getDefiningOp<onnx::ConvOp>();
    if (!conv || !conv->hasOneUse())
      return rewriter.notifyMatchFailure(bn, "input is not a single-use Conv");
    auto affine = readAffine(bn);
    if (!affine)
      return rewriter.notifyMatchFailure(bn, "parameters are not constants");
    ElementsAttr w = getConstantElements(conv.getWeight());
    std::vector<double> weights, bias;
    if (!w || !readAsDoubles(w, weights))
      return rewriter.notifyMatchFailure(bn, "conv weight is not a constant");
    size_t outC = affine->scale.size();
    if (outC == 0 || weights.size() % outC != 0)
      return rewriter.notifyMatchFailure(bn, "weight does not match channels");
    if (conv.getBias()) {
      ElementsAttr b = getConstantElements(conv.getBias());
      if (!b || !readAsDoubles(b, bias) || bias.size() != outC)
        return rewriter.notifyMatchFailure(bn, "conv bias is not a constant");
    } else {
      bias.assign(outC, 0.0);
    }
    size_t perChannel = weights.size() / outC;
    for (size_t o = 0; o < outC; ++o) {
      for (size_t i = 0; i < perChannel; ++i)
        weights[o * perChannel + i] *= affine->scale[o];
      bias[o] = bias[o] * affine->scale[o] + affine->shift[o];
    }
    auto wType = cast<ShapedType>(conv.getWeight().getType());
    auto bType = RankedTensorType::get({(int64_t)outC}, wType.getElementType());
    Location loc =
        fusedNodeLocation(rewriter.getContext(), {conv.getLoc(), bn.getLoc()});
    Value newW = onnx::ConstantOp::create(
        rewriter, loc, wType, makeElements(wType, ArrayRef<double>(weights)));
    Value newB = onnx::ConstantOp::create(
        rewriter, loc, bType, makeElements(bType, ArrayRef<double>(bias)));
    auto fused = onnx::ConvOp::create(
        rewriter, loc, bn.getType(), conv.getInput(), newW, newB,
        conv.getKernelShape(), conv.getPads(), conv.getStrides(),
        conv.getDilations(), conv.getGroup(), conv.getAutoPad());
    rewriter.replaceOp(bn, fused.getResult());
    rewriter.eraseOp(conv);
    return success();
  }
};

/// A BatchNormalization elsewhere becomes x * scale + shift with [C,1,..,1]
/// constants, which elementwise fusion then turns into one loop.
struct DecomposeBatchNorm : OpRewritePattern<onnx::BatchNormalizationOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(onnx::BatchNormalizationOp bn,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(bn.getType());
    if (!type || type.getRank() < 2)
      return rewriter.notifyMatchFailure(bn, "needs a ranked input (N, C, ...)");
    auto affine = readAffine(bn);
    if (!affine)
      return rewriter.notifyMatchFailure(bn, "parameters are not constants");
    SmallVector<int64_t> shape(type.getRank() - 1, 1);
    shape[0] = affine->scale.size();
    auto cType = RankedTensorType::get(shape, type.getElementType());
    Value s = onnx::ConstantOp::create(
        rewriter, bn.getLoc(), cType, makeElements(cType, ArrayRef<double>(affine->scale)));
    Value t = onnx::ConstantOp::create(
        rewriter, bn.getLoc(), cType, makeElements(cType, ArrayRef<double>(affine->shift)));
    Value mul = onnx::MulOp::create(rewriter, bn.getLoc(), type, bn.getInput(), s);
    rewriter.replaceOpWithNewOp<onnx::AddOp>(bn, type, mul, t);
    return success();
  }
};

/// A BatchNormalization whose parameters are not constants (graph inputs)
/// becomes the same per-channel affine map computed at run time:
///   y = (x - mean) * (scale / sqrt(var + eps)) + bias
/// with each [C] parameter reshaped to [C,1,..,1]. The per-channel factor is
/// C elements of work; the rest fuses into one elementwise loop over x.
struct DecomposeRuntimeBatchNorm
    : OpRewritePattern<onnx::BatchNormalizationOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(onnx::BatchNormalizationOp bn,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(bn.getType());
    auto inType = dyn_cast<RankedTensorType>(bn.getInput().getType());
    if (!type || !inType || type.getRank() < 2)
      return rewriter.notifyMatchFailure(bn, "needs a ranked input (N, C, ...)");
    int64_t channels = type.getDimSize(1);
    if (ShapedType::isDynamic(channels))
      return rewriter.notifyMatchFailure(bn, "needs a static channel count");
    Value params[] = {bn.getScale(), bn.getBias(), bn.getMean(),
                      bn.getVariance()};
    for (Value p : params) {
      auto pType = dyn_cast<RankedTensorType>(p.getType());
      if (!pType || pType.getShape() != ArrayRef<int64_t>{channels} ||
          !isa<FloatType>(pType.getElementType()) ||
          !isa<FloatType>(type.getElementType()))
        return rewriter.notifyMatchFailure(bn, "parameters must be float [C]");
    }
    Location loc = bn.getLoc();
    // BatchNormalization-15 lets the parameters (T1, T2) differ from the
    // input's type (T): they are converted to it.
    for (Value &p : params) {
      auto pType = cast<RankedTensorType>(p.getType());
      if (pType.getElementType() != type.getElementType())
        p = onnx::CastOp::create(rewriter, loc,
                                 pType.clone(type.getElementType()), p,
                                 type.getElementType());
    }
    SmallVector<int64_t> shape(type.getRank() - 1, 1);
    shape[0] = channels;
    auto cType = RankedTensorType::get(shape, type.getElementType());
    auto shapeType =
        RankedTensorType::get({(int64_t)shape.size()}, rewriter.getI64Type());
    Value shapeValue = onnx::ConstantOp::create(
        rewriter, loc, shapeType,
        DenseElementsAttr::get(shapeType, ArrayRef(shape)));
    auto perChannel = [&](Value p) -> Value {
      if (type.getRank() == 2)
        return p; // [C] already broadcasts against [N, C]
      return onnx::ReshapeOp::create(rewriter, loc, cType, p, shapeValue,
                                     /*allowzero=*/0);
    };
    auto scalarType = RankedTensorType::get({}, type.getElementType());
    Value eps = onnx::ConstantOp::create(
        rewriter, loc, scalarType,
        makeElements(scalarType,
                     ArrayRef<double>{bn.getEpsilon().convertToDouble()}));
    Type pType = type.getRank() == 2 ? params[0].getType() : Type(cType);
    Value var = perChannel(params[3]);
    Value varEps = onnx::AddOp::create(rewriter, loc, pType, var, eps);
    Value std = onnx::SqrtOp::create(rewriter, loc, pType, varEps);
    Value factor = onnx::DivOp::create(rewriter, loc, pType,
                                       perChannel(params[0]), std);
    Value centred = onnx::SubOp::create(rewriter, loc, type, bn.getInput(),
                                        perChannel(params[2]));
    Value scaled = onnx::MulOp::create(rewriter, loc, type, centred, factor);
    rewriter.replaceOpWithNewOp<onnx::AddOp>(bn, type, scaled,
                                             perChannel(params[1]));
    return success();
  }
};

struct FoldBatchNormPass : onnxcc::impl::FoldBatchNormBase<FoldBatchNormPass> {
  using FoldBatchNormBase::FoldBatchNormBase;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    if (intoConv)
      patterns.add<FoldIntoConv>(&getContext(), /*benefit=*/2);
    patterns.add<DecomposeBatchNorm>(&getContext(), /*benefit=*/1);
    patterns.add<DecomposeRuntimeBatchNorm>(&getContext(), /*benefit=*/0);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
