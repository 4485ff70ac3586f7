//===- DataMovementPatterns.cpp - copies, gathers, pads, views ------------===//
//
// Reshape-like ops become aliasing views. Transpose, Slice, Expand, Tile,
// DepthToSpace, SpaceToDepth, each part of a Split, and a Gather whose
// constant indices step evenly, are one strided copy (kernel.copy), whose
// plan DataMovementShapes.h computes for the type rules and folders too;
// a copy that reads all of its input in order is a view instead. The ops
// that read run-time indices or keep state per slice have kernels of
// their own.
//
//===----------------------------------------------------------------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/DataMovementShapes.h"
#include "dialects/Onnx/ShapeFunctions.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

namespace {

ArrayRef<int64_t> shapeOf(Value v) { return cast<ShapedType>(v.getType()).getShape(); }
Type elementOf(Value v) { return getElementTypeOrSelf(v.getType()); }

int64_t product(ArrayRef<int64_t> s) {
  int64_t p = 1;
  for (int64_t d : s)
    p *= d;
  return p;
}

/// A copy plan as IR: a view when it reads all of the input in order (an
/// identity transpose, a slice of everything), else kernel.copy.
Value lowerCopy(PatternRewriter &rewriter, Location loc, Type resultType,
                Value input, StridedCopy copy) {
  copy.coalesce();
  int64_t in = product(shapeOf(input)), out = product(cast<ShapedType>(resultType).getShape());
  if (copy.offset == 0 && copy.shape.size() == 1 && copy.strides[0] == 1 && in == out)
    return k::ViewOp::create(rewriter, loc, resultType, input);
  return k::CopyOp::create(rewriter, loc, resultType, input, copy.shape,
                           copy.strides, copy.offset);
}

/// Reshape-like ops reinterpret a contiguous buffer: an aliasing view.
template <typename OpTy>
struct ViewPattern : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<k::ViewOp>(op, op->getResult(0).getType(),
                                           op->getOperand(0));
    return success();
  }
};

struct TransposePattern : OpRewritePattern<o::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::TransposeOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, lowerCopy(rewriter, op.getLoc(), op.getType(), op.getInput(),
                                     transposeCopy(shapeOf(op.getInput()), op.getPerm())));
    return success();
  }
};

std::optional<ArrayRef<int64_t>> optRef(const std::optional<std::vector<int64_t>> &v) {
  if (!v)
    return std::nullopt;
  return ArrayRef<int64_t>(*v);
}

struct SlicePattern : OpRewritePattern<o::SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::SliceOp op, PatternRewriter &rewriter) const override {
    auto starts = constInts(op.getStarts()), ends = constInts(op.getEnds());
    std::optional<std::vector<int64_t>> axes, steps;
    if (op.getAxes())
      axes = constInts(op.getAxes());
    if (op.getSteps())
      steps = constInts(op.getSteps());
    if (!starts || !ends || (op.getAxes() && !axes) || (op.getSteps() && !steps))
      return rewriter.notifyMatchFailure(op, "Slice's starts, ends, axes and steps must be constants");
    auto in = shapeOf(op.getData());
    auto bounds = resolveSlice(std::nullopt, in, *starts, *ends, optRef(axes), optRef(steps));
    if (failed(bounds))
      return rewriter.notifyMatchFailure(op, "invalid Slice bounds");
    rewriter.replaceOp(op, lowerCopy(rewriter, op.getLoc(), op.getType(), op.getData(),
                                     sliceCopy(in, *bounds)));
    return success();
  }
};

struct ExpandPattern : OpRewritePattern<o::ExpandOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::ExpandOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, lowerCopy(rewriter, op.getLoc(), op.getType(), op.getInput(),
                                     expandCopy(shapeOf(op.getInput()), shapeOf(op.getOutput()))));
    return success();
  }
};

struct TilePattern : OpRewritePattern<o::TileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::TileOp op, PatternRewriter &rewriter) const override {
    auto repeats = constInts(op.getRepeats());
    auto in = shapeOf(op.getInput());
    if (!repeats || repeats->size() != in.size())
      return rewriter.notifyMatchFailure(op, "Tile's repeats must be a constant");
    rewriter.replaceOp(op, lowerCopy(rewriter, op.getLoc(), op.getType(), op.getInput(),
                                     tileCopy(in, *repeats)));
    return success();
  }
};

