//===- ThreadPoolTest.cpp - threaded kernels equal the serial ones --------===//
//
// The threaded gemm(), conv2d(), pools and maps cut their work by (t, T)
// (parallel.h). Every part of every T from 1 to 5 is run here, in turn
// and on real pools, and must give the serial result bit for bit: the
// cuts fall on whole vector pairs, row panels and channels, so no output
// is computed another way. The
// shapes put the cuts at vector-width and panel edges and give threads no
// work at all. A pool busy with one caller runs another's parts on that
// caller (checked with two callers at once), and a worker runs only its
// own part of a run. Kernels whose units cost alike hand them out with
// run_units(), where a thread done early takes a late one's units: every
// unit still runs once.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"
#include "onnxcc/thread_pool.h"

#include "RandomData.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace onnxcc::rt;
using onnxcc::test::randomVector;

namespace {

void expectSameBits(const std::vector<float> &got,
                    const std::vector<float> &ref, const char *what) {
  ASSERT_EQ(got.size(), ref.size());
  for (size_t i = 0; i < ref.size(); ++i)
    ASSERT_EQ(std::memcmp(&got[i], &ref[i], sizeof(float)), 0)
        << what << " index " << i << ": got " << got[i] << ", expected " << ref[i];
}

/// Runs the parts of T one after another: a context for the cut alone.
template <int T> struct in_turn {
  static constexpr int kThreads = T;
  template <typename F> void run(F &&fn) {
    for (int t = 0; t < T; ++t)
      fn(t, T);
  }
};

/// A context of T parts whose pool is busy: the caller runs them all as
/// one part (thread_pool::run()'s fallback).
template <int T> struct busy_pool {
  static constexpr int kThreads = T;
  template <typename F> void run(F &&fn) { fn(0, 1); }
};

/// The same check on contexts of 2, 3 and 5 parts in turn, and on pools
/// of 2 and 3 threads.
template <typename Check> void onEveryContext(Check check) {
  in_turn<2> t2;
  in_turn<3> t3;
  in_turn<5> t5;
  check(t2, "in turn, 2 parts");
  check(t3, "in turn, 3 parts");
  check(t5, "in turn, 5 parts");
  check(thread_pool<2>::instance(), "on a pool of 2");
  check(thread_pool<3>::instance(), "on a pool of 3");
}

TEST(Split, CoversUnitsOnceInOrder) {
  for (int64_t units : {0, 1, 2, 3, 7, 64, 65})
    for (int T = 1; T <= 5; ++T) {
      int64_t next = 0;
      for (int t = 0; t < T; ++t) {
        part p = split(units, t, T);
        EXPECT_EQ(p.lo, next) << units << " units, part " << t << " of " << T;
        EXPECT_LE(p.hi - p.lo, units / T + 1);
        EXPECT_GE(p.hi - p.lo, units / T);
        next = p.hi;
      }
      EXPECT_EQ(next, units);
    }
}

template <int64_t M, int64_t N, int64_t K, bool TB> struct GemmCase {
  std::vector<float> a = randomVector(M * K, 1), b = randomVector(K * N, 2),
                     bias = randomVector(N, 3), ref = std::vector<float>(M * N);
  static constexpr auto relu = [](auto v) { return vmax(v, decltype(v)(0.0f)); };
  GemmCase() {
    gemm<M, N, K, false, TB, 0, 1, true>(a.data(), b.data(), bias.data(), 1.0f,
                                         1.0f, ref.data(), relu);
  }
  template <typename Par> void check(Par &par) {
    std::vector<float> c(M * N, NAN);
    gemm<M, N, K, false, TB, 0, 1, true>(par, a.data(), b.data(), bias.data(),
                                         1.0f, 1.0f, c.data(), relu);
    expectSameBits(c, ref, "threaded gemm");
  }
};

template <int64_t M, int64_t N, int64_t K, bool TB = false> void checkGemm() {
  GemmCase<M, N, K, TB> g;
  in_turn<1> t1;
  in_turn<2> t2;
  in_turn<3> t3;
  in_turn<5> t5;
  g.check(t1);
  g.check(t2);
  g.check(t3);
  g.check(t5);
  g.check(thread_pool<2>::instance());
  g.check(thread_pool<3>::instance());
}

// A column vector (N = 1) splits by rows, cut anywhere: grouping rows in
// fours does not change a row's sum.
TEST(ThreadedGemm, ColumnVectorCutsRows) {
  checkGemm<13, 1, 37>();
  checkGemm<4, 1, 2 * kVecWidth>();
  checkGemm<2, 1, 5>(); // fewer rows than threads
}

TEST(ThreadedGemm, ColumnCutsAtVectorPairs) {
  checkGemm<3, 2 * kVecWidth, 5>();          // one pair: one thread works
  checkGemm<5, 5 * 2 * kVecWidth + 3, 7>();  // the tail stays with the last
  checkGemm<4, 2 * kVecWidth - 1, 9>();      // no whole pair
  checkGemm<2, 300, 11>();                   // crosses a column block
  checkGemm<64, 3136, 27>();                 // resnet18's first layer, cut short
  checkGemm<13, 5 * 2 * kVecWidth + 3, 2 * kDepthBlock + 1>(); // depth blocks
}

TEST(ThreadedGemm, RowCutsAtPanels) {
  checkGemm<kTileRows * 7 + 5, 49, 64>();   // a 7x7 map: more panels than pairs
  checkGemm<64, 49, 96>();                  // narrow tiles: 8-row panels
  checkGemm<48, 5 * 2 * kVecWidth + 3, 64>(); // narrow tiles cut at pairs
  checkGemm<kTileRows * 3, kVecWidth + 1, 13>();
  checkGemm<kTileRows + 3, 2, 4>();
}

/// gemm_panels() (B packed by the compiler) on threads against one, with
/// a bias per column (BRS = 0, BCS = 1), per row (1, 0) or of C's shape
/// (N, 1).
template <int64_t M, int64_t N, int64_t K, int64_t BRS = 0, int64_t BCS = 1>
void checkGemmPanels() {
  constexpr int64_t width = (N + kPanelPad - 1) / kPanelPad * kPanelPad;
  auto a = randomVector(M * K, 1), bp = randomVector(K * width, 2),
       bias = randomVector((BRS ? M : 1) * (BCS ? N : 1), 3);
  static constexpr auto relu = [](auto v) { return vmax(v, decltype(v)(0.0f)); };
  std::vector<float> ref(M * N);
  gemm_panels<M, N, K, BRS, BCS, true>(a.data(), bp.data(), bias.data(), 0.5f,
                                       2.0f, ref.data(), relu);
  auto check = [&](auto &par) {
    std::vector<float> c(M * N, NAN);
    gemm_panels<M, N, K, BRS, BCS, true>(par, a.data(), bp.data(), bias.data(),
                                         0.5f, 2.0f, c.data(), relu);
    expectSameBits(c, ref, "threaded gemm_panels");
  };
  in_turn<2> t2;
  in_turn<3> t3;
  busy_pool<2> b2;
  check(t2);
  check(t3);
  check(b2);
  check(thread_pool<2>::instance());
  check(thread_pool<3>::instance());
}

// Register panels, or row panels where there are more of those; the
// partial last panel (its bias finished lane by lane) stays whole.
TEST(ThreadedGemm, CompilerPanelsCut) {
  checkGemmPanels<32, 384, 128>();
  checkGemmPanels<kTileRows * 6 + 1, kPanelPad + 3, 40>();
  checkGemmPanels<2, 2 * kPanelPad - 1, kDepthBlock + 9>();
  // One row over 7 panels: cuts fall inside a serial run's group of 4.
  checkGemmPanels<1, 7 * kPanel, 50>();
  // Panels outermost (kPanelsOuter) in runs of panels, and in row panels
  // (more of those than panels), which keep the row tiles outermost.
  static_assert(kPanelsOuter<64, 64, 128>, "64 x 64 x 128 runs panels outermost");
  checkGemmPanels<25, 384, 130>();
  checkGemmPanels<64, 64, 128>();
}

// A few rows against a small B: each thread M / T whole rows
// (kRowsPerThread), the rest of the cuts above where the rule says no.
// A column past the last whole vector (kDotTail): each thread with the
// last panel, or with rows, sums it for its rows.
TEST(ThreadedGemm, DotTailColumnsCut) {
  checkGemmPanels<40, 2 * kPanel + 1, 64>();
  checkGemmPanels<kTileRows * 6 + 1, kPanel + kVecWidth + 2, 40>();
  checkGemmPanels<32, 3 * kPanel + 1, 128>(); // rows per thread
}

TEST(ThreadedGemm, CompilerRowsPerThread) {
  static_assert(kRowsPerThread<32, 384, 128, 2>, "tiny_transformer's QKV");
  static_assert(!kRowsPerThread<32, 384, 128, 3>, "32 rows do not split in 3");
  static_assert(!kRowsPerThread<14, 64, 64, 2>, "7 rows a thread are too few");
  static_assert(kRowsPerThread<16, 64, 64, 2>, "8 rows a thread are enough");
  static_assert(!kRowsPerThread<66, 64, 64, 2>, "66 rows are not few");
  static_assert(kRowsPerThread<64, 256, 256, 2>, "B of 256 KiB");
  static_assert(!kRowsPerThread<64, 257, 256, 2>, "B over 256 KiB");
  static_assert(!kRowsPerThread<32, 384, 128, 1>, "one thread");
  checkGemmPanels<32, 384, 128>();            // 16 rows each on 2
  checkGemmPanels<48, 5 * kPanel + 3, 130>(); // 24 on 2, 16 on 3; a part panel
  checkGemmPanels<16, 64, 64, 1, 0>();        // 8 rows each, a bias per row
  checkGemmPanels<64, 256, 256, 256, 1>();    // a bias of C's shape, 32 each
  checkGemmPanels<18, 2 * kPanel, kDepthBlock + 9>(); // 9 each, depth blocks
}

// Dot groups go to the threads whole; fewer columns than kFewColumnsMax
// (gemm_few_columns()) split the rows instead, cut anywhere.
TEST(ThreadedGemm, TransposedBCutsOutputs) {
  checkGemm<1, 10, 33, true>();
  checkGemm<64, 10, 256, true>();
  checkGemm<9, 3, 2 * kVecWidth + 5, true>();
  checkGemm<2, 257, 40, true>();
  checkGemm<1, 1, 8, true>(); // fewer outputs than threads
}

/// gemm_packed_dots() (B^T in the compiler's dot groups; any values
/// compare the cuts) on threads against one: whole groups per thread, each
/// thread's read forward or backward.
template <int64_t M, int64_t N, int64_t K> void checkPackedDots() {
  auto a = randomVector(M * K, 1), bp = randomVector(kDotGroups<N> * kDotRows * K, 2),
       bias = randomVector(N, 3);
  static constexpr auto relu = [](auto v) { return vmax(v, decltype(v)(0.0f)); };
  std::vector<float> ref(M * N);
  gemm_packed_dots<M, N, K, 0, 1, true>(a.data(), bp.data(), bias.data(), 1.0f,
                                        1.0f, ref.data(), relu);
  onEveryContext([&](auto &par, const char *what) {
    for (sweep dir : {sweep::forward, sweep::backward}) {
      std::vector<float> c(M * N, NAN);
      gemm_packed_dots<M, N, K, 0, 1, true>(par, a.data(), bp.data(),
                                            bias.data(), 1.0f, 1.0f, c.data(),
                                            relu, dir);
      expectSameBits(c, ref, what);
    }
  });
  busy_pool<2> busy;
  std::vector<float> c(M * N, NAN);
  gemm_packed_dots<M, N, K, 0, 1, true>(busy, a.data(), bp.data(), bias.data(),
                                        1.0f, 1.0f, c.data(), relu);
  expectSameBits(c, ref, "busy pool");
}

// More groups than threads, a partial last group, fewer groups than
// threads (parts left empty).
TEST(ThreadedGemm, PackedDotsCutWholeGroups) {
  checkPackedDots<1, 256, 784>();
  checkPackedDots<3, 5 * kDotRows + 3, 40>();
  checkPackedDots<1, kDotRows, 16>();
}

template <typename S, conv_algo Algo, int T> struct ConvCase {
  // Winograd's weight is U, [16][O][C], pointwise_lanes' W^T in panels,
  // [ceil(O / 32)][C][32], im2col_lanes' [ceil(O / 32)][Kdim][32]; any
  // values compare the splits.
  static constexpr int64_t kWeights =
      Algo == conv_algo::winograd          ? 16 * S::O * S::C
      : Algo == conv_algo::pointwise_lanes ? (S::O + 31) / 32 * 32 * S::C
      : Algo == conv_algo::im2col_lanes    ? (S::O + 31) / 32 * 32 * S::Kdim
                                           : S::O * S::Cg * S::KH * S::KW;
  std::vector<float> x = randomVector(S::N * S::C * S::H * S::W, 8),
                     w = randomVector(kWeights, 9),
                     bias = randomVector(S::O, 10);
  // What the planner reserves for the op on `threads` threads: grouped
  // im2col convolutions get one scratch copy per thread.
  static constexpr int64_t scratch_floats(int threads) {
    if constexpr (Algo == conv_algo::im2col)
      return packed_floats(S::Kdim, S::P) * (S::G > 1 ? threads : 1);
    else if constexpr (Algo == conv_algo::implicit_gemm)
      return implicit_shape<S>::kScratch;
    else if constexpr (Algo == conv_algo::winograd)
      return winograd_floats<S>(threads);
    else if constexpr (Algo == conv_algo::pointwise_split_depth)
      return split_depth_floats<S>(threads);
    else if constexpr (Algo == conv_algo::im2col_lanes)
      return S::Kdim * S::P;
    else
      return 0;
  }

  std::vector<float> run_serial() {
    constexpr int64_t n = scratch_floats(1);
    std::vector<float> y(S::N * S::O * S::P), scratch(n + 1);
    conv2d<S, Algo>(x.data(), w.data(), bias.data(), y.data(),
                    n ? scratch.data() : nullptr, identity{});
    return y;
  }
  template <typename Par> std::vector<float> run(Par &par) {
    // As planned for a build of Par::kThreads threads (T bounds them).
    static_assert(Par::kThreads <= T, "a context of at most T threads");
    constexpr int64_t n = scratch_floats(Par::kThreads);
    std::vector<float> y(S::N * S::O * S::P, NAN), scratch(n + 1, NAN);
    conv2d<S, Algo>(par, x.data(), w.data(), bias.data(), y.data(),
                    n ? scratch.data() : nullptr, identity{});
    EXPECT_TRUE(std::isnan(scratch.back())) << "conv2d wrote past its scratch";
    return y;
  }
};

template <typename S, conv_algo Algo = conv_algo::im2col> void checkConv() {
  ConvCase<S, Algo, 3> c;
  std::vector<float> ref = c.run_serial();
  in_turn<3> t3;
  expectSameBits(c.run(t3), ref, "conv2d in turn");
  expectSameBits(c.run(thread_pool<3>::instance()), ref, "conv2d on a pool");
}

// conv_shape<N, C, H, W, O, KH, KW, OH, OW, SH, SW, PT, PL, DH, DW, G>.
TEST(ThreadedConv, UngroupedSplitsChannelsThenTiles) {
  checkConv<conv_shape<2, 5, 9, 9, 12, 3, 3, 9, 9, 1, 1, 1, 1, 1, 1, 1>>();
  checkConv<conv_shape<1, 2, 4, 4, 3, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1, 1>>();
}

// Implicit GEMM: planes split by channel (fewer channels than threads in
// the second), then spots in pairs (an odd count, rows narrower than a
// vector).
TEST(ThreadedConv, ImplicitGemmSplitsChannelsThenSpots) {
  checkConv<conv_shape<2, 5, 9, 9, 12, 3, 3, 9, 9, 1, 1, 1, 1, 1, 1, 1>,
            conv_algo::implicit_gemm>();
  checkConv<conv_shape<1, 2, 5, 3, 7, 3, 3, 5, 3, 1, 1, 1, 1, 1, 1, 1>,
            conv_algo::implicit_gemm>();
  // Flat spots (55-wide rows): pairs cut across row ends.
  checkConv<conv_shape<1, 3, 7, 55, 9, 3, 3, 7, 55, 1, 1, 1, 1, 1, 1, 1>,
            conv_algo::implicit_gemm>();
  // Narrow tiles (16 channels, implicit_narrow()): a thread's runs of
  // pairs in tiles of 3 spots and a rest of 1 or 2.
  checkConv<conv_shape<1, 3, 7, 55, 16, 3, 3, 7, 55, 1, 1, 1, 1, 1, 1, 1>,
            conv_algo::implicit_gemm>();
}

// Winograd: the input transform split by channel, the GEMMs by transform
// element, the output transform by channel; over a map of at most 16
// tiles, output channels in whole register tiles (13: a part ends with a
// partial tile). Two output channels: M's region stages the first
// thread's input channels, and the others put their vectors one at a time.
TEST(ThreadedConv, WinogradSplitsChannelsThenProducts) {
  static_assert(winograd_shape<conv_shape<1, 3, 12, 12, 2, 3, 3, 12, 12, 1, 1, 1,
                                          1, 1, 1, 1>>::kStages == 1,
                "one thread stages");
  checkConv<conv_shape<1, 3, 12, 12, 2, 3, 3, 12, 12, 1, 1, 1, 1, 1, 1, 1>,
            conv_algo::winograd>();
  checkConv<conv_shape<2, 5, 12, 12, 6, 3, 3, 12, 12, 1, 1, 1, 1, 1, 1, 1>,
            conv_algo::winograd>();
  checkConv<conv_shape<2, 5, 8, 7, 13, 3, 3, 8, 7, 1, 1, 1, 1, 1, 1, 1>,
            conv_algo::winograd>();
  checkConv<conv_shape<1, 2, 6, 6, 3, 3, 3, 6, 6, 1, 1, 1, 1, 1, 1, 1>,
            conv_algo::winograd>();
  // 19 input channels over 20x20 (100 tiles): each thread stages blocks of
  // up to 8 of its channels in its share of M's region (stage_channels()).
  checkConv<conv_shape<1, 19, 20, 20, 9, 3, 3, 20, 20, 1, 1, 1, 1, 1, 1, 1>,
            conv_algo::winograd>();
}

/// A Winograd convolution on every context, and on a busy pool of 2
/// (every channel on the caller), against one thread.
template <typename S> void checkWinogradEverywhere() {
  ConvCase<S, conv_algo::winograd, 5> c;
  std::vector<float> ref = c.run_serial();
  onEveryContext([&](auto &par, const char *what) {
    expectSameBits(c.run(par), ref, what);
  });
  busy_pool<2> busy;
  expectSameBits(c.run(busy), ref, "busy pool");
}

// Over a map of 17 to kRowSplitTiles tiles, or more with M at least 4x V
// (4C <= O), threads whose output channels cut into equal shares
// transform all of the input into their own V and run their rows of all
// 16 products and their channels' output transform
// (winograd_own_inputs()): 13x13 (49 tiles, a dot-tail column under
// AVX-512) and 10x9 maps, split by 2 and by 3 and not by 5, and shares of
// fewer rows than a register tile; the most tiles that split so, and the
// fewest that do not at 4C = O + 4, and do at 4C = O.
TEST(ThreadedConv, WinogradSmallMapsCutOutputChannels) {
  using S13 = conv_shape<1, 11, 13, 13, 6 * kTileRows, 3, 3, 13, 13, 1, 1, 1, 1, 1, 1, 1>;
  using S16 = conv_shape<1, kTileRows / 2 + 1, 16, 16, 2 * kTileRows, 3, 3, 16, 16, 1, 1, 1, 1, 1, 1, 1>;
  using S17 = conv_shape<1, kTileRows / 2 + 1, 17, 16, 2 * kTileRows, 3, 3, 17, 16, 1, 1, 1, 1, 1, 1, 1>;
  using Few = conv_shape<1, 4, 12, 12, 6, 3, 3, 12, 12, 1, 1, 1, 1, 1, 1, 1>;
  using S17Wide = conv_shape<1, 3, 17, 16, 12, 3, 3, 17, 16, 1, 1, 1, 1, 1, 1, 1>;
  static_assert(winograd_own_inputs<S13>(2) && winograd_own_inputs<S13>(3) &&
                    !winograd_own_inputs<S13>(5) && !winograd_own_inputs<S13>(1),
                "output channels in equal shares");
  static_assert(winograd_own_inputs<S16>(2) && !winograd_own_inputs<S17>(2) &&
                    winograd_own_inputs<Few>(3) && winograd_own_inputs<S17Wide>(2),
                "at most kRowSplitTiles tiles, or M at least 4x V");
  static_assert(winograd_floats<S13>(2) > winograd_shape<S13>::kScratch &&
                    winograd_floats<S17>(2) == winograd_shape<S17>::kScratch,
                "own inputs after the shared scratch");
  checkWinogradEverywhere<S13>();
  checkWinogradEverywhere<S16>();
  checkWinogradEverywhere<S17>();
  checkWinogradEverywhere<Few>();
  checkWinogradEverywhere<S17Wide>();
  checkWinogradEverywhere<
      conv_shape<2, 4, 10, 9, 3 * kTileRows, 3, 3, 10, 9, 1, 1, 1, 1, 1, 1, 1>>();
}

// Output channels in the lanes: whole register panels where they split
// evenly over the 3 threads or number at least 4 a thread, else the
// positions (here 1 or 2 panels by the ISA, 70 positions; 8 positions,
// fewer tiles than threads would get).
TEST(ThreadedConv, PointwiseLanesSplitsPanelsOrPositions) {
  constexpr auto A = conv_algo::pointwise_lanes;
  checkConv<conv_shape<1, 40, 7, 10, 40, 1, 1, 7, 10, 1, 1, 0, 0, 1, 1, 1>, A>();
  checkConv<conv_shape<2, 140, 2, 4, 30, 1, 1, 2, 4, 1, 1, 0, 0, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 16, 5, 5, 400, 1, 1, 5, 5, 1, 1, 0, 0, 1, 1, 1>, A>();
}

// Over im2col's rows: the threads split im2row's input channels (7 over
// 3), then panels or positions as pointwise_lanes does.
TEST(ThreadedConv, Im2colLanesSplitsRowsThenPanelsOrPositions) {
  constexpr auto A = conv_algo::im2col_lanes;
  checkConv<conv_shape<2, 7, 14, 14, 40, 3, 3, 7, 7, 2, 2, 1, 1, 1, 1, 1>, A>();
  checkConv<conv_shape<1, 30, 10, 10, 400, 1, 1, 5, 5, 2, 2, 0, 0, 1, 1, 1>, A>();
}

TEST(ThreadedConv, GroupedGivesEachThreadItsScratch) {
  // Depthwise, stride 2: more groups than threads.
  checkConv<conv_shape<1, 7, 9, 9, 7, 3, 3, 5, 5, 2, 2, 1, 1, 1, 1, 7>>();
  // Fewer groups than threads, two images.
  checkConv<conv_shape<2, 4, 6, 6, 4, 3, 3, 6, 6, 1, 1, 1, 1, 1, 1, 2>>();
}

// A packed 1x1 (im2col): threads split the planes' copy, then the panels.
TEST(ThreadedConv, PackedPointwiseSplitsCopyAndPanels) {
  checkConv<conv_shape<1, 7, 13, 13, 2 * kTileRows + 5, 1, 1, 13, 13, 1, 1, 0,
                       0, 1, 1, 1>>();
  checkConv<conv_shape<2, 6, 3, 5, 6, 1, 1, 3, 5, 1, 1, 0, 0, 1, 1, 3>>();
}

TEST(ThreadedConv, PointwiseNeedsNoScratch) {
  checkConv<conv_shape<1, 6, 3, 5, 8, 1, 1, 3, 5, 1, 1, 0, 0, 1, 1, 1>,
            conv_algo::pointwise>();
  checkConv<conv_shape<1, 6, 3, 5, 6, 1, 1, 3, 5, 1, 1, 0, 0, 1, 1, 3>,
            conv_algo::pointwise>();
}

/// A pointwise convolution split by depth into 3 shares gives the same
/// bits however many threads take the shares (in turn, on a pool, or one
/// caller taking them all), and the one-thread kernel's values but for
/// the rounding of summing the shares apart.
template <typename S> void checkSplitDepth() {
  ConvCase<S, conv_algo::pointwise_split_depth, 3> c;
  busy_pool<3> one;
  std::vector<float> ref = c.run(one);
  in_turn<3> t3;
  expectSameBits(c.run(t3), ref, "split by depth, in turn");
  expectSameBits(c.run(thread_pool<3>::instance()), ref,
                 "split by depth, on a pool");
  std::vector<float> whole = c.run_serial(); // serial: one share
  std::vector<float> direct(whole.size());
  conv2d<S, conv_algo::pointwise>(c.x.data(), c.w.data(), c.bias.data(),
                                  direct.data(), nullptr, identity{});
  expectSameBits(whole, direct, "one share");
  for (size_t i = 0; i < ref.size(); ++i)
    ASSERT_NEAR(ref[i], direct[i], 1e-5f * (1.0f + std::fabs(direct[i])))
        << "index " << i;
}

// conv_shape<N, C, H, W, O, 1, 1, H, W, 1, 1, 0, 0, 1, 1, 1>: shares of 3,
// 2 and 2 channels over two images and maps ending inside a vector; fewer
// channels than shares (an empty share sums zeros); and narrow row tiles
// (16 rows, 96 channels) over several vector pairs.
TEST(ThreadedConv, PointwiseSplitsDepth) {
  checkSplitDepth<conv_shape<2, 7, 5, 7, 3, 1, 1, 5, 7, 1, 1, 0, 0, 1, 1, 1>>();
  checkSplitDepth<conv_shape<1, 2, 4, 9, 5, 1, 1, 4, 9, 1, 1, 0, 0, 1, 1, 1>>();
  checkSplitDepth<conv_shape<1, 96, 7, 11, 16, 1, 1, 7, 11, 1, 1, 0, 0, 1, 1,
                             1>>();
  checkSplitDepth<conv_shape<1, 40, 3, 3, 2 * kTileRows + 5, 1, 1, 3, 3, 1, 1,
                             0, 0, 1, 1, 1>>();
}

TEST(ThreadedConv, DepthwiseSplitsChannels) {
  using S = conv_shape<2, 5, 9, 9, 5, 3, 3, 9, 9, 1, 1, 1, 1, 1, 1, 5>;
  auto x = randomVector(S::N * S::C * S::H * S::W, 8);
  auto w = randomVector(S::C * 9, 9), bias = randomVector(S::C, 10);
  std::vector<float> ref(S::N * S::C * S::P), y(ref.size(), NAN);
  depthwise2d<S>(x.data(), w.data(), bias.data(), ref.data(), identity{});
  in_turn<3> t3;
  depthwise2d<S>(t3, x.data(), w.data(), bias.data(), y.data(), identity{});
  expectSameBits(y, ref, "depthwise2d in turn");
  std::fill(y.begin(), y.end(), NAN);
  depthwise2d<S>(thread_pool<2>::instance(), x.data(), w.data(), bias.data(),
                 y.data(), identity{});
  expectSameBits(y, ref, "depthwise2d on a pool");
}

/// Each pool kind over NC channels of 9x11, in turn over three threads and
/// on a pool of two, against the one-thread kernel.
template <int64_t NC> void checkPools() {
  using H = axis<9, 5, 3, 2, 1, 1, 1>;
  using W = axis<11, 11, 3, 1, 1, 1, 1>;
  auto x = randomVector(NC * 9 * 11, 11);
  const size_t n = NC * 5 * 11;
  auto check = [&](auto serial, auto threaded, const char *what) {
    std::vector<float> ref(n), y(n, NAN);
    serial(ref.data());
    in_turn<3> t3;
    threaded(t3, y.data());
    expectSameBits(y, ref, what);
    std::fill(y.begin(), y.end(), NAN);
    threaded(thread_pool<2>::instance(), y.data());
    expectSameBits(y, ref, what);
  };
  check([&](float *y) { max_pool<NC, unit_axis, H, W>(x.data(), y); },
        [&](auto &par, float *y) { max_pool<NC, unit_axis, H, W>(par, x.data(), y); },
        "max_pool");
  check([&](float *y) { avg_pool<NC, unit_axis, H, W, true>(x.data(), y); },
        [&](auto &par, float *y) {
          avg_pool<NC, unit_axis, H, W, true>(par, x.data(), y);
        },
        "avg_pool");
  check([&](float *y) { lp_pool<NC, unit_axis, H, W, 2>(x.data(), y); },
        [&](auto &par, float *y) { lp_pool<NC, unit_axis, H, W, 2>(par, x.data(), y); },
        "lp_pool");
}

// The pools split whole channels: 5 over three threads, and 2, fewer than
// the threads, so that one gets none.
TEST(ThreadedPool, SplitsChannels) {
  checkPools<5>();
  checkPools<2>();
}

// A map splits whole vectors and the last part takes the scalar tail, so a
// body whose vector and scalar forms may round differently (tanh) gives
// map()'s bits on any split: sizes below a vector, at one, and with a tail
// on three threads; and in place, as the planner allows.
template <int64_t N> void checkThreadedMap() {
  auto a = randomVector(N, 11), b = randomVector(N, 12);
  float s = 0.75f;
  auto body = [](auto x, auto y, auto z) { return vtanh(x * z + y); };
  std::vector<float> ref(N);
  map<N>(ref.data(), body, dense_in<float>{a.data()}, dense_in<float>{b.data()},
         splat_in<float>{&s});
  auto check = [&](auto &par, const char *context) {
    const std::string what = std::string("map ") + context;
    std::vector<float> out(N, NAN), inPlace = a;
    map<N>(par, out.data(), body, dense_in<float>{a.data()},
           dense_in<float>{b.data()}, splat_in<float>{&s});
    expectSameBits(out, ref, what.c_str());
    map<N>(par, inPlace.data(), body, dense_in<float>{inPlace.data()},
           dense_in<float>{b.data()}, splat_in<float>{&s});
    expectSameBits(inPlace, ref, what.c_str());
  };
  onEveryContext(check);
}

TEST(ThreadedMap, SplitsWholeVectorsTailLast) {
  checkThreadedMap<3>();
  checkThreadedMap<kVecWidth>();
  checkThreadedMap<7 * kVecWidth + 3>();
  checkThreadedMap<1003>();
}

// A batched product splits whole batch indices, each computed as on one
// thread: 4 heads (attention's), a broadcast B over 2 x 3 batch dims (the
// odometer restarts mid-dimension at a part's first index), and a single
// product, which leaves every part but one empty.
template <int64_t B0, int64_t B1, int64_t M, int64_t N, int64_t K, bool BcastB>
void checkThreadedBatchMatMul() {
  const int64_t batch[2] = {B0, B1};
  const int64_t a_strides[2] = {B1 * M * K, M * K};
  const int64_t b_strides[2] = {BcastB ? 0 : B1 * K * N, BcastB ? 0 : K * N};
  auto a = randomVector(B0 * B1 * M * K, 21),
       b = randomVector((BcastB ? 1 : B0 * B1) * K * N, 22);
  std::vector<float> ref(B0 * B1 * M * N);
  batch_matmul<2, M, N, K>(batch, a_strides, b_strides, a.data(), b.data(),
                           ref.data());
  // Against the plain product too: the serial path must itself be right.
  for (int64_t i = 0; i < B0 * B1; ++i) {
    const float *ai = a.data() + i * M * K;
    const float *bi = b.data() + (BcastB ? 0 : i) * K * N;
    for (int64_t r = 0; r < M; ++r)
      for (int64_t c = 0; c < N; ++c) {
        double sum = 0;
        for (int64_t k = 0; k < K; ++k)
          sum += double(ai[r * K + k]) * double(bi[k * N + c]);
        ASSERT_NEAR(ref[(i * M + r) * N + c], sum, 1e-4 * K)
            << "product " << i << " (" << r << ", " << c << ")";
      }
  }
  onEveryContext([&](auto &par, const char *what) {
    std::vector<float> y(ref.size(), NAN);
    batch_matmul<2, M, N, K>(par, batch, a_strides, b_strides, a.data(),
                             b.data(), y.data());
    expectSameBits(y, ref, what);
  });
}

TEST(ThreadedBatchMatMul, SplitsWholeProducts) {
  checkThreadedBatchMatMul<1, 4, 32, 32, 32, false>(); // attention's heads
  checkThreadedBatchMatMul<2, 3, 5, kVecWidth + 3, 7, true>();
  checkThreadedBatchMatMul<1, 1, 3, 4, 5, false>();
}

// A softmax splits whole groups of four rows, each row computed as on one
// thread: rows held in registers (1 and 4 vectors, with leftover rows past
// the last group), rows computed one at a time (not whole vectors), and
// fewer groups than parts.
template <int64_t Rows, int64_t Axis> void checkThreadedSoftmax() {
  auto x = randomVector(Rows * Axis, 31);
  for (float &v : x)
    v *= 8.0f; // a spread wide enough for exp() to matter
  std::vector<float> ref(x.size());
  softmax<Rows, Axis, 1>(x.data(), ref.data());
  for (int64_t r = 0; r < Rows; ++r) {
    double sum = 0;
    for (int64_t a = 0; a < Axis; ++a)
      sum += ref[r * Axis + a];
    ASSERT_NEAR(sum, 1.0, 1e-5) << "row " << r;
  }
  onEveryContext([&](auto &par, const char *what) {
    std::vector<float> y(x.size(), NAN);
    softmax<Rows, Axis, 1>(par, x.data(), y.data());
    expectSameBits(y, ref, what);
  });
}

TEST(ThreadedSoftmax, SplitsWholeRowGroups) {
  checkThreadedSoftmax<128, 2 * kVecWidth>(); // attention's [128 x 32]
  checkThreadedSoftmax<4 * 5 + 3, kVecWidth>();
  checkThreadedSoftmax<4 * 3 + 1, 4 * kVecWidth>();
  checkThreadedSoftmax<9, 3 * kVecWidth + 5>();
  checkThreadedSoftmax<3, 10>();
}

// run_units() runs every unit once, whatever the context: serial, parts in
// turn (part 0 takes every share), or a pool with late workers.
TEST(RunUnits, RunsEveryUnitOnce) {
  auto check = [](auto &par, const char *what) {
    for (int64_t units : {0, 1, 2, 3, 5, 17, 1000}) {
      std::vector<std::atomic<int>> count(static_cast<size_t>(units));
      for (auto &c : count)
        c.store(0);
      run_units(par, units, [&](int64_t u) {
        ASSERT_GE(u, 0);
        ASSERT_LT(u, units);
        count[static_cast<size_t>(u)].fetch_add(1);
      });
      for (int64_t u = 0; u < units; ++u)
        ASSERT_EQ(count[static_cast<size_t>(u)].load(), 1)
            << what << ", " << units << " units, unit " << u;
    }
  };
  serial one;
  check(one, "serial");
  onEveryContext(check);
}

// A thread done with its own share takes the units a slower thread has
// not begun, from the back of that share: here the worker's units are
// slow, so the caller runs some of them, and still every unit runs once.
TEST(RunUnits, CallerTakesASlowWorkersUnits) {
  auto &pool = thread_pool<2>::instance();
  pool.start();
  const std::thread::id caller = std::this_thread::get_id();
  constexpr int64_t kUnits = 16; // share 1: units 8 to 15
  int taken = 0;
  for (int run = 0; run < 20; ++run) {
    std::vector<std::atomic<int>> count(kUnits);
    std::vector<std::atomic<bool>> byCaller(kUnits);
    for (int64_t u = 0; u < kUnits; ++u) {
      count[u].store(0);
      byCaller[u].store(false);
    }
    run_units(pool, kUnits, [&](int64_t u) {
      const bool mine = std::this_thread::get_id() == caller;
      byCaller[u].store(mine);
      count[u].fetch_add(1);
      if (!mine)
        std::this_thread::sleep_for(std::chrono::microseconds(300));
    });
    for (int64_t u = 0; u < kUnits; ++u) {
      ASSERT_EQ(count[u].load(), 1) << "run " << run << ", unit " << u;
      taken += u >= kUnits / 2 && byCaller[u].load();
    }
  }
  EXPECT_GT(taken, 0) << "the caller never took a unit of the worker's share";
}

// Two callers share one pool: whichever finds it busy runs alone, and both
// still get the serial result.
TEST(ThreadPool, BusyPoolRunsOnTheCaller) {
  GemmCase<kTileRows * 4, 8 * kVecWidth, 64, false> g;
  auto &pool = thread_pool<2>::instance();
  pool.start();
  auto work = [&] {
    for (int i = 0; i < 200; ++i)
      g.check(pool);
  };
  std::thread a(work), b(work);
  a.join();
  b.join();
}

// Each run computes every part once, and a worker only ever runs its own
// part (the caller takes any it has not claimed): consecutive kernels'
// parts stay on the thread whose cache holds their data.
TEST(ThreadPool, WorkersRunOnlyTheirOwnPart) {
  constexpr int T = 4;
  auto &pool = thread_pool<T>::instance();
  pool.start();
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<std::thread::id> ranBy(T);
  std::vector<std::vector<std::thread::id>> workerParts(T); // off the caller
  for (int run = 0; run < 2000; ++run) {
    std::vector<int> count(T, 0);
    pool.run([&](int t, int parts) {
      ASSERT_EQ(parts, T);
      ++count[t]; // each index written by the one thread running part t
      ranBy[t] = std::this_thread::get_id();
      volatile float x = 1.0f; // a few microseconds, so workers claim
      for (int k = 0; k < 2000; ++k)
        x = x * 1.0001f;
    });
    for (int t = 0; t < T; ++t) {
      ASSERT_EQ(count[t], 1) << "run " << run << ", part " << t;
      if (ranBy[t] == caller)
        continue;
      ASSERT_NE(t, 0) << "part 0 belongs to the caller";
      workerParts[t].push_back(ranBy[t]);
    }
  }
  for (int t = 1; t < T; ++t)
    for (std::thread::id id : workerParts[t])
      EXPECT_EQ(id, workerParts[t].front()) << "part " << t;
  // The threads that ran different parts are different threads.
  for (int t = 1; t < T; ++t)
    for (int u = t + 1; u < T; ++u)
      if (!workerParts[t].empty() && !workerParts[u].empty()) {
        EXPECT_NE(workerParts[t].front(), workerParts[u].front());
      }
}

} // namespace
