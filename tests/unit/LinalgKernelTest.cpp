//===- LinalgKernelTest.cpp - typed GEMM and batched products -------------===//
//
// gemm_typed() for each element class against a naive product (every
// transpose, bias broadcast, alpha/beta, K = 0), integer products that
// overflow (they must wrap, as two's complement, not be undefined), f16
// accumulating in float, and batch_matmul with broadcast batches for the
// f32 (SIMD gemm) and typed paths.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"

#include <gtest/gtest.h>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using namespace onnxcc::rt;

namespace {

template <typename T> std::vector<T> randomValues(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> small(-9, 9);
  std::normal_distribution<double> dist;
  std::vector<T> v(n);
  for (T &x : v) {
    if constexpr (std::is_unsigned<T>::value)
      x = static_cast<T>(small(rng) + 9);
    else if constexpr (std::is_integral<T>::value)
      x = static_cast<T>(small(rng));
    else
      x = static_cast<T>(dist(rng));
  }
  return v;
}

/// The naive alpha * A' * B' + beta * bias in double, bias broadcast with
/// strides (rs, cs).
template <typename T>
std::vector<double> naiveGemm(const std::vector<T> &a, const std::vector<T> &b,
                              const T *bias, int64_t rs, int64_t cs, int64_t m,
                              int64_t n, int64_t k, bool ta, bool tb,
                              double alpha, double beta) {
  std::vector<double> y(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p)
        s += double(ta ? a[p * m + i] : a[i * k + p]) *
             double(tb ? b[j * k + p] : b[p * n + j]);
      y[i * n + j] = alpha * s + (bias ? beta * double(bias[i * rs + j * cs]) : 0.0);
    }
  return y;
}

template <typename T>
void expectNear(const std::vector<T> &got, const std::vector<double> &ref,
                double tol, const char *what) {
  ASSERT_EQ(got.size(), ref.size());
  for (size_t i = 0; i < ref.size(); ++i)
    ASSERT_LE(std::fabs(double(got[i]) - ref[i]), tol + tol * std::fabs(ref[i]))
        << what << " index " << i << ": got " << double(got[i]) << ", expected "
        << ref[i];
}

template <typename T, int64_t M, int64_t N, int64_t K, bool TA, bool TB,
          int64_t RS, int64_t CS>
void checkTyped(float alpha, float beta, double tol, const char *what) {
  auto a = randomValues<T>(M * K, 1), b = randomValues<T>(K * N, 2);
  auto bias = randomValues<T>(M * N, 3);
  std::vector<T> y(M * N);
  gemm_typed<M, N, K, TA, TB, RS, CS, true>(a.data(), b.data(), bias.data(), alpha,
                                            beta, y.data(), identity{});
  expectNear(y, naiveGemm(a, b, bias.data(), RS, CS, M, N, K, TA, TB, alpha, beta),
             tol, what);
  gemm_typed<M, N, K, TA, TB, 0, 0, false>(a.data(), b.data(),
                                           static_cast<const T *>(nullptr), alpha,
                                           beta, y.data(), identity{});
  expectNear(y, naiveGemm<T>(a, b, nullptr, 0, 0, M, N, K, TA, TB, alpha, beta),
             tol, what);
}

TEST(GemmTyped, Double) {
  checkTyped<double, 3, 5, 7, false, false, 5, 1>(1.0f, 1.0f, 1e-12, "f64 [M,N] bias");
  checkTyped<double, 4, 2, 3, true, false, 0, 1>(0.5f, 2.0f, 1e-12, "f64 trans_a [N] bias");
  checkTyped<double, 2, 6, 4, false, true, 1, 0>(1.0f, 0.25f, 1e-12, "f64 trans_b [M,1] bias");
  checkTyped<double, 3, 3, 2, true, true, 0, 0>(-1.0f, 1.0f, 1e-12, "f64 both, scalar bias");
  checkTyped<double, 2, 3, 0, false, false, 3, 1>(1.0f, 1.0f, 1e-12, "f64 K = 0");
}

TEST(GemmTyped, Integers) {
  checkTyped<std::int32_t, 3, 4, 5, false, false, 4, 1>(1.0f, 1.0f, 0, "i32");
  checkTyped<std::int64_t, 4, 3, 2, true, true, 0, 1>(1.0f, 1.0f, 0, "i64 transposed");
  checkTyped<std::uint32_t, 2, 2, 3, false, false, 0, 0>(1.0f, 1.0f, 0, "u32");
  checkTyped<std::int32_t, 2, 3, 4, false, false, 3, 1>(2.0f, -1.0f, 0, "i32 alpha/beta");
}

TEST(GemmTyped, IntegerOverflowWraps) {
  // 2^30 * 4 = 2^32 wraps to 0 in 32 bits; 2^30 * 2 = 2^31 wraps to INT32_MIN.
  std::vector<std::int32_t> a = {1 << 30, 1 << 30}, b = {2, 2}, y(1);
  gemm_typed<1, 1, 2, false, false, 0, 0, false>(
      a.data(), b.data(), static_cast<const std::int32_t *>(nullptr), 1.0f, 1.0f,
      y.data(), identity{});
  EXPECT_EQ(y[0], 0);
  b = {2, 0};
  gemm_typed<1, 1, 2, false, false, 0, 0, false>(
      a.data(), b.data(), static_cast<const std::int32_t *>(nullptr), 1.0f, 1.0f,
      y.data(), identity{});
  EXPECT_EQ(y[0], INT32_MIN);
  // uint16 products that overflow int (the type they would promote to).
  std::vector<std::uint16_t> ua = {65535}, ub = {65535}, uy(1);
  gemm_typed<1, 1, 1, false, false, 0, 0, false>(
      ua.data(), ub.data(), static_cast<const std::uint16_t *>(nullptr), 1.0f,
      1.0f, uy.data(), identity{});
  EXPECT_EQ(uy[0], 1); // 65535^2 mod 2^16
}