struct SplitPattern : OpRewritePattern<o::SplitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::SplitOp op, PatternRewriter &rewriter) const override {
    auto in = shapeOf(op.getInput());
    auto axis = normalizeAxis(std::nullopt, (int64_t)op.getAxis(), in.size());
    if (failed(axis))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    SmallVector<Value> parts;
    int64_t begin = 0;
    for (Value r : op.getResults()) {
      int64_t size = shapeOf(r)[*axis];
      parts.push_back(lowerCopy(rewriter, op.getLoc(), r.getType(), op.getInput(),
                                axisRangeCopy(in, *axis, begin, size)));
      begin += size;
    }
    rewriter.replaceOp(op, parts);
    return success();
  }
};

struct DepthToSpacePattern : OpRewritePattern<o::DepthToSpaceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::DepthToSpaceOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, lowerCopy(rewriter, op.getLoc(), op.getType(), op.getInput(),
                                     depthToSpaceCopy(shapeOf(op.getInput()),
                                                      (int64_t)op.getBlocksize(),
                                                      op.getMode() == "CRD")));
    return success();
  }
};

struct SpaceToDepthPattern : OpRewritePattern<o::SpaceToDepthOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::SpaceToDepthOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, lowerCopy(rewriter, op.getLoc(), op.getType(), op.getInput(),
                                     spaceToDepthCopy(shapeOf(op.getInput()),
                                                      (int64_t)op.getBlocksize(),
                                                      op.getMode() == "CRD")));
    return success();
  }
};

struct PadPattern : OpRewritePattern<o::PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::PadOp op, PatternRewriter &rewriter) const override {
    auto pads = constInts(op.getPads());
    std::optional<std::vector<int64_t>> axes;
    if (op.getAxes())
      axes = constInts(op.getAxes());
    if (!pads || (op.getAxes() && !axes))
      return rewriter.notifyMatchFailure(op, "Pad's pads and axes must be constants");
    int64_t rank = shapeOf(op.getData()).size();
    auto all = resolvePads(std::nullopt, rank, *pads, optRef(axes));
    if (failed(all))
      return rewriter.notifyMatchFailure(op, "invalid pads");
    if (llvm::all_of(*all, [](int64_t p) { return p == 0; })) {
      rewriter.replaceOpWithNewOp<k::ViewOp>(op, op.getType(), op.getData());
      return success();
    }
    Value value;
    if (op.getMode() == "constant" && op.getConstantValue()) {
      value = op.getConstantValue();
      if (elementOf(value) != elementOf(op.getData()) || product(shapeOf(value)) != 1)
        return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
          d << "constant_value must be one element of the data's type "
            << elementOf(op.getData()) << ", got " << value.getType();
        });
    }
    rewriter.replaceOpWithNewOp<k::PadOp>(op, op.getType(), op.getData(), value,
                                          *all, op.getMode());
    return success();
  }
};

/// CenterCropPad is a constant-mode Pad with zeros whose pads center the
/// input (negative ones crop).
struct CenterCropPadPattern : OpRewritePattern<o::CenterCropPadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::CenterCropPadOp op, PatternRewriter &rewriter) const override {
    auto target = constInts(op.getShape());
    if (!target)
      return rewriter.notifyMatchFailure(op, "CenterCropPad's shape must be a constant");
    auto pads = resolveCenterCropPad(std::nullopt, shapeOf(op.getInput()), *target,
                                     op.getAxes());
    if (failed(pads))
      return rewriter.notifyMatchFailure(op, "invalid CenterCropPad shape");
    if (llvm::all_of(*pads, [](int64_t p) { return p == 0; }))
      rewriter.replaceOpWithNewOp<k::ViewOp>(op, op.getType(), op.getInput());
    else
      rewriter.replaceOpWithNewOp<k::PadOp>(op, op.getType(), op.getInput(), Value(),
                                            *pads, "constant");
    return success();
  }
};

struct TensorScatterPattern : OpRewritePattern<o::TensorScatterOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::TensorScatterOp op, PatternRewriter &rewriter) const override {
    auto axis = normalizeAxis(std::nullopt, (int64_t)op.getAxis(),
                              shapeOf(op.getPastCache()).size());
    if (failed(axis) || *axis == 0)
      return rewriter.notifyMatchFailure(op, "axis out of range");
    rewriter.replaceOpWithNewOp<k::TensorScatterOp>(
        op, op.getType(), op.getPastCache(), op.getUpdate(), op.getWriteIndices(),
        *axis, op.getMode() == "circular");
    return success();
  }
};

struct ConstantOfShapePattern : OpRewritePattern<o::ConstantOfShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::ConstantOfShapeOp op, PatternRewriter &rewriter) const override {
    ElementsAttr value = op.getValue();
    Value v = o::ConstantOp::create(rewriter, op.getLoc(), value.getType(), value);
    rewriter.replaceOpWithNewOp<k::FillOp>(op, op.getType(), v);
    return success();
  }
};

