//===- ConvPoolKernelTest.cpp - windowed kernels against the definitions --===//
//
// Pooling (max with and without indices, average both ways, Lp), direct
// and transposed convolution, col2im, unpooling and the global pools, each
// against a naive loop that tests every tap, over 1-D, 2-D and 3-D windows
// cut by every kind of edge: padding on either side, ceil_mode windows
// past the input, strides, dilations, groups, negative begin padding of a
// transposed convolution, and widths around the SIMD width.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"

#include <gtest/gtest.h>
#include <cmath>
#include <random>
#include <vector>

using namespace onnxcc::rt;

namespace {

constexpr int64_t kBelowVec = kVecWidth > 1 ? kVecWidth - 1 : 1;

template <typename T> std::vector<T> randomVector(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> dist;
  std::vector<T> v(n);
  for (T &x : v)
    x = static_cast<T>(dist(rng));
  return v;
}

template <typename T>
void expectClose(const std::vector<T> &got, const std::vector<double> &ref,
                 const char *what, double tol = 1e-4) {
  ASSERT_EQ(got.size(), ref.size()) << what;
  for (size_t i = 0; i < ref.size(); ++i) {
    double g = static_cast<double>(got[i]);
    if (std::isinf(ref[i])) {
      ASSERT_EQ(g, ref[i]) << what << " index " << i;
      continue;
    }
    ASSERT_LE(std::fabs(g - ref[i]), tol + tol * std::fabs(ref[i]))
        << what << " index " << i << ": got " << g << ", expected " << ref[i];
  }
}

/// The three axes of a window as runtime values, for the naive loops.
struct Geometry {
  int64_t in[3], out[3], k[3], s[3], p[3], pe[3], d[3];
  template <typename AD, typename AH, typename AW> static Geometry of() {
    return {{AD::In, AH::In, AW::In}, {AD::Out, AH::Out, AW::Out},
            {AD::K, AH::K, AW::K},    {AD::S, AH::S, AW::S},
            {AD::P, AH::P, AW::P},    {AD::Pe, AH::Pe, AW::Pe},
            {AD::D, AH::D, AW::D}};
  }
  int64_t inSize() const { return in[0] * in[1] * in[2]; }
  int64_t outSize() const { return out[0] * out[1] * out[2]; }
  int64_t kSize() const { return k[0] * k[1] * k[2]; }
  /// Calls f(outIndex, tapIndex, inputCoords[3]) for every output and tap.
  template <typename F> void forEachTap(F f) const {
    for (int64_t o = 0; o < outSize(); ++o)
      for (int64_t t = 0; t < kSize(); ++t) {
        int64_t oc[3] = {o / (out[1] * out[2]), o / out[2] % out[1], o % out[2]};
        int64_t tc[3] = {t / (k[1] * k[2]), t / k[2] % k[1], t % k[2]};
        int64_t ic[3];
        for (int a = 0; a < 3; ++a)
          ic[a] = oc[a] * s[a] - p[a] + tc[a] * d[a];
        f(o, t, ic);
      }
  }
  bool inside(const int64_t (&ic)[3]) const {
    for (int a = 0; a < 3; ++a)
      if (ic[a] < 0 || ic[a] >= in[a])
        return false;
    return true;
  }
  int64_t flat(const int64_t (&ic)[3]) const {
    return (ic[0] * in[1] + ic[1]) * in[2] + ic[2];
  }
};

/// Every pool of one geometry against the definition.
template <int64_t NC, typename AD, typename AH, typename AW> void checkPools() {
  const Geometry g = Geometry::of<AD, AH, AW>();
  auto x = randomVector<float>(NC * g.inSize(), 12);
  const size_t n = NC * g.outSize();
  std::vector<float> mx(n), mxi(n), avg(n), avgPad(n), lp1(n), lp2(n), lp3(n);
  std::vector<int64_t> idxRow(n), idxCol(n);
  max_pool<NC, AD, AH, AW>(x.data(), mx.data());
  max_pool_indices<NC, AD, AH, AW, AH::In * AW::In, AW::In, 1>(x.data(), mxi.data(),
                                                               idxRow.data());
  // Column-major spatial order: w strides by D*H, h by D, d by 1.
  max_pool_indices<NC, AD, AH, AW, 1, AD::In, AD::In * AH::In>(x.data(), mxi.data(),
                                                               idxCol.data());
  avg_pool<NC, AD, AH, AW, false>(x.data(), avg.data());
  avg_pool<NC, AD, AH, AW, true>(x.data(), avgPad.data());
  lp_pool<NC, AD, AH, AW, 1>(x.data(), lp1.data());
  lp_pool<NC, AD, AH, AW, 2>(x.data(), lp2.data());
  lp_pool<NC, AD, AH, AW, 3>(x.data(), lp3.data());
  std::vector<double> refMx(n, -INFINITY), refAvg(n), refAvgPad(n), refLp1(n),
      refLp2(n), refLp3(n);
  std::vector<int64_t> refRow(n, -1), refCol(n, -1);
  for (int64_t c = 0; c < NC; ++c) {
    std::vector<double> sum(g.outSize()), l1(g.outSize()), l2(g.outSize()),
        l3(g.outSize());
    std::vector<int64_t> valid(g.outSize()), padded(g.outSize());
    g.forEachTap([&](int64_t o, int64_t, const int64_t (&ic)[3]) {
      bool inPadded = true;
      for (int a = 0; a < 3; ++a)
        inPadded &= ic[a] < g.in[a] + g.pe[a];
      padded[o] += inPadded;
      if (!g.inside(ic))
        return;
      double v = x[c * g.inSize() + g.flat(ic)];
      size_t at = c * g.outSize() + o;
      if (v > refMx[at]) {
        refMx[at] = v;
        refRow[at] = c * g.inSize() + g.flat(ic);
        refCol[at] = c * g.inSize() + ic[0] + ic[1] * g.in[0] + ic[2] * g.in[0] * g.in[1];
      }
      sum[o] += v;
      l1[o] += std::fabs(v);
      l2[o] += v * v;
      l3[o] += std::pow(std::fabs(v), 3.0);
      ++valid[o];
    });
    for (int64_t o = 0; o < g.outSize(); ++o) {
      size_t at = c * g.outSize() + o;
      refAvg[at] = valid[o] ? sum[o] / valid[o] : 0.0;
      refAvgPad[at] = padded[o] ? sum[o] / padded[o] : 0.0;
      refLp1[at] = l1[o];
      refLp2[at] = std::sqrt(l2[o]);
      refLp3[at] = std::cbrt(l3[o]);
    }
  }
  expectClose(mx, refMx, "max_pool");
  expectClose(mxi, refMx, "max_pool_indices values");
  EXPECT_EQ(idxRow, refRow) << "max_pool_indices row-major";
  EXPECT_EQ(idxCol, refCol) << "max_pool_indices column-major";
  expectClose(avg, refAvg, "avg_pool");
  expectClose(avgPad, refAvgPad, "avg_pool count_include_pad");
  expectClose(lp1, refLp1, "lp_pool p=1");
  expectClose(lp2, refLp2, "lp_pool p=2");
  expectClose(lp3, refLp3, "lp_pool p=3");
}

#if ONNXCC_HAS_SIMD
/// interleave(a, b) is a0 b0 a1 b1 ... across the whole width (not within
/// 128-bit lanes, as xsimd 8's zip_lo is on AVX), and deinterleave undoes
/// it, at vectors of V's width.
template <typename V> void checkInterleave() {
  if constexpr (has_even_odd<V>()) {
    constexpr int64_t W = V::size;
    alignas(64) float a[W], b[W], lo[W], hi[W], even[W], odd[W];
    for (int64_t i = 0; i < W; ++i) {
      a[i] = static_cast<float>(i);
      b[i] = static_cast<float>(100 + i);
    }
    const even_odd<V> z = interleave(V::load_unaligned(a), V::load_unaligned(b));
    z.even.store_unaligned(lo);
    z.odd.store_unaligned(hi);
    for (int64_t i = 0; i < 2 * W; ++i) {
      const float want = i % 2 == 0 ? a[i / 2] : b[i / 2];
      EXPECT_EQ(i < W ? lo[i] : hi[i - W], want) << "width " << W << " element " << i;
    }
    const even_odd<V> back = deinterleave(z.even, z.odd);
    back.even.store_unaligned(even);
    back.odd.store_unaligned(odd);
    for (int64_t i = 0; i < W; ++i) {
      EXPECT_EQ(even[i], a[i]) << "width " << W;
      EXPECT_EQ(odd[i], b[i]) << "width " << W;
    }
  }
}

TEST(Deinterleave, InterleaveInvertsDeinterleave) {
  checkInterleave<vfloat>();
  checkInterleave<vfloat_upto<8>>();
  checkInterleave<vfloat_upto<4>>();
}
#endif

// axis<In, Out, K, S, P, Pe, D>; every window here has a tap in the input,
// as ONNX's pads < kernel ensures.
TEST(Pool, OneDimensional) {
  checkPools<2, unit_axis, unit_axis, axis<7, 3, 3, 2, 1, 0, 1>>();
  checkPools<1, unit_axis, unit_axis, axis<5, 3, 2, 2, 0, 0, 1>>(); // ceil_mode
  checkPools<3, unit_axis, unit_axis, axis<9, 5, 3, 1, 1, 1, 2>>(); // dilated
}

TEST(Pool, TwoDimensionalEdges) {
  using U = unit_axis;
  checkPools<2, U, axis<7, 4, 3, 2, 1, 1, 1>, axis<7, 4, 3, 2, 1, 1, 1>>();
  checkPools<1, U, axis<8, 4, 3, 2, 0, 0, 1>, axis<8, 4, 3, 2, 0, 0, 1>>(); // ceil
  checkPools<1, U, axis<9, 9, 3, 1, 2, 2, 2>, axis<9, 9, 3, 1, 2, 2, 2>>(); // dilation 2
  checkPools<3, U, axis<5, 5, 2, 1, 0, 1, 1>, axis<6, 4, 3, 2, 1, 2, 1>>(); // asymmetric
  checkPools<1, U, axis<3, 3, 3, 1, 1, 1, 1>,
             axis<kBelowVec, kBelowVec, 3, 1, 1, 1, 1>>();
  checkPools<1, U, axis<3, 3, 3, 1, 1, 1, 1>,
             axis<kVecWidth + 1, kVecWidth + 1, 3, 1, 1, 1, 1>>();
  checkPools<1, U, axis<112, 56, 3, 2, 1, 1, 1>, axis<112, 56, 3, 2, 1, 1, 1>>();
  // Unpadded rows: every window whole, the row's last vector overlapping
  // (squeezenet1_1's 111 -> 55), exactly one vector of windows, and one
  // window fewer than a vector (scalar).
  checkPools<2, U, axis<11, 5, 3, 2, 0, 0, 1>, axis<111, 55, 3, 2, 0, 0, 1>>();
  checkPools<1, U, axis<5, 2, 3, 2, 0, 0, 1>,
             axis<2 * kVecWidth + 3, kVecWidth + 1, 3, 2, 0, 0, 1>>();
  checkPools<1, U, axis<3, 3, 1, 1, 0, 0, 1>,
             axis<kVecWidth + 4, kVecWidth, 3, 1, 0, 0, 2>>();
  checkPools<1, U, axis<3, 3, 1, 1, 0, 0, 1>,
             axis<kBelowVec + 4, kBelowVec, 3, 1, 0, 0, 2>>();
  // Stride 2: an even window (2x2, its taps alternate even and odd
  // columns), a 4-wide one over even padding, and a 3-wide one over odd
  // padding with a ceil_mode window past the end.
  checkPools<1, U, axis<4, 2, 2, 2, 0, 0, 1>,
             axis<2 * kVecWidth + 4, kVecWidth + 2, 2, 2, 0, 0, 1>>();
  checkPools<2, U, axis<5, 3, 4, 2, 2, 1, 1>,
             axis<2 * kVecWidth + 5, kVecWidth + 3, 4, 2, 2, 1, 1>>();
  checkPools<1, U, axis<6, 4, 3, 2, 1, 2, 1>,
             axis<2 * kVecWidth + 6, kVecWidth + 4, 3, 2, 1, 2, 1>>();
  // Rows shorter than a vector, which AVX-512 and AVX builds run in 8- and
  // 4-wide vectors: 10, 5 and 4 outputs a row (torch_small_cnn's second
  // and digits_cnn's pools have 8 and 4).
  checkPools<2, U, axis<6, 3, 2, 2, 0, 0, 1>, axis<20, 10, 2, 2, 0, 0, 1>>();
  checkPools<1, U, axis<5, 2, 3, 2, 0, 0, 1>, axis<11, 5, 3, 2, 0, 0, 1>>();
  checkPools<3, U, axis<8, 4, 2, 2, 0, 0, 1>, axis<8, 4, 2, 2, 0, 0, 1>>();
}

// A NaN anywhere in a window wins, in the vector rows and the horizontal
// taps alike, and in a row's vector part and its tail.
TEST(Pool, MaxPoolNaNWins) {
  constexpr int64_t W = 2 * kVecWidth + 3;
  std::vector<float> x(3 * W, 1.0f), y(2 * (W - 1));
  x[0 * W + 1] = NAN;     // row 0, in the vector part
  x[2 * W + W - 1] = NAN; // row 2, in the tail
  max_pool<1, unit_axis, axis<3, 2, 2, 1, 0, 0, 1>, axis<W, W - 1, 2, 1, 0, 0, 1>>(
      x.data(), y.data());
  for (int64_t oh = 0; oh < 2; ++oh)
    for (int64_t ow = 0; ow < W - 1; ++ow) {
      bool nan = (oh == 0 && ow <= 1) || (oh == 1 && ow == W - 2);
      EXPECT_EQ(std::isnan(y[oh * (W - 1) + ow]), nan) << oh << "," << ow;
    }
}

// The same at stride 2, a NaN in each column phase, for 3- and 2-wide
// windows (the even/odd vector path).
TEST(Pool, MaxPoolNaNWinsAtStride2) {
  constexpr int64_t W = 2 * kVecWidth + 25, OW = (W - 3) / 2 + 1;
  std::vector<float> x(W, 1.0f), y(OW);
  x[6] = NAN;         // even: windows 2 and 3
  x[2 * 9 + 1] = NAN; // odd: window 9 only
  // The third tap of a vector's last window, which AVX-512 takes from
  // past the vector's span (next_even()): windows kVecWidth - 1 and on.
  x[2 * kVecWidth] = NAN;
  auto third = [](int64_t ow) { return ow == kVecWidth - 1 || ow == kVecWidth; };
  max_pool<1, unit_axis, unit_axis, axis<W, OW, 3, 2, 0, 0, 1>>(x.data(), y.data());
  for (int64_t ow = 0; ow < OW; ++ow)
    EXPECT_EQ(std::isnan(y[ow]), ow == 2 || ow == 3 || ow == 9 || third(ow)) << ow;
  // 2-wide windows: each column in exactly one window.
  constexpr int64_t OW2 = W / 2;
  std::vector<float> y2(OW2);
  max_pool<1, unit_axis, unit_axis, axis<W, OW2, 2, 2, 0, 0, 1>>(x.data(), y2.data());
  for (int64_t ow = 0; ow < OW2; ++ow)
    EXPECT_EQ(std::isnan(y2[ow]), ow == 3 || ow == 9 || ow == kVecWidth) << ow;
  // A row long enough for the row of vertical maxima (squeezenet1_1's 111).
  std::vector<float> x3(111, 1.0f), y3(55);
  x3[6] = NAN;
  x3[2 * 40 + 1] = NAN;
  x3[2 * kVecWidth] = NAN;
  max_pool<1, unit_axis, unit_axis, axis<111, 55, 3, 2, 0, 0, 1>>(x3.data(), y3.data());
  for (int64_t ow = 0; ow < 55; ++ow)
    EXPECT_EQ(std::isnan(y3[ow]), ow == 2 || ow == 3 || ow == 40 || third(ow)) << ow;
  // Two rows (the column maxima path), the NaN in the second row only.
  std::vector<float> x4(2 * W, 1.0f), y4(OW);
  x4[W + 2 * kVecWidth] = NAN;
  max_pool<1, unit_axis, axis<2, 1, 2, 1, 0, 0, 1>, axis<W, OW, 3, 2, 0, 0, 1>>(
      x4.data(), y4.data());
  for (int64_t ow = 0; ow < OW; ++ow)
    EXPECT_EQ(std::isnan(y4[ow]), third(ow)) << ow;
}

TEST(Pool, ThreeDimensional) {
  checkPools<2, axis<4, 2, 2, 2, 0, 0, 1>, axis<5, 3, 3, 2, 1, 1, 1>,
             axis<6, 6, 3, 1, 1, 1, 1>>();
  // Large dilations with ceil_mode windows running past the padding.
  checkPools<1, axis<8, 3, 3, 3, 1, 1, 2>, axis<8, 3, 3, 3, 1, 1, 2>,
             axis<8, 3, 3, 3, 1, 1, 2>>();
}

TEST(Pool, MaxPoolCeilModeClampsLastWindow) {
  // 5 wide, kernel 2, stride 2, ceil_mode: 3 outputs, the last sees one value.
  std::vector<float> x = {1, 5, 2, 7, 3}, y(3);
  max_pool<1, unit_axis, unit_axis, axis<5, 3, 2, 2, 0, 0, 1>>(x.data(), y.data());
  EXPECT_EQ(y, (std::vector<float>{5, 7, 3}));
}

TEST(Pool, IntegerMaxAndTies) {
  // uint8 maxima; a tie keeps the first index.
  std::vector<std::uint8_t> x = {3, 200, 200, 7}, y(2);
  std::vector<int64_t> idx(2);
  max_pool_indices<1, unit_axis, unit_axis, axis<4, 2, 2, 2, 0, 0, 1>, 0, 0, 1>(
      x.data(), y.data(), idx.data());
  EXPECT_EQ(y, (std::vector<std::uint8_t>{200, 200}));
  EXPECT_EQ(idx, (std::vector<int64_t>{1, 2}));
}

TEST(Pool, HalfPrecisionAveragesInFloat) {
  std::vector<f16> x(4), y(1);
  for (int i = 0; i < 4; ++i)
    x[i] = f16(1000.0f + i); // 4006 / 4 = 1001.5, representable
  avg_pool<1, unit_axis, unit_axis, axis<4, 1, 4, 1, 0, 0, 1>, false>(x.data(), y.data());
  EXPECT_EQ(float(y[0]), 1001.5f);
}

/// The global pools of 3 channels of S elements against double sums.
template <int64_t S> void checkGlobalPools() {
  auto x = randomVector<float>(3 * S, 4);
  std::vector<float> avg(3), mx(3), lp(3);
  global_avg_pool<3, S>(x.data(), avg.data());
  global_max_pool<3, S>(x.data(), mx.data());
  global_lp_pool<3, S, 2>(x.data(), lp.data());
  std::vector<double> refAvg(3), refMx(3, -INFINITY), refLp(3);
  for (int c = 0; c < 3; ++c) {
    for (int64_t i = 0; i < S; ++i) {
      double v = x[c * S + i];
      refAvg[c] += v / S;
      refMx[c] = std::max(refMx[c], v);
      refLp[c] += v * v;
    }
    refLp[c] = std::sqrt(refLp[c]);
  }
  expectClose(avg, refAvg, "global_avg_pool");
  expectClose(mx, refMx, "global_max_pool");
  expectClose(lp, refLp, "global_lp_pool");
}

// Below two vectors (the tail alone), and resnet18's 7x7 (vector rounds
// and a tail).
TEST(Pool, Global) {
  checkGlobalPools<10>();
  checkGlobalPools<49>();
}

/// conv_direct against the definition for one geometry and element type.
template <typename T, int64_t N, int64_t C, int64_t O, int64_t G, typename AD,
          typename AH, typename AW>
void checkConvDirect(double tol = 1e-4) {
  const Geometry g = Geometry::of<AD, AH, AW>();
  constexpr int64_t Cg = C / G, Og = O / G;
  auto x = randomVector<T>(N * C * g.inSize(), 8);
  auto w = randomVector<T>(O * Cg * g.kSize(), 9);
  auto bias = randomVector<T>(O, 10);
  std::vector<T> y(N * O * g.outSize()), yNoBias(y.size());
  conv_direct<N, C, O, G, AD, AH, AW, true>(x.data(), w.data(), bias.data(), y.data());
  conv_direct<N, C, O, G, AD, AH, AW, false>(x.data(), w.data(),
                                             static_cast<const T *>(nullptr),
                                             yNoBias.data());
  std::vector<double> ref(y.size()), refNoBias(y.size());
  for (int64_t n = 0; n < N; ++n)
    for (int64_t o = 0; o < O; ++o)
      for (int64_t c = 0; c < Cg; ++c)
        g.forEachTap([&](int64_t at, int64_t t, const int64_t (&ic)[3]) {
          if (!g.inside(ic))
            return;
          refNoBias[(n * O + o) * g.outSize() + at] +=
              double(x[(n * C + o / Og * Cg + c) * g.inSize() + g.flat(ic)]) *
              double(w[(o * Cg + c) * g.kSize() + t]);
        });
  for (size_t i = 0; i < ref.size(); ++i)
    ref[i] = refNoBias[i] + double(bias[i / g.outSize() % O]);
  expectClose(y, ref, "conv_direct", tol);
  expectClose(yNoBias, refNoBias, "conv_direct without bias", tol);
}

TEST(Conv, DirectMatchesDefinition) {
  using U = unit_axis;
  // 1-D: padded both sides, strided, grouped.
  checkConvDirect<float, 2, 4, 6, 2, U, U, axis<9, 5, 3, 2, 1, 1, 1>>();
  // 2-D in double, dilated and asymmetric.
  checkConvDirect<double, 1, 3, 2, 1, U, axis<7, 5, 3, 1, 2, 0, 2>,
                  axis<6, 3, 2, 2, 0, 1, 1>>(1e-10);
  // 3-D, depthwise.
  checkConvDirect<float, 1, 3, 3, 3, axis<4, 4, 3, 1, 1, 1, 1>,
                  axis<5, 3, 3, 2, 1, 1, 1>, axis<6, 6, 3, 1, 2, 2, 2>>();
  // Windows larger than the input.
  checkConvDirect<float, 1, 1, 1, 1, U, U, axis<2, 3, 5, 1, 2, 2, 1>>();
}

TEST(Conv, DirectHalfPrecisionAccumulatesInFloat) {
  // 2048 + 1 + 1 + ... in f16 steps would stay at 2048; in float it is 2056.
  std::vector<f16> x(9), w(9), y(1);
  for (int i = 0; i < 9; ++i) {
    x[i] = f16(i == 0 ? 2048.0f : 1.0f);
    w[i] = f16(1.0f);
  }
  conv_direct<1, 1, 1, 1, unit_axis, unit_axis, axis<9, 1, 9, 1, 0, 0, 1>, false>(
      x.data(), w.data(), static_cast<const f16 *>(nullptr), y.data());
  EXPECT_EQ(float(y[0]), 2056.0f);
}

TEST(Conv, DirectIntegersExactAndWrapping) {
  using U = unit_axis;
  // ConvInteger's kernel: i32, padded, exact.
  checkConvDirect<int32_t, 1, 2, 3, 1, U, axis<5, 4, 2, 1, 1, 0, 1>,
                  axis<4, 4, 3, 1, 1, 1, 1>>(0.0);
  // 2^30 * 2 + 2^30 * 2 = 2^32 wraps to 0: accumulated unsigned, no UB.
  std::vector<int32_t> x = {1 << 30, 1 << 30}, w = {2, 2}, y(1, 7);
  conv_direct<1, 1, 1, 1, U, U, axis<2, 1, 2, 1, 0, 0, 1>, false>(
      x.data(), w.data(), static_cast<const int32_t *>(nullptr), y.data());
  EXPECT_EQ(y[0], 0);
}

/// ONNX GridSample-style bilinear sample with zeros outside, in double.
double bilinearRef(const float *x, int64_t h, int64_t w, double py, double px) {
  if (!(py > -1 && py < h && px > -1 && px < w))
    return 0;
  int64_t y0 = static_cast<int64_t>(std::floor(py)), x0 = static_cast<int64_t>(std::floor(px));
  double s = 0;
  for (int64_t dy = 0; dy < 2; ++dy)
    for (int64_t dx = 0; dx < 2; ++dx) {
      int64_t yy = y0 + dy, xx = x0 + dx;
      if (yy < 0 || yy >= h || xx < 0 || xx >= w)
        continue;
      s += (dy ? py - y0 : 1 - (py - y0)) * (dx ? px - x0 : 1 - (px - x0)) *
           x[yy * w + xx];
    }
  return s;
}

TEST(DeformConv, MatchesDefinition) {
  // N=2, C=4, 5x6 image, O=4, groups 2, offset groups 2, 3x2 kernel,
  // stride (2, 1), pads (1, 0, 1, 1), dilation (1, 2): out 3x5.
  constexpr int64_t N = 2, C = 4, H = 5, W = 6, O = 4, G = 2, OG = 2, KH = 3,
                    KW = 2, OH = 3, OW = 5, SH = 2, SW = 1, PT = 1, PL = 0,
                    DH = 1, DW = 2;
  auto x = randomVector<float>(N * C * H * W, 21);
  auto w = randomVector<float>(O * (C / G) * KH * KW, 22);
  auto offset = randomVector<float>(N * OG * KH * KW * 2 * OH * OW, 23);
  auto mask = randomVector<float>(N * OG * KH * KW * OH * OW, 24);
  auto bias = randomVector<float>(O, 25);
  for (size_t i = 0; i < offset.size(); ++i)
    offset[i] *= 2.0f;
  // Far outside and NaN: sampled as 0, never read or converted.
  offset[3] = 1e30f;
  offset[7] = -1e30f;
  offset[11] = NAN;
  std::vector<float> y(N * O * OH * OW), yPlain(y.size());
  deform_conv2d<N, C, H, W, O, G, OG, KH, KW, OH, OW, SH, SW, PT, PL, DH, DW,
                true, true>(x.data(), w.data(), offset.data(), mask.data(),
                            bias.data(), y.data());
  deform_conv2d<N, C, H, W, O, G, OG, KH, KW, OH, OW, SH, SW, PT, PL, DH, DW,
                false, false>(x.data(), w.data(), offset.data(),
                              static_cast<const float *>(nullptr),
                              static_cast<const float *>(nullptr), yPlain.data());
  std::vector<double> ref(y.size()), refPlain(y.size());
  for (int64_t n = 0; n < N; ++n)
    for (int64_t o = 0; o < O; ++o)
      for (int64_t oy = 0; oy < OH; ++oy)
        for (int64_t ox = 0; ox < OW; ++ox) {
          double s = bias[o], sp = 0;
          for (int64_t c = 0; c < C / G; ++c) {
            int64_t ci = o / (O / G) * (C / G) + c, og = ci / (C / OG);
            for (int64_t i = 0; i < KH; ++i)
              for (int64_t j = 0; j < KW; ++j) {
                int64_t tap = (og * KH + i) * KW + j;
                auto at = [&](int64_t ch) { return ((n * OG * KH * KW * 2 + ch) * OH + oy) * OW + ox; };
                double py = oy * SH - PT + i * DH + double(offset[at(2 * tap)]);
                double px = ox * SW - PL + j * DW + double(offset[at(2 * tap + 1)]);
                double v = bilinearRef(&x[(n * C + ci) * H * W], H, W, py, px);
                double m = mask[((n * OG * KH * KW + tap) * OH + oy) * OW + ox];
                double wv = w[((o * (C / G) + c) * KH + i) * KW + j];
                s += wv * v * m;
                sp += wv * v;
              }
          }
          ref[((n * O + o) * OH + oy) * OW + ox] = s;
          refPlain[((n * O + o) * OH + oy) * OW + ox] = sp;
        }
  expectClose(y, ref, "deform_conv2d");
  expectClose(yPlain, refPlain, "deform_conv2d without bias and mask");
}

/// conv_transpose against the scatter definition.
template <typename T, int64_t N, int64_t C, int64_t O, int64_t G, typename AD,
          typename AH, typename AW>
void checkConvTranspose() {
  // Here In is the input extent and Out the output extent of each axis.
  const Geometry g = Geometry::of<AD, AH, AW>();
  constexpr int64_t Cg = C / G, Og = O / G;
  auto x = randomVector<T>(N * C * g.inSize(), 5);
  auto w = randomVector<T>(C * Og * g.kSize(), 6);
  auto bias = randomVector<T>(O, 7);
  std::vector<T> y(N * O * g.outSize());
  conv_transpose<N, C, O, G, AD, AH, AW, true>(x.data(), w.data(), bias.data(), y.data());
  std::vector<double> ref(y.size());
  for (size_t i = 0; i < ref.size(); ++i)
    ref[i] = bias[i / g.outSize() % O];
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t o = 0; o < Og; ++o)
        for (int64_t i = 0; i < g.inSize(); ++i)
          for (int64_t t = 0; t < g.kSize(); ++t) {
            int64_t ic[3] = {i / (g.in[1] * g.in[2]), i / g.in[2] % g.in[1], i % g.in[2]};
            int64_t tc[3] = {t / (g.k[1] * g.k[2]), t / g.k[2] % g.k[1], t % g.k[2]};
            int64_t oc[3];
            bool inside = true;
            for (int a = 0; a < 3; ++a) {
              oc[a] = ic[a] * g.s[a] - g.p[a] + tc[a] * g.d[a];
              inside &= oc[a] >= 0 && oc[a] < g.out[a];
            }
            if (!inside)
              continue;
            int64_t at = (oc[0] * g.out[1] + oc[1]) * g.out[2] + oc[2];
            ref[(n * O + c / Cg * Og + o) * g.outSize() + at] +=
                double(x[(n * C + c) * g.inSize() + i]) *
                double(w[(c * Og + o) * g.kSize() + t]);
          }
  expectClose(y, ref, "conv_transpose");
}

