//===- vmath.h - exp, sigmoid and tanh that vectorise -----------*- C++ -*-===//
//
// float versions of exp, the logistic sigmoid and tanh written without
// calls and with only integer selects where the result's bits are touched,
// so that GCC and Clang vectorise loops of them (libm's expf and tanhf stay
// scalar calls). exp: the RBF kernel of SVMs and softmax, which also takes
// the vector form of exp_poly(); sigmoid and tanh: the recurrent cells.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_VMATH_H
#define ONNXCC_RUNTIME_VMATH_H

#include "onnxcc/config.h"

#include <cstdint>

namespace onnxcc {
namespace rt {

/// exp(v) within a few ulp for v in [-87, 88] (Cephes' expf polynomial),
/// with no call and only integer selects, so that GCC and Clang vectorise a
/// loop of them: 0 below about -87.7 (where exp is denormal), NaN for NaN.
ONNXCC_INLINE float exp_poly(float v) {
  // k = round(v / ln 2) through the bits of v / ln 2 + 1.5 * 2^23: floor()
  // and float-to-int conversion (which may trap) stop vectorisers.
  int32_t ki = __builtin_bit_cast(int32_t, v * 1.44269504f + 12582912.0f) -
               0x4B400000;
  int32_t keep = -int32_t((ki > -127) | (v != v));
  ki = ki < -126 ? -126 : ki;
  ki = ki > 127 ? 127 : ki;
  float k = static_cast<float>(ki);
  float r = v - k * 0.693359375f + k * 2.12194440e-4f;
  float y = 1.9875691500e-4f;
  y = y * r + 1.3981999507e-3f;
  y = y * r + 8.3334519073e-3f;
  y = y * r + 4.1665795894e-2f;
  y = y * r + 1.6666665459e-1f;
  y = y * r + 5.0000001201e-1f;
  y = y * r * r + r + 1.0f;
  float e = y * __builtin_bit_cast(float, (ki + 127) << 23);
  return __builtin_bit_cast(float, __builtin_bit_cast(int32_t, e) & keep);
}

#if ONNXCC_HAS_SIMD
/// exp_poly() on a whole vector, step for step: where a loop of the scalar
/// form is not vectorised (a row in registers) or only partly.
ONNXCC_INLINE vfloat exp_poly(vfloat v) {
  using vint = xsimd::batch<int32_t, vfloat::arch_type>;
  vint ki = xsimd::bitwise_cast<vint>(v * vfloat(1.44269504f) + vfloat(12582912.0f)) -
            vint(0x4B400000);
  vfloat keep = xsimd::bitwise_cast<vfloat>(
      xsimd::select(ki > vint(-127), vint(-1), vint(0)));
  ki = xsimd::min(xsimd::max(ki, vint(-126)), vint(127));
  vfloat k = xsimd::to_float(ki);
  vfloat r = v - k * vfloat(0.693359375f) + k * vfloat(2.12194440e-4f);
  vfloat y(1.9875691500e-4f);
  y = y * r + vfloat(1.3981999507e-3f);
  y = y * r + vfloat(8.3334519073e-3f);
  y = y * r + vfloat(4.1665795894e-2f);
  y = y * r + vfloat(1.6666665459e-1f);
  y = y * r + vfloat(5.0000001201e-1f);
  y = y * r * r + r + vfloat(1.0f);
  vfloat e = y * xsimd::bitwise_cast<vfloat>((ki + vint(127)) << 23);
  return xsimd::select(v != v, e, e & keep); // NaN stays NaN
}

/// The largest lane: 16 serial compares of its lanes were most of a short
/// softmax row. NaN lanes give whatever the ISA's max gives; softmax's sum
/// turns a NaN row into NaN either way. A template, so that each ISA's
/// branch is compiled only for its own width.
template <typename V> ONNXCC_INLINE float hmax(V v) {
#if defined(__AVX512F__)
  if constexpr (sizeof(V) == 64)
    return _mm512_reduce_max_ps(v);
#endif
#if defined(__AVX__)
  if constexpr (sizeof(V) == 32) {
    __m128 h = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    h = _mm_max_ps(h, _mm_movehl_ps(h, h));
    return _mm_cvtss_f32(_mm_max_ss(h, _mm_shuffle_ps(h, h, 1)));
  }
#endif
  alignas(64) float lanes[V::size];
  v.store_aligned(lanes);
  float m = lanes[0];
  for (std::size_t l = 1; l < V::size; ++l)
    m = lanes[l] > m ? lanes[l] : m;
  return m;
}
#endif

/// tanh(x) = x P(x^2) / Q(x^2) on |x| < 9: P's and Q's coefficients,
/// highest first, fitted to tanh's relative error on [0, 9] by
/// scripts/fit_tanh_rational.py (abs and relative error in float 3.6e-7
/// without fused multiply-adds, 2.8e-7 with). One division and no exp: an LSTM cell takes five of these per
/// unit, and with Cephes' exp form (an exp, a division and a polynomial
/// for the small |x|) they were a quarter of lstm_classifier's call.
constexpr float kTanhP[] = {-8.489638436e-14f, 5.278325346e-11f, -2.022603418e-08f,
                            1.115451141e-05f,  3.103975672e-03f, 1.308402717e-01f,
                            1.0f};
constexpr float kTanhQ[] = {2.546173637e-04f, 2.449525706e-02f, 4.641735554e-01f,
                            1.0f};

ONNXCC_INLINE float madd(float a, float b, float c) { return a * b + c; }
#if ONNXCC_HAS_SIMD
ONNXCC_INLINE vfloat madd(vfloat a, vfloat b, vfloat c) { return vfma(a, b, c); }
#endif

/// x P(x^2) / Q(x^2) for float or vfloat x, by Horner's rule.
template <typename V> ONNXCC_INLINE V tanh_ratio(V x) {
  const V z = x * x;
  V p(kTanhP[0]), q(kTanhQ[0]);
  for (int i = 1; i < 7; ++i)
    p = madd(p, z, V(kTanhP[i]));
  for (int i = 1; i < 4; ++i)
    q = madd(q, z, V(kTanhQ[i]));
  return x * p / q;
}

/// tanh(x): tanh_ratio() below |x| = 9, +-1 from there on, where tanh
/// rounds to 1 in float; NaN stays NaN.
ONNXCC_INLINE float tanh_rational(float x) {
  float r = tanh_ratio(x); // NaN where z overflowed: not selected
  int32_t one = (__builtin_bit_cast(int32_t, x) & int32_t(0x80000000)) |
                __builtin_bit_cast(int32_t, 1.0f);
  // The select on the bits: GCC will not if-convert it on floats. NaN
  // fails the compare and keeps r.
  int32_t saturated = -int32_t(__builtin_fabsf(x) >= 9.0f);
  return __builtin_bit_cast(float, (one & saturated) |
                                       (__builtin_bit_cast(int32_t, r) & ~saturated));
}

/// The logistic sigmoid as 1/2 + tanh(x / 2) / 2 (abs error <= 2e-7):
/// exactly 0 and 1 from |x| >= 18 on.
ONNXCC_INLINE float sigmoid_rational(float x) {
  return 0.5f * tanh_rational(0.5f * x) + 0.5f;
}

#if ONNXCC_HAS_SIMD
/// The same on a whole vector, for cells written with vectors (clang++
/// vectorised a loop of the scalar form at half the AVX-512 width).
ONNXCC_INLINE vfloat tanh_rational(vfloat x) {
  return xsimd::select(xsimd::abs(x) >= vfloat(9.0f),
                       xsimd::copysign(vfloat(1.0f), x), tanh_ratio(x));
}

ONNXCC_INLINE vfloat sigmoid_rational(vfloat x) {
  return vfma(vfloat(0.5f), tanh_rational(vfloat(0.5f) * x), vfloat(0.5f));
}
#endif

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_VMATH_H