struct RangePattern : OpRewritePattern<o::RangeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::RangeOp op, PatternRewriter &rewriter) const override {
    if (elementOf(op.getStart()).isInteger(1))
      return rewriter.notifyMatchFailure(op, "Range of bools is not defined");
    rewriter.replaceOpWithNewOp<k::RangeOp>(op, op.getType(), op.getStart(),
                                            op.getDelta());
    return success();
  }
};

struct EyeLikePattern : OpRewritePattern<o::EyeLikeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::EyeLikeOp op, PatternRewriter &rewriter) const override {
    auto y = shapeOf(op.getOutput());
    // A diagonal beyond the matrix is empty however far: keep k small.
    int64_t kk = std::clamp<int64_t>(op.getK(), -y[0], y[1]);
    rewriter.replaceOpWithNewOp<k::EyeOp>(op, op.getType(), kk);
    return success();
  }
};

struct TriluPattern : OpRewritePattern<o::TriluOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::TriluOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<k::TriluOp>(op, op.getType(), op.getInput(),
                                            op.getK(), op.getUpper() != 0);
    return success();
  }
};

/// Rejects bool elements for kernels that add or compare numbers.
LogicalResult requireNumbers(Operation *op, Value v, PatternRewriter &rewriter) {
  Type t = elementOf(v);
  if (t.isInteger(1))
    return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
      d << "elements of type " << t << " are not supported here (numbers only)";
    });
  return success();
}

/// CumSum and CumProd (Product): one kernel op, the product as a flag.
template <typename OpTy, bool Product>
struct CumulativePattern : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    if (failed(requireNumbers(op, op.getInput(), rewriter)))
      return failure();
    bool exclusive = op.getExclusive() != 0, reverse = op.getReverse() != 0;
    std::optional<int64_t> a = constScalarInt(op.getAxis());
    IntegerAttr axisAttr;
    Value axisInput;
    if (!a) { // read at run time
      if (shapeOf(op.getInput()).empty())
        return rewriter.notifyMatchFailure(op, Product ? "CumProd of a scalar has no axis"
                                                       : "CumSum of a scalar has no axis");
      axisInput = op.getAxis();
    } else {
      auto axis = normalizeAxis(std::nullopt, *a, shapeOf(op.getInput()).size());
      if (failed(axis))
        return rewriter.notifyMatchFailure(op, "axis out of range");
      axisAttr = rewriter.getI64IntegerAttr(*axis);
    }
    rewriter.replaceOpWithNewOp<k::CumSumOp>(op, op.getType(), op.getInput(), axisInput,
                                             axisAttr, exclusive, reverse, Product);
    return success();
  }
};
using CumSumPattern = CumulativePattern<o::CumSumOp, false>;
using CumProdPattern = CumulativePattern<o::CumProdOp, true>;

struct ReverseSequencePattern : OpRewritePattern<o::ReverseSequenceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::ReverseSequenceOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<k::ReverseSequenceOp>(
        op, op.getType(), op.getInput(), op.getSequenceLens(), op.getBatchAxis(),
        op.getTimeAxis());
    return success();
  }
};

struct TopKPattern : OpRewritePattern<o::TopKOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::TopKOp op, PatternRewriter &rewriter) const override {
    if (failed(requireNumbers(op, op.getInput(), rewriter)))
      return failure();
    auto axis = normalizeAxis(std::nullopt, (int64_t)op.getAxis(),
                              shapeOf(op.getInput()).size());
    if (failed(axis))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    // sorted = 0 leaves the order to the implementation: sorted it is.
    auto r = k::TopKOp::create(rewriter, op.getLoc(), op.getValues().getType(),
                               op.getIndices().getType(), op.getInput(), *axis,
                               op.getLargest() != 0);
    rewriter.replaceOp(op, r.getResults());
    return success();
  }
};

struct OneHotPattern : OpRewritePattern<o::OneHotOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::OneHotOp op, PatternRewriter &rewriter) const override {
    Type it = elementOf(op.getIndices());
    if (it.isInteger(1))
      return rewriter.notifyMatchFailure(op, "OneHot indices must be numbers, got i1");
    auto axis = normalizeAxis(std::nullopt, (int64_t)op.getAxis(),
                              shapeOf(op.getOutput()).size());
    if (failed(axis))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    rewriter.replaceOpWithNewOp<k::OneHotOp>(op, op.getType(), op.getIndices(),
                                             op.getValues(), *axis);
    return success();
  }
};

