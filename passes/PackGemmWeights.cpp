//===- PackGemmWeights.cpp - constant GEMM weights in runtime panels ------===//
//
// Lays a kernel.gemm's constant B out as the runtime's gemm_panels() reads
// it (gemm_packed.h), or a transposed one of a few rows as
// gemm_packed_dots() does (gemm_packed_dots.h), and marks the op
// `packed_b`, so the emitter and the verifier read one decision. See
// Passes.td for the rule.
//
//===----------------------------------------------------------------------===//
#include "dialects/Onnx/ConstantData.h"
#include "passes/Passes.h"

#include "mlir/IR/TypeUtilities.h"

namespace onnxcc {
#define GEN_PASS_DEF_PACKGEMMWEIGHTS
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;

namespace {

using kernel::kPackedDotDepth;
using kernel::kGemmPanelRows;
using kernel::kPackedDotRows;
using kernel::kPackedPanel;

/// B [K, N] as [ceil(N / 32), K, 32], zero-padded: element (k, j) at
/// (j / 32, k, j % 32).
std::vector<double> packPanels(ArrayRef<double> b, int64_t k, int64_t n) {
  int64_t panels = (n + kPackedPanel - 1) / kPackedPanel;
  std::vector<double> p(panels * k * kPackedPanel, 0.0);
  for (int64_t r = 0; r < k; ++r)
    for (int64_t j = 0; j < n; ++j)
      p[(j / kPackedPanel * k + r) * kPackedPanel + j % kPackedPanel] =
          b[r * n + j];
  return p;
}

/// B^T [N, K] in groups of kPackedDotRows rows, [ceil(N / 16), K, 16]:
/// each whole block of 16 k as the group's rows one after another, then
/// the rows' K % 16 last k row by row; rows past N zero.
std::vector<double> packDotGroups(ArrayRef<double> bt, int64_t n, int64_t k) {
  const int64_t groups = (n + kPackedDotRows - 1) / kPackedDotRows;
  const int64_t body = k / kPackedDotDepth * kPackedDotDepth, tail = k - body;
  std::vector<double> p(groups * kPackedDotRows * k, 0.0);
  for (int64_t j = 0; j < n; ++j) {
    const int64_t g = j / kPackedDotRows, r = j % kPackedDotRows;
    double *group = p.data() + g * kPackedDotRows * k;
    for (int64_t kk = 0; kk < body; ++kk)
      group[(kk / kPackedDotDepth * kPackedDotRows + r) * kPackedDotDepth +
            kk % kPackedDotDepth] = bt[j * k + kk];
    for (int64_t t = 0; t < tail; ++t)
      group[body * kPackedDotRows + r * tail + t] = bt[j * k + body + t];
  }
  return p;
}

struct PackGemmWeights
    : onnxcc::impl::PackGemmWeightsBase<PackGemmWeights> {
  using PackGemmWeightsBase::PackGemmWeightsBase;

  /// Whether padding n columns (or rows of B^T) to whole groups of
  /// `width` adds at most n / 4.
  static bool padsLittle(int64_t n, int64_t width) {
    int64_t padded = (n + width - 1) / width * width;
    return n > 0 && 4 * (padded - n) <= n;
  }

  /// The width B is packed in (panels of columns, or with trans_b groups
  /// of rows), or 0 where it stays as it is.
  static int64_t packWidth(kernel::GemmOp op) {
    auto f32 = [](Value v) { return getElementTypeOrSelf(v.getType()).isF32(); };
    auto a = cast<ShapedType>(op.getA().getType());
    auto b = cast<ShapedType>(op.getB().getType());
    if (op.getPackedB() || op.getTransA() || !f32(op.getA()) ||
        !f32(op.getB()) || !f32(op.getOutput()) || b.getRank() != 2 ||
        !op.getB().getDefiningOp<kernel::WeightOp>() || !op.getB().hasOneUse())
      return 0;
    if (!op.getTransB())
      return padsLittle(b.getDimSize(1), kPackedPanel) ? kPackedPanel : 0;
    // Fewer rows than the lowering transposes B^T for: dot products.
    bool fewRows = a.getRank() == 2 && a.getDimSize(0) < kGemmPanelRows;
    return fewRows && b.getDimSize(1) >= kPackedDotDepth &&
                   padsLittle(b.getDimSize(0), kPackedDotRows)
               ? kPackedDotRows
               : 0;
  }

  void runOnOperation() override {
    getOperation().walk([&](kernel::GemmOp op) {
      int64_t width = packWidth(op);
      if (!width)
        return;
      ElementsAttr weights = getConstantElements(op.getB());
      std::vector<double> b;
      if (!weights || !readAsDoubles(weights, b))
        return;
      auto shape = cast<ShapedType>(op.getB().getType()).getShape();
      // [K, N] in panels of columns, or B^T [N, K] in groups of rows.
      int64_t k = op.getTransB() ? shape[1] : shape[0];
      int64_t n = op.getTransB() ? shape[0] : shape[1];
      auto type = RankedTensorType::get({(n + width - 1) / width, k, width},
                                        Float32Type::get(op.getContext()));
      std::vector<double> packed =
          op.getTransB() ? packDotGroups(b, n, k) : packPanels(b, k, n);
      OpBuilder builder(op);
      Value value = kernel::WeightOp::create(
          builder, op.getB().getLoc(), type,
          makeElements(type, ArrayRef<double>(packed)));
      op.getBMutable().assign(value);
      op.setPackedB(true);
    });
  }
};
} // namespace
