//===- ChooseConvAlgorithm.cpp - which kernel runs each convolution -------===//
//
// Records the choice in kernel.conv2d's `algorithm` so that the memory
// planner (scratch) and the emitter (the runtime call) read one decision.
// See Passes.td for the rule; Conv2dOp::canUse says what each needs.
// Choosing `winograd` also lays the weights out for it (U = G g G^T), and
// choosing `pointwise_lanes` or `im2col_lanes` in panels of W^T.
//
//===----------------------------------------------------------------------===//
#include "dialects/Onnx/ConstantData.h"
#include "passes/Passes.h"

namespace onnxcc {
#define GEN_PASS_DEF_CHOOSECONVALGORITHM
#include "passes/Passes.h.inc"
} // namespace onnxcc

using namespace mlir;
using namespace onnxcc;

namespace {

/// Winograd F(2,3)'s kernel transform G (4x3).
constexpr double kG[4][3] = {
    {1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};

/// U = G g G^T of each 3x3 kernel g of OIHW weights, as [16][O][C]
/// (element (i, j) of U first: the runtime's 16 GEMM operands).
std::vector<double> winogradWeights(ArrayRef<double> g, int64_t o, int64_t c) {
  std::vector<double> u(16 * o * c);
  for (int64_t oc = 0; oc < o * c; ++oc) {
    const double *k = g.data() + oc * 9;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        double s = 0;
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b)
            s += kG[i][a] * k[a * 3 + b] * kG[j][b];
        u[(i * 4 + j) * o * c + oc] = s;
      }
  }
  return u;
}

/// Most input channels of a strided convolution run as an implicit GEMM:
/// an image model's stem (RGB, RGBA, grey). See Passes.td.
constexpr int64_t kMaxStridedImplicitChannels = 4;

/// Least output channels per group for which a 1x1 convolution packs its
/// input (`im2col`, which for a 1x1 is a copy into gemm_packed's panels)
/// rather than multiply it row-major (`pointwise`). See Passes.td.
constexpr int64_t kMinPackedPointwiseRows = 96;

/// Whether a convolution that may run `pointwise` should pack its input
/// instead: enough row panels to repay the one pass over the input, and a
/// map whose last 16-column vector pads at most a twentieth of it (a 7x7
/// map's 49 columns would compute 64).
bool packsPointwise(kernel::Conv2dOp op) {
  auto w = cast<ShapedType>(op.getWeight().getType()).getShape();
  auto y = cast<ShapedType>(op.getType()).getShape();
  const int64_t rows = w[0] / op.getGroup(), columns = y[2] * y[3];
  const int64_t padded = (columns + 15) / 16 * 16 - columns;
  return rows >= kMinPackedPointwiseRows && 20 * padded <= columns;
}

bool isStride1(kernel::Conv2dOp op) {
  return llvm::all_of(op.getStrides(), [](int64_t s) { return s == 1; });
}

/// Channels a Winograd convolution needs under the default rule (a
/// min-winograd-channels of 0) over a map of more than kMaxMapTiles tiles.
constexpr int64_t kAutoWinogradChannels = 32;

/// The 2x2 output tiles over which the default rule takes Winograd from
/// kMinMapChannels input channels: the runtime then keeps every tile of
/// the map in one row of 16 lanes (winograd_map.h). Under 9 tiles most of
/// those lanes idle; a single input channel (a 1 -> 16 channel 8x8 layer:
/// 0.58 us against 0.51 as an implicit GEMM) leaves too few multiply-adds
/// to repay the transforms.
constexpr int64_t kMinMapTiles = 9, kMaxMapTiles = 16, kMinMapChannels = 2;

