//===- KernelTest.cpp - runtime kernels at vector-width edges -------------===//
//
// Each kernel against a naive reference for sizes below, equal to, above and
// at multiples of the SIMD width (XNNPACK's batch_lt/eq/gt/div testers),
// including an in-place elementwise call, and im2col with its windows cut by
// every kind of image edge (pooling: ConvPoolKernelTest.cpp; depthwise
// convolution: DepthwiseKernelTest.cpp).
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"

#include "ConvTap.h"
#include "RandomData.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

using namespace onnxcc::rt;
using onnxcc::test::randomVector;
using onnxcc::test::Tap;

#if ONNXCC_HAS_SIMD
constexpr bool kHasSimdForTests = true;
#else
constexpr bool kHasSimdForTests = false;
#endif

namespace {

/// One element short of a vector (1 on the scalar path).
constexpr int64_t kBelowVec = kVecWidth > 1 ? kVecWidth - 1 : 1;

void expectClose(const std::vector<float> &got, const std::vector<float> &ref,
                 const char *what) {
  ASSERT_EQ(got.size(), ref.size());
  for (size_t i = 0; i < ref.size(); ++i)
    ASSERT_LE(std::fabs(got[i] - ref[i]), 1e-4f + 1e-4f * std::fabs(ref[i]))
        << what << " index " << i << ": got " << got[i] << ", expected " << ref[i];
}

/// The reference product in double: sum over k of A[i][k] * B'[k][j],
/// B' = B ([K, N]) or, with TB, B^T (B [N, K]); element (i, j) at i * N + j.
template <int64_t M, int64_t N, int64_t K, bool TB = false>
std::vector<double> naiveProduct(const std::vector<float> &a,
                                 const std::vector<float> &b) {
  std::vector<double> s(M * N, 0.0);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j)
      for (int64_t k = 0; k < K; ++k)
        s[i * N + j] += double(a[i * K + k]) * (TB ? b[j * K + k] : b[k * N + j]);
  return s;
}

template <int64_t M, int64_t N, int64_t K, bool TB> void checkGemm() {
  auto a = randomVector(M * K, 1), b = randomVector(K * N, 2), bias = randomVector(N, 3);
  std::vector<float> c(M * N), ref(M * N);
  gemm<M, N, K, false, TB, 0, 1, true>(a.data(), b.data(), bias.data(), 1.0f, 1.0f,
                                       c.data(), [](auto v) { return vmax(v, decltype(v)(0.0f)); });
  auto s = naiveProduct<M, N, K, TB>(a, b);
  for (int64_t i = 0; i < M * N; ++i) {
    double v = s[i] + bias[i % N];
    ref[i] = v > 0 ? float(v) : 0.0f;
  }
  expectClose(c, ref, "gemm");
}

#if ONNXCC_HAS_SIMD && (defined(__FMA__) || defined(__aarch64__))
// vfma() rounds once where the ISA has a fused multiply-add (SSE has none):
// (1 + 2^-12)^2 - (1 + 2^-11) is 2^-24 exactly, and 0 when the product is
// rounded first. xsimd 8.1's AVX-512 fma is a separate multiply and add.
TEST(Vector, FmaRoundsOnce) {
  // volatile: folded at compile time, g++ rounds the product first.
  volatile float va = 1.0f + std::ldexp(1.0f, -12), vc = -(1.0f + std::ldexp(1.0f, -11));
  const float a = va, c = vc;
  alignas(64) float lanes[kVecWidth];
  vfma(vfloat(a), vfloat(a), vfloat(c)).store_aligned(lanes);
  for (int64_t l = 0; l < kVecWidth; ++l)
    EXPECT_EQ(lanes[l], std::ldexp(1.0f, -24)) << "lane " << l;
}
#endif

/// vmax_num / vmin_num against a bound that is not NaN, as the compiler
/// emits them for ReLU and Clip: ordinary values clamp, infinities clamp,
/// and a NaN input comes out NaN in whichever lane it sits, in the vector
/// form (one instruction on x86 and AArch64) and the scalar one alike.
template <typename V> void checkClampKeepsNaN(const float *in, float *out) {
  auto clip = [](V v) { return vmin_num(vmax_num(v, V(0.0f)), V(6.0f)); };
  if constexpr (std::is_same<V, float>::value) {
    for (int64_t l = 0; l < kVecWidth; ++l)
      out[l] = clip(in[l]);
#if ONNXCC_HAS_SIMD
  } else {
    clip(V::load_unaligned(in)).store_unaligned(out);
#endif
  }
}

TEST(Vector, ClampAgainstConstantKeepsNaN) {
  const float values[] = {-2.5f, 3.0f, 7.5f, NAN, -INFINITY, INFINITY, 0.0f, 6.0f};
  for (int64_t at = 0; at < kVecWidth; ++at) {
    std::vector<float> in(kVecWidth), vec(kVecWidth), sca(kVecWidth);
    for (int64_t l = 0; l < kVecWidth; ++l)
      in[l] = values[(l + at) % 8];
    in[at] = NAN;
#if ONNXCC_HAS_SIMD
    checkClampKeepsNaN<vfloat>(in.data(), vec.data());
#else
    checkClampKeepsNaN<float>(in.data(), vec.data());
#endif
    checkClampKeepsNaN<float>(in.data(), sca.data());
    for (int64_t l = 0; l < kVecWidth; ++l) {
      const float want = std::isnan(in[l]) ? NAN : std::min(std::max(in[l], 0.0f), 6.0f);
      for (const auto *got : {&vec, &sca}) {
        if (std::isnan(want))
          EXPECT_TRUE(std::isnan((*got)[l])) << "lane " << l << " of " << at;
        else
          EXPECT_EQ((*got)[l], want) << "lane " << l << " of " << at;
      }
    }
  }
}

TEST(Gemm, VectorWidthEdges) {
  checkGemm<1, kBelowVec, 3, false>();
  checkGemm<3, kVecWidth, 5, false>();
  checkGemm<5, kVecWidth + 1, 7, false>();
  checkGemm<4, 2 * kVecWidth, 9, false>();
  checkGemm<7, 3 * kVecWidth + 3, 17, false>();
  checkGemm<2, 300, 11, false>(); // crosses a column block
  checkGemm<3, 257, 5, false>();  // last block narrower than a vector
}

/// gemm() with a bias per row (a convolution's) and alpha, beta != 1.
template <int64_t M, int64_t N, int64_t K> void checkGemmRowBias() {
  auto a = randomVector(M * K, 7), b = randomVector(K * N, 8), bias = randomVector(M, 9);
  std::vector<float> c(M * N, NAN), ref(M * N);
  gemm<M, N, K, false, false, 1, 0, true>(a.data(), b.data(), bias.data(), 0.5f,
                                          2.0f, c.data(), identity{});
  auto s = naiveProduct<M, N, K>(a, b);
  for (int64_t i = 0; i < M * N; ++i)
    ref[i] = float(0.5 * s[i] + 2.0 * bias[i / N]);
  expectClose(c, ref, "gemm, bias per row");
}

// Columns left after the vector tiles: up to a quarter vector they are dot
// products over a gathered copy (tail_dots), one more reruns the last
// vector, and with no whole vector every column is a dot. Depth blocks
// add each block's dots to the partial sums.
TEST(Gemm, TailEdges) {
  constexpr int64_t kQuarter = kVecWidth / 4 > 0 ? kVecWidth / 4 : 1;
  checkGemmRowBias<kTileRows + 1, kVecWidth + 1, 2 * kVecWidth + 3>();
  checkGemmRowBias<kTileRows, 2 * kVecWidth + kQuarter, 9>();
  checkGemmRowBias<5, 2 * kVecWidth + kQuarter + 1, 9>(); // reruns a vector
  checkGemmRowBias<kTileRows + 2, kBelowVec, 3 * kVecWidth + 1>();
  checkGemmRowBias<2 * kTileRows + 3, 49, 400>(); // 7x7, four depth blocks
  checkGemmRowBias<3, 169, 1000>(); // 13x13, one row panel's long blocks
}