TEST(GemmTyped, HalfPrecisionAccumulatesInFloat) {
  // 2048 + 1 + 1 in f16 steps stays 2048; in float it is 2050.
  std::vector<f16> a = {f16(2048.0f), f16(1.0f), f16(1.0f)},
                   b = {f16(1.0f), f16(1.0f), f16(1.0f)}, y(1);
  gemm_typed<1, 1, 3, false, false, 0, 0, false>(
      a.data(), b.data(), static_cast<const f16 *>(nullptr), 1.0f, 1.0f, y.data(),
      identity{});
  EXPECT_EQ(float(y[0]), 2050.0f);
  std::vector<bf16> ba = {bf16(1.5f), bf16(2.0f)}, bb = {bf16(2.0f), bf16(0.25f)},
                    by(1);
  gemm_typed<1, 1, 2, false, false, 0, 0, false>(
      ba.data(), bb.data(), static_cast<const bf16 *>(nullptr), 1.0f, 1.0f,
      by.data(), identity{});
  EXPECT_EQ(float(by[0]), 3.5f);
}

/// batch_matmul of [B0, B1, M, K] x [B0', B1', K, N] with broadcast batches.
template <typename T, int64_t A0, int64_t A1, int64_t B0, int64_t B1, int64_t M,
          int64_t N, int64_t K>
void checkBatch(double tol) {
  constexpr int64_t Y0 = A0 == 1 ? B0 : A0, Y1 = A1 == 1 ? B1 : A1;
  auto a = randomValues<T>(A0 * A1 * M * K, 4), b = randomValues<T>(B0 * B1 * K * N, 5);
  std::vector<T> y(Y0 * Y1 * M * N);
  static constexpr int64_t batch[] = {Y0, Y1};
  static constexpr int64_t as[] = {A0 == 1 ? 0 : A1 * M * K, A1 == 1 ? 0 : M * K};
  static constexpr int64_t bs[] = {B0 == 1 ? 0 : B1 * K * N, B1 == 1 ? 0 : K * N};
  batch_matmul<2, M, N, K>(batch, as, bs, a.data(), b.data(), y.data());
  std::vector<double> ref(y.size());
  for (int64_t i0 = 0; i0 < Y0; ++i0)
    for (int64_t i1 = 0; i1 < Y1; ++i1)
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
          double s = 0;
          for (int64_t p = 0; p < K; ++p)
            s += double(a[i0 * as[0] + i1 * as[1] + i * K + p]) *
                 double(b[i0 * bs[0] + i1 * bs[1] + p * N + j]);
          ref[((i0 * Y1 + i1) * M + i) * N + j] = s;
        }
  expectNear(y, ref, tol, "batch_matmul");
}

TEST(BatchMatMul, BroadcastBatches) {
  // The attention product [B, H, S, D] x [B, H, D, S].
  checkBatch<float, 2, 3, 2, 3, 5, 5, 4>(1e-5);
  // numpy's bcast example: [3, 1, M, K] x [1, 2, K, N].
  checkBatch<float, 3, 1, 1, 2, 3, 2, 4>(1e-5);
  checkBatch<float, 1, 1, 2, 2, 1, kVecWidth + 1, 3>(1e-5);
  checkBatch<double, 2, 1, 1, 3, 2, 3, 5>(1e-12);
  checkBatch<std::int64_t, 1, 2, 2, 1, 3, 2, 2>(0);
}

// Float products whose b is whole register panels and fits L1 read b as
// one packed panel N wide (kBatchAsPanel): an attention's 32 x 32 x 32,
// one panel, two panels with a row count the balanced tiles cut, and the
// most b that does (N * K = 8192) beside one that does not.
TEST(BatchMatMul, RowMajorBAsOnePanel) {
  static_assert(kBatchAsPanel<32, 32> && kBatchAsPanel<kPanel, 8192 / kPanel> &&
                    !kBatchAsPanel<kPanel, 8192 / kPanel + 1> &&
                    !kBatchAsPanel<kPanel + 1, 3>,
                "b read as one panel where it is whole panels and fits L1");
  checkBatch<float, 1, 4, 1, 4, 32, 32, 32>(1e-4);
  checkBatch<float, 2, 1, 1, 3, 5, kPanel, 7>(1e-5);
  checkBatch<float, 1, 2, 1, 1, kTileRows + 7, 2 * kPanel, 19>(1e-5);
  checkBatch<float, 1, 1, 1, 2, 3, kPanel, 8192 / kPanel>(1e-3);
  checkBatch<float, 1, 1, 1, 2, 3, kPanel, 8192 / kPanel + 1>(1e-3);
}

} // namespace
