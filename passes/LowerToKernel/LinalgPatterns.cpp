//===- LinalgPatterns.cpp - Gemm, MatMul and Einsum to kernel calls -------===//
//
// Gemm is one kernel.gemm. MatMul promotes 1-D operands with views, folds
// the batch of `[..., M, K] x [K, N]` into M (one GEMM) and otherwise
// becomes a kernel.batch_matmul over broadcast batch dims. Einsum is
// decomposed into the same pieces: diagonals (strided copies), sums over a
// label (a product with a vector of ones), and pairwise contractions
// (transposes into [batch, free, contracted] order, one batched product,
// a view back).
//
//===----------------------------------------------------------------------===//
#include "passes/LowerToKernel/Patterns.h"

#include "dialects/Onnx/LinalgShapes.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;
namespace k = ::onnxcc::kernel;

/// Fails unless `element` is a type the products take: floats (16-bit ones
/// accumulate in f32) and integers of 8 to 64 bits.
static LogicalResult requireNumeric(Operation *op, Type element,
                                    PatternRewriter &rewriter) {
  if (isa<FloatType>(element) || (element.isInteger() && !element.isInteger(1)))
    return success();
  return rewriter.notifyMatchFailure(op, [&](Diagnostic &d) {
    d << "elements of type " << element << " are not supported here (numbers only)";
  });
}

static ArrayRef<int64_t> dimsOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}
static Type elementOf(Value v) { return cast<ShapedType>(v.getType()).getElementType(); }

/// `v` viewed as `shape` (no op when it already has it).
static Value view(PatternRewriter &rewriter, Location loc, Value v,
                  ArrayRef<int64_t> shape) {
  if (dimsOf(v) == shape)
    return v;
  return k::ViewOp::create(rewriter, loc, RankedTensorType::get(shape, elementOf(v)), v);
}

/// `v` with its dims permuted (no op for the identity).
static Value transpose(PatternRewriter &rewriter, Location loc, Value v,
                       ArrayRef<int64_t> perm) {
  bool identity = true;
  for (auto [i, p] : llvm::enumerate(perm))
    identity &= (int64_t)i == p;
  if (identity)
    return v;
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(dimsOf(v)[p]);
  return k::TransposeOp::create(rewriter, loc,
                                RankedTensorType::get(shape, elementOf(v)), v, perm);
}

static int64_t product(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= d;
  return p;
}

/// a [batch..., M, K] x b [batch'..., K, N] with batch dims of one rank that
/// broadcast: a GEMM when there are none, else a batched product.
static Value matmul(PatternRewriter &rewriter, Location loc, Value a, Value b) {
  auto as = dimsOf(a), bs = dimsOf(b);
  size_t r = as.size() - 2;
  SmallVector<int64_t> shape;
  for (size_t d = 0; d < r; ++d)
    shape.push_back(as[d] == 1 ? bs[d] : as[d]);
  shape.push_back(as[r]);
  shape.push_back(bs[r + 1]);
  auto type = RankedTensorType::get(shape, elementOf(a));
  if (r == 0)
    return k::GemmOp::create(rewriter, loc, type, a, b, Value(),
                             /*alpha=*/rewriter.getF32FloatAttr(1.0f),
                             /*beta=*/rewriter.getF32FloatAttr(1.0f),
                             /*trans_a=*/rewriter.getBoolAttr(false),
                             /*trans_b=*/rewriter.getBoolAttr(false));
  return k::BatchMatMulOp::create(rewriter, loc, type, a, b);
}