// Rows cut into tiles by for_row_tiles(): kTileRows at a time while 4 rows
// would be left, then near-equal tiles of at most kMinorTileRows.
TEST(Gemm, TileRowEdges) {
  checkGemm<kTileRows, kVecWidth + 2, 13, false>();
  checkGemm<kTileRows - 1, 2 * kVecWidth + 1, 6, false>();
  checkGemm<kTileRows + 1, kVecWidth, 3, false>();
  checkGemm<2 * kTileRows + 5, 3 * kVecWidth - 1, 19, false>();
  checkGemm<kTileRows + 4, 49, 64, false>(); // a 7x7 map
}

// Products of few rows (narrow_rows(): whole 8-row tiles, at most 64
// rows, depth 64 or more) take 8-row, 3-vector tiles where 32 registers
// hold them: rows of 3 vectors and then 2, 1 and a tail of dot products,
// of a rerun vector and of a vector and one column; two depth blocks; the
// most rows, with every tile's rows packed at once (64 x 96) and, in a
// block too deep for that (64 x 300 over 19 columns), in groups of 24,
// 24 and 16 rows; and the edges around it, 64 rows at depth 63 and 72
// rows, which keep the 12-row tiles. Every ISA checks the same shapes.
TEST(Gemm, NarrowTileEdges) {
  constexpr int64_t V = kVecWidth;
  static_assert(kNarrowRows == 0 ||
                    (narrow_rows(16, 64) && !narrow_rows(64, 63) &&
                     !narrow_rows(72, 64) && !narrow_rows(20, 64)),
                "narrow tiles: whole 8-row tiles, at most 64 rows, depth >= 64");
  checkGemm<8, 3 * V + 2 * V + V + 1, 64, false>();
  checkGemm<16, 6 * V + V / 2 + 1, 65, false>();
  checkGemm<24, 3 * V + V + 3, 2 * kRowMajorDepthBlock + 5, false>();
  checkGemm<64, 169, 96, false>();
  static_assert(64 * row_major_depth(64, 19, 300, kTileRows) >
                    kNarrowPackFloats,
                "a block too deep to pack every tile's rows");
  checkGemm<64, 19, 300, false>();
  checkGemm<64, 3 * V + 1, 63, false>();
  checkGemm<72, 3 * V + 1, 64, false>();
  checkGemmRowBias<32, 2 * V + 5, 70>();
}

// Depth blocks: later blocks add to the partial sums in C, and only the
// last applies bias and epilogue; a rerun tail stores only its new
// columns, so an overlapped column is not added twice.
// Blocks are cut by row_major_depth(): long for one row panel, else as
// deep as keeps the block in L1, at least 128.
TEST(Gemm, DepthBlockEdges) {
  static_assert(row_major_depth(kTileRows + 1, 67, 129, kTileRows) == 65 &&
                    row_major_depth(2 * kTileRows + 1, 49, 400, kTileRows) == 100 &&
                    row_major_depth(3, 5, 775, kTileRows) == 259,
                "two 128-cut blocks, four 7x7 blocks, long blocks for one panel");
  checkGemm<kTileRows + 1, 67, kRowMajorDepthBlock + 1, false>();
  checkGemm<2 * kTileRows + 1, 49, 400, false>(); // 4 blocks over a 7x7 map
  checkGemm<kTileRows + 1, 2 * kVecWidth + 3, kDepthBlock + 1, false>();
  checkGemm<3, kBelowVec, 2 * kDepthBlock + 7, false>(); // one row panel
  checkGemm<kTileRows, 3 * kVecWidth + 1, 3 * kDepthBlock, false>();
  checkGemm<7, 600, 1000, false>(); // depth and column blocks both cut
  checkGemm<2, 5, 0, false>();      // no depth: bias and epilogue alone
}

// A matrix times a column vector (N = 1: gemv_rows), as a 1x1 convolution
// over a 1x1 map has: rows in whole dot groups and a partial last one,
// depths below a vector (the scalar tail alone), at it, past it, and an SE
// block's 576.
TEST(Gemm, ColumnVectorEdges) {
  checkGemmRowBias<1, 1, kBelowVec>();
  checkGemmRowBias<3, 1, 2 * kVecWidth - 1>();
  checkGemmRowBias<kVecWidth, 1, 2 * kVecWidth>();
  checkGemmRowBias<kVecWidth + 1, 1, 2 * kVecWidth + 1>();
  checkGemmRowBias<7, 1, 3 * kVecWidth + 5>();
  checkGemmRowBias<kTileRows + 3, 1, 64>();
  checkGemmRowBias<144, 1, 576>();
  checkGemmRowBias<kVecWidth + 3, 1, 1024>(); // staggered starts
  checkGemm<6, 1, 2 * kVecWidth + 3, false>(); // the bias broadcast along rows
}

/// gemm_packed() against the naive product, B packed by packed_at().
template <int64_t M, int64_t N, int64_t K> void checkGemmPacked() {
  auto a = randomVector(M * K, 1), b = randomVector(K * N, 2), bias = randomVector(M, 3);
  std::vector<float> bp(packed_floats(K, N), 0.0f), c(M * N), ref(M * N);
  for (int64_t k = 0; k < K; ++k)
    for (int64_t j = 0; j < N; ++j)
      bp[packed_at<K>(k, j)] = b[k * N + j];
  gemm_packed<M, N, K, 1, true>(a.data(), bp.data(), bias.data(), c.data(),
                                [](auto v) { return vmax(v, decltype(v)(0.0f)); });
  auto s = naiveProduct<M, N, K>(a, b);
  for (int64_t i = 0; i < M * N; ++i) {
    double v = s[i] + bias[i / N];
    ref[i] = v > 0 ? float(v) : 0.0f;
  }
  expectClose(c, ref, "gemm_packed");
}

// Whole and partial panels (the last one's columns stored alone, its
// partial sums reloaded lane by lane in later depth blocks), row panels.
TEST(GemmPacked, PanelDepthAndRowEdges) {
  checkGemmPacked<1, kPanel - 1, 3>();
  checkGemmPacked<kTileRows, kPanel, 9>();
  checkGemmPacked<kTileRows + 5, kPanel + 1, 17>();
  checkGemmPacked<3, 3 * kPanel + 5, kDepthBlock + 1>();
  checkGemmPacked<2 * kTileRows + 1, 49, 2 * kDepthBlock + 3>(); // a 7x7 map
  checkGemmPacked<5, 300, 40>(); // column blocks
}

/// gemm_panels() against the naive product, B packed as the compiler does
/// (packed_at<K, kPanelPad>), with a bias of shape [N] (BCS = 1, a
/// MatMul + Add's) or [M, N], and alpha, beta != 1.
template <int64_t M, int64_t N, int64_t K, int64_t BRS, int64_t BCS>
void checkGemmPanels() {
  auto a = randomVector(M * K, 4), b = randomVector(K * N, 5),
       bias = randomVector(BRS ? M * N : N, 6);
  std::vector<float> bp(packed_floats(K, N), NAN), c(M * N, NAN), ref(M * N);
  for (int64_t k = 0; k < K; ++k)
    for (int64_t j = 0; j < (N + kPanelPad - 1) / kPanelPad * kPanelPad; ++j)
      bp[packed_at<K, kPanelPad>(k, j)] = j < N ? b[k * N + j] : 0.0f;
  gemm_panels<M, N, K, BRS, BCS, true>(a.data(), bp.data(), bias.data(), 0.5f,
                                       2.0f, c.data(), identity{});
  auto s = naiveProduct<M, N, K>(a, b);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j)
      ref[i * N + j] = float(0.5 * s[i * N + j] + 2.0 * bias[i * BRS + j * BCS]);
  expectClose(c, ref, "gemm_panels");
}

