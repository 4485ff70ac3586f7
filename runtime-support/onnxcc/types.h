//===- types.h - element types of generated code ----------------*- C++ -*-===//
//
// Tensors hold ONNX's element types as plain C++ types (float, double,
// std::int8_t ... std::uint64_t, bool) plus two 16-bit float storage types,
// f16 and bf16, that compute in float: loading one gives a float, storing a
// float rounds to nearest even. compute_t<T> is the type a fused body sees.
// The 8-, 4- and 2-bit storage types are in small_types.h (included below).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_TYPES_H
#define ONNXCC_RUNTIME_TYPES_H

#include "onnxcc/attributes.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace onnxcc {
namespace rt {

namespace detail {
ONNXCC_INLINE std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
ONNXCC_INLINE float bits_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
} // namespace detail

/// IEEE 754 binary16, stored; arithmetic happens in float.
struct f16 {
  std::uint16_t bits;
  f16() = default;
  explicit f16(float f) : bits(from_float(f)) {}
  operator float() const { return to_float(bits); }

  static std::uint16_t from_float(float f) {
    std::uint32_t x = detail::float_bits(f);
    std::uint32_t sign = (x >> 16) & 0x8000u;
    std::uint32_t abs = x & 0x7fffffffu;
    if (abs > 0x7f800000u) // NaN: keep it quiet
      return static_cast<std::uint16_t>(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));
    if (abs >= 0x477ff000u) // rounds to or beyond 65520: infinity
      return static_cast<std::uint16_t>(sign | 0x7c00u);
    if (abs < 0x38800000u) { // subnormal or zero in half precision
      // Add 0.5 (as a float) so the hardware rounds the mantissa for us.
      float t = detail::bits_float(abs) + 0.5f;
      return static_cast<std::uint16_t>(sign | (detail::float_bits(t) - 0x3f000000u));
    }
    std::uint32_t odd = (abs >> 13) & 1u; // round to nearest, ties to even
    abs += 0xc8000fffu + odd;             // rebias exponent, add rounding
    return static_cast<std::uint16_t>(sign | (abs >> 13));
  }
  static float to_float(std::uint16_t h) {
    std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    std::uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0x1f) // infinity or NaN
      return detail::bits_float(sign | 0x7f800000u | (man << 13));
    if (exp == 0) { // zero or subnormal: man * 2^-24
      float v = static_cast<float>(man) * 5.9604644775390625e-8f;
      return sign ? -v : v;
    }
    return detail::bits_float(sign | ((exp + 112) << 23) | (man << 13));
  }
};

/// bfloat16 (the top half of a float), stored; arithmetic happens in float.
struct bf16 {
  std::uint16_t bits;
  bf16() = default;
  explicit bf16(float f) : bits(from_float(f)) {}
  operator float() const { return detail::bits_float(std::uint32_t(bits) << 16); }

  static std::uint16_t from_float(float f) {
    std::uint32_t x = detail::float_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) // NaN: keep it quiet
      return static_cast<std::uint16_t>((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1u); // round to nearest, ties to even
    return static_cast<std::uint16_t>(x >> 16);
  }
};

/// The type a fused body computes in for elements stored as T.
template <typename T> struct compute_type { using type = T; };
template <> struct compute_type<f16> { using type = float; };
template <> struct compute_type<bf16> { using type = float; };
template <typename T> using compute_t = typename compute_type<T>::type;

/// Stores a computed value as T (rounding for the 16-bit floats).
template <typename T, typename V> ONNXCC_INLINE T store_as(V v) {
  return static_cast<T>(v);
}

/// The typed API's type for a graph input or output with no elements (a
/// dimension is 0): C++ has no arrays of extent zero, so such a port is an
/// empty tag that carries the element type. Pass `{}`.
template <typename T> struct empty_tensor {
  using element_type = T;
};

} // namespace rt
} // namespace onnxcc

#include "onnxcc/small_types.h" // the 8/4/2-bit storage types

#endif // ONNXCC_RUNTIME_TYPES_H
