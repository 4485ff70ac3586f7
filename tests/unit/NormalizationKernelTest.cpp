//===- NormalizationKernelTest.cpp - layer/group norm, LRN, axis norms ----===//
//
// Each kernel against a naive one in double, with rows below, at, above and
// at multiples of the vector width; layer norm with and without stats,
// bias and per-row parameters, RMS; group norm from one group to one per
// channel; LRN windows cut by both edges; log-softmax and hardmax along
// inner and outer axes.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"

#include <gtest/gtest.h>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace onnxcc::rt;

namespace {

constexpr int64_t kBelowVec = kVecWidth > 1 ? kVecWidth - 1 : 1;

std::vector<float> randomVector(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.5f, 2.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

void expectClose(float got, double ref, const char *what, int64_t at) {
  ASSERT_LE(std::fabs(got - ref), 1e-4 + 1e-4 * std::fabs(ref))
      << what << " index " << at << ": got " << got << ", expected " << ref;
}

/// Mean and 1/sqrt(var + eps) of n values, in double (Rms: mean 0).
void naiveStats(const float *x, int64_t n, bool rms, double eps, double &mean,
                double &inv) {
  mean = 0;
  if (!rms) {
    for (int64_t i = 0; i < n; ++i)
      mean += x[i];
    mean /= n;
  }
  double var = 0;
  for (int64_t i = 0; i < n; ++i)
    var += (x[i] - mean) * (x[i] - mean);
  inv = 1 / std::sqrt(var / n + eps);
}

template <int64_t Outer, int64_t Inner, bool Rms, bool PerRowParams, bool WithBias>
void checkLayerNorm() {
  constexpr int64_t kParams = PerRowParams ? Outer * Inner : Inner;
  constexpr int64_t kStride = PerRowParams ? Inner : 0;
  auto x = randomVector(Outer * Inner, 1), s = randomVector(kParams, 2),
       b = randomVector(kParams, 3);
  std::vector<float> y(Outer * Inner), mean(Outer), inv(Outer);
  layer_norm<Outer, Inner, Rms, kStride, kStride>(
      x.data(), s.data(), WithBias ? b.data() : static_cast<const float *>(nullptr),
      1e-3f, y.data(), mean.data(), inv.data());
  for (int64_t o = 0; o < Outer; ++o) {
    double m, r;
    naiveStats(&x[o * Inner], Inner, Rms, 1e-3, m, r);
    expectClose(mean[o], m, "mean", o);
    expectClose(inv[o], r, "inv_std_dev", o);
    for (int64_t i = 0; i < Inner; ++i) {
      int64_t p = o * kStride + i;
      double ref = (x[o * Inner + i] - m) * r * s[p] + (WithBias ? b[p] : 0.0);
      expectClose(y[o * Inner + i], ref, "layer_norm", o * Inner + i);
    }
  }
}

TEST(LayerNorm, RowsAtVectorWidthEdges) {
  checkLayerNorm<3, kBelowVec, false, false, true>();
  checkLayerNorm<2, kVecWidth, false, false, true>();
  checkLayerNorm<4, kVecWidth + 1, false, false, false>();
  checkLayerNorm<1, 2 * kVecWidth, false, true, true>();
  checkLayerNorm<5, 3 * kVecWidth + 3, true, false, false>();
  checkLayerNorm<2, 1, false, false, true>(); // one element: y = bias
  checkLayerNorm<2, 64, true, true, false>();
  // Around two vectors, where float rows switch to vector sums.
  checkLayerNorm<3, 2 * kVecWidth - 1, false, false, true>();
  checkLayerNorm<2, 4 * kVecWidth + 1, false, true, true>();
  checkLayerNorm<2, 4 * kVecWidth + 1, true, false, true>();
}

TEST(LayerNorm, StatsAreOptionalAndHalfRoundsOnce) {
  // No stats buffers; f16 input and parameters computed in float.
  f16 x[4] = {f16(1.0f), f16(2.0f), f16(3.0f), f16(4.0f)}, s[4], b[4], y[4];
  for (int i = 0; i < 4; ++i) {
    s[i] = f16(2.0f);
    b[i] = f16(0.5f);
  }
  layer_norm<1, 4, false, 0, 0>(x, s, b, 0.0f, y, static_cast<float *>(nullptr),
                                static_cast<float *>(nullptr));
  const double inv = 1 / std::sqrt(1.25);
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(float(y[i]), (i + 1 - 2.5) * inv * 2 + 0.5, 2e-3) << i;
  // An empty row has NaN statistics (0/0) and nothing to write.
  float in = 0, scale = 1, out = 0, mean = 0, inv_std = 0;
  layer_norm<1, 0, false, 0, 0>(&in, &scale, static_cast<const float *>(nullptr), 1e-5f,
                                &out, &mean, &inv_std);
  EXPECT_TRUE(std::isnan(mean) && std::isnan(inv_std));
}

/// layer_norm_skip() gives the bits of the Add then layer_norm() it
/// replaces, statistics included.
template <int64_t Outer, int64_t Inner, bool Rms, bool PerRowParams>
void checkLayerNormSkip() {
  constexpr int64_t kParams = PerRowParams ? Outer * Inner : Inner;
  constexpr int64_t kStride = PerRowParams ? Inner : 0;
  auto x = randomVector(Outer * Inner, 7), r = randomVector(Outer * Inner, 8),
       s = randomVector(kParams, 9), b = randomVector(kParams, 10);
  std::vector<float> sum(Outer * Inner), ref(Outer * Inner), refMean(Outer),
      refInv(Outer);
  for (size_t i = 0; i < sum.size(); ++i)
    sum[i] = x[i] + r[i];
  layer_norm<Outer, Inner, Rms, kStride, kStride>(sum.data(), s.data(), b.data(),
                                                  1e-5f, ref.data(), refMean.data(),
                                                  refInv.data());
  std::vector<float> y(Outer * Inner, NAN), mean(Outer, NAN), inv(Outer, NAN);
  layer_norm_skip<Outer, Inner, Rms, kStride, kStride>(
      x.data(), r.data(), s.data(), b.data(), 1e-5f, y.data(), mean.data(),
      inv.data());
  for (size_t i = 0; i < y.size(); ++i)
    ASSERT_EQ(std::memcmp(&y[i], &ref[i], sizeof(float)), 0)
        << "index " << i << ": got " << y[i] << ", expected " << ref[i];
  for (int64_t o = 0; o < Outer; ++o) {
    ASSERT_EQ(std::memcmp(&mean[o], &refMean[o], sizeof(float)), 0) << "mean " << o;
    ASSERT_EQ(std::memcmp(&inv[o], &refInv[o], sizeof(float)), 0) << "inv " << o;
  }
}

TEST(LayerNorm, SkipIsTheAddThenTheNorm) {
  checkLayerNormSkip<32, 128, false, false>(); // a transformer's residual
  checkLayerNormSkip<3, kBelowVec, false, false>();
  checkLayerNormSkip<2, 4 * kVecWidth + 1, true, true>();
  checkLayerNormSkip<4, 3 * kVecWidth + 3, false, true>();
}

// f16: the sum is rounded to f16 before the statistics, as the Add stores
// it: 1 + 2^-11 rounds to 1 (ties to even), so a row of sums 1, 1, 3, 3 has
// mean 2 and variance 1.
TEST(LayerNorm, SkipRoundsTheHalfSum) {
  const float tiny = std::ldexp(1.0f, -11);
  f16 x[4] = {f16(1.0f), f16(1.0f), f16(3.0f), f16(3.0f)},
      r[4] = {f16(tiny), f16(tiny), f16(0.0f), f16(0.0f)}, s[4], y[4];
  for (f16 &v : s)
    v = f16(1.0f);
  float mean = 0, inv = 0;
  layer_norm_skip<1, 4, false, 0, 0>(x, r, s, static_cast<const f16 *>(nullptr),
                                     0.0f, y, &mean, &inv);
  EXPECT_EQ(mean, 2.0f);
  EXPECT_EQ(inv, 1.0f);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(float(y[i]), i < 2 ? -1.0f : 1.0f) << i;
}

template <int64_t N, int64_t C, int64_t G, int64_t S> void checkGroupNorm() {
  auto x = randomVector(N * C * S, 4), s = randomVector(C, 5), b = randomVector(C, 6);
  std::vector<float> y(N * C * S);
  group_norm<N, C, G, S>(x.data(), s.data(), b.data(), 1e-5f, y.data());
  constexpr int64_t kPer = C / G;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t g = 0; g < G; ++g) {
      const int64_t at = (n * C + g * kPer) * S;
      double m, r;
      naiveStats(&x[at], kPer * S, false, 1e-5, m, r);
      for (int64_t i = 0; i < kPer * S; ++i) {
        int64_t c = g * kPer + i / S;
        expectClose(y[at + i], (x[at + i] - m) * r * s[c] + b[c], "group_norm", at + i);
      }
    }
}

TEST(GroupNorm, OneGroupToOnePerChannel) {
  checkGroupNorm<2, 6, 1, kVecWidth + 1>();   // layer norm over C x S
  checkGroupNorm<1, 6, 3, kBelowVec>();
  checkGroupNorm<3, 4, 4, 2 * kVecWidth>();   // instance norm
  checkGroupNorm<1, 2, 2, 1>();               // one element per group: y = bias
}

template <int64_t N, int64_t C, int64_t S, int64_t Size> void checkLRN() {
  auto x = randomVector(N * C * S, 7);
  std::vector<float> y(N * C * S);
  const float alpha = 0.3f, beta = 0.75f, bias = 1.5f;
  lrn<N, C, S, Size>(x.data(), alpha, beta, bias, y.data());
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t i = 0; i < S; ++i) {
        double sum = 0;
        for (int64_t k = c - (Size - 1) / 2; k <= c + Size / 2; ++k)
          if (k >= 0 && k < C)
            sum += double(x[(n * C + k) * S + i]) * x[(n * C + k) * S + i];
        int64_t at = (n * C + c) * S + i;
        expectClose(y[at], x[at] / std::pow(bias + alpha / Size * sum, beta), "lrn", at);
      }
}

