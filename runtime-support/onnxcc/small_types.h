//===- small_types.h - 8/4/2-bit storage element types ----------*- C++ -*-===//
//
// ONNX's small element types are storage types, like f16 and bf16: each
// element is one byte in memory (and in the generated API), loading one
// gives its compute type, storing one converts.
//
//   f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, f8e8m0, f4e2m1
//       the raw code in `bits` (f4e2m1 in the low 4 bits); compute in
//       float. Storing a float rounds to nearest even and does not
//       saturate: a value past the largest finite one becomes Inf (E5M2)
//       or NaN (the others); f4e2m1, which has neither, saturates (as
//       ml_dtypes does). FNUZ formats have one NaN (0x80) and no -0.
//       ONNX's `saturate=1` is a clamp the compiler puts before the store.
//       f8e8m0 (2^(code-127), 0xFF NaN) rounds up and saturates: ONNX
//       Cast's defaults (saturate=1, round_mode="up").
//   i4, u4, i2, u2
//       the value in `value`, sign-extended (i4, i2) or zero-extended (u4,
//       u2) to 8 bits; compute in int8_t / uint8_t. Storing keeps the low
//       4 or 2 bits (wraps, as numpy's astype does); loading reads only
//       those bits, so a byte holding just the nibble reads right too.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_SMALL_TYPES_H
#define ONNXCC_RUNTIME_SMALL_TYPES_H

#include "onnxcc/types.h"