// One or two columns past the last whole vector, at least a panel in
// (kDotTail): summed as dot products beside the register tiles. A last
// panel of those columns alone and of a vector and them; rows in eights
// and a remainder; depth blocks and a tail of k; the panels-outer order;
// a bias of C's shape and one per column; a Winograd product over a 13x13
// map's 49 tiles (and the same under AVX2, 49 = 3 panels and a column).
TEST(GemmPacked, DotTailColumns) {
  constexpr int64_t V = kVecWidth;
  static_assert(kDotTail<2 * kPanel + 1> == (kHasSimdForTests ? 1 : 0) &&
                    kDotTail<kPanel + V + 2> == (kHasSimdForTests ? 2 : 0) &&
                    kDotTail<kPanel + V + 3> == 0 && kDotTail<V + 1> == 0,
                "one or two columns past a whole vector, a panel in");
  checkGemmPacked<13, 2 * kPanel + 1, 9>();
  checkGemmPacked<kTileRows + 3, kPanel + V + 2, kDepthBlock + V + 3>();
  checkGemmPacked<256, 49, 64>();
  checkGemmPanels<13, 2 * kPanel + 1, 40, 2 * kPanel + 1, 1>();
  checkGemmPanels<20, kPanel + V + 2, kDepthBlock + 7, 0, 1>();
  checkGemmPanels<kMinorTileRows + 3, kPanel + V + 1, 128, 0, 1>(); // panels outer
}

// Register panels inside the compiler's 32-column panels, the last one
// partial (its bias along the row finished lane by lane), depth blocks.
TEST(GemmPacked, CompilerPanels) {
  checkGemmPanels<1, kPanelPad, 3, 0, 1>();
  checkGemmPanels<kTileRows + 1, kPanelPad + kPanel + 3, 17, 0, 1>();
  checkGemmPanels<4, 3 * kPanelPad - 1, kDepthBlock + 5, 0, 1>();
  checkGemmPanels<kTileRows + 3, 2 * kPanelPad + 5, 33, 2 * kPanelPad + 5, 1>();
  checkGemmPanels<32, 384, 128, 0, 1>(); // a transformer's QKV product
}

// Few rows over a block of B too big for L1 run the panels outermost,
// every row tile of near-equal rows through one panel (kPanelsOuter): the
// least rows that do, 25 rows (9 + 8 + 8 under AVX-512), the most rows
// that do at depth 128 and one more, which keeps the old order; a partial
// and a one-vector last panel; several depth blocks; the edge where the
// block of B just fits L1 (24 x 256) and one deeper (25 x 256).
TEST(GemmPacked, PanelsOutermost) {
  static_assert(kPanelsOuter<kMinorTileRows + 1, 384, 128> &&
                    !kPanelsOuter<kMinorTileRows, 384, 128>,
                "the fewest rows that run panels outermost");
  static_assert(kPanelsOuter<128, 384, 128> && !kPanelsOuter<129, 384, 128>,
                "all of A's rows in 64 KiB a depth block");
  static_assert(!kPanelsOuter<32, 256, 24> && kPanelsOuter<32, 256, 25> &&
                    !kPanelsOuter<32, 2 * kPanelPad, 64>,
                "a block of B that fits L1 keeps the old order");
  checkGemmPanels<kMinorTileRows + 1, 384, 128, 0, 1>();
  checkGemmPanels<25, 3 * kPanelPad - 5, 130, 0, 1>();
  checkGemmPanels<128, 384, 128, 0, 1>();
  checkGemmPanels<129, 384, 128, 0, 1>();
  checkGemmPanels<2 * kTileRows + 1, 2 * kPanelPad + kVecWidth, 200, 0, 1>();
  checkGemmPanels<20, 300, kDepthBlock + 5, 0, 1>();
  checkGemmPanels<32, 256, 24, 0, 1>();
  checkGemmPanels<32, 256, 25, 256, 1>(); // a bias of shape [M, N]
  checkGemmPacked<kTileRows + 5, 9 * kPanel + 1, 130>();
}

// Tiles of 1 to 3 rows run several whole panels side by side
// (kPanelGroup): a group then a lone whole panel and a partial one over two
// depth blocks, groups that end exactly at N, a bias of shape [M, N], and
// rows 1 to 3 left after whole tiles.
TEST(GemmPacked, ShortRowsGroupPanels) {
  checkGemmPanels<1, 5 * kPanel + 3, kDepthBlock + 7, 0, 1>();
  checkGemmPanels<1, 8 * kPanel, 21, 0, 1>();
  checkGemmPanels<2, 4 * kPanel + 1, 20, 4 * kPanel + 1, 1>();
  checkGemmPanels<3, 6 * kPanel - 1, kDepthBlock + 1, 0, 1>();
  checkGemmPanels<kTileRows + 1, 9 * kPanel, 30, 0, 1>();
  checkGemmPanels<kTileRows + 3, 4 * kPanel + kVecWidth, 12, 0, 1>();
  checkGemmPacked<2, 7 * kPanel + 2, 15>();
}

// A last panel of at most one vector's columns runs a one-vector tile:
// exactly one vector (alone, and after whole panels, across depth blocks),
// a partial vector, one column more (two vectors again), and under the
// compiler's panels with a bias along the row.
TEST(GemmPacked, OneVectorLastPanel) {
  checkGemmPacked<kTileRows, kVecWidth, 9>();
  checkGemmPacked<kTileRows + 3, kPanel + kVecWidth, kDepthBlock + 7>();
  checkGemmPacked<5, 2 * kPanel + kVecWidth - 1, 11>();
  checkGemmPacked<7, kPanel + kVecWidth + 1, 13>();
  checkGemmPanels<kTileRows + 1, kPanelPad + kVecWidth, kDepthBlock + 3, 0, 1>();
  checkGemmPanels<3, kPanelPad + kVecWidth - 2, 19, 0, 1>();
}

template <int64_t... Ms>
void checkRowCuts(std::integer_sequence<int64_t, Ms...>) {
  (checkGemm<Ms + 1, kVecWidth + 1, 5, false>(), ...);
  (checkGemmPacked<Ms + 1, kPanel + 1, 5>(), ...);
}

// Every row count up to two wide tiles and 5 more: each cut of the rows
// left after the wide tiles (one, two or three minor tiles) and M = 32,
// the count whose single-row tail tiles the cut replaced. A packed
// product of all its rows on one thread cuts them into near-equal tiles
// instead (for_balanced_row_tiles()), as the classifier's 64 rows.
TEST(Gemm, EveryRowTileCut) {
  checkRowCuts(std::make_integer_sequence<int64_t, 2 * kTileRows + 5>{});
  checkGemm<32, 2 * kVecWidth, 9, false>();
  checkGemmPacked<32, 3 * kPanel, 9>();
  checkGemmPanels<64, 256, 784, 0, 1>();
}

