//===- scalar_ops.h - ops used in fused bodies ------------------*- C++ -*-===//
//
// Each function has a float overload and, with SIMD, a batch overload, so a
// generated body written as a generic lambda runs in both the vector main
// loop and the scalar tail.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_SCALAR_OPS_H
#define ONNXCC_RUNTIME_SCALAR_OPS_H

#include "onnxcc/config.h"

namespace onnxcc {
namespace rt {

// NaN-propagating max/min, matching arith.maximumf / arith.minimumf.
ONNXCC_INLINE float vmax(float a, float b) {
  return (a != a || b != b) ? a + b : (a > b ? a : b);
}
ONNXCC_INLINE float vmin(float a, float b) {
  return (a != a || b != b) ? a + b : (a < b ? a : b);
}
ONNXCC_INLINE float vexp(float a) { return std::exp(a); }
ONNXCC_INLINE float vtanh(float a) { return std::tanh(a); }
ONNXCC_INLINE float vsqrt(float a) { return std::sqrt(a); }
ONNXCC_INLINE float vabs(float a) { return std::fabs(a); }

#if ONNXCC_HAS_SIMD
ONNXCC_INLINE vfloat vmax(vfloat a, vfloat b) {
  // xsimd::max does not propagate NaN from `a`; select it explicitly.
  return xsimd::select(xsimd::isnan(a) || xsimd::isnan(b), a + b, xsimd::max(a, b));
}
ONNXCC_INLINE vfloat vmin(vfloat a, vfloat b) {
  return xsimd::select(xsimd::isnan(a) || xsimd::isnan(b), a + b, xsimd::min(a, b));
}
ONNXCC_INLINE vfloat vexp(vfloat a) { return xsimd::exp(a); }
ONNXCC_INLINE vfloat vtanh(vfloat a) { return xsimd::tanh(a); }
ONNXCC_INLINE vfloat vsqrt(vfloat a) { return xsimd::sqrt(a); }
ONNXCC_INLINE vfloat vabs(vfloat a) { return xsimd::abs(a); }
#endif

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_SCALAR_OPS_H