namespace {

struct GemmPattern : OpRewritePattern<o::GemmOp> {
  GemmPattern(MLIRContext *ctx, int64_t layoutRows)
      : OpRewritePattern(ctx), layoutRows(layoutRows) {}
  int64_t layoutRows;
  LogicalResult matchAndRewrite(o::GemmOp g, PatternRewriter &rewriter) const override {
    if (failed(requireNumeric(g, elementOf(g.getA()), rewriter)))
      return failure();
    Value b = g.getB();
    bool transB = g.getTransB() != 0;
    // A constant f32 B of a trans_b product ([N, K], as every PyTorch
    // Linear exports it) is transposed at compile time for products of
    // kGemmPanelRows or more rows: the runtime's panels stream B [K, N],
    // where B^T takes one horizontal sum per output (64x256x784: 911 -> 451
    // us). A single row is faster as dot products, and so is a product of
    // fewer than kFewDotColumns columns at any row count (a classifier's
    // 10 outputs, 64x10x256: 3.7 -> 1.5 us), whose B [K, N] is transposed
    // the other way.
    auto a = cast<RankedTensorType>(g.getA().getType());
    auto bType = cast<RankedTensorType>(b.getType());
    int64_t rows = std::max(a.getDimSize(g.getTransA() != 0 ? 1 : 0), layoutRows);
    int64_t columns = bType.getDimSize(transB ? 0 : 1);
    int64_t depth = bType.getDimSize(transB ? 1 : 0);
    bool fewColumns = columns > 1 && columns < kFewDotColumns &&
                      depth >= kFewDotColumns && g.getTransA() == 0;
    if (elementOf(b).isF32() && transB != fewColumns &&
        (fewColumns || rows >= kGemmPanelRows))
      if (Value t = transposedWeight(rewriter, g.getLoc(), b)) {
        b = t;
        transB = !transB;
      }
    rewriter.replaceOpWithNewOp<k::GemmOp>(
        g, g.getType(), g.getA(), b, g.getC(), g.getAlpha(), g.getBeta(),
        g.getTransA() != 0, transB);
    return success();
  }
};

/// numpy matmul: 1-D operands become a row (left) or a column (right).
/// `[..., M, K] x [K, N]` folds the leading dims into M around one GEMM;
/// other shapes pad both operands to one rank and broadcast their batch.
static Value numpyMatMul(PatternRewriter &rewriter, Location loc, Value a0,
                         Value b0, ArrayRef<int64_t> result) {
  SmallVector<int64_t> as(dimsOf(a0)), bs(dimsOf(b0));
  if (as.size() == 1)
    as.insert(as.begin(), 1);
  if (bs.size() == 1)
    bs.push_back(1);
  Value a = view(rewriter, loc, a0, as);
  Value b = view(rewriter, loc, b0, bs);
  Value r;
  if (bs.size() == 2) {
    // M is the product of the leading dims (not elements / K: K may be 0).
    int64_t m = product(ArrayRef<int64_t>(as).drop_back());
    r = matmul(rewriter, loc, view(rewriter, loc, a, {m, as.back()}), b);
  } else {
    size_t rank = std::max(as.size(), bs.size());
    as.insert(as.begin(), rank - as.size(), 1);
    bs.insert(bs.begin(), rank - bs.size(), 1);
    r = matmul(rewriter, loc, view(rewriter, loc, a, as),
               view(rewriter, loc, b, bs));
  }
  return view(rewriter, loc, r, result);
}

struct MatMulPattern : OpRewritePattern<o::MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(o::MatMulOp op, PatternRewriter &rewriter) const override {
    if (failed(requireNumeric(op, elementOf(op.getA()), rewriter)))
      return failure();
    rewriter.replaceOp(op, numpyMatMul(rewriter, op.getLoc(), op.getA(), op.getB(),
                                       dimsOf(op.getResult())));
    return success();
  }
};

/// A tensor whose dims carry Einsum labels (unique within it).
struct Term {
  Value value;
  SmallVector<int64_t, 4> labels;
};

