//===- deinterleave.h - even and odd elements of two vectors ----*- C++ -*-===//
//
// deinterleave(a, b) splits the 2 * width floats of two vectors into the
// vector of their even elements and the vector of their odd ones: what a
// stride-2 window (a 2x2 or 3x3 max pool at stride 2) needs to take a whole
// vector of outputs at once. interleave(a, b) is its inverse, a0 b0 a1 b1
// ... across the whole width (xsimd 8's zip_lo/zip_hi zip within each
// 128-bit lane on AVX and AVX-512). xsimd 8 has no such shuffle, so each instruction set
// gets its own: AVX-512 two-source permutes, AVX lane swaps and in-lane
// shuffles, SSE shuffles, NEON's unzips, for any vector
// width the target has (an AVX-512 build also splits 8- and 4-wide ones).
// Elsewhere (the WebAssembly vector path) has_even_odd is false and
// callers keep their stride-1 form. one_lane_on(v, last) shifts a vector
// one lane down with `last` in the top lane (AVX-512 only).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_DEINTERLEAVE_H
#define ONNXCC_RUNTIME_DEINTERLEAVE_H

#include "onnxcc/config.h"

#if ONNXCC_HAS_SIMD && (defined(__ARM_NEON) || defined(__ARM_NEON__))
#include <arm_neon.h>
#endif

namespace onnxcc {
namespace rt {

#if ONNXCC_HAS_SIMD
template <typename V> struct even_odd {
  V even, odd;
};

/// Whether deinterleave and interleave have shuffles for vectors of V's
/// width here.
template <typename V> constexpr bool has_even_odd() {
#if defined(__AVX512F__)
  if (V::size == 16)
    return true;
#endif
#if defined(__AVX__)
  if (V::size == 8)
    return true;
#endif
#if defined(__SSE2__) || defined(__ARM_NEON) || defined(__ARM_NEON__)
  if (V::size == 4)
    return true;
#endif
  return false;
}

/// The even and odd elements of the 2 * V::size floats a, b (a first).
template <typename V> ONNXCC_INLINE even_odd<V> deinterleave(V a, V b) {
  static_assert(has_even_odd<V>(), "deinterleave: no shuffle for this width");
  if constexpr (V::size == 16) {
#if defined(__AVX512F__)
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18,
                                           20, 22, 24, 26, 28, 30);
    const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19,
                                          21, 23, 25, 27, 29, 31);
    return {V(_mm512_permutex2var_ps(a, even, b)),
            V(_mm512_permutex2var_ps(a, odd, b))};
#endif
  } else if constexpr (V::size == 8) {
#if defined(__AVX__)
    // Lane swaps pair a's halves and b's halves; an in-lane shuffle then
    // takes every other element of each pair (AVX alone, no AVX2 needed).
    const __m256 lo = _mm256_permute2f128_ps(a, b, 0x20); // a0..3 b0..3
    const __m256 hi = _mm256_permute2f128_ps(a, b, 0x31); // a4..7 b4..7
    return {V(_mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0))),
            V(_mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1)))};
#endif
  } else if constexpr (V::size == 4) {
#if defined(__SSE2__)
    return {V(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0))),
            V(_mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)))};
#elif defined(__ARM_NEON) || defined(__ARM_NEON__)
    const float32x4x2_t v = vuzpq_f32(a, b);
    return {V(v.val[0]), V(v.val[1])};
#endif
  }
  return {a, b}; // no such width: rejected above
}

/// The 2 * V::size floats a0 b0 a1 b1 ...: the first V::size in `even`,
/// the rest in `odd` (the halves of the result, not its parities).
template <typename V> ONNXCC_INLINE even_odd<V> interleave(V a, V b) {
  static_assert(has_even_odd<V>(), "interleave: no shuffle for this width");
  if constexpr (V::size == 16) {
#if defined(__AVX512F__)
    const __m512i lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20,
                                         5, 21, 6, 22, 7, 23);
    const __m512i hi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12,
                                         28, 13, 29, 14, 30, 15, 31);
    return {V(_mm512_permutex2var_ps(a, lo, b)),
            V(_mm512_permutex2var_ps(a, hi, b))};
#endif
  } else if constexpr (V::size == 8) {
#if defined(__AVX__)
    // In-lane unpacks zip each 128-bit half; lane swaps put them in order.
    const __m256 lo = _mm256_unpacklo_ps(a, b); // a0 b0 a1 b1 | a4 b4 a5 b5
    const __m256 hi = _mm256_unpackhi_ps(a, b); // a2 b2 a3 b3 | a6 b6 a7 b7
    return {V(_mm256_permute2f128_ps(lo, hi, 0x20)),
            V(_mm256_permute2f128_ps(lo, hi, 0x31))};
#endif
  } else if constexpr (V::size == 4) {
#if defined(__SSE2__)
    return {V(_mm_unpacklo_ps(a, b)), V(_mm_unpackhi_ps(a, b))};
#elif defined(__ARM_NEON) || defined(__ARM_NEON__)
    const float32x4x2_t v = vzipq_f32(a, b);
    return {V(v.val[0]), V(v.val[1])};
#endif
  }
  return {a, b}; // no such width: rejected above
}

/// Whether one_lane_on has an instruction for vectors of V's width here:
/// AVX-512's valignd. Elsewhere callers load the shifted span instead.
template <typename V> constexpr bool has_one_lane_on() {
#if defined(__AVX512F__)
  return V::size == 16;
#else
  return false;
#endif
}

/// v's lanes 1 to V::size - 1, then `last`. At stride 2, a window's taps
/// kw + 2 are its taps kw one lane on, the last lane the float past v's
/// span: one valignd instead of two loads and a permute.
template <typename V> ONNXCC_INLINE V one_lane_on(V v, float last) {
  static_assert(has_one_lane_on<V>(), "one_lane_on: no shift for this width");
#if defined(__AVX512F__)
  return V(_mm512_castsi512_ps(
      _mm512_alignr_epi32(_mm512_castps_si512(_mm512_set1_ps(last)),
                          _mm512_castps_si512(v), 1)));
#else
  (void)last;
  return v; // no such width: rejected above
#endif
}
#endif

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_DEINTERLEAVE_H
