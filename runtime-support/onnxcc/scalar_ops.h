//===- scalar_ops.h - ops used in fused bodies ------------------*- C++ -*-===//
//
// The C++ spelling of every scalar op a fused body may hold (arith and math
// ops, see codegen/cpu/BodyPrinter.cpp). Float functions have float, double
// and, with SIMD, batch overloads, so a body printed as a generic lambda
// runs in both the vector main loop and the scalar tail.
//
// Integer ops take the signless view MLIR has: a value is a bit pattern in
// an intN_t, and the op says how to read it (signed or unsigned). They are
// defined for every input: overflow wraps (computed on unsigned types, where
// C++ defines it), division by zero gives 0 and INT_MIN / -1 gives INT_MIN,
// shifts by the width or more give 0 (or the sign for arithmetic right
// shifts), float-to-int conversion saturates with NaN as 0. ONNX leaves
// these cases undefined; generated code must not crash on them.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_SCALAR_OPS_H
#define ONNXCC_RUNTIME_SCALAR_OPS_H

#include "onnxcc/config.h"

#include <limits>
#include <type_traits>

namespace onnxcc {
namespace rt {

//===----------------------------------------------------------------------===//
// Floating point (float, double)
//===----------------------------------------------------------------------===//

// NaN-propagating max/min, matching arith.maximumf / arith.minimumf.
template <typename T, typename = std::enable_if_t<std::is_floating_point<T>::value>>
ONNXCC_INLINE T vmax(T a, T b) {
  return (a != a || b != b) ? a + b : (a > b ? a : b);
}
template <typename T, typename = std::enable_if_t<std::is_floating_point<T>::value>>
ONNXCC_INLINE T vmin(T a, T b) {
  return (a != a || b != b) ? a + b : (a < b ? a : b);
}
// The same for a `c` that is not NaN (the compiler passes a constant, as
// in ReLU and Clip): a NaN `a` still comes out; a tie returns `a`. In this
// operand order x86's max and min instructions do exactly that.
template <typename T, typename = std::enable_if_t<std::is_floating_point<T>::value>>
ONNXCC_INLINE T vmax_num(T a, T c) {
  return c > a ? c : a;
}
template <typename T, typename = std::enable_if_t<std::is_floating_point<T>::value>>
ONNXCC_INLINE T vmin_num(T a, T c) {
  return c < a ? c : a;
}

#define ONNXCC_UNARY_MATH(name, fn)                                            \
  ONNXCC_INLINE float name(float a) { return std::fn(a); }                     \
  ONNXCC_INLINE double name(double a) { return std::fn(a); }
ONNXCC_UNARY_MATH(vexp, exp)
ONNXCC_UNARY_MATH(vlog, log)
ONNXCC_UNARY_MATH(vtanh, tanh)
ONNXCC_UNARY_MATH(vsqrt, sqrt)
ONNXCC_UNARY_MATH(vabs, fabs)
ONNXCC_UNARY_MATH(vsin, sin)
ONNXCC_UNARY_MATH(vcos, cos)
ONNXCC_UNARY_MATH(vtan, tan)
ONNXCC_UNARY_MATH(vasin, asin)
ONNXCC_UNARY_MATH(vacos, acos)
ONNXCC_UNARY_MATH(vatan, atan)
ONNXCC_UNARY_MATH(vsinh, sinh)
ONNXCC_UNARY_MATH(vcosh, cosh)
ONNXCC_UNARY_MATH(vasinh, asinh)
ONNXCC_UNARY_MATH(vacosh, acosh)
ONNXCC_UNARY_MATH(vatanh, atanh)
ONNXCC_UNARY_MATH(verf, erf)
ONNXCC_UNARY_MATH(vfloor, floor)
ONNXCC_UNARY_MATH(vceil, ceil)
ONNXCC_UNARY_MATH(vtrunc, trunc)
// Round half to even (ONNX Round): nearbyint in the default rounding mode.
ONNXCC_UNARY_MATH(vround_even, nearbyint)
ONNXCC_UNARY_MATH(vlog1p, log1p)
#undef ONNXCC_UNARY_MATH

ONNXCC_INLINE float vpow(float a, float b) { return std::pow(a, b); }
ONNXCC_INLINE double vpow(double a, double b) { return std::pow(a, b); }
ONNXCC_INLINE float vfmod(float a, float b) { return std::fmod(a, b); }
ONNXCC_INLINE double vfmod(double a, double b) { return std::fmod(a, b); }
ONNXCC_INLINE float vcopysign(float a, float b) { return std::copysign(a, b); }
ONNXCC_INLINE double vcopysign(double a, double b) { return std::copysign(a, b); }
/// select() for a bool and two scalars, or (below) a mask and two batches.
template <typename T> ONNXCC_INLINE T vselect(bool c, T a, T b) { return c ? a : b; }

ONNXCC_INLINE bool visnan(float a) { return a != a; }
ONNXCC_INLINE bool visnan(double a) { return a != a; }
ONNXCC_INLINE bool visinf(float a) { return std::isinf(a); }
ONNXCC_INLINE bool visinf(double a) { return std::isinf(a); }

//===----------------------------------------------------------------------===//
// SIMD batches of float
//===----------------------------------------------------------------------===//

#if ONNXCC_HAS_SIMD
ONNXCC_INLINE vfloat vmax(vfloat a, vfloat b) {
  // xsimd::max does not propagate NaN from `a`; select it explicitly.
  return xsimd::select(xsimd::isnan(a) || xsimd::isnan(b), a + b, xsimd::max(a, b));
}
ONNXCC_INLINE vfloat vmin(vfloat a, vfloat b) {
  return xsimd::select(xsimd::isnan(a) || xsimd::isnan(b), a + b, xsimd::min(a, b));
}
// vmax_num / vmin_num as above, one instruction: x86's MAXPS/MINPS return
// their second operand when either is NaN, AArch64's FMAX/FMIN return NaN.
ONNXCC_INLINE vfloat vmax_num(vfloat a, vfloat c) {
#if defined(__AVX512F__)
  return _mm512_max_ps(c, a);
#elif defined(__AVX__)
  return _mm256_max_ps(c, a);
#elif defined(__SSE2__)
  return _mm_max_ps(c, a);
#elif defined(__aarch64__)
  return vmaxq_f32(a, c);
#else
  return vmax(a, c);
#endif
}
ONNXCC_INLINE vfloat vmin_num(vfloat a, vfloat c) {
#if defined(__AVX512F__)
  return _mm512_min_ps(c, a);
#elif defined(__AVX__)
  return _mm256_min_ps(c, a);
#elif defined(__SSE2__)
  return _mm_min_ps(c, a);
#elif defined(__aarch64__)
  return vminq_f32(a, c);
#else
  return vmin(a, c);
#endif
}
#define ONNXCC_BATCH_MATH(name, fn)                                            \
  ONNXCC_INLINE vfloat name(vfloat a) { return xsimd::fn(a); }
ONNXCC_BATCH_MATH(vexp, exp)
ONNXCC_BATCH_MATH(vlog, log)
ONNXCC_BATCH_MATH(vtanh, tanh)
ONNXCC_BATCH_MATH(vsqrt, sqrt)
ONNXCC_BATCH_MATH(vabs, abs)
ONNXCC_BATCH_MATH(vsin, sin)
ONNXCC_BATCH_MATH(vcos, cos)
ONNXCC_BATCH_MATH(vtan, tan)
ONNXCC_BATCH_MATH(vasin, asin)
ONNXCC_BATCH_MATH(vacos, acos)
ONNXCC_BATCH_MATH(vatan, atan)
ONNXCC_BATCH_MATH(vsinh, sinh)
ONNXCC_BATCH_MATH(vcosh, cosh)
ONNXCC_BATCH_MATH(vasinh, asinh)
ONNXCC_BATCH_MATH(vacosh, acosh)
ONNXCC_BATCH_MATH(vatanh, atanh)
ONNXCC_BATCH_MATH(verf, erf)
ONNXCC_BATCH_MATH(vfloor, floor)
ONNXCC_BATCH_MATH(vceil, ceil)
ONNXCC_BATCH_MATH(vtrunc, trunc)
ONNXCC_BATCH_MATH(vround_even, nearbyint)
ONNXCC_BATCH_MATH(vlog1p, log1p)
#undef ONNXCC_BATCH_MATH
ONNXCC_INLINE vfloat vpow(vfloat a, vfloat b) { return xsimd::pow(a, b); }
ONNXCC_INLINE vfloat vfmod(vfloat a, vfloat b) { return xsimd::fmod(a, b); }
ONNXCC_INLINE vfloat vcopysign(vfloat a, vfloat b) { return xsimd::copysign(a, b); }
ONNXCC_INLINE vfloat vselect(xsimd::batch_bool<float> c, vfloat a, vfloat b) {
  return xsimd::select(c, a, b);
}
#endif

//===----------------------------------------------------------------------===//
// Integers (signless bit patterns)
//===----------------------------------------------------------------------===//

template <typename T> using unsigned_of = std::make_unsigned_t<T>;

template <typename T> ONNXCC_INLINE T add_wrap(T a, T b) {
  return static_cast<T>(static_cast<unsigned_of<T>>(a) + static_cast<unsigned_of<T>>(b));
}
template <typename T> ONNXCC_INLINE T sub_wrap(T a, T b) {
  return static_cast<T>(static_cast<unsigned_of<T>>(a) - static_cast<unsigned_of<T>>(b));
}
template <typename T> ONNXCC_INLINE T mul_wrap(T a, T b) {
  // Multiply in a type at least as wide as unsigned int, so that narrow
  // operands are not promoted to (signed) int, where the product overflows.
  using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, unsigned_of<T>>;
  return static_cast<T>(static_cast<W>(static_cast<unsigned_of<T>>(a)) *
                        static_cast<W>(static_cast<unsigned_of<T>>(b)));
}
template <typename T> ONNXCC_INLINE T neg_wrap(T a) { return sub_wrap<T>(T(0), a); }
/// |a|, wrapping for the most negative value (math.absi).
template <typename T> ONNXCC_INLINE T abs_i(T a) { return a < 0 ? neg_wrap(a) : a; }
/// a^b by squaring, wrapping; a negative exponent gives 0 unless |a| is 1
/// (math.ipowi).
template <typename T> ONNXCC_INLINE T ipow(T a, T b) {
  if (b < 0)
    return a == 1 ? T(1) : a == T(-1) ? ((b & 1) ? T(-1) : T(1)) : T(0);
  T r = 1;
  for (; b; b = static_cast<T>(b >> 1), a = mul_wrap(a, a))
    if (b & 1)
      r = mul_wrap(r, a);
  return r;
}

/// Signed division, truncating toward zero (ONNX integer Div).
template <typename T> ONNXCC_INLINE T div_s(T a, T b) {
  if (b == 0)
    return T(0);
  if (a == std::numeric_limits<T>::min() && b == T(-1))
    return a;
  return static_cast<T>(a / b);
}
template <typename T> ONNXCC_INLINE T div_u(T a, T b) {
  using U = unsigned_of<T>;
  return b == 0 ? T(0) : static_cast<T>(static_cast<U>(a) / static_cast<U>(b));
}
/// Remainder with the dividend's sign (C, ONNX Mod with fmod=1).
template <typename T> ONNXCC_INLINE T rem_s(T a, T b) {
  if (b == 0 || (a == std::numeric_limits<T>::min() && b == T(-1)))
    return T(0);
  return static_cast<T>(a % b);
}
template <typename T> ONNXCC_INLINE T rem_u(T a, T b) {
  using U = unsigned_of<T>;
  return b == 0 ? T(0) : static_cast<T>(static_cast<U>(a) % static_cast<U>(b));
}
/// Remainder with the divisor's sign (Python, ONNX Mod with fmod=0).
template <typename T> ONNXCC_INLINE T mod_floor_s(T a, T b) {
  T r = rem_s(a, b);
  return (r != 0 && ((r < 0) != (b < 0))) ? add_wrap(r, b) : r;
}
/// fmod-style float remainder with the divisor's sign (ONNX Mod, fmod=0).
template <typename T, typename = std::enable_if_t<std::is_floating_point<T>::value>>
ONNXCC_INLINE T mod_floor_f(T a, T b) {
  T r = std::fmod(a, b);
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

template <typename T> ONNXCC_INLINE T shl(T a, T b) {
  using U = unsigned_of<T>;
  U n = static_cast<U>(b);
  return n >= sizeof(T) * 8 ? T(0) : static_cast<T>(static_cast<U>(a) << n);
}
template <typename T> ONNXCC_INLINE T shr_u(T a, T b) {
  using U = unsigned_of<T>;
  U n = static_cast<U>(b);
  return n >= sizeof(T) * 8 ? T(0) : static_cast<T>(static_cast<U>(a) >> n);
}
template <typename T> ONNXCC_INLINE T shr_s(T a, T b) {
  using U = unsigned_of<T>;
  U n = static_cast<U>(b);
  if (n >= sizeof(T) * 8)
    return a < 0 ? T(-1) : T(0);
  return static_cast<T>(a >> n);
}

template <typename T> ONNXCC_INLINE bool lt_u(T a, T b) {
  return static_cast<unsigned_of<T>>(a) < static_cast<unsigned_of<T>>(b);
}
template <typename T> ONNXCC_INLINE bool le_u(T a, T b) {
  return static_cast<unsigned_of<T>>(a) <= static_cast<unsigned_of<T>>(b);
}
template <typename T> ONNXCC_INLINE T max_u(T a, T b) { return lt_u(a, b) ? b : a; }
template <typename T> ONNXCC_INLINE T min_u(T a, T b) { return lt_u(a, b) ? a : b; }
template <typename T> ONNXCC_INLINE T max_s(T a, T b) { return a < b ? b : a; }
template <typename T> ONNXCC_INLINE T min_s(T a, T b) { return a < b ? a : b; }

/// An unsigned integer read as a float (uitofp).
template <typename F, typename T> ONNXCC_INLINE F from_unsigned(T a) {
  return static_cast<F>(static_cast<unsigned_of<T>>(a));
}
/// Float to integer, truncating, saturated to the integer's range (read as
/// signed, or as unsigned when Unsigned), NaN as 0 (fptosi / fptoui).
template <typename T, bool Unsigned, typename F> ONNXCC_INLINE T to_int(F v) {
  using R = std::conditional_t<Unsigned, unsigned_of<T>, T>;
  if (v != v)
    return T(0);
  if (v <= static_cast<F>(std::numeric_limits<R>::min()))
    return static_cast<T>(std::numeric_limits<R>::min());
  // max() may round up when converted to F (2^63 - 1 -> 2^63): compare >=.
  if (v >= static_cast<F>(std::numeric_limits<R>::max()))
    return static_cast<T>(std::numeric_limits<R>::max());
  return static_cast<T>(static_cast<R>(v));
}
/// Zero extension to a wider signless integer (extui).
template <typename W, typename T> ONNXCC_INLINE W zext(T a) {
  return static_cast<W>(static_cast<unsigned_of<T>>(a));
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_SCALAR_OPS_H
