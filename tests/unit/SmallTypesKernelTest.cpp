//===- SmallTypesKernelTest.cpp - small storage types against references --===//
//
// The float8/float4 storage types of small_types.h against a naive model of
// each format (value of a code from its fields with ldexp; encoding as the
// nearest code by search, ties to the even code): every code decodes and
// round-trips, random values and every midpoint between neighbouring codes
// round to nearest even, values around the largest finite one saturate or
// overflow as the format says, FNUZ has no -0. E8M0 rounds up and stops at
// 0xFE; the 4- and 2-bit integers round-trip every value and wrap.
//
//===----------------------------------------------------------------------===//
#include "onnxcc/runtime.h"

#include <gtest/gtest.h>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

using namespace onnxcc::rt;

namespace {

/// A format as its fields say: E exponent bits, M mantissa bits, bias B.
struct Format {
  int e, m, bias;
  bool ieee; // top exponent is Inf/NaN
  bool fn;   // S.1..1.1..1 is NaN, no Inf
  bool fnuz; // 0x80 is the only NaN, no -0
  bool fn4;  // no Inf, no NaN (saturates)
  int bits() const { return 1 + e + m; }
  int codes() const { return 1 << bits(); }
  bool isNan(unsigned c) const {
    unsigned sign = 1u << (e + m), mag = c & (sign - 1);
    if (ieee)
      return (mag >> m) == (1u << e) - 1 && (mag & ((1u << m) - 1));
    if (fn)
      return mag == sign - 1;
    if (fnuz)
      return c == sign;
    return false;
  }
  bool isInf(unsigned c) const {
    unsigned sign = 1u << (e + m), mag = c & (sign - 1);
    return ieee && mag == ((1u << e) - 1) << m;
  }
  /// The value of code c from its fields (NaN/Inf per kind).
  double value(unsigned c) const {
    unsigned sign = 1u << (e + m), mag = c & (sign - 1);
    if (isNan(c))
      return std::numeric_limits<double>::quiet_NaN();
    double s = (c & sign) ? -1.0 : 1.0;
    if (isInf(c))
      return s * INFINITY;
    unsigned exp = mag >> m, man = mag & ((1u << m) - 1);
    if (exp == 0)
      return s * std::ldexp(double(man), 1 - bias - m);
    return s * std::ldexp(1.0 + double(man) / (1 << m), int(exp) - bias);
  }
  /// Largest finite positive code.
  unsigned maxCode() const {
    unsigned sign = 1u << (e + m);
    if (ieee)
      return ((((1u << e) - 2) << m) | ((1u << m) - 1));
    if (fn)
      return sign - 2;
    return sign - 1;
  }
};

const Format kE4M3FN{4, 3, 7, false, true, false, false};
const Format kE4M3FNUZ{4, 3, 8, false, false, true, false};
const Format kE5M2{5, 2, 15, true, false, false, false};
const Format kE5M2FNUZ{5, 2, 16, false, false, true, false};
const Format kE2M1{2, 1, 1, false, false, false, true};

/// The code a non-saturating round-to-nearest-even store gives for x.
unsigned naiveEncode(const Format &f, double x) {
  unsigned sign = 1u << (f.e + f.m);
  if (std::isnan(x))
    return f.fnuz ? sign : f.fn4 ? sign : f.ieee ? (((1u << f.e) - 1) << f.m) | (1u << (f.m - 1)) : sign - 1;
  bool neg = std::signbit(x);
  double a = std::fabs(x);
  unsigned best = 0;
  double bestErr = INFINITY;
  for (unsigned c = 0; c <= f.maxCode(); ++c) {
    double err = std::fabs(f.value(c) - a);
    if (err < bestErr || (err == bestErr && (c & 1u) == 0)) {
      best = c;
      bestErr = err;
    }
  }
  // Overflow: past the midpoint between the largest finite value and one
  // ulp beyond it, or on it when the next code is even.
  unsigned top = f.maxCode();
  double ulp = f.value(top) - f.value(top - 1);
  double mid = f.value(top) + ulp / 2;
  bool overflow = a > mid || (a == mid && ((top + 1) & 1u) == 0);
  if (overflow) {
    if (f.ieee)
      return (neg ? sign : 0) | (((1u << f.e) - 1) << f.m);
    if (f.fn)
      return (neg ? sign : 0) | (sign - 1);
    if (f.fnuz)
      return sign;
    return (neg ? sign : 0) | top; // fn4 saturates
  }
  if (f.fnuz && best == 0)
    return 0;
  return (neg ? sign : 0) | best;
}

template <typename T> void checkFormat(const Format &f) {
  SCOPED_TRACE(testing::Message() << "E" << f.e << "M" << f.m << " bias " << f.bias);
  // Every code decodes as its fields say and stores back to itself.
  for (int c = 0; c < f.codes(); ++c) {
    float v = T::from_bits(std::uint8_t(c));
    double want = f.value(c);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(v)) << "code " << c;
      continue;
    }
    EXPECT_EQ(double(v), want) << "code " << c;
    EXPECT_EQ(std::signbit(v), std::signbit(want)) << "code " << c;
    if (f.fnuz && c == 0x80)
      continue;
    EXPECT_EQ(T(v).bits, c) << "code " << c << " value " << v;
  }
  // Midpoints between neighbours (ties), a quarter either side, and the
  // same around the largest finite value: nearest even, then overflow.
  for (unsigned c = 0; c + 1 <= f.maxCode() + 1; ++c) {
    double lo = f.value(c);
    double hi = c + 1 <= f.maxCode() ? f.value(c + 1)
                                     : f.value(c) + (f.value(c) - f.value(c - 1));
    for (double t : {0.25, 0.5, 0.75}) {
      for (double s : {1.0, -1.0}) {
        double x = s * (lo + t * (hi - lo));
        EXPECT_EQ(T(float(x)).bits, naiveEncode(f, x)) << "x = " << x;
      }
    }
  }
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> exp(-1 - f.bias - f.m - 2, (1 << f.e) - f.bias + 1);
  for (int i = 0; i < 20000; ++i) {
    double x = std::ldexp(mant(rng), exp(rng)) * (i & 1 ? -1 : 1);
    float xf = float(x);
    EXPECT_EQ(T(xf).bits, naiveEncode(f, xf)) << "x = " << xf;
  }
  // Specials.
  for (float x : {INFINITY, -INFINITY, NAN, 0.0f, -0.0f, 1e30f, -1e30f, 1e-30f, -1e-30f})
    EXPECT_EQ(T(x).bits, naiveEncode(f, x)) << "x = " << x;
}

