//===- RotaryKernelTest.cpp - rotary position embedding -------------------===//
//
// rotary_embedding against a naive one written from onnx.reference's
// definition (split or interleaved halves, cos/sin rows picked by position
// or by token), at the edges: one token and head, the smallest rotary
// dimension (2), a partial and a full rotation, both layouts, position ids
// beyond either end of the cache (clamped), f64 and f16.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace onnxcc::rt;

namespace {

std::vector<double> randomVector(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-2.0, 2.0);
  std::vector<double> v(n);
  for (double &x : v)
    x = dist(rng);
  return v;
}

/// The reference: x viewed as [b, s, h, d] whatever the layout, each product
/// rounded by `round` (to the element type, as onnx.reference's numpy does).
template <typename Round>
std::vector<double>
naiveRotary(Round round, const std::vector<double> &x,
            const std::vector<double> &cos, const std::vector<double> &sin,
            const std::vector<int64_t> *pos, int64_t B, int64_t S, int64_t H,
            int64_t D, int64_t R, bool packed, bool interleaved, int64_t rows) {
  std::vector<double> y = x;
  int64_t half = R / 2;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t s = 0; s < S; ++s) {
      int64_t row = b * S + s;
      if (pos)
        row = std::min(std::max<int64_t>((*pos)[b * S + s], 0), rows - 1);
      for (int64_t h = 0; h < H; ++h) {
        int64_t at =
            packed ? ((b * S + s) * H + h) * D : ((b * H + h) * S + s) * D;
        for (int64_t i = 0; i < half; ++i) {
          int64_t i1 = interleaved ? 2 * i : i;
          int64_t i2 = interleaved ? 2 * i + 1 : i + half;
          double c = cos[row * half + i], sn = sin[row * half + i];
          double x1 = x[at + i1], x2 = x[at + i2];
          y[at + i1] = round(c * x1) - round(sn * x2);
          y[at + i2] = round(sn * x1) + round(c * x2);
        }
      }
    }
  return y;
}

template <typename T, int64_t B, int64_t S, int64_t H, int64_t D, int64_t R,
          bool Packed, bool Interleaved, int64_t Rows>
void checkRotary(double tol) {
  constexpr int64_t N = B * S * H * D, Half = R / 2;
  constexpr int64_t CacheRows = Rows > 0 ? Rows : B * S;
  auto xd = randomVector(N, 1), cd = randomVector(CacheRows * Half, 2),
       sd = randomVector(CacheRows * Half, 3);
  // Round the inputs to T first so the reference sees what the kernel does.
  std::vector<T> x(N), c(cd.size()), s(sd.size()), y(N);
  for (int64_t i = 0; i < N; ++i)
    xd[i] = double(x[i] = T(xd[i]));
  for (size_t i = 0; i < cd.size(); ++i) {
    cd[i] = double(c[i] = T(cd[i]));
    sd[i] = double(s[i] = T(sd[i]));
  }
  // Positions cycle through the cache and past both of its ends.
  std::vector<int64_t> pos(B * S);
  for (int64_t i = 0; i < B * S; ++i)
    pos[i] =
        i % 3 == 2 ? (i % 2 ? -5 : Rows + 7) : (i * 5) % (Rows > 0 ? Rows : 1);
  auto toT = [](double v) { return double(T(v)); };
  auto ref = naiveRotary(toT, xd, cd, sd, Rows > 0 ? &pos : nullptr, B, S, H, D,
                         R, Packed, Interleaved, Rows);
  rotary_embedding<B, S, H, D, R, Packed, Interleaved, Rows>(
      x.data(), c.data(), s.data(), Rows > 0 ? pos.data() : nullptr, y.data());
  for (int64_t i = 0; i < N; ++i)
    ASSERT_LE(std::fabs(double(y[i]) - ref[i]), tol + tol * std::fabs(ref[i]))
        << "index " << i << ": got " << double(y[i]) << ", expected " << ref[i];
}

TEST(RotaryKernel, OneTokenOneHeadSmallestDim) {
  checkRotary<float, 1, 1, 1, 2, 2, false, false, 0>(1e-6);
  checkRotary<float, 1, 1, 1, 2, 2, false, true, 0>(1e-6);
  checkRotary<float, 1, 1, 1, 3, 2, true, false, 1>(1e-6);
}

TEST(RotaryKernel, FullRotationWithPositions) {
  checkRotary<float, 2, 3, 4, 8, 8, false, false, 16>(1e-6);
  checkRotary<float, 2, 3, 4, 8, 8, false, true, 16>(1e-6);
}

TEST(RotaryKernel, PartialRotationCopiesTheRest) {
  checkRotary<float, 2, 5, 3, 10, 4, false, false, 0>(1e-6);
  checkRotary<float, 2, 5, 3, 10, 6, true, true, 0>(1e-6);
}

TEST(RotaryKernel, PackedLayoutWithPositions) {
  checkRotary<float, 3, 4, 2, 16, 16, true, false, 5>(1e-6);
  checkRotary<float, 3, 4, 2, 16, 12, true, true, 5>(1e-6);
}

TEST(RotaryKernel, PositionsBeyondTheCacheAreClamped) {
  // One cache row: every position, in range or not, reads row 0.
  checkRotary<float, 2, 4, 1, 4, 4, false, false, 1>(1e-6);
}

TEST(RotaryKernel, DoubleAndHalf) {
  checkRotary<double, 2, 3, 2, 8, 6, false, true, 7>(1e-12);
  checkRotary<f16, 2, 3, 2, 8, 6, true, false, 0>(4e-3);
  checkRotary<bf16, 1, 3, 2, 8, 8, false, false, 4>(2e-2);
}

} // namespace
