//===- QuantizationKernelTest.cpp - integer kernels against references ----===//
//
// matmul_integer and conv_integer against naive int64 loops (reduced mod
// 2^32 like the kernels' wrapping sums): batch broadcasting, zero points
// per tensor / row / column / channel or absent, int8 and uint8 mixed,
// windows cut by every image edge, groups, a sum that overflows int32;
// dynamic_quant_params on ranges with and without zero, all zeros, NaN.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"

#include <gtest/gtest.h>
#include <cmath>
#include <random>
#include <vector>

using namespace onnxcc::rt;

namespace {

template <typename T> std::vector<T> randomInts(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(std::is_signed<T>::value ? -128 : 0,
                                          std::is_signed<T>::value ? 127 : 255);
  std::vector<T> v(n);
  for (T &e : v)
    e = static_cast<T>(dist(rng));
  return v;
}

/// int64 sum reduced to int32 the way the kernels wrap.
int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

/// [B1, B2 | M, K] x [B2 | K, N] with a broadcasting over B1 on b.
template <typename TA, typename TB, int64_t M, int64_t N, int64_t K, int64_t AZN,
          int64_t BZN>
void checkMatMul(bool withZeroPoints) {
  constexpr int64_t B1 = 2, B2 = 3;
  auto a = randomInts<TA>(B1 * B2 * M * K, 1);
  auto b = randomInts<TB>(B2 * K * N, 2);
  auto az = randomInts<TA>(AZN, 3);
  auto bz = randomInts<TB>(BZN, 4);
  std::vector<int32_t> y(B1 * B2 * M * N, -1), ref(y.size());
  static constexpr int64_t batch[] = {B1, B2};
  static constexpr int64_t as[] = {B2, 1}, bs[] = {0, 1};
  matmul_integer<2, M, N, K, AZN, BZN>(batch, as, bs, a.data(), b.data(),
                                       withZeroPoints ? az.data() : nullptr,
                                       withZeroPoints ? bz.data() : nullptr,
                                       y.data());
  for (int64_t p = 0; p < B1; ++p)
    for (int64_t q = 0; q < B2; ++q)
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
          int64_t s = 0;
          for (int64_t k = 0; k < K; ++k) {
            int64_t av = a[((p * B2 + q) * M + i) * K + k];
            int64_t bv = b[(q * K + k) * N + j];
            if (withZeroPoints) {
              av -= az[AZN == 1 ? 0 : i];
              bv -= bz[BZN == 1 ? 0 : j];
            }
            s += av * bv;
          }
          ref[((p * B2 + q) * M + i) * N + j] = wrap32(s);
        }
  for (size_t i = 0; i < y.size(); ++i)
    ASSERT_EQ(y[i], ref[i]) << "matmul_integer index " << i;
}

TEST(MatMulInteger, BroadcastZeroPointsAndTypes) {
  checkMatMul<uint8_t, uint8_t, 3, 4, 5, 1, 1>(true);
  checkMatMul<int8_t, uint8_t, 4, 2, 7, 4, 2>(true);   // per row, per column
  checkMatMul<uint8_t, int8_t, 1, 9, 1, 1, 9>(true);
  checkMatMul<int8_t, int8_t, 2, 3, 4, 1, 1>(false);   // no zero points
}

TEST(MatMulInteger, SumsWrapInInt32) {
  // 40000 products of 255 * 255 pass 2^31.
  constexpr int64_t K = 40000;
  std::vector<uint8_t> a(K, 255), b(K, 255);
  int32_t y = 0;
  static constexpr int64_t one[] = {1}, zero[] = {0};
  matmul_integer<1, 1, 1, K, 1, 1>(one, zero, zero, a.data(), b.data(),
                                   static_cast<const uint8_t *>(nullptr),
                                   static_cast<const uint8_t *>(nullptr), &y);
  EXPECT_EQ(y, wrap32(int64_t(255) * 255 * K));
}