/// Einsum as diagonals, sums and pairwise contractions, left to right.
struct EinsumPattern : OpRewritePattern<o::EinsumOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(o::EinsumOp op, PatternRewriter &rewriter) const override {
    Type et = elementOf(op.getResult());
    if (failed(requireNumeric(op, et, rewriter)))
      return failure();
    SmallVector<int64_t> ranks;
    for (Value v : op.getInputs())
      ranks.push_back(dimsOf(v).size());
    auto spec = parseEinsum(op.getLoc(), op.getEquation(), ranks);
    if (failed(spec))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Term> terms;
    for (auto [v, labels] : llvm::zip(op.getInputs(), spec->inputs))
      terms.push_back(diagonal(rewriter, loc, {v, labels}));
    ArrayRef<int64_t> output = spec->output;
    while (terms.size() > 1) {
      // Labels a later term or the output still needs.
      llvm::SmallDenseSet<int64_t> needed(output.begin(), output.end());
      for (const Term &t : ArrayRef<Term>(terms).drop_front(2))
        needed.insert(t.labels.begin(), t.labels.end());
      Term &a = terms[0], &b = terms[1];
      a = sumPrivate(rewriter, loc, a, b, needed);
      b = sumPrivate(rewriter, loc, b, a, needed);
      Term c = contract(rewriter, loc, a, b, needed);
      terms.erase(terms.begin());
      terms[0] = c;
    }
    llvm::SmallDenseSet<int64_t> needed(output.begin(), output.end());
    Term last = sumPrivate(rewriter, loc, terms[0], Term(), needed);
    SmallVector<int64_t> perm;
    for (int64_t l : output)
      perm.push_back(llvm::find(last.labels, l) - last.labels.begin());
    Value r = transpose(rewriter, loc, last.value, perm);
    rewriter.replaceOp(op, view(rewriter, loc, r, dimsOf(op.getResult())));
    return success();
  }

  /// `t` with each repeated label merged into one dim (its diagonal).
  static Term diagonal(PatternRewriter &rewriter, Location loc, Term t) {
    auto shape = dimsOf(t.value);
    SmallVector<int64_t> strides(shape.size(), 1);
    for (int64_t d = (int64_t)shape.size() - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * shape[d + 1];
    Term out{Value(), {}};
    SmallVector<int64_t> outShape, outStrides;
    for (auto [d, l] : llvm::enumerate(t.labels)) {
      auto *it = llvm::find(out.labels, l);
      if (it != out.labels.end()) {
        outStrides[it - out.labels.begin()] += strides[d];
        continue;
      }
      out.labels.push_back(l);
      outShape.push_back(shape[d]);
      outStrides.push_back(strides[d]);
    }
    if (out.labels.size() == t.labels.size())
      return t;
    out.value = k::StridedCopyOp::create(
        rewriter, loc, RankedTensorType::get(outShape, elementOf(t.value)),
        t.value, outStrides);
    return out;
  }

  /// `t` with the labels no other term (`other`) nor `needed` has summed
  /// out: a product of [kept, summed] with a column of ones.
  static Term sumPrivate(PatternRewriter &rewriter, Location loc, Term t,
                         const Term &other,
                         const llvm::SmallDenseSet<int64_t> &needed) {
    SmallVector<int64_t> keep, sum;
    for (auto [d, l] : llvm::enumerate(t.labels))
      (needed.contains(l) || llvm::is_contained(other.labels, l) ? keep : sum)
          .push_back(d);
    if (sum.empty())
      return t;
    auto shape = dimsOf(t.value);
    SmallVector<int64_t> perm(keep), keptShape;
    perm.append(sum);
    Term out{Value(), {}};
    for (int64_t d : keep) {
      out.labels.push_back(t.labels[d]);
      keptShape.push_back(shape[d]);
    }
    int64_t p = product(keptShape), q = 1;
    for (int64_t d : sum)
      q *= shape[d];
    Value v = view(rewriter, loc, transpose(rewriter, loc, t.value, perm), {p, q});
    Type et = elementOf(t.value);
    auto onesType = RankedTensorType::get({q, 1}, et);
    Attribute one = isa<FloatType>(et) ? Attribute(FloatAttr::get(et, 1.0))
                                       : Attribute(IntegerAttr::get(et, 1));
    Value ones = k::WeightOp::create(rewriter, loc, onesType,
                                     DenseElementsAttr::get(onesType, one));
    out.value = view(rewriter, loc, matmul(rewriter, loc, v, ones), keptShape);
    return out;
  }

  /// a x b over their shared labels: those `needed` stay as batch dims
  /// (broadcast), the others are contracted. Only ellipsis dims broadcast,
  /// and they are always in the output (parseEinsum), so contracted dims
  /// have equal sizes.
  static Term contract(PatternRewriter &rewriter, Location loc, const Term &a,
                       const Term &b, const llvm::SmallDenseSet<int64_t> &needed) {
    auto as = dimsOf(a.value), bs = dimsOf(b.value);
    auto dimOf = [](const Term &t, int64_t l) {
      return llvm::find(t.labels, l) - t.labels.begin();
    };
    SmallVector<int64_t> batch, left, contracted, right;
    for (int64_t l : a.labels) {
      if (!llvm::is_contained(b.labels, l))
        left.push_back(l);
      else
        (needed.contains(l) ? batch : contracted).push_back(l);
    }
    for (int64_t l : b.labels)
      if (!llvm::is_contained(a.labels, l))
        right.push_back(l);
    // a as [batch..., left, contracted], b as [batch..., contracted, right].
    SmallVector<int64_t> permA, permB, batchA, batchB, leftShape, rightShape;
    int64_t kk = 1;
    for (int64_t l : batch) {
      permA.push_back(dimOf(a, l));
      permB.push_back(dimOf(b, l));
      batchA.push_back(as[dimOf(a, l)]);
      batchB.push_back(bs[dimOf(b, l)]);
    }
    for (int64_t l : left) {
      permA.push_back(dimOf(a, l));
      leftShape.push_back(as[dimOf(a, l)]);
    }
    for (int64_t l : contracted) {
      permA.push_back(dimOf(a, l));
      permB.push_back(dimOf(b, l));
      kk *= as[dimOf(a, l)];
    }
    for (int64_t l : right) {
      permB.push_back(dimOf(b, l));
      rightShape.push_back(bs[dimOf(b, l)]);
    }
    SmallVector<int64_t> shapeA(batchA), shapeB(batchB);
    shapeA.append({product(leftShape), kk});
    shapeB.append({kk, product(rightShape)});
    Value va = view(rewriter, loc, transpose(rewriter, loc, a.value, permA), shapeA);
    Value vb = view(rewriter, loc, transpose(rewriter, loc, b.value, permB), shapeB);
    Value r = matmul(rewriter, loc, va, vb);
    Term out{Value(), SmallVector<int64_t, 4>(batch.begin(), batch.end())};
    out.labels.append(left.begin(), left.end());
    out.labels.append(right.begin(), right.end());
    SmallVector<int64_t> shape(dimsOf(r).drop_back(2));
    shape.append(leftShape);
    shape.append(rightShape);
    out.value = view(rewriter, loc, r, shape);
    return out;
  }
};

} // namespace

void populateLinalgPatterns(RewritePatternSet &patterns, int64_t layoutRows) {
  patterns.add<GemmPattern>(patterns.getContext(), layoutRows);
  patterns.add<MatMulPattern, EinsumPattern>(patterns.getContext());
}

} // namespace onnxcc
