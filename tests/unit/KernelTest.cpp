//===- KernelTest.cpp - runtime kernels at vector-width edges -------------===//
//
// Each kernel against a naive reference for sizes below, equal to, above and
// at multiples of the SIMD width (XNNPACK's batch_lt/eq/gt/div testers),
// including an in-place elementwise call.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"

#include <gtest/gtest.h>
#include <cmath>
#include <random>
#include <vector>

using namespace onnxcc::rt;

namespace {

/// One element short of a vector (1 on the scalar path).
constexpr int64_t kBelowVec = kVecWidth > 1 ? kVecWidth - 1 : 1;

std::vector<float> randomVector(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist;
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

void expectClose(const std::vector<float> &got, const std::vector<float> &ref,
                 const char *what) {
  ASSERT_EQ(got.size(), ref.size());
  for (size_t i = 0; i < ref.size(); ++i)
    ASSERT_LE(std::fabs(got[i] - ref[i]), 1e-4f + 1e-4f * std::fabs(ref[i]))
        << what << " index " << i << ": got " << got[i] << ", expected " << ref[i];
}

template <int64_t M, int64_t N, int64_t K, bool TB> void checkGemm() {
  auto a = randomVector(M * K, 1), b = randomVector(K * N, 2), bias = randomVector(N, 3);
  std::vector<float> c(M * N), ref(M * N);
  gemm<M, N, K, false, TB, 0, 1, true>(a.data(), b.data(), bias.data(), 1.0f, 1.0f,
                                       c.data(), [](auto v) { return vmax(v, decltype(v)(0.0f)); });
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double s = bias[j];
      for (int64_t k = 0; k < K; ++k)
        s += double(a[i * K + k]) * (TB ? b[j * K + k] : b[k * N + j]);
      ref[i * N + j] = s > 0 ? float(s) : 0.0f;
    }
  expectClose(c, ref, "gemm");
}

TEST(Gemm, VectorWidthEdges) {
  checkGemm<1, kBelowVec, 3, false>();
  checkGemm<3, kVecWidth, 5, false>();
  checkGemm<5, kVecWidth + 1, 7, false>();
  checkGemm<4, 2 * kVecWidth, 9, false>();
  checkGemm<7, 3 * kVecWidth + 3, 17, false>();
  checkGemm<2, 300, 11, false>(); // crosses a column block
}

TEST(Gemm, TransposedBVectorWidthEdges) {
  checkGemm<1, 10, kBelowVec, true>();
  checkGemm<2, 3, kVecWidth, true>();
  checkGemm<3, 4, 2 * kVecWidth + 1, true>();
  checkGemm<1, 256, 784, true>(); // the classifier's first layer
}

template <int64_t N> void checkMap() {
  auto a = randomVector(N, 4), b = randomVector(N, 5);
  float s = 0.25f;
  std::vector<float> out(N), ref(N);
  auto body = [](auto x, auto y, auto z) { return vmax(x * z + y, decltype(x)(0.0f)); };
  map<N>(out.data(), body, dense_in{a.data()}, dense_in{b.data()}, splat_in{&s});
  for (int64_t i = 0; i < N; ++i)
    ref[i] = std::fmax(a[i] * s + b[i], 0.0f);
  expectClose(out, ref, "map");
  // In place: the output overwrites its first input, as the planner allows.
  map<N>(a.data(), body, dense_in{a.data()}, dense_in{b.data()}, splat_in{&s});
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
                 strided_in<3>{a.data(), {12, 4, 1}}, strided_in<3>{b.data(), {0, 1, 0}});
  for (int i = 0; i < 24; ++i)
    EXPECT_FLOAT_EQ(out[i], a[i] - b[(i / 4) % 3]) << "index " << i;
}

TEST(Conv, PaddedStridedGroupedMatchesDirect) {
  using S = conv_shape<1, 4, 7, 6, 6, 3, 3, 4, 3, 2, 2, 1, 1, 1, 1, 2>;
  auto x = randomVector(S::C * S::H * S::W, 8);
  auto w = randomVector(S::O * S::Cg * S::KH * S::KW, 9);
  auto bias = randomVector(S::O, 10);
  std::vector<float> y(S::O * S::OH * S::OW), ref(y.size()), scratch(S::Kdim * S::P);
  conv2d<S>(x.data(), w.data(), bias.data(), y.data(), scratch.data(), identity{});
  for (int64_t o = 0; o < S::O; ++o)
    for (int64_t oh = 0; oh < S::OH; ++oh)
      for (int64_t ow = 0; ow < S::OW; ++ow) {
        double s = bias[o];
        int64_t g = o / S::Og;
        for (int64_t c = 0; c < S::Cg; ++c)
          for (int64_t kh = 0; kh < S::KH; ++kh)
            for (int64_t kw = 0; kw < S::KW; ++kw) {
              int64_t ih = oh * S::SH - S::PT + kh, iw = ow * S::SW - S::PL + kw;
              if (ih < 0 || ih >= S::H || iw < 0 || iw >= S::W)
                continue;
              s += double(x[((g * S::Cg + c) * S::H + ih) * S::W + iw]) *
                   w[((o * S::Cg + c) * S::KH + kh) * S::KW + kw];
            }
        ref[(o * S::OH + oh) * S::OW + ow] = float(s);
      }
  expectClose(y, ref, "conv2d");
}

TEST(Pool, MaxPoolCeilModeClampsLastWindow) {
  // 5 wide, kernel 2, stride 2, ceil_mode: 3 outputs, the last sees one value.
  std::vector<float> x = {1, 5, 2, 7, 3}, y(3);
  max_pool2d<1, 1, 5, 1, 3, 1, 2, 1, 2, 0, 0, 0, 0, 1, 1>(x.data(), y.data());
  EXPECT_EQ(y, (std::vector<float>{5, 7, 3}));
}

TEST(Pool, AvgPoolExcludesPadding) {
  std::vector<float> x = {1, 2, 3, 4}, y(4);
  avg_pool2d<1, 2, 2, 2, 2, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, false>(x.data(), y.data());
  for (float v : y)
    EXPECT_FLOAT_EQ(v, 2.5f);
}

} // namespace