TEST(ConvTranspose, MatchesScatterDefinition) {
  using U = unit_axis;
  // 1-D: out = 2*(5-1) + 3 = 11.
  checkConvTranspose<float, 1, 2, 3, 1, U, U, axis<5, 11, 3, 2, 0, 0, 1>>();
  // 2-D grouped, padded, dilated; output_padding leaves an untouched row.
  checkConvTranspose<double, 2, 4, 6, 2, U, axis<3, 8, 3, 3, 1, -1, 1>,
                     axis<4, 7, 2, 2, 1, 1, 2>>();
  // Negative begin padding (output_shape beyond the taps' reach).
  checkConvTranspose<float, 1, 1, 2, 1, U, axis<3, 10, 3, 3, -1, 0, 1>,
                     axis<3, 8, 3, 2, 0, -1, 1>>();
  // 3-D.
  checkConvTranspose<float, 1, 2, 2, 1, axis<2, 4, 2, 2, 0, 0, 1>,
                     axis<3, 5, 3, 1, 0, 0, 1>, axis<3, 6, 2, 2, 0, 0, 1>>();
}

/// col2im against the definition; the axes' In are the block positions.
template <int64_t NC, typename AD, typename AH, typename AW> void checkCol2Im() {
  const Geometry g = Geometry::of<AD, AH, AW>();
  auto x = randomVector<float>(NC * g.kSize() * g.inSize(), 3);
  std::vector<float> y(NC * g.outSize());
  col2im<NC, AD, AH, AW>(x.data(), y.data());
  std::vector<double> ref(y.size());
  for (int64_t c = 0; c < NC; ++c)
    for (int64_t t = 0; t < g.kSize(); ++t)
      for (int64_t b = 0; b < g.inSize(); ++b) {
        int64_t bc[3] = {b / (g.in[1] * g.in[2]), b / g.in[2] % g.in[1], b % g.in[2]};
        int64_t tc[3] = {t / (g.k[1] * g.k[2]), t / g.k[2] % g.k[1], t % g.k[2]};
        int64_t oc[3];
        bool inside = true;
        for (int a = 0; a < 3; ++a) {
          oc[a] = bc[a] * g.s[a] - g.p[a] + tc[a] * g.d[a];
          inside &= oc[a] >= 0 && oc[a] < g.out[a];
        }
        if (inside)
          ref[c * g.outSize() + (oc[0] * g.out[1] + oc[1]) * g.out[2] + oc[2]] +=
              x[(c * g.kSize() + t) * g.inSize() + b];
      }
  expectClose(y, ref, "col2im");
}