/// Whether a convolution that may use Winograd is worth it: see Passes.td.
bool paysForWinograd(kernel::Conv2dOp op, int64_t minChannels) {
  auto w = cast<ShapedType>(op.getWeight().getType()).getShape();
  auto y = cast<ShapedType>(op.getType()).getShape();
  if (minChannels > 0)
    return w[0] >= minChannels && w[1] >= minChannels;
  const int64_t tiles = (y[2] + 1) / 2 * ((y[3] + 1) / 2);
  return (w[0] >= kAutoWinogradChannels && w[1] >= kAutoWinogradChannels) ||
         (tiles >= kMinMapTiles && tiles <= kMaxMapTiles &&
          w[1] >= kMinMapChannels);
}

/// Whether a convolution that may run `pointwise` is worth running with
/// its output channels in the lanes instead: see Passes.td.
constexpr int64_t kMinLanesOutputs = 32, kMaxSmallMap = 25;
constexpr int64_t kMinSmallMapInputs = 128, kMinLanesInputs = 256;
/// A wide layer over a small map (squeezenet1_1's 512 -> 1000 classifier
/// over 13x13): the lanes product reads its input (at most 512 KiB) once
/// per 32 output channels, im2col's GEMM reads its packed copy once per
/// 12-row tile.
constexpr int64_t kMinWideChannels = 512, kMaxWideMap = 256;
/// Whole panels of output channels over a map of 26 to 256 positions
/// (13x13, 14x14), from kMinPanelInputs input channels; on several threads
/// only an expansion of at least kMinPanelsPerThread panels a thread.
constexpr int64_t kMinPanelInputs = 48, kMinPanelsPerThread = 4;
bool paysForPanels(ArrayRef<int64_t> w, int64_t positions, int64_t threads) {
  if (positions > kMaxWideMap || w[0] % kernel::kPackedPanel != 0 ||
      w[1] < kMinPanelInputs)
    return false;
  return threads <= 1 ||
         (w[0] >= w[1] &&
          w[0] >= kMinPanelsPerThread * threads * kernel::kPackedPanel);
}
bool paysForLanes(kernel::Conv2dOp op, int64_t threads) {
  auto w = cast<ShapedType>(op.getWeight().getType()).getShape();
  auto y = cast<ShapedType>(op.getType()).getShape();
  const int64_t positions = y[2] * y[3];
  const int64_t padded = (positions + 15) / 16 * 16 - positions;
  if (!op.canUse("pointwise_lanes") || w[0] < kMinLanesOutputs ||
      positions < 2)
    return false;
  if (w[0] >= kMinWideChannels && w[1] >= kMinWideChannels &&
      positions <= kMaxWideMap)
    return true;
  if (positions > kMaxSmallMap && paysForPanels(w, positions, threads))
    return true;
  return positions <= kMaxSmallMap ? w[1] >= kMinSmallMapInputs
                                   : 8 * padded > positions &&
                                         w[1] >= kMinLanesInputs;
}

/// Whether a convolution left to `im2col` pays for running its product
/// with the output channels in the lanes instead (`im2col_lanes`): see
/// Passes.td.
constexpr int64_t kMinIm2colLanesRows = 256, kMaxIm2colLanesPositions = 256;
bool paysForIm2colLanes(kernel::Conv2dOp op) {
  auto w = cast<ShapedType>(op.getWeight().getType()).getShape();
  auto y = cast<ShapedType>(op.getType()).getShape();
  return op.canUse("im2col_lanes") && w[0] >= kMinLanesOutputs &&
         w[1] * w[2] * w[3] >= kMinIm2colLanesRows &&
         y[2] * y[3] <= kMaxIm2colLanesPositions;
}

/// W^T of OIHW weights in panels of kPackedPanel output channels,
/// [ceil(O / kPackedPanel), C * KH * KW, kPackedPanel], zeros past O.
std::vector<double> lanesWeights(ArrayRef<double> w, int64_t o, int64_t) {
  constexpr int64_t panel = kernel::kPackedPanel;
  const int64_t k = static_cast<int64_t>(w.size()) / o; // C * KH * KW
  std::vector<double> t((o + panel - 1) / panel * panel * k, 0.0);
  for (int64_t oc = 0; oc < o; ++oc)
    for (int64_t r = 0; r < k; ++r)
      t[(oc / panel * k + r) * panel + oc % panel] = w[oc * k + r];
  return t;
}