TEST(LRN, WindowsCutAtBothEdges) {
  checkLRN<1, 5, kVecWidth + 1, 3>();
  checkLRN<2, 4, 3, 4>();  // even: one more channel after than before
  checkLRN<1, 3, 2, 1>();  // the channel itself
  checkLRN<1, 3, 2, 9>();  // wider than the channels
}

template <int64_t Outer, int64_t Axis, int64_t Inner> void checkAxisNorms() {
  auto x = randomVector(Outer * Axis * Inner, 8);
  for (size_t i = 0; i < x.size(); i += 3)
    x[i] = std::round(x[i]); // some ties for hardmax
  std::vector<float> sm(x.size()), ls(x.size()), hm(x.size());
  softmax<Outer, Axis, Inner>(x.data(), sm.data());
  log_softmax<Outer, Axis, Inner>(x.data(), ls.data());
  hardmax<Outer, Axis, Inner>(x.data(), hm.data());
  for (int64_t o = 0; o < Outer; ++o)
    for (int64_t i = 0; i < Inner; ++i) {
      auto at = [&](int64_t a) { return (o * Axis + a) * Inner + i; };
      double m = -INFINITY, sum = 0;
      int64_t best = 0;
      for (int64_t a = 0; a < Axis; ++a) {
        m = std::max(m, double(x[at(a)]));
        if (x[at(a)] > x[at(best)])
          best = a;
      }
      for (int64_t a = 0; a < Axis; ++a)
        sum += std::exp(x[at(a)] - m);
      for (int64_t a = 0; a < Axis; ++a) {
        expectClose(sm[at(a)], std::exp(x[at(a)] - m) / sum, "softmax", at(a));
        expectClose(ls[at(a)], x[at(a)] - m - std::log(sum), "log_softmax", at(a));
        ASSERT_EQ(hm[at(a)], a == best ? 1.0f : 0.0f) << "hardmax index " << at(a);
      }
    }
}