namespace onnxcc {
namespace rt {

namespace detail {

/// How a minifloat spends its top codes.
enum class minifloat_kind {
  ieee, // E5M2: Inf and NaNs as in IEEE 754
  fn,   // E4M3FN: no Inf, S.1111.111 is NaN
  fnuz, // E4M3FNUZ, E5M2FNUZ: no Inf, no -0, 0x80 is the only NaN
  fn4,  // E2M1: no Inf, no NaN
};

/// A float with E exponent bits, M mantissa bits and bias B, of kind K.
template <int E, int M, int B, minifloat_kind K> struct minifloat {
  static constexpr std::uint32_t sign_bit = 1u << (E + M);
  /// The largest finite code (positive).
  static constexpr std::uint32_t max_code =
      K == minifloat_kind::ieee   ? ((1u << E) - 2) << M | ((1u << M) - 1)
      : K == minifloat_kind::fn   ? (sign_bit - 2)
                                  : (sign_bit - 1);
  static constexpr std::uint8_t nan_code =
      K == minifloat_kind::ieee ? std::uint8_t(((1u << E) - 1) << M | (1u << (M - 1)))
      : K == minifloat_kind::fn ? std::uint8_t(sign_bit - 1)
      : K == minifloat_kind::fnuz ? std::uint8_t(0x80)
                                  : std::uint8_t(0);

  /// Rounds |f| to nearest even; overflow gives Inf/NaN (fn4: saturates).
  static std::uint8_t encode(float f) {
    std::uint32_t x = float_bits(f);
    std::uint32_t sign = (x >> 31) ? sign_bit : 0u;
    std::uint32_t abs = x & 0x7fffffffu;
    if (abs > 0x7f800000u) { // NaN
      if (K == minifloat_kind::fnuz)
        return 0x80;
      if (K == minifloat_kind::fn4) // ml_dtypes gives -0 for a NaN
        return static_cast<std::uint8_t>(sign_bit);
      return static_cast<std::uint8_t>(sign | nan_code);
    }
    std::uint32_t code;
    constexpr int min_exp = 1 - B; // of the smallest normal
    // Float exponent field of the smallest normal of this format.
    constexpr std::uint32_t min_normal_field = std::uint32_t(127 + min_exp);
    if ((abs >> 23) < min_normal_field) {
      // Subnormal here (or zero): code = round(|f| * 2^(M - min_exp)),
      // exact scaling by a power of two; 2^M becomes the smallest normal.
      float y = bits_float(abs) * bits_float(std::uint32_t(127 + M - min_exp) << 23);
      std::uint32_t q = static_cast<std::uint32_t>(y); // y < 2^(M+1)
      float rest = y - static_cast<float>(q);
      if (rest > 0.5f || (rest == 0.5f && (q & 1u)))
        ++q;
      code = q;
    } else {
      // Normal: round the mantissa to M bits (the carry may bump the
      // exponent), then rebias. Inf has a large code and overflows below.
      constexpr int shift = 23 - M;
      std::uint32_t r = abs + ((1u << (shift - 1)) - 1) + ((abs >> shift) & 1u);
      std::uint32_t wide = r >> shift;
      code = wide - (std::uint32_t(127 - B) << M);
      if (abs >= 0x7f800000u || (r >> 31))
        code = max_code + 1; // Inf (or a wraparound): overflow
    }
    if (code > max_code) {
      switch (K) {
      case minifloat_kind::ieee:
        return static_cast<std::uint8_t>(sign | (((1u << E) - 1) << M));
      case minifloat_kind::fn:
        return static_cast<std::uint8_t>(sign | nan_code);
      case minifloat_kind::fnuz:
        return 0x80;
      case minifloat_kind::fn4:
        return static_cast<std::uint8_t>(sign | max_code);
      }
    }
    if (K == minifloat_kind::fnuz && code == 0)
      return 0; // no negative zero
    return static_cast<std::uint8_t>(sign | code);
  }

  static float decode(std::uint8_t c) {
    std::uint32_t code = c & ((sign_bit << 1) - 1);
    bool negative = (code & sign_bit) != 0;
    std::uint32_t mag = code & (sign_bit - 1);
    std::uint32_t exp = mag >> M, man = mag & ((1u << M) - 1);
    switch (K) {
    case minifloat_kind::ieee:
      if (exp == (1u << E) - 1)
        return bits_float((negative ? 0x80000000u : 0u) | 0x7f800000u |
                          (man ? 0x400000u : 0u));
      break;
    case minifloat_kind::fn:
      if (mag == sign_bit - 1)
        return bits_float((negative ? 0x80000000u : 0u) | 0x7fc00000u);
      break;
    case minifloat_kind::fnuz:
      if (code == 0x80)
        return bits_float(0x7fc00000u);
      break;
    case minifloat_kind::fn4:
      break;
    }
    float v;
    if (exp == 0) // man * 2^(1 - B - M), exact in float
      v = static_cast<float>(man) * bits_float(std::uint32_t(127 + 1 - B - M) << 23);
    else
      v = bits_float((exp + 127 - B) << 23 | man << (23 - M));
    return negative ? -v : v;
  }

  /// The largest finite value, for the compiler's saturating clamp.
  static float max_value() { return decode(static_cast<std::uint8_t>(max_code)); }
};

using e4m3fn = minifloat<4, 3, 7, minifloat_kind::fn>;
using e4m3fnuz = minifloat<4, 3, 8, minifloat_kind::fnuz>;
using e5m2 = minifloat<5, 2, 15, minifloat_kind::ieee>;
using e5m2fnuz = minifloat<5, 2, 16, minifloat_kind::fnuz>;
using e2m1 = minifloat<2, 1, 1, minifloat_kind::fn4>;

/// E8M0 (a power of two, 2^(code - 127); 0xFF is NaN) from a float, as
/// onnx.numpy_helper.to_float8e8m0: the sign is dropped, NaN and Inf give
/// NaN, and round_mode 0 = up, 1 = down, 2 = nearest.
ONNXCC_INLINE std::uint8_t e8m0_encode(float f, bool saturate, int round_mode) {
  std::uint32_t x = float_bits(f);
  std::uint32_t exp = (x >> 23) & 0xffu;
  if (exp == 0xffu)
    return 0xff;
  bool up = false;
  if (round_mode == 0) {
    up = (x & 0x7fffffu) != 0;
  } else if (round_mode == 2) {
    bool g = (x & 0x400000u) != 0, r = (x & 0x200000u) != 0;
    bool s = (x & 0x1fffffu) != 0, lsb = exp > 0;
    up = g && (r || s || lsb);
  }
  if (up && saturate && exp == 0xfeu)
    up = false;
  return static_cast<std::uint8_t>(exp + (up ? 1u : 0u));
}
ONNXCC_INLINE float e8m0_decode(std::uint8_t c) {
  if (c == 0xff)
    return bits_float(0x7fc00000u);
  return c ? bits_float(std::uint32_t(c) << 23) : bits_float(0x00400000u);
}

} // namespace detail

#define ONNXCC_SMALL_FLOAT(NAME, CODEC)                                        \
  struct NAME {                                                                \
    std::uint8_t bits;                                                         \
    NAME() = default;                                                          \
    explicit NAME(float f) : bits(CODEC::encode(f)) {}                         \
    operator float() const { return CODEC::decode(bits); }                     \
    static NAME from_bits(std::uint8_t b) {                                    \
      NAME r;                                                                  \
      r.bits = b;                                                              \
      return r;                                                                \
    }                                                                          \
  };                                                                           \
  template <> struct compute_type<NAME> { using type = float; };

/// FLOAT8E4M3FN (ONNX 17).
ONNXCC_SMALL_FLOAT(f8e4m3fn, detail::e4m3fn)
/// FLOAT8E4M3FNUZ (ONNX 18).
ONNXCC_SMALL_FLOAT(f8e4m3fnuz, detail::e4m3fnuz)
/// FLOAT8E5M2 (ONNX 19).
ONNXCC_SMALL_FLOAT(f8e5m2, detail::e5m2)
/// FLOAT8E5M2FNUZ (ONNX 20).
ONNXCC_SMALL_FLOAT(f8e5m2fnuz, detail::e5m2fnuz)
/// FLOAT4E2M1 (ONNX 23), the code in the low 4 bits.
ONNXCC_SMALL_FLOAT(f4e2m1, detail::e2m1)
#undef ONNXCC_SMALL_FLOAT

/// FLOAT8E8M0 (ONNX 24): stores with Cast's defaults (saturate, round up).
struct f8e8m0 {
  std::uint8_t bits;
  f8e8m0() = default;
  explicit f8e8m0(float f) : bits(detail::e8m0_encode(f, true, 0)) {}
  operator float() const { return detail::e8m0_decode(bits); }
  static f8e8m0 from_bits(std::uint8_t b) {
    f8e8m0 r;
    r.bits = b;
    return r;
  }
};
template <> struct compute_type<f8e8m0> { using type = float; };

#define ONNXCC_SMALL_INT(NAME, STORE, BITS, SIGNED)                            \
  struct NAME {                                                                \
    STORE value;                                                               \
    NAME() = default;                                                          \
    explicit NAME(long long v) : value(wrap(static_cast<unsigned>(v))) {}      \
    operator STORE() const { return wrap(static_cast<unsigned>(value)); }      \
    static STORE wrap(unsigned v) {                                            \
      unsigned low = v & ((1u << BITS) - 1);                                   \
      if (SIGNED && (low >> (BITS - 1)))                                       \
        return static_cast<STORE>(static_cast<int>(low) - (1 << BITS));        \
      return static_cast<STORE>(low);                                          \
    }                                                                          \
  };                                                                           \
  template <> struct compute_type<NAME> { using type = STORE; };

/// INT4 (ONNX 22), sign-extended to a byte.
ONNXCC_SMALL_INT(i4, std::int8_t, 4, true)
/// UINT4 (ONNX 21).
ONNXCC_SMALL_INT(u4, std::uint8_t, 4, false)
/// INT2 (ONNX 26), sign-extended to a byte.
ONNXCC_SMALL_INT(i2, std::int8_t, 2, true)
/// UINT2 (ONNX 25).
ONNXCC_SMALL_INT(u2, std::uint8_t, 2, false)
#undef ONNXCC_SMALL_INT

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_SMALL_TYPES_H