TEST(Gemm, TransposedBVectorWidthEdges) {
  checkGemm<1, 10, kBelowVec, true>();
  checkGemm<2, 3, kVecWidth, true>();
  checkGemm<3, 4, 2 * kVecWidth + 1, true>();
  checkGemm<1, 256, 784, true>(); // the classifier's first layer
  // Four columns at a time, then one: column counts around 4, depths
  // around two vectors.
  checkGemm<1, 7, 2 * kVecWidth, true>();
  checkGemm<2, 9, 2 * kVecWidth + 3, true>();
  checkGemm<1, 4, 6 * kVecWidth - 1, true>();
  // Rows 8 and 4 KiB apart, whose dot groups start staggered along them
  // (torch_small_cnn's 2048 -> 64 Linear), with a partial last group and
  // a scalar tail.
  checkGemm<1, 2 * kVecWidth + 3, 2048, true>();
  checkGemm<2, kVecWidth + 1, 1024 + kBelowVec, true>();
}

/// ReLU(0.5 * A B^T + 2 * bias[i * BRS + j * BCS]) from the naive
/// product: what the Linear-style checks below expect.
template <int64_t M, int64_t N, int64_t K, int64_t BRS, int64_t BCS>
std::vector<float> linearReference(const std::vector<float> &a,
                                   const std::vector<float> &bt,
                                   const std::vector<float> &bias) {
  auto s = naiveProduct<M, N, K, true>(a, bt);
  std::vector<float> ref(M * N);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j)
      ref[i * N + j] = std::fmax(
          float(0.5 * s[i * N + j] + 2.0 * bias[i * BRS + j * BCS]), 0.0f);
  return ref;
}

/// gemm() of a B^T with fewer rows than kFewColumnsMax (gemm_few_columns()
/// where there are vectors) against the naive product: alpha, beta, a
/// bias per column, per row or of C's shape, and ReLU.
template <int64_t M, int64_t N, int64_t K, int64_t BRS, int64_t BCS>
void checkFewColumns() {
  auto a = randomVector(M * K, 7), bt = randomVector(N * K, 8),
       bias = randomVector(BRS && BCS ? M * N : BRS ? M : N, 9);
  std::vector<float> c(M * N, NAN);
  gemm<M, N, K, false, true, BRS, BCS, true>(
      a.data(), bt.data(), bias.data(), 0.5f, 2.0f, c.data(),
      [](auto v) { return vmax(v, decltype(v)(0.0f)); });
  expectClose(c, linearReference<M, N, K, BRS, BCS>(a, bt, bias),
              "gemm, few columns");
}

// Fewer columns than kFewColumnsMax, from 2 to 15 (one dot group or two
// under AVX2, up to four under SSE and NEON), rows in kFewColumnRows and a
// remainder, depths with a tail of k, below one vector and of whole
// vectors; the classifier's last layer at batch 64.
TEST(Gemm, FewColumns) {
  static_assert(kFewColumns<2, false, true> == kHasSimdForTests &&
                    kFewColumns<kFewColumnsMax - 1, false, true> ==
                        kHasSimdForTests &&
                    !kFewColumns<kFewColumnsMax, false, true> &&
                    !kFewColumns<1, false, true> &&
                    !kFewColumns<10, false, false> && !kFewColumns<10, true, true>,
                "B^T of 2 to 15 rows, A not transposed");
  checkFewColumns<64, 10, 256, 0, 1>();
  checkFewColumns<9, 3, 2 * kVecWidth + 5, 0, 1>();
  checkFewColumns<5, 15, kBelowVec, 1, 0>();
  checkFewColumns<7, kVecWidth + 1, 3 * kVecWidth, kVecWidth + 1, 1>();
  checkFewColumns<1, 2, 64, 0, 1>();
  checkFewColumns<3, kFewColumnsMax - 2, 5 * kVecWidth + 1, 0, 1>();
}

/// gemm_dots() last group first gives the same bits as first group first
/// (the recurrent layers alternate the two), with a partial last group.
template <int64_t M, int64_t N, int64_t K> void checkDotsBackward() {
  auto a = randomVector(M * K, 4), b = randomVector(N * K, 5), bias = randomVector(N, 6);
  std::vector<float> fwd(M * N, -1.0f), bwd(M * N, -2.0f);
  gemm_dots<M, N, K, false, 0, 1, true>(a.data(), b.data(), bias.data(), 1.0f,
                                        1.0f, fwd.data(), 0, N, identity{});
  gemm_dots<M, N, K, false, 0, 1, true>(a.data(), b.data(), bias.data(), 1.0f,
                                        1.0f, bwd.data(), 0, N, identity{}, true);
  EXPECT_EQ(0, std::memcmp(fwd.data(), bwd.data(), fwd.size() * sizeof(float)));
  std::vector<float> ref(M * N);
  auto s = naiveProduct<M, N, K, true>(a, b);
  for (int64_t i = 0; i < M * N; ++i)
    ref[i] = float(s[i] + bias[i % N]);
  expectClose(bwd, ref, "gemm_dots backward");
}

TEST(Gemm, TransposedBBackwardGroupsSameBits) {
  checkDotsBackward<1, 4 * kVecWidth, 64>(); // an LSTM step, hidden = kVecWidth
  checkDotsBackward<3, 2 * kVecWidth + 5, kVecWidth + 3>();
  checkDotsBackward<1, 2 * kVecWidth + 3, 2048>(); // staggered starts
}

/// B^T [N, K] in the compiler's dot groups (onnxcc-pack-gemm-weights):
/// per group of kDotRows rows, each whole block of kDotDepth k row after
/// row, then the rows' last K % kDotDepth k; rows past N are zeros.
template <int64_t N, int64_t K>
std::vector<float> packDotGroups(const std::vector<float> &bt) {
  constexpr int64_t body = K / kDotDepth * kDotDepth, tail = K - body;
  std::vector<float> p(kDotGroups<N> * kDotRows * K, 0.0f);
  for (int64_t j = 0; j < N; ++j) {
    float *group = p.data() + j / kDotRows * kDotRows * K;
    const int64_t r = j % kDotRows;
    for (int64_t k = 0; k < body; ++k)
      group[(k / kDotDepth * kDotRows + r) * kDotDepth + k % kDotDepth] =
          bt[j * K + k];
    for (int64_t t = 0; t < tail; ++t)
      group[body * kDotRows + r * tail + t] = bt[j * K + body + t];
  }
  return p;
}

/// gemm_packed_dots() against the naive product of A and B^T, with a bias
/// of shape [N] (BCS = 1, a Linear's) or [M, N], alpha, beta != 1 and a
/// ReLU.
template <int64_t M, int64_t N, int64_t K, int64_t BRS = 0, int64_t BCS = 1>
void checkPackedDots() {
  auto a = randomVector(M * K, 4), bt = randomVector(N * K, 5),
       bias = randomVector(BRS ? M * N : N, 6);
  auto bp = packDotGroups<N, K>(bt);
  auto relu = [](auto v) { return vmax(v, decltype(v)(0.0f)); };
  std::vector<float> c(M * N, NAN), back(M * N, NAN);
  gemm_packed_dots<M, N, K, BRS, BCS, true>(a.data(), bp.data(), bias.data(),
                                            0.5f, 2.0f, c.data(), relu);
  expectClose(c, linearReference<M, N, K, BRS, BCS>(a, bt, bias),
              "gemm_packed_dots");
  // Groups last to first, as every other call reads them: the same bits.
  gemm_packed_dots<M, N, K, BRS, BCS, true>(a.data(), bp.data(), bias.data(),
                                            0.5f, 2.0f, back.data(), relu,
                                            sweep::backward);
  EXPECT_EQ(std::memcmp(back.data(), c.data(), c.size() * sizeof(float)), 0)
      << "gemm_packed_dots, groups backward";
}

