//===- PackGemmWeights.cpp - constant GEMM weights in runtime panels ------===//
//
// Lays a kernel.gemm's constant B out as the runtime's gemm_panels() reads
// it (gemm_packed.h) and marks the op `packed_b`, so the emitter and the
// verifier read one decision. See Passes.td for the rule.
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

struct PackGemmWeights
    : onnxcc::impl::PackGemmWeightsBase<PackGemmWeights> {
  using PackGemmWeightsBase::PackGemmWeightsBase;

  /// Whether padding N columns to whole panels adds at most N / 4.
  static bool padsLittle(int64_t n) {
    int64_t padded = (n + kPackedPanel - 1) / kPackedPanel * kPackedPanel;
    return n > 0 && 4 * (padded - n) <= n;
  }

  static bool canPack(kernel::GemmOp op) {
    auto f32 = [](Value v) { return getElementTypeOrSelf(v.getType()).isF32(); };
    auto b = cast<ShapedType>(op.getB().getType());
    return !op.getPackedB() && !op.getTransA() && !op.getTransB() &&
           f32(op.getA()) && f32(op.getB()) && f32(op.getOutput()) &&
           b.getRank() == 2 && padsLittle(b.getDimSize(1)) &&
           op.getB().getDefiningOp<kernel::WeightOp>() && op.getB().hasOneUse();
  }

  void runOnOperation() override {
    getOperation().walk([&](kernel::GemmOp op) {
      if (!canPack(op))
        return;
      ElementsAttr weights = getConstantElements(op.getB());
      std::vector<double> b;
      if (!weights || !readAsDoubles(weights, b))
        return;
      auto shape = cast<ShapedType>(op.getB().getType()).getShape();
      int64_t k = shape[0], n = shape[1];
      auto type = RankedTensorType::get(
          {(n + kPackedPanel - 1) / kPackedPanel, k, kPackedPanel},
          Float32Type::get(op.getContext()));
      OpBuilder builder(op);
      Value packed = kernel::WeightOp::create(
          builder, op.getB().getLoc(), type,
          makeElements(type, ArrayRef<double>(packPanels(b, k, n))));
      op.getBMutable().assign(packed);
      op.setPackedB(true);
    });
  }
};
} // namespace