/// Gather: constant indices that step evenly (one index, a range, a
/// reversed range) are a strided copy; others are read at run time.
struct GatherPattern : OpRewritePattern<o::GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::GatherOp op, PatternRewriter &rewriter) const override {
    auto d = shapeOf(op.getData());
    auto axis = normalizeAxis(std::nullopt, (int64_t)op.getAxis(), d.size());
    if (failed(axis))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    Type it = elementOf(op.getIndices());
    if (!isa<IntegerType>(it) || it.isInteger(1))
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << "Gather indices must be integers, got " << it;
      });
    if (auto idx = constInts(op.getIndices())) {
      int64_t dim = d[*axis], n = idx->size();
      for (int64_t &i : *idx)
        i = i < 0 ? i + dim : i; // the type rule checked the range
      int64_t step = n > 1 ? (*idx)[1] - (*idx)[0] : 0;
      bool even = llvm::all_of(llvm::seq<int64_t>(1, std::max<int64_t>(n, 1)),
                               [&](int64_t j) { return (*idx)[j] - (*idx)[j - 1] == step; });
      if (even && llvm::all_of(*idx, [&](int64_t i) { return i >= 0 && i < dim; })) {
        int64_t inner = product(d.drop_front(*axis + 1));
        StridedCopy c;
        c.shape = {product(d.take_front(*axis)), n, inner};
        c.strides = {dim * inner, step * inner, 1};
        c.offset = n ? (*idx)[0] * inner : 0;
        rewriter.replaceOp(op, lowerCopy(rewriter, op.getLoc(), op.getType(),
                                         op.getData(), c));
        return success();
      }
    }
    rewriter.replaceOpWithNewOp<k::GatherOp>(op, op.getType(), op.getData(),
                                             op.getIndices(), *axis);
    return success();
  }
};

struct GatherElementsPattern : OpRewritePattern<o::GatherElementsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::GatherElementsOp op, PatternRewriter &rewriter) const override {
    auto axis = normalizeAxis(std::nullopt, (int64_t)op.getAxis(),
                              shapeOf(op.getData()).size());
    if (failed(axis))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    rewriter.replaceOpWithNewOp<k::GatherElementsOp>(op, op.getType(), op.getData(),
                                                     op.getIndices(), *axis);
    return success();
  }
};

struct GatherNDPattern : OpRewritePattern<o::GatherNDOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::GatherNDOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<k::GatherNDOp>(op, op.getType(), op.getData(),
                                               op.getIndices(), op.getBatchDims());
    return success();
  }
};

struct ScatterElementsPattern : OpRewritePattern<o::ScatterElementsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::ScatterElementsOp op, PatternRewriter &rewriter) const override {
    auto axis = normalizeAxis(std::nullopt, (int64_t)op.getAxis(),
                              shapeOf(op.getData()).size());
    if (failed(axis))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    rewriter.replaceOpWithNewOp<k::ScatterElementsOp>(
        op, op.getType(), op.getData(), op.getIndices(), op.getUpdates(), *axis,
        op.getReduction());
    return success();
  }
};

struct ScatterNDPattern : OpRewritePattern<o::ScatterNDOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::ScatterNDOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<k::ScatterNDOp>(op, op.getType(), op.getData(),
                                                op.getIndices(), op.getUpdates(),
                                                op.getReduction());
    return success();
  }
};

struct ConcatPattern : OpRewritePattern<o::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::ConcatOp c, PatternRewriter &rewriter) const override {
    int64_t rank = cast<ShapedType>(c.getType()).getRank();
    auto axis = normalizeAxis(std::nullopt, (int64_t)c.getAxis(), rank);
    if (failed(axis))
      return rewriter.notifyMatchFailure(c, "axis out of range");
    rewriter.replaceOpWithNewOp<k::ConcatOp>(c, c.getType(), c.getInputs(), *axis);
    return success();
  }
};

} // namespace

void populateDataMovementPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ViewPattern<o::ReshapeOp>, ViewPattern<o::FlattenOp>,
               ViewPattern<o::SqueezeOp>, ViewPattern<o::UnsqueezeOp>,
               ViewPattern<o::IdentityOp>, TransposePattern, ConcatPattern>(ctx);
  patterns.add<SlicePattern, ExpandPattern, TilePattern, SplitPattern,
               DepthToSpacePattern, SpaceToDepthPattern, PadPattern,
               ConstantOfShapePattern, RangePattern, EyeLikePattern,
               TriluPattern, CumSumPattern, CumProdPattern,
               ReverseSequencePattern, TopKPattern, OneHotPattern, GatherPattern, GatherElementsPattern,
               GatherNDPattern, ScatterElementsPattern, ScatterNDPattern,
               CenterCropPadPattern, TensorScatterPattern>(ctx);
}

} // namespace onnxcc