// Whole and partial groups (a dot group of every ISA inside a group of
// 16 rows, the last one cut short), depths of whole blocks, a block and a
// tail, a tail alone, one to three rows, and the classifier's layer.
TEST(GemmPackedDots, GroupAndDepthEdges) {
  checkPackedDots<1, kDotRows, kDotDepth>();
  checkPackedDots<1, kDotRows - 1, kDotDepth + 1>();
  checkPackedDots<2, kDotRows + 1, 2 * kDotDepth - 1>();
  checkPackedDots<3, 2 * kDotRows + kVecWidth / 2 + 1, 3 * kDotDepth + 5>();
  checkPackedDots<1, 3, kDotDepth - 3>(); // no whole block
  checkPackedDots<2, 40, 64, 40, 1>();    // a bias of C's shape
  checkPackedDots<1, 256, 784>();          // the classifier's first layer
}

template <int64_t N> void checkMap() {
  auto a = randomVector(N, 4), b = randomVector(N, 5);
  float s = 0.25f;
  std::vector<float> out(N), ref(N);
  auto body = [](auto x, auto y, auto z) { return vmax(x * z + y, decltype(x)(0.0f)); };
  map<N>(out.data(), body, dense_in<float>{a.data()}, dense_in<float>{b.data()},
         splat_in<float>{&s});
  for (int64_t i = 0; i < N; ++i)
    ref[i] = std::fmax(a[i] * s + b[i], 0.0f);
  expectClose(out, ref, "map");
  // In place: the output overwrites its first input, as the planner allows.
  map<N>(a.data(), body, dense_in<float>{a.data()}, dense_in<float>{b.data()},
         splat_in<float>{&s});
  expectClose(a, ref, "map in place");
}

TEST(Elementwise, VectorWidthEdges) {
  checkMap<1>();
  checkMap<kBelowVec>();
  checkMap<kVecWidth>();
  checkMap<kVecWidth + 1>();
  checkMap<4 * kVecWidth>();
  checkMap<4 * kVecWidth + 3>();
}

TEST(Elementwise, StridedBroadcast) {
  // [2,3,4] + [3,1]: per-row values broadcast along the last axis.
  auto a = randomVector(24, 6), b = randomVector(3, 7);
  std::vector<float> out(24);
  static constexpr int64_t shape[3] = {2, 3, 4};
  map_strided<3>(shape, out.data(), [](auto x, auto y) { return x - y; },
                 strided_in<3, float>{a.data(), {12, 4, 1}},
                 strided_in<3, float>{b.data(), {0, 1, 0}});
  for (int i = 0; i < 24; ++i)
    EXPECT_FLOAT_EQ(out[i], a[i] - b[(i / 4) % 3]) << "index " << i;
}

// The vector rows: dense and broadcast rows of a vector and a bit
// (partial tail), and a row read at stride 3 (a transposed input), which
// takes the element-by-element loop.
TEST(Elementwise, StridedBroadcastVectorRows) {
  constexpr int64_t R = 3, W = kVecWidth + 3;
  auto a = randomVector(R * W, 8), b = randomVector(R, 9), t = randomVector(W * R, 10);
  std::vector<float> out(R * W), out_t(R * W);
  static constexpr int64_t shape[2] = {R, W};
  auto f = [](auto x, auto y) { return x * y; };
  map_strided<2, true>(shape, out.data(), f, strided_in<2, float>{a.data(), {W, 1}},
                       strided_in<2, float>{b.data(), {1, 0}});
  map_strided<2, true>(shape, out_t.data(), f, strided_in<2, float>{t.data(), {1, R}},
                       strided_in<2, float>{b.data(), {1, 0}});
  for (int64_t r = 0; r < R; ++r)
    for (int64_t i = 0; i < W; ++i) {
      EXPECT_FLOAT_EQ(out[r * W + i], a[r * W + i] * b[r]) << r << "," << i;
      EXPECT_FLOAT_EQ(out_t[r * W + i], t[i * R + r] * b[r]) << r << "," << i;
    }
}

template <typename S> void checkIm2col() {
  auto x = randomVector(S::Cg * S::H * S::W, 11);
  // Packed in panels (gemm_packed.h), as much as the planner reserves and
  // one element more, to catch a write past the end.
  constexpr int64_t size = packed_floats(S::Kdim, S::P);
  std::vector<float> col(size + 1, NAN), ref(size, NAN);
  im2col<S>(x.data(), col.data());
  for (int64_t c = 0; c < S::Cg; ++c)
    for (int64_t kh = 0; kh < S::KH; ++kh)
      for (int64_t kw = 0; kw < S::KW; ++kw)
        for (int64_t oh = 0; oh < S::OH; ++oh)
          for (int64_t ow = 0; ow < S::OW; ++ow) {
            Tap<S> t(oh, ow, kh, kw);
            ref[packed_at<S::Kdim>((c * S::KH + kh) * S::KW + kw,
                                   oh * S::OW + ow)] =
                t.inside() ? x[(c * S::H + t.ih) * S::W + t.iw] : 0.0f;
          }
  // The last panel's padding columns are zeros.
  for (int64_t k = 0; k < S::Kdim; ++k)
    for (int64_t j = S::P; j % kPanel != 0; ++j)
      ref[packed_at<S::Kdim>(k, j)] = 0.0f;
  EXPECT_TRUE(std::isnan(col.back())) << "im2col wrote past its scratch";
  col.pop_back();
  // Beyond the last panel im2col writes nothing: both stay NaN there.
  for (int64_t i = 0; i < size; ++i)
    if (std::isnan(ref[i])) {
      ASSERT_TRUE(std::isnan(col[i])) << "im2col wrote index " << i;
      col[i] = ref[i] = 0.0f;
    }
  expectClose(col, ref, "im2col");
}

/// The Winograd F(2,3) weights U = G g G^T of OIHW 3x3 weights, as
/// [16][O][C]: what onnxcc-choose-conv-algorithm writes.
std::vector<float> winogradWeights(const std::vector<float> &g, int64_t O, int64_t C) {
  static const double G[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
  std::vector<float> u(16 * O * C);
  for (int64_t o = 0; o < O; ++o)
    for (int64_t c = 0; c < C; ++c)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
          double s = 0;
          for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b)
              s += G[i][a] * g[((o * C + c) * 3 + a) * 3 + b] * G[j][b];
          u[((i * 4 + j) * O + o) * C + c] = float(s);
        }
  return u;
}

/// W^T of OIHW weights in panels of 32 output channels, [ceil(O / 32)][C
/// * KH * KW][32], zeros past O: what onnxcc-choose-conv-algorithm writes
/// for pointwise_lanes and im2col_lanes (C here the C * KH * KW rows). The
/// zeros are NaN here, to show they are never used.
std::vector<float> lanesWeights(const std::vector<float> &w, int64_t O, int64_t C) {
  std::vector<float> t((O + 31) / 32 * 32 * C, NAN);
  for (int64_t o = 0; o < O; ++o)
    for (int64_t c = 0; c < C; ++c)
      t[(o / 32 * C + c) * 32 + o % 32] = w[o * C + c];
  return t;
}

