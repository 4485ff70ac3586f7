//===- ReductionKernelTest.cpp - reduce() and arg_reduce() ----------------===//
//
// Each reduction against a naive one in double (or in the element type's
// wrapping arithmetic for integers) over inner, outer, middle and split
// axes, at sizes below, at, above and at multiples of the vector width;
// the identities of empty reductions; integer wrap-around; bool and f16;
// arg max/min with ties and NaN.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"

#include <gtest/gtest.h>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace onnxcc::rt;

namespace {

constexpr int64_t kBelowVec = kVecWidth > 1 ? kVecWidth - 1 : 1;

/// A rank-3 input [D0, D1, D2] reduced over the axes marked R0..R2: the
/// kept and reduced dims with their strides, as the printer passes them
/// (but unmerged, which the kernel takes as well).
template <int64_t D0, int64_t D1, int64_t D2, bool R0, bool R1, bool R2> struct Split {
  static constexpr int RR = int(R0) + int(R1) + int(R2), KR = 3 - RR;
  static constexpr int64_t kOuts = (R0 ? 1 : D0) * (R1 ? 1 : D1) * (R2 ? 1 : D2);
  static constexpr int64_t kCount = (R0 ? D0 : 1) * (R1 ? D1 : 1) * (R2 ? D2 : 1);
  // Zeroed first: g++ 12 at -O2 cannot see the loop below fill them all
  // (-Wmaybe-uninitialized).
  int64_t kept_shape[KR]{}, kept_strides[KR]{}, red_shape[RR]{}, red_strides[RR]{};
  Split() {
    const int64_t shape[3] = {D0, D1, D2}, strides[3] = {D1 * D2, D2, 1};
    const bool reduced[3] = {R0, R1, R2};
    int k = 0, r = 0;
    for (int d = 0; d < 3; ++d) {
      if (reduced[d]) {
        red_shape[r] = shape[d];
        red_strides[r++] = strides[d];
      } else {
        kept_shape[k] = shape[d];
        kept_strides[k++] = strides[d];
      }
    }
  }
};

std::vector<float> randomVector(size_t n, unsigned seed, float lo = -2, float hi = 2) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

/// The naive reduction of `xs` (one output's elements) in double.
double naive(reduce_op op, const std::vector<double> &xs) {
  double acc = 0;
  switch (op) {
  case reduce_op::sum:
  case reduce_op::mean:
    for (double x : xs)
      acc += x;
    return op == reduce_op::mean ? acc / xs.size() : acc;
  case reduce_op::max:
    acc = -INFINITY;
    for (double x : xs)
      acc = std::max(acc, x);
    return acc;
  case reduce_op::min:
    acc = INFINITY;
    for (double x : xs)
      acc = std::min(acc, x);
    return acc;
  case reduce_op::prod:
    acc = 1;
    for (double x : xs)
      acc *= x;
    return acc;
  case reduce_op::l1:
    for (double x : xs)
      acc += std::fabs(x);
    return acc;
  case reduce_op::l2:
  case reduce_op::sum_square:
    for (double x : xs)
      acc += x * x;
    return op == reduce_op::l2 ? std::sqrt(acc) : acc;
  case reduce_op::log_sum:
    for (double x : xs)
      acc += x;
    return std::log(acc);
  case reduce_op::log_sum_exp:
    for (double x : xs)
      acc += std::exp(x);
    return std::log(acc);
  }
  return 0;
}

/// reduce<Op> of a random [D0, D1, D2] float input over the axes marked
/// R0..R2, against naive().
template <reduce_op Op, int64_t D0, int64_t D1, int64_t D2, bool R0, bool R1, bool R2>
void checkFloat(float lo = -2, float hi = 2) {
  using S = Split<D0, D1, D2, R0, R1, R2>;
  S s;
  auto x = randomVector(D0 * D1 * D2, 7, lo, hi);
  std::vector<float> y(S::kOuts, NAN);
  reduce<Op, S::kCount>(s.kept_shape, s.kept_strides, s.red_shape, s.red_strides,
                        x.data(), y.data());
  // The outputs in kept order, each over its reduced elements.
  int64_t k = 0;
  for (int64_t i0 = 0; i0 < (R0 ? 1 : D0); ++i0)
    for (int64_t i1 = 0; i1 < (R1 ? 1 : D1); ++i1)
      for (int64_t i2 = 0; i2 < (R2 ? 1 : D2); ++i2) {
        std::vector<double> xs;
        for (int64_t j0 = 0; j0 < (R0 ? D0 : 1); ++j0)
          for (int64_t j1 = 0; j1 < (R1 ? D1 : 1); ++j1)
            for (int64_t j2 = 0; j2 < (R2 ? D2 : 1); ++j2)
              xs.push_back(x[((i0 + j0) * D1 + i1 + j1) * D2 + i2 + j2]);
        double ref = naive(Op, xs);
        ASSERT_NEAR(y[k], ref, 1e-5 + 1e-5 * std::fabs(ref))
            << "op " << int(Op) << " output " << k << " of [" << D0 << ", " << D1
            << ", " << D2 << "] reduced over " << R0 << R1 << R2;
        ++k;
      }
}

template <reduce_op Op> void checkAllLayouts(float lo = -2, float hi = 2) {
  // Inner axis at the vector-width edges, outer (strided) and middle axes,
  // two split axes, two neighbouring ones.
  checkFloat<Op, 2, 3, kBelowVec, false, false, true>(lo, hi);
  checkFloat<Op, 1, 2, kVecWidth + 1, false, false, true>(lo, hi);
  checkFloat<Op, 3, 1, 2 * kVecWidth, false, false, true>(lo, hi);
  checkFloat<Op, 3, 4, 5, true, false, false>(lo, hi);
  checkFloat<Op, 2, 12, 3, false, true, false>(lo, hi);
  checkFloat<Op, 5, 2, kVecWidth + 1, true, false, true>(lo, hi);
  checkFloat<Op, 3, 4, 2, true, true, false>(lo, hi);
  // Several rounds of the two-vector sum loop, then a tail.
  checkFloat<Op, 2, 1, 6 * kVecWidth + 5, false, false, true>(lo, hi);
  // A contiguous kept axis, a strided reduced one: vectors of outputs (a
  // sequence mean), with a tail and outer kept rows.
  checkFloat<Op, 1, 32, 128, false, true, false>(lo, hi);
  checkFloat<Op, 5, 3, 2 * kVecWidth + 3, true, false, false>(lo, hi);
  checkFloat<Op, 2, 6, kVecWidth, false, true, false>(lo, hi);
}

TEST(Reduce, FloatKindsAtEdges) {
  checkAllLayouts<reduce_op::sum>();
  checkAllLayouts<reduce_op::mean>();
  checkAllLayouts<reduce_op::max>();
  checkAllLayouts<reduce_op::min>();
  checkAllLayouts<reduce_op::prod>(0.5f, 1.5f);
  checkAllLayouts<reduce_op::l1>();
  checkAllLayouts<reduce_op::l2>();
  checkAllLayouts<reduce_op::sum_square>();
  checkAllLayouts<reduce_op::log_sum>(0.1f, 2.0f);
  checkAllLayouts<reduce_op::log_sum_exp>();
}

/// One output over all of `x`.
template <reduce_op Op, typename T, size_t N> T reduceAll(const T (&x)[N]) {
  static constexpr int64_t ks[] = {1}, kst[] = {0}, rs[] = {int64_t(N)}, rst[] = {1};
  T y{};
  reduce<Op, int64_t(N)>(ks, kst, rs, rst, x, &y);
  return y;
}

TEST(Reduce, LogSumExpDoesNotOverflow) {
  float x[3] = {1000.0f, 1000.0f, -INFINITY};
  EXPECT_NEAR(reduceAll<reduce_op::log_sum_exp>(x), 1000.0f + std::log(2.0f), 1e-3);
  float inf[2] = {INFINITY, 0.0f};
  EXPECT_EQ(reduceAll<reduce_op::log_sum_exp>(inf), INFINITY);
}

TEST(Reduce, NaNPropagatesThroughMaxAndMin) {
  float x[4] = {1.0f, NAN, 3.0f, 2.0f};
  EXPECT_TRUE(std::isnan(reduceAll<reduce_op::max>(x)));
  EXPECT_TRUE(std::isnan(reduceAll<reduce_op::min>(x)));
}

/// The second of two outputs of Op over a reduced dimension of 0.
template <reduce_op Op, typename T> T reduceEmpty() {
  static constexpr int64_t ks[] = {2}, kst[] = {0}, rs[] = {0}, rst[] = {0};
  T x{}, y[2] = {};
  reduce<Op, 0>(ks, kst, rs, rst, &x, y);
  return y[1];
}

TEST(Reduce, EmptyGivesTheIdentity) {
  EXPECT_EQ((reduceEmpty<reduce_op::sum, float>()), 0.0f);
  EXPECT_EQ((reduceEmpty<reduce_op::prod, float>()), 1.0f);
  EXPECT_EQ((reduceEmpty<reduce_op::max, float>()), -INFINITY);
  EXPECT_EQ((reduceEmpty<reduce_op::min, double>()), INFINITY);
  EXPECT_EQ((reduceEmpty<reduce_op::l2, float>()), 0.0f);
  EXPECT_EQ((reduceEmpty<reduce_op::log_sum, float>()), -INFINITY);
  EXPECT_EQ((reduceEmpty<reduce_op::log_sum_exp, float>()), -INFINITY);
  EXPECT_TRUE(std::isnan(reduceEmpty<reduce_op::mean, float>()));
  EXPECT_EQ((reduceEmpty<reduce_op::max, std::int32_t>()),
            std::numeric_limits<std::int32_t>::lowest());
  EXPECT_EQ((reduceEmpty<reduce_op::min, std::uint8_t>()), 255);
  EXPECT_EQ((reduceEmpty<reduce_op::mean, std::int64_t>()), 0);
  EXPECT_EQ((reduceEmpty<reduce_op::max, bool>()), false);
  EXPECT_EQ((reduceEmpty<reduce_op::min, bool>()), true);
}

TEST(Reduce, IntegersWrapLikeNumpy) {
  // numpy reduces with dtype=T: sums and products wrap, the mean divides
  // the wrapped sum, truncating toward zero.
  std::int32_t big[3] = {2147483647, 2, -7};
  EXPECT_EQ(reduceAll<reduce_op::sum>(big), std::int32_t(2147483647u + 2u - 7u));
  EXPECT_EQ(reduceAll<reduce_op::prod>(big),
            std::int32_t(std::uint32_t(2147483647) * 2u * std::uint32_t(-7)));
  std::int32_t small[4] = {-3, 5, 7, -10};
  EXPECT_EQ(reduceAll<reduce_op::mean>(small), 0);   // -1 / 4
  std::int32_t neg[3] = {-3, -2, -2};
  EXPECT_EQ(reduceAll<reduce_op::mean>(neg), -2);    // -7 / 3 = -2.33
  EXPECT_EQ(reduceAll<reduce_op::l1>(small), 25);
  EXPECT_EQ(reduceAll<reduce_op::l2>(small), 13);    // sqrt(183) = 13.5
  EXPECT_EQ(reduceAll<reduce_op::sum_square>(small), 183);
  EXPECT_EQ(reduceAll<reduce_op::max>(small), 7);
  EXPECT_EQ(reduceAll<reduce_op::min>(small), -10);
  // 8-bit: products promote no further than 32 unsigned bits.
  std::uint8_t u[3] = {200, 100, 3};
  EXPECT_EQ(reduceAll<reduce_op::sum>(u), std::uint8_t(303));
  EXPECT_EQ(reduceAll<reduce_op::prod>(u), std::uint8_t(60000));
  EXPECT_EQ(reduceAll<reduce_op::mean>(u), std::uint8_t(303 % 256 / 3));
  std::int8_t s[2] = {-128, -128};
  EXPECT_EQ(reduceAll<reduce_op::l1>(s), std::int8_t(0)); // |-128| wraps to -128
  std::int64_t l[2] = {std::numeric_limits<std::int64_t>::min(), -1};
  EXPECT_EQ(reduceAll<reduce_op::sum>(l), std::numeric_limits<std::int64_t>::max());
}

TEST(Reduce, BoolAndHalf) {
  bool b[3] = {false, true, false};
  EXPECT_TRUE(reduceAll<reduce_op::max>(b));
  EXPECT_FALSE(reduceAll<reduce_op::min>(b));
  // f16 accumulates in float: 2048 + 1 + 1 is 2050, though 2049 is not an f16.
  f16 h[3] = {f16(2048.0f), f16(1.0f), f16(1.0f)};
  EXPECT_EQ(float(reduceAll<reduce_op::sum>(h)), 2050.0f);
  bf16 g[2] = {bf16(1.0f), bf16(3.0f)};
  EXPECT_EQ(float(reduceAll<reduce_op::mean>(g)), 2.0f);
}

template <bool IsMax, bool Last, int64_t Outer, int64_t Axis, int64_t Inner>
void checkArg(const std::vector<float> &x) {
  std::vector<std::int64_t> y(Outer * Inner, -1);
  arg_reduce<IsMax, Last, Outer, Axis, Inner>(x.data(), y.data());
  for (int64_t o = 0; o < Outer; ++o)
    for (int64_t i = 0; i < Inner; ++i) {
      int64_t best = 0;
      for (int64_t a = 1; a < Axis; ++a) {
        float v = x[(o * Axis + a) * Inner + i], b = x[(o * Axis + best) * Inner + i];
        if (std::isnan(b) && !(Last && std::isnan(v)))
          continue;
        bool better = std::isnan(v) || (IsMax ? v > b : v < b) || (Last && v == b);
        if (better)
          best = a;
      }
      ASSERT_EQ(y[o * Inner + i], best) << "outer " << o << " inner " << i;
    }
}

TEST(ArgReduce, TiesAndNaN) {
  std::vector<float> ties(3 * (kVecWidth + 1) * 4);
  std::mt19937 rng(3);
  for (float &v : ties)
    v = float(rng() % 3);
  checkArg<true, false, 3, kVecWidth + 1, 4>(ties);
  checkArg<true, true, 3, kVecWidth + 1, 4>(ties);
  checkArg<false, false, 3, kVecWidth + 1, 4>(ties);
  checkArg<false, true, 3, kVecWidth + 1, 4>(ties);
  std::vector<float> nan = {1, NAN, 3, NAN, 0, 2};
  checkArg<true, false, 1, 6, 1>(nan);
  checkArg<true, true, 1, 6, 1>(nan);
  checkArg<false, false, 2, 3, 1>(nan);
  std::int64_t y = -1;
  arg_reduce<true, false, 1, 0, 1>(nan.data(), &y); // an empty axis gives 0
  EXPECT_EQ(y, 0);
}

} // namespace