TEST(SmallTypes, Float8E4M3FN) { checkFormat<f8e4m3fn>(kE4M3FN); }
TEST(SmallTypes, Float8E4M3FNUZ) { checkFormat<f8e4m3fnuz>(kE4M3FNUZ); }
TEST(SmallTypes, Float8E5M2) { checkFormat<f8e5m2>(kE5M2); }
TEST(SmallTypes, Float8E5M2FNUZ) { checkFormat<f8e5m2fnuz>(kE5M2FNUZ); }
TEST(SmallTypes, Float4E2M1) { checkFormat<f4e2m1>(kE2M1); }

// The boundaries named by the ONNX spec's table (saturate=0 column; the
// saturating clamp is the compiler's, before the store).
TEST(SmallTypes, OverflowBoundaries) {
  EXPECT_EQ(f8e4m3fn(448.0f).bits, 0x7e);
  EXPECT_EQ(f8e4m3fn(464.0f).bits, 0x7e);   // tie to even: stays finite
  EXPECT_EQ(f8e4m3fn(464.5f).bits, 0x7f);   // NaN
  EXPECT_EQ(f8e4m3fn(-INFINITY).bits, 0xff);
  EXPECT_EQ(f8e5m2(57344.0f).bits, 0x7b);
  EXPECT_EQ(f8e5m2(61439.0f).bits, 0x7b);
  EXPECT_EQ(f8e5m2(61440.0f).bits, 0x7c);   // tie to even: Inf
  EXPECT_EQ(f8e5m2(-INFINITY).bits, 0xfc);
  EXPECT_EQ(f8e4m3fnuz(240.0f).bits, 0x7f);
  EXPECT_EQ(f8e4m3fnuz(248.0f).bits, 0x80); // NaN, the only one
  EXPECT_EQ(f8e5m2fnuz(57344.0f).bits, 0x7f);
  EXPECT_EQ(f8e5m2fnuz(INFINITY).bits, 0x80);
  EXPECT_EQ(f8e4m3fnuz(-0.0f).bits, 0x00);  // no negative zero
  EXPECT_EQ(f8e5m2fnuz(-1e-9f).bits, 0x00);
  EXPECT_EQ(f4e2m1(1e6f).bits, 0x7);        // float4 saturates
  EXPECT_EQ(f4e2m1(-INFINITY).bits, 0xf);
  EXPECT_EQ(float(f8e4m3fn::from_bits(0x7e)), 448.0f);
  EXPECT_EQ(float(f8e5m2fnuz::from_bits(0x01)), std::ldexp(1.0f, -17));
}