template <typename S, conv_algo Algo = conv_algo::im2col, typename Epi = identity>
void checkConv(Epi epi = {}) {
  auto x = randomVector(S::N * S::C * S::H * S::W, 8);
  auto w = randomVector(S::O * S::Cg * S::KH * S::KW, 9);
  auto bias = randomVector(S::O, 10);
  std::vector<float> y(S::N * S::O * S::OH * S::OW), ref(y.size()), scratch;
  // Only im2col, implicit_gemm and winograd use scratch: the others get
  // none, as the planner gives.
  if constexpr (Algo == conv_algo::im2col)
    scratch.resize(packed_floats(S::Kdim, S::P));
  if constexpr (Algo == conv_algo::implicit_gemm)
    scratch.assign(implicit_shape<S>::kScratch, NAN); // garbage is not read
  if constexpr (Algo == conv_algo::im2col_lanes)
    scratch.assign(S::Kdim * S::P, NAN); // every row is written first
  if constexpr (Algo == conv_algo::winograd) {
    scratch.assign(winograd_shape<S>::kScratch, NAN); // garbage is not read
    conv2d<S, Algo>(x.data(), winogradWeights(w, S::O, S::C).data(), bias.data(),
                    y.data(), scratch.data(), epi);
  } else if constexpr (Algo == conv_algo::pointwise_lanes) {
    conv2d<S, Algo>(x.data(), lanesWeights(w, S::O, S::C).data(), bias.data(),
                    y.data(), nullptr, epi);
  } else if constexpr (Algo == conv_algo::im2col_lanes) {
    conv2d<S, Algo>(x.data(), lanesWeights(w, S::O, S::Kdim).data(),
                    bias.data(), y.data(), scratch.data(), epi);
  } else {
    conv2d<S, Algo>(x.data(), w.data(), bias.data(), y.data(),
                    scratch.empty() ? nullptr : scratch.data(), epi);
  }
  for (int64_t n = 0; n < S::N; ++n)
    for (int64_t o = 0; o < S::O; ++o)
      for (int64_t oh = 0; oh < S::OH; ++oh)
        for (int64_t ow = 0; ow < S::OW; ++ow) {
          double s = bias[o];
          int64_t g = o / S::Og;
          for (int64_t c = 0; c < S::Cg; ++c)
            for (int64_t kh = 0; kh < S::KH; ++kh)
              for (int64_t kw = 0; kw < S::KW; ++kw) {
                Tap<S> t(oh, ow, kh, kw);
                if (!t.inside())
                  continue;
                s += double(x[((n * S::C + g * S::Cg + c) * S::H + t.ih) * S::W + t.iw]) *
                     w[((o * S::Cg + c) * S::KH + kh) * S::KW + kw];
              }
          ref[((n * S::O + o) * S::OH + oh) * S::OW + ow] = epi(float(s));
        }
  expectClose(y, ref, "conv2d");
}

// Winograd F(2,3): odd and even outputs (a last tile row and column of one
// output), padded and not, tile rows shorter than, as long as and longer
// than a vector, several panels of tiles, a batch, a fused ReLU; inputs
// staged (winograd_input()) and, with one output channel, whose M region
// cannot hold a channel's staging, put directly.
TEST(Conv, WinogradMatchesDirect) {
  using OneOutput = conv_shape<1, 5, 6, 6, 1, 3, 3, 4, 4, 1, 1, 0, 0, 1, 1, 1>;
  static_assert(winograd_shape<OneOutput>::kStages == 0, "not staged");
  checkConv<OneOutput, conv_algo::winograd>();
  auto relu = [](auto v) { return vmax(v, decltype(v)(0.0f)); };
  checkConv<conv_shape<1, 3, 5, 5, 4, 3, 3, 5, 5, 1, 1, 1, 1, 1, 1, 1>, conv_algo::winograd>();
  checkConv<conv_shape<1, 5, 6, 6, 3, 3, 3, 4, 4, 1, 1, 0, 0, 1, 1, 1>, conv_algo::winograd>();
  constexpr int64_t V = kVecWidth;
  checkConv<conv_shape<2, 6, 7, 2 * V, 5, 3, 3, 7, 2 * V, 1, 1, 1, 1, 1, 1, 1>,
            conv_algo::winograd>(relu);
  checkConv<conv_shape<1, 4, 9, 2 * V + 5, 7, 3, 3, 9, 2 * V + 5, 1, 1, 1, 1, 1, 1, 1>,
            conv_algo::winograd>();
  checkConv<conv_shape<1, 9, 17, 6 * V + 1, 6, 3, 3, 15, 6 * V - 1, 1, 1, 0, 0, 1, 1, 1>,
            conv_algo::winograd>(relu);
  // squeezenet1_1's 13x13 maps: 49 tiles, a column past 3 whole vectors
  // under AVX-512 (kDotTail), 20 output channels (a row remainder).
  checkConv<conv_shape<1, 8, 13, 13, 20, 3, 3, 13, 13, 1, 1, 1, 1, 1, 1, 1>,
            conv_algo::winograd>(relu);
  // Staged and copied into the panels in blocks of up to 8 channels
  // (stage_channels()): 19, two whole blocks and one of 3.
  using Blocks = conv_shape<1, 19, 13, 13, 24, 3, 3, 13, 13, 1, 1, 1, 1, 1, 1, 1>;
  static_assert(winograd_shape<Blocks>::stage_channels(1) == 8, "blocks of 8");
  checkConv<Blocks, conv_algo::winograd>(relu);
}

// Winograd over a map of at most 16 tiles (winograd_map.h, every tile in
// one row of lanes): 16 tiles (8x8, digits_cnn's 16 -> 32), 16 with odd
// sides (7x7: a last tile row and column of one output), one tile, rows
// of one tile and one tile row, 15 and 14 tiles (lanes past the last left
// over), one input channel, padding on the left only, output channels
// that leave 1 to 7 over after whole register tiles (13, 7), a batch and
// a fused ReLU.
TEST(Conv, WinogradMapMatchesDirect) {
  auto relu = [](auto v) { return vmax(v, decltype(v)(0.0f)); };
  constexpr auto A = conv_algo::winograd;
  static_assert(winograd_map_shape<conv_shape<1, 1, 8, 8, 1, 3, 3, 8, 8, 1, 1, 1, 1, 1, 1, 1>>::kApplies &&
                    !winograd_map_shape<conv_shape<1, 1, 9, 8, 1, 3, 3, 9, 8, 1, 1, 1, 1, 1, 1, 1>>::kApplies,
                "8x8 outputs are the largest square map of one row");
  checkConv<conv_shape<1, 16, 8, 8, 32, 3, 3, 8, 8, 1, 1, 1, 1, 1, 1, 1>, A>(relu);
  checkConv<conv_shape<2, 5, 7, 7, 13, 3, 3, 7, 7, 1, 1, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 4, 3, 3, 7, 3, 3, 1, 1, 1, 1, 0, 0, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 3, 16, 2, 9, 3, 3, 16, 2, 1, 1, 1, 1, 1, 1, 1>, A>(relu);
  checkConv<conv_shape<1, 3, 2, 16, 9, 3, 3, 2, 16, 1, 1, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 6, 6, 10, 8, 3, 3, 6, 9, 1, 1, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 1, 8, 9, 17, 3, 3, 6, 7, 1, 1, 0, 1, 1, 1, 1>, A>(relu);
}

// A 1x1 convolution with its output channels in the lanes (conv_lanes.h):
// 7x7 and 5x5 maps (49 positions: tiles of 12 and the near-equal rest),
// 2 positions, output channels in whole panels of 32 (160), one past them
// (33: a last panel of one channel), part of a register panel (50, 8);
// depth blocks of 128 (129 and 300 input channels: 2 and 3 blocks; 3:
// one), 182 and 196 positions (one run, near-equal tiles), 210 (runs of
// 128 and 82), a batch and a fused ReLU. NaN in the weight panels past O
// shows those columns are never stored.
TEST(Conv, PointwiseLanesMatchesDirect) {
  auto relu = [](auto v) { return vmax(v, decltype(v)(0.0f)); };
  constexpr auto A = conv_algo::pointwise_lanes;
  checkConv<conv_shape<1, 129, 7, 7, 160, 1, 1, 7, 7, 1, 1, 0, 0, 1, 1, 1>, A>(relu);
  checkConv<conv_shape<2, 300, 5, 5, 33, 1, 1, 5, 5, 1, 1, 0, 0, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 3, 1, 2, 50, 1, 1, 1, 2, 1, 1, 0, 0, 1, 1, 1>, A>(relu);
  checkConv<conv_shape<1, 20, 3, 3, 8, 1, 1, 3, 3, 1, 1, 0, 0, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 64, 14, 13, 40, 1, 1, 14, 13, 1, 1, 0, 0, 1, 1, 1>, A>(relu);
  checkConv<conv_shape<1, 9, 14, 14, 64, 1, 1, 14, 14, 1, 1, 0, 0, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 64, 15, 14, 40, 1, 1, 15, 14, 1, 1, 0, 0, 1, 1, 1>, A>(relu);
  static_assert(14 * 14 == kLanesWholeMap && 15 * 14 > kLanesWholeMap,
                "the largest map run whole, and one run in two");
}