int64_t inputChannels(kernel::Conv2dOp op) {
  return cast<ShapedType>(op.getInput().getType()).getShape()[1];
}

struct ChooseConvAlgorithm
    : onnxcc::impl::ChooseConvAlgorithmBase<ChooseConvAlgorithm> {
  using ChooseConvAlgorithmBase::ChooseConvAlgorithmBase;

  /// Sets `algorithm` with the weight rewritten into its layout: `layout`
  /// maps the OIHW weights (as doubles, O and C) to `dims` of values. False,
  /// changing nothing, when the weights are not constants.
  template <typename Layout>
  static bool relayOut(kernel::Conv2dOp op, StringRef algorithm,
                       ArrayRef<int64_t> dims, Layout layout) {
    auto w = cast<ShapedType>(op.getWeight().getType()).getShape();
    ElementsAttr weights = getConstantElements(op.getWeight());
    std::vector<double> g;
    if (!weights || !readAsDoubles(weights, g))
      return false;
    auto type = RankedTensorType::get(
        dims, cast<ShapedType>(op.getWeight().getType()).getElementType());
    OpBuilder b(op);
    Value laid = kernel::WeightOp::create(
        b, op.getWeight().getLoc(), type,
        makeElements(type, ArrayRef<double>(layout(g, w[0], w[1]))));
    op.getWeightMutable().assign(laid);
    op.setAlgorithm(algorithm);
    return true;
  }

  /// Sets `winograd` and replaces the weight by its transform, when the
  /// convolution may use it, pays for it and its weights are constant.
  bool tryWinograd(kernel::Conv2dOp op) {
    auto w = cast<ShapedType>(op.getWeight().getType()).getShape();
    return op.canUse("winograd") &&
           paysForWinograd(op, minWinogradChannels) &&
           relayOut(op, "winograd", {16, w[0], w[1]}, winogradWeights);
  }

  /// Sets a lanes `algorithm` and replaces the weight by its panels of W^T:
  /// [ceil(O / 32), C, 32] for `pointwise_lanes`, the window kept,
  /// [ceil(O / 32), C, KH, KW, 32], for `im2col_lanes`. False, changing
  /// nothing, when the weights are not constants.
  static bool relayOutLanes(kernel::Conv2dOp op, StringRef algorithm) {
    auto w = cast<ShapedType>(op.getWeight().getType()).getShape();
    constexpr int64_t panel = kernel::kPackedPanel;
    SmallVector<int64_t> dims = {(w[0] + panel - 1) / panel, w[1]};
    if (algorithm == "im2col_lanes")
      dims.append({w[2], w[3]});
    dims.push_back(panel);
    return relayOut(op, algorithm, dims, lanesWeights);
  }

  void runOnOperation() override {
    getOperation().walk([&](kernel::Conv2dOp op) {
      if (op.hasLaidOutWeight())
        return; // already laid out for its algorithm
      // Cheapest first: no copy at all (unless a packed copy pays), then
      // fewer multiply-adds, then the general. A 1x1 depthwise convolution
      // is a per-channel scale: depthwise, not one GEMM of a row per
      // channel.
      if (op.canUse("depthwise")) {
        op.setAlgorithm("depthwise");
        return;
      }
      if (paysForLanes(op, threads) && relayOutLanes(op, "pointwise_lanes"))
        return;
      if (op.canUse("pointwise")) {
        op.setAlgorithm(packsPointwise(op) ? "im2col" : "pointwise");
        return;
      }
      if (tryWinograd(op))
        return;
      if (op.canUse("implicit_gemm") &&
          (isStride1(op) ||
           inputChannels(op) <= kMaxStridedImplicitChannels)) {
        op.setAlgorithm("implicit_gemm");
        return;
      }
      if (!paysForIm2colLanes(op) || !relayOutLanes(op, "im2col_lanes"))
        op.setAlgorithm("im2col");
    });
  }
};
} // namespace
