//===- FuseMatMulAdd.cpp - MatMul + bias Add into Gemm --------------------===//
#include "passes/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxcc {
#define GEN_PASS_DEF_FUSEMATMULADD
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;

namespace {

/// A constant i64 shape operand for onnx.reshape.
static Value shapeConstant(PatternRewriter &rewriter, Location loc,
                           ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get({(int64_t)shape.size()}, rewriter.getI64Type());
  return onnx::ConstantOp::create(rewriter, loc, type,
                                  DenseElementsAttr::get(type, shape));
}

static Value reshapeTo(PatternRewriter &rewriter, Location loc, Value v,
                       ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  return onnx::ReshapeOp::create(rewriter, loc, type.clone(shape), v,
                                 shapeConstant(rewriter, loc, shape),
                                 /*allowzero=*/1); // a 0 is an extent
}

/// Whether `bias` varies at most along the last axis of `y`: right-aligned
/// against y, every other dimension is 1. Such a bias is the same for
/// every row of y's [rows, N] flattening.
static bool isRowBias(RankedTensorType bias, RankedTensorType y) {
  if (bias.getRank() > y.getRank())
    return false;
  ArrayRef<int64_t> b = bias.getShape();
  for (int64_t i = 0; i + 1 < (int64_t)b.size(); ++i)
    if (b[i] != 1)
      return false;
  return b.empty() || b.back() == 1 || b.back() == y.getShape().back();
}

struct MatMulAddToGemm : OpRewritePattern<onnx::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(onnx::AddOp add,
                                PatternRewriter &rewriter) const override {
    Value mmValue = add.getLhs(), bias = add.getRhs();
    if (!mmValue.getDefiningOp<onnx::MatMulOp>())
      std::swap(mmValue, bias);
    auto mm = mmValue.getDefiningOp<onnx::MatMulOp>();
    if (!mm || !mm->hasOneUse())
      return rewriter.notifyMatchFailure(add, "no single-use MatMul operand");
    auto a = dyn_cast<RankedTensorType>(mm.getA().getType());
    auto b = dyn_cast<RankedTensorType>(mm.getB().getType());
    auto c = dyn_cast<RankedTensorType>(bias.getType());
    auto y = dyn_cast<RankedTensorType>(add.getType());
    if (!a || !b || !c || !y || a.getRank() < 2 || b.getRank() != 2 ||
        y != mm.getType() || !a.hasStaticShape() || !y.hasStaticShape())
      return rewriter.notifyMatchFailure(add, "not a product with a 2-D B");
    // A stack of rows times one matrix (a transformer's [1, seq, d] x
    // [d, n]) is one [rows, K] x [K, N] product; a bias that only varies
    // along N is the same for every row, so it goes into that GEMM too.
    // For a 2-D A every reshape below is the identity.
    if (a.getRank() == 2 ? c.getRank() > 2 : !isRowBias(c, y))
      return rewriter.notifyMatchFailure(add, "bias varies along the rows");
    Location loc = add.getLoc();
    int64_t k = a.getShape().back(), n = y.getShape().back();
    int64_t rows = 1; // (not elements / k: K may be 0)
    for (int64_t d : a.getShape().drop_back())
      rows *= d;
    Value a2 = reshapeTo(rewriter, loc, mm.getA(), {rows, k});
    Value c2 = a.getRank() == 2 || c.getRank() <= 1
                   ? bias
                   : reshapeTo(rewriter, loc, bias, {c.getShape().back()});
    Value g = onnx::GemmOp::create(
        rewriter, loc, y.clone(ArrayRef<int64_t>{rows, n}), a2, mm.getB(), c2,
        rewriter.getF32FloatAttr(1.0f), rewriter.getF32FloatAttr(1.0f),
        rewriter.getI64IntegerAttr(0), rewriter.getI64IntegerAttr(0));
    rewriter.replaceOp(add, reshapeTo(rewriter, loc, g, y.getShape()));
    rewriter.eraseOp(mm);
    return success();
  }
};

struct FuseMatMulAddPass : onnxcc::impl::FuseMatMulAddBase<FuseMatMulAddPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<MatMulAddToGemm>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