// Any ungrouped convolution with its output channels in the lanes over
// im2col's rows (conv_lanes.h: im2row, then the lanes product): resnet18's
// stride-2 3x3 and 1x1 layers at small size (pads on both sides, 7x7 and
// 4x4 maps), depth blocks (360 rows: 3 of 120), a last panel of one
// channel (33) and part of a register panel (8), a dilated 3x3 whose
// taps leave the image on every side, a 5x5 window at stride 3 over 144
// positions (one run) and 225 (runs of 128 and 97), a batch and a fused ReLU. NaN in the
// scratch shows every row is written before it is read.
TEST(Conv, Im2colLanesMatchesDirect) {
  auto relu = [](auto v) { return vmax(v, decltype(v)(0.0f)); };
  constexpr auto A = conv_algo::im2col_lanes;
  checkConv<conv_shape<1, 40, 14, 14, 48, 3, 3, 7, 7, 2, 2, 1, 1, 1, 1, 1>, A>(relu);
  checkConv<conv_shape<2, 20, 8, 8, 33, 1, 1, 4, 4, 2, 2, 0, 0, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 3, 9, 11, 8, 3, 3, 5, 6, 2, 2, 1, 1, 2, 2, 1>, A>(relu);
  checkConv<conv_shape<1, 6, 36, 36, 70, 5, 5, 12, 12, 3, 3, 2, 2, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 4, 45, 45, 40, 5, 5, 15, 15, 3, 3, 2, 2, 1, 1, 1>, A>(relu);
  static_assert(15 * 15 > kLanesWholeMap, "two runs of positions");
}

// Implicit GEMM: rows narrower than, as wide as and one wider than a
// vector (an overlapping last spot), an odd number of spots, padding on
// one side only (OH, OW below the padded input's), a 5x5 window, a
// dilated one, no padding, a batch, a fused ReLU, and tiles of every
// height up to 6 (O = 1 to 5, 16 = 6 + 6 + 4, kTileRows + 4).
TEST(Conv, ImplicitGemmMatchesDirect) {
  auto relu = [](auto v) { return vmax(v, decltype(v)(0.0f)); };
  constexpr int64_t V = kVecWidth;
  constexpr auto A = conv_algo::implicit_gemm;
  checkConv<conv_shape<1, 3, 5, 5, 4, 3, 3, 5, 5, 1, 1, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 2, 4, V, 5, 3, 3, 4, V, 1, 1, 1, 1, 1, 1, 1>, A>(relu);
  checkConv<conv_shape<2, 3, 3, V + 1, 3, 3, 3, 2, V, 1, 1, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 6, 12, 12, 16, 5, 5, 8, 8, 1, 1, 0, 0, 1, 1, 1>, A>(relu);
  checkConv<conv_shape<1, 2, 9, 2 * V + 3, 2, 3, 3, 7, 2 * V - 1, 1, 1, 1, 0, 2, 2, 1>, A>();
  checkConv<conv_shape<1, 1, 28, 28, 1, 3, 3, 26, 26, 1, 1, 0, 0, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 4, 7, 7, kTileRows + 4, 3, 3, 7, 7, 1, 1, 1, 1, 1, 1, 1>, A>();
}

// Flat spots (stride 1, rows wider than a vector whose row spots would
// compute over 10/9 of the flat columns): a spot runs past its row's end
// into the next, storing only outputs. squeezenet1_1's 55-wide rows; 17-wide rows with spots that start
// inside the two columns between rows (16 lanes: the spot at 112 starts
// at column 17 of row 5) and with one output of the next row; a 5-wide
// and a dilated window (4 columns between rows); one output row; no
// padding; a batch, a fused ReLU; and the scalar path's row spots.
TEST(Conv, ImplicitGemmFlatSpotsMatchDirect) {
  auto relu = [](auto v) { return vmax(v, decltype(v)(0.0f)); };
  constexpr int64_t V = kVecWidth;
  constexpr auto A = conv_algo::implicit_gemm;
  static_assert(V != 16 || implicit_shape<conv_shape<1, 1, 9, 55, 1, 3, 3, 9, 55,
                                                    1, 1, 1, 1, 1, 1, 1>>::kFlat,
                "55-wide rows take flat spots under 16 lanes");
  static_assert(!implicit_shape<conv_shape<1, 1, 4, 30, 1, 3, 3, 4, 30, 1, 1, 1,
                                           1, 1, 1, 1>>::kFlat,
                "30-wide rows waste as little in row spots");
  checkConv<conv_shape<1, 3, 9, 55, 13, 3, 3, 9, 55, 1, 1, 1, 1, 1, 1, 1>, A>(relu);
  checkConv<conv_shape<2, 2, 9, 17, 5, 3, 3, 9, 17, 1, 1, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 2, 9, 2 * V + 5, 3, 5, 5, 9, 2 * V + 5, 1, 1, 2, 2, 1, 1, 1>, A>(relu);
  checkConv<conv_shape<1, 2, 8, V + 3, 3, 3, 3, 8, V + 3, 1, 1, 2, 2, 2, 2, 1>, A>();
  checkConv<conv_shape<1, 3, 1, V + 1, 4, 3, 3, 1, V + 1, 1, 1, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 3, 6, 3 * V + 3, 7, 3, 3, 4, 3 * V + 1, 1, 1, 0, 0, 1, 1, 1>, A>();
}

// Narrow tiles (implicit_narrow(): 8 output channels x 3 spots where 32
// registers hold them, whole tiles of at most 64 channels): 64 channels
// over 55-wide flat spots (squeezenet1_1's 16 -> 64 layer, 32 spots under
// AVX-512: tiles of 3 and a last one of 2), 8 channels over 7 flat spots
// (a last tile of 1), 32 at stride 2 (a stem's row spots, 36 of them),
// and the edges, 72 and 60 channels, which keep the 12-row tiles.
TEST(Conv, ImplicitGemmNarrowTilesMatchDirect) {
  auto relu = [](auto v) { return vmax(v, decltype(v)(0.0f)); };
  constexpr int64_t V = kVecWidth;
  constexpr auto A = conv_algo::implicit_gemm;
  using Wide = conv_shape<1, 16, 9, 55, 64, 3, 3, 9, 55, 1, 1, 1, 1, 1, 1, 1>;
  static_assert(kNarrowRows == 0 ||
                    (implicit_narrow<Wide>() &&
                     !implicit_narrow<conv_shape<1, 2, 5, 5, 72, 3, 3, 5, 5, 1,
                                                 1, 1, 1, 1, 1, 1>>() &&
                     !implicit_narrow<conv_shape<1, 2, 5, 5, 60, 3, 3, 5, 5, 1,
                                                 1, 1, 1, 1, 1, 1>>()),
                "narrow tiles: whole 8-channel tiles, at most 64 channels");
  checkConv<Wide, A>(relu);
  checkConv<conv_shape<1, 3, 6, V + 1, 8, 3, 3, 6, V + 1, 1, 1, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 3, 2 * V + 5, 2 * V + 5, 32, 3, 3, V + 2, V + 2, 2, 2, 1, 1, 1, 1, 1>, A>(relu);
  checkConv<conv_shape<1, 2, 5, V + 3, 72, 3, 3, 5, V + 3, 1, 1, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 2, 5, V + 3, 60, 3, 3, 5, V + 3, 1, 1, 1, 1, 1, 1, 1>, A>();
}