TEST(AxisNorms, InnerAndOuterAxes) {
  checkAxisNorms<3, kVecWidth + 1, 1>();
  checkAxisNorms<1, kBelowVec, 4>();
  checkAxisNorms<2, 2 * kVecWidth, 3>();
  checkAxisNorms<2, 1, 5>(); // one element: log_softmax 0, hardmax 1
  checkAxisNorms<4, 3 * kVecWidth + 2, 1>(); // rows: vectors and a tail
  checkAxisNorms<2, 32, 1>();                // attention scores
  // Rows of 1 to 4 whole vectors run 4 at a time in registers, then one
  // at a time: 7 rows leave 3; 5 vectors are past the register form.
  checkAxisNorms<7, kVecWidth, 1>();
  checkAxisNorms<6, 2 * kVecWidth, 1>();
  checkAxisNorms<4, 4 * kVecWidth, 1>();
  checkAxisNorms<3, 5 * kVecWidth, 1>();
}

TEST(AxisNorms, LargeValuesAndNaN) {
  float x[3] = {1000.0f, 1000.0f, -1000.0f}, y[3];
  log_softmax<1, 3, 1>(x, y);
  EXPECT_NEAR(y[0], -std::log(2.0f), 1e-5);
  softmax<1, 3, 1>(x, y); // exp(x - max): no overflow
  EXPECT_NEAR(y[0], 0.5f, 1e-6);
  EXPECT_EQ(y[2], 0.0f);
  float masked[kVecWidth + 2];
  for (float &v : masked)
    v = -INFINITY; // a causal mask's -inf scores get exactly 0
  masked[1] = masked[kVecWidth + 1] = 2.0f; // (distinct on the scalar path)
  float ym[kVecWidth + 2];
  softmax<1, kVecWidth + 2, 1>(masked, ym);
  for (int64_t a = 0; a < kVecWidth + 2; ++a)
    EXPECT_EQ(ym[a], a == 1 || a == kVecWidth + 1 ? 0.5f : 0.0f) << "index " << a;
  // The same in rows held in registers: masked scores, a NaN row.
  constexpr int64_t kRow = kVecWidth >= 4 ? 2 * kVecWidth : 8;
  float rows[5 * kRow], yr[5 * kRow];
  for (int64_t i = 0; i < 5 * kRow; ++i)
    rows[i] = i % kRow == 3 || i % kRow == kRow - 1 ? 1.5f : -INFINITY;
  rows[4 * kRow + kRow - 2] = NAN;
  softmax<5, kRow, 1>(rows, yr);
  for (int64_t i = 0; i < 4 * kRow; ++i)
    EXPECT_EQ(yr[i], i % kRow == 3 || i % kRow == kRow - 1 ? 0.5f : 0.0f) << "index " << i;
  for (int64_t i = 4 * kRow; i < 5 * kRow; ++i)
    EXPECT_TRUE(std::isnan(yr[i])) << "index " << i;
  float n[3] = {1.0f, NAN, 5.0f};
  hardmax<1, 3, 1>(n, y); // a NaN is the largest, as numpy's argmax says
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_EQ(y[1], 1.0f);
  EXPECT_EQ(y[2], 0.0f);
  softmax<1, 3, 1>(n, y); // a NaN reaches every output through the sum
  for (float v : y)
    EXPECT_TRUE(std::isnan(v));
}

} // namespace