template <typename S, typename TX, typename TW>
void checkConv(bool perChannel, bool withZeroPoints) {
  auto x = randomInts<TX>(S::N * S::C * S::H * S::W, 5);
  auto w = randomInts<TW>(S::O * S::Cg * S::KH * S::KW, 6);
  auto xz = randomInts<TX>(1, 7);
  auto wz = randomInts<TW>(S::O, 8);
  std::vector<int32_t> y(S::N * S::O * S::OH * S::OW, -1), ref(y.size());
  conv_integer<S, true>(x.data(), w.data(), withZeroPoints ? xz.data() : nullptr,
                        withZeroPoints ? wz.data() : nullptr, y.data());
  if (!perChannel) // the same with one weight zero point
    conv_integer<S, false>(x.data(), w.data(), withZeroPoints ? xz.data() : nullptr,
                           withZeroPoints ? wz.data() : nullptr, y.data());
  for (int64_t n = 0; n < S::N; ++n)
    for (int64_t o = 0; o < S::O; ++o)
      for (int64_t oh = 0; oh < S::OH; ++oh)
        for (int64_t ow = 0; ow < S::OW; ++ow) {
          int64_t s = 0, g = o / S::Og;
          int64_t wzo = withZeroPoints ? wz[perChannel ? o : 0] : 0;
          int64_t xzv = withZeroPoints ? xz[0] : 0;
          for (int64_t c = 0; c < S::Cg; ++c)
            for (int64_t kh = 0; kh < S::KH; ++kh)
              for (int64_t kw = 0; kw < S::KW; ++kw) {
                int64_t ih = oh * S::SH - S::PT + kh * S::DH;
                int64_t iw = ow * S::SW - S::PL + kw * S::DW;
                if (ih < 0 || ih >= S::H || iw < 0 || iw >= S::W)
                  continue; // padding reads as the zero point: adds 0
                int64_t xv = x[((n * S::C + g * S::Cg + c) * S::H + ih) * S::W + iw];
                int64_t wv = w[((o * S::Cg + c) * S::KH + kh) * S::KW + kw];
                s += (xv - xzv) * (wv - wzo);
              }
          ref[((n * S::O + o) * S::OH + oh) * S::OW + ow] = wrap32(s);
        }
  for (size_t i = 0; i < y.size(); ++i)
    ASSERT_EQ(y[i], ref[i]) << "conv_integer index " << i;
}

// conv_shape<N, C, H, W, O, KH, KW, OH, OW, SH, SW, PT, PL, DH, DW, G>.
TEST(ConvInteger, PaddingStrideDilationGroups) {
  checkConv<conv_shape<1, 1, 3, 3, 1, 2, 2, 2, 2, 1, 1, 0, 0, 1, 1, 1>, uint8_t, uint8_t>(false, true);
  // Padded on every side, strided, grouped, per-channel weight zero points.
  checkConv<conv_shape<2, 4, 7, 6, 6, 3, 3, 4, 3, 2, 2, 1, 1, 1, 1, 2>, uint8_t, int8_t>(true, true);
  // Dilated with windows partly in the padding; int8 input, no zero points.
  checkConv<conv_shape<1, 3, 9, 8, 4, 3, 2, 5, 4, 2, 2, 2, 1, 2, 3, 1>, int8_t, int8_t>(false, false);
  // Whole windows in the padding (pads larger than the kernel).
  checkConv<conv_shape<1, 2, 3, 3, 2, 2, 2, 8, 8, 1, 1, 3, 3, 1, 1, 1>, int8_t, uint8_t>(true, true);
  // Depthwise.
  checkConv<conv_shape<1, 3, 5, 5, 3, 3, 3, 5, 5, 1, 1, 1, 1, 1, 1, 3>, uint8_t, uint8_t>(true, true);
}

void checkParams(std::vector<float> x, float scale, uint8_t zp) {
  float s = -1;
  uint8_t z = 7;
  switch (x.size()) {
  case 4: dynamic_quant_params<4>(x.data(), &s, &z); break;
  case 6: dynamic_quant_params<6>(x.data(), &s, &z); break;
  default: FAIL() << "no instantiation for " << x.size();
  }
  EXPECT_FLOAT_EQ(s, scale);
  EXPECT_EQ(z, zp);
}

TEST(DynamicQuantParams, RangesIncludeZero) {
  // onnx's test_dynamicquantizelinear data: [0, 2, -3, -2.5, 1.34, 0.5].
  checkParams({0, 2, -3, -2.5f, 1.34f, 0.5f}, 5.0f / 255, 153);
  // All positive: min is 0, zero point 0; all negative: zero point 255.
  checkParams({1, 2, 3, 4}, 4.0f / 255, 0);
  checkParams({-1, -2, -3, -4}, 4.0f / 255, 255);
  // All zeros: scale 1 (onnxruntime), zero point 0; NaNs are skipped.
  checkParams({0, 0, 0, 0}, 1.0f, 0);
  checkParams({NAN, 2, -1, NAN}, 3.0f / 255, 85);
}

} // namespace