TEST(Col2Im, MatchesDefinition) {
  using U = unit_axis;
  // The ONNX example: 5x5 image, 1x5 blocks.
  checkCol2Im<1, U, axis<5, 5, 1, 1, 0, 0, 1>, axis<1, 5, 5, 1, 0, 0, 1>>();
  // Padded, strided, dilated.
  checkCol2Im<2, U, axis<3, 5, 2, 2, 1, 1, 1>, axis<4, 6, 2, 1, 0, 1, 2>>();
  checkCol2Im<1, axis<2, 3, 2, 1, 0, 0, 1>, axis<2, 4, 2, 2, 0, 0, 1>,
              axis<3, 3, 1, 1, 0, 0, 1>>();
}

TEST(MaxUnpool, ScattersAndSkipsBadIndices) {
  // The ONNX example: 2x2 values into a 4x4 image, output enlarged to 5x5.
  static constexpr int64_t unpooled[] = {1, 1, 4, 4};
  static constexpr int64_t out[] = {1, 1, 5, 5};
  std::vector<float> x = {5, 6, 7, 8}, y(25, -1.0f);
  std::vector<int64_t> idx = {5, 7, 13, 15};
  max_unpool<4, 25, 4>(unpooled, out, x.data(), idx.data(), y.data());
  std::vector<float> ref(25, 0.0f);
  ref[1 * 5 + 1] = 5;
  ref[1 * 5 + 3] = 6;
  ref[3 * 5 + 1] = 7;
  ref[3 * 5 + 3] = 8;
  EXPECT_EQ(y, ref);
  // Indices outside the unpooled tensor write nothing.
  idx = {-1, 16, 1 << 30, 0};
  max_unpool<4, 25, 4>(unpooled, out, x.data(), idx.data(), y.data());
  ref.assign(25, 0.0f);
  ref[0] = 8;
  EXPECT_EQ(y, ref);
}

} // namespace
