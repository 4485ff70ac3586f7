//===- elementwise.h - fused elementwise loops ------------------*- C++ -*-===//
//
// map(): every input has the output's shape or is a single element; one
// vector main loop plus a scalar tail (XNNPACK's vadd layout).
// map_strided(): general numpy broadcasting with compile-time strides
// (0 where an input is broadcast); a scalar loop over the multi-index.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_ELEMENTWISE_H
#define ONNXCC_RUNTIME_ELEMENTWISE_H

#include "onnxcc/config.h"
#include "onnxcc/scalar_ops.h"

namespace onnxcc {
namespace rt {

/// An input read at the output's linear index.
struct dense_in {
  const float *p;
  ONNXCC_INLINE float load(int64_t i) const { return p[i]; }
#if ONNXCC_HAS_SIMD
  ONNXCC_INLINE vfloat load_vec(int64_t i) const {
    return vfloat::load_unaligned(p + i);
  }
#endif
};

/// A one-element input broadcast to every position.
struct splat_in {
  const float *p;
  ONNXCC_INLINE float load(int64_t) const { return p[0]; }
#if ONNXCC_HAS_SIMD
  ONNXCC_INLINE vfloat load_vec(int64_t) const { return vfloat(p[0]); }
#endif
};

template <int64_t N, typename F, typename... In>
inline void map(float *out, F f, In... in) { // out may alias an input (in place)
  // Compile-time loop bounds: the tail loop vanishes when N is a multiple of
  // the vector width (g++ otherwise warns about it at -O2).
  constexpr int64_t kMain = N / kVecWidth * kVecWidth;
#if ONNXCC_HAS_SIMD
  for (int64_t i = 0; i < kMain; i += kVecWidth)
    f(in.load_vec(i)...).store_unaligned(out + i);
#endif
  for (int64_t i = ONNXCC_HAS_SIMD ? kMain : 0; i < N; ++i)
    out[i] = f(in.load(i)...);
}

/// An input with per-dimension element strides into the output index space.
template <int Rank> struct strided_in {
  const float *p;
  int64_t strides[Rank];
};

template <int Rank, typename F, typename... In>
inline void map_strided(const int64_t (&shape)[Rank], float *out, F f,
                        In... in) {
  int64_t idx[Rank] = {};
  int64_t total = 1;
  for (int d = 0; d < Rank; ++d)
    total *= shape[d];
  for (int64_t linear = 0; linear < total; ++linear) {
    auto offset = [&](const auto &input) {
      int64_t o = 0;
      for (int d = 0; d < Rank; ++d)
        o += idx[d] * input.strides[d];
      return input.p[o];
    };
    out[linear] = f(offset(in)...);
    for (int d = Rank - 1; d >= 0; --d) { // odometer increment
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_ELEMENTWISE_H