TEST(SmallTypes, Float8E8M0) {
  for (int c = 0; c < 256; ++c) {
    float v = f8e8m0::from_bits(std::uint8_t(c));
    if (c == 0xff) {
      EXPECT_TRUE(std::isnan(v));
      continue;
    }
    EXPECT_EQ(double(v), std::ldexp(1.0, c - 127)) << "code " << c;
    // 2^-127 is a float subnormal, which onnx's to_float8e8m0 rounds up
    // (exponent field 0 with a fraction): only rounding down keeps it.
    EXPECT_EQ(f8e8m0(v).bits, c ? c : 1) << "code " << c;
    EXPECT_EQ(detail::e8m0_encode(v, true, 1), c) << "code " << c;
  }
  EXPECT_EQ(f8e8m0(1.5f).bits, 128);   // rounds up to 2
  EXPECT_EQ(f8e8m0(-4.0f).bits, 129);  // the sign is dropped
  EXPECT_EQ(f8e8m0(0.0f).bits, 0);
  EXPECT_EQ(f8e8m0(std::ldexp(1.5f, 127)).bits, 0xfe); // saturates
  EXPECT_EQ(f8e8m0(INFINITY).bits, 0xff);
  EXPECT_EQ(f8e8m0(NAN).bits, 0xff);
  // The other modes of Cast-25 (the encoder has them; Cast imports only up).
  EXPECT_EQ(detail::e8m0_encode(1.5f, true, 1), 127);
  EXPECT_EQ(detail::e8m0_encode(1.75f, true, 2), 128);
  EXPECT_EQ(detail::e8m0_encode(1.25f, true, 2), 127);
  EXPECT_EQ(detail::e8m0_encode(std::ldexp(1.5f, 127), false, 0), 0xff);
}

template <typename T, typename S> void checkInt(int bits, bool isSigned) {
  int lo = isSigned ? -(1 << (bits - 1)) : 0, hi = isSigned ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
  for (int v = lo; v <= hi; ++v) {
    T t(v);
    EXPECT_EQ(int(S(t)), v);
    EXPECT_EQ(int(t.value), v); // stored extended to the byte
    // A byte holding only the low bits reads the same.
    T low;
    low.value = static_cast<S>(static_cast<unsigned>(v) & ((1u << bits) - 1));
    EXPECT_EQ(int(S(low)), v);
  }
  // Wraps like numpy's astype, from either side of the range.
  for (int v = -300; v <= 300; ++v) {
    int want = ((v % (1 << bits)) + (1 << bits)) % (1 << bits);
    if (isSigned && want > hi)
      want -= 1 << bits;
    EXPECT_EQ(int(S(T(v))), want) << v;
  }
}

TEST(SmallTypes, Int4) { checkInt<i4, std::int8_t>(4, true); }
TEST(SmallTypes, UInt4) { checkInt<u4, std::uint8_t>(4, false); }
TEST(SmallTypes, Int2) { checkInt<i2, std::int8_t>(2, true); }
TEST(SmallTypes, UInt2) { checkInt<u2, std::uint8_t>(2, false); }

// Elementwise kernels load and store through the storage types.
TEST(SmallTypes, StoreAsAndComputeType) {
  static_assert(std::is_same<compute_t<f8e4m3fn>, float>::value, "");
  static_assert(std::is_same<compute_t<i4>, std::int8_t>::value, "");
  static_assert(sizeof(f8e5m2) == 1 && sizeof(u2) == 1, "one byte each");
  EXPECT_EQ(store_as<f8e4m3fn>(1.0f).bits, 0x38);
  EXPECT_EQ(store_as<i4>(std::int8_t(9)).value, -7);
}

} // namespace