// Rows of at most half a vector share a spot, a half each: an even and an
// odd number of rows (the last spot's second half repeats its row), rows
// of exactly half a vector and of one column, one column past half (a row
// per spot again), and a stride-2 layer whose output rows are half a
// vector. The scalar path has no halves and runs them one row a spot.
TEST(Conv, ImplicitGemmTwoRowSpotsMatchDirect) {
  constexpr int64_t V = kVecWidth, H = V >= 2 ? V / 2 : 1;
  constexpr auto A = conv_algo::implicit_gemm;
  checkConv<conv_shape<1, 3, H, H, 5, 3, 3, H, H, 1, 1, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 2, 5, H, kTileRows + 1, 3, 3, 5, H, 1, 1, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 4, 6, 1, 3, 3, 3, 6, 1, 1, 1, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 2, 7, H + 1, 4, 3, 3, 7, H + 1, 1, 1, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<2, 3, 9, V, 4, 3, 3, 5, H, 2, 2, 1, 1, 1, 1, 1>, A>();
}

// Strided: the planes hold each padded row as SW column phases. Stride 2
// with odd and even padding (deinterleaved rows), images wider than the
// windows reach (the last column unread), rows narrower than a vector and
// exactly one, a stride-3 column axis with a dilated window (the generic
// phase copy), a batch, and an RGB stem's 7x7.
TEST(Conv, StridedImplicitGemmMatchesDirect) {
  constexpr int64_t V = kVecWidth;
  constexpr auto A = conv_algo::implicit_gemm;
  checkConv<conv_shape<1, 3, 9, 9, 4, 3, 3, 5, 5, 2, 2, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 3, 11, 2 * V + 1, 5, 3, 3, 5, V, 2, 2, 0, 0, 1, 1, 1>, A>();
  checkConv<conv_shape<2, 2, 8, 2 * V, 3, 3, 3, 4, V, 2, 2, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 2, 10, 3 * V + 2, 7, 3, 2, 4, V + 1, 2, 3, 0, 1, 1, 2, 1>, A>();
  checkConv<conv_shape<1, 3, 2 * V + 5, 2 * V + 5, kTileRows + 1, 7, 7, V + 2, V + 2, 2, 2, 3, 3, 1, 1, 1>, A>();
}

// conv_shape<N, C, H, W, O, KH, KW, OH, OW, SH, SW, PT, PL, DH, DW, G>.
TEST(Conv, PaddedStridedGroupedMatchesDirect) {
  checkConv<conv_shape<1, 4, 7, 6, 6, 3, 3, 4, 3, 2, 2, 1, 1, 1, 1, 2>>();
}

TEST(Conv, DilatedAndBatchedMatchesDirect) {
  checkConv<conv_shape<2, 3, 9, 8, 4, 3, 2, 5, 4, 2, 2, 2, 1, 2, 3, 1>>();
}

TEST(Conv, PointwiseMatchesDirect) {
  checkConv<conv_shape<1, 5, 3, kVecWidth + 1, 7, 1, 1, 3, kVecWidth + 1, 1, 1,
                       0, 0, 1, 1, 1>,
            conv_algo::pointwise>();
}

// A 1x1 convolution the compiler packs (im2col of a 1x1 copies each input
// plane into the panels whole): maps ending a panel exactly, one column
// into the next, within its last vector and a column short of it; two
// groups and two images; more rows than a tile.
TEST(Conv, PackedPointwiseMatchesDirect) {
  constexpr int64_t P = kPanel, V = kVecWidth;
  checkConv<conv_shape<1, 3, 2, P, 5, 1, 1, 2, P, 1, 1, 0, 0, 1, 1, 1>>();
  checkConv<conv_shape<1, 4, 1, 2 * P + 1, kTileRows + 3, 1, 1, 1, 2 * P + 1,
                       1, 1, 0, 0, 1, 1, 1>>();
  checkConv<conv_shape<1, 5, 3, V + 1, 7, 1, 1, 3, V + 1, 1, 1, 0, 0, 1, 1,
                       1>>();
  checkConv<conv_shape<2, 6, 13, 13, 2 * kTileRows + 2, 1, 1, 13, 13, 1, 1, 0,
                       0, 1, 1, 2>>();
  checkConv<conv_shape<1, 2, 1, P - 1, 3, 1, 1, 1, P - 1, 1, 1, 0, 0, 1, 1,
                       1>>();
}

// Every im2col row is zeros, a copy and zeros, split where the taps leave the
// image; these put the splits at the edges.
TEST(Im2col, PaddingStrideDilationEdges) {
  // resnet18 layer4.0 conv2; a per-element bounds test made g++ 12 -O3 -mavx
  // write zeros for whole runs of it.
  checkIm2col<conv_shape<1, 512, 7, 7, 512, 3, 3, 7, 7, 1, 1, 1, 1, 1, 1, 1>>();
  // Stride 2 padded on both sides; dilation 2.
  checkIm2col<conv_shape<1, 2, 7, 7, 2, 3, 3, 4, 4, 2, 2, 1, 1, 1, 1, 1>>();
  checkIm2col<conv_shape<1, 2, 9, 9, 2, 3, 3, 9, 9, 1, 1, 2, 2, 2, 2, 1>>();
  // Whole output rows, then whole windows, in the padding.
  checkIm2col<conv_shape<1, 1, 3, 16, 1, 1, 3, 6, 6, 1, 3, 3, 1, 1, 1, 1>>();
  checkIm2col<conv_shape<1, 2, 3, 3, 2, 2, 2, 8, 8, 1, 1, 3, 3, 1, 1, 1>>();
  // One pixel; one unpadded window.
  checkIm2col<conv_shape<1, 1, 1, 1, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1>>();
  checkIm2col<conv_shape<1, 1, 5, 5, 1, 5, 5, 1, 1, 1, 1, 0, 0, 1, 1, 1>>();
}

/// A 3x3, pad-1 convolution over rows W wide, OW outputs a row at stride SW.
template <int64_t W, int64_t OW, int64_t SW>
using RowsShape = conv_shape<1, 2, 3, W, 2, 3, 3, 3, OW, 1, SW, 1, 1, 1, 1, 1>;

TEST(Im2col, VectorWidthEdges) {
  checkIm2col<RowsShape<kBelowVec, kBelowVec, 1>>();
  checkIm2col<RowsShape<kVecWidth, kVecWidth, 1>>();
  checkIm2col<RowsShape<kVecWidth + 1, kVecWidth + 1, 1>>();
  checkIm2col<RowsShape<2 * kVecWidth + 3, kVecWidth + 2, 2>>();
  // Stride-2 runs over several panels (eight at a time, then the row's
  // end one by one), and rows of exactly two and four panels of taps.
  checkIm2col<RowsShape<8 * kVecWidth + 5, (8 * kVecWidth + 4) / 2 + 1, 2>>();
  checkIm2col<RowsShape<4 * kVecWidth, (4 * kVecWidth - 1) / 2 + 1, 2>>();
  checkIm2col<RowsShape<8 * kVecWidth, (8 * kVecWidth - 1) / 2 + 1, 2>>();
}

} // namespace
