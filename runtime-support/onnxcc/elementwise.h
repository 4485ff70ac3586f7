//===- elementwise.h - fused elementwise loops ------------------*- C++ -*-===//
//
// map(): every input has the output's shape or is a single element; float
// only, one vector main loop plus a scalar tail (XNNPACK's vadd layout).
// map_scalar(): the same for any element types, one element at a time.
// map_strided(): general numpy broadcasting with compile-time strides
// (0 where an input is broadcast); a loop over the multi-index.
//
// Inputs load their element type's compute type (compute_t: float for the
// 16-bit floats) and the body's result is stored back as the output's type.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_ELEMENTWISE_H
#define ONNXCC_RUNTIME_ELEMENTWISE_H

#include "onnxcc/config.h"
#include "onnxcc/scalar_ops.h"
#include "onnxcc/types.h"

namespace onnxcc {
namespace rt {

/// An input read at the output's linear index.
template <typename T> struct dense_in {
  const T *p;
  ONNXCC_INLINE compute_t<T> load(int64_t i) const { return compute_t<T>(p[i]); }
#if ONNXCC_HAS_SIMD
  ONNXCC_INLINE vfloat load_vec(int64_t i) const { // map() only: T is float
    return vfloat::load_unaligned(p + i);
  }
#endif
};

/// A one-element input broadcast to every position.
template <typename T> struct splat_in {
  const T *p;
  ONNXCC_INLINE compute_t<T> load(int64_t) const { return compute_t<T>(p[0]); }
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

template <int64_t N, typename T, typename F, typename... In>
inline void map_scalar(T *out, F f, In... in) {
  for (int64_t i = 0; i < N; ++i)
    out[i] = store_as<T>(f(in.load(i)...));
}

/// An input with per-dimension element strides into the output index space.
template <int Rank, typename T> struct strided_in {
  const T *p;
  int64_t strides[Rank];
};

template <int Rank, typename T, typename F, typename... In>
inline void map_strided(const int64_t (&shape)[Rank], T *out, F f, In... in) {
  int64_t idx[Rank] = {};
  int64_t total = 1;
  for (int d = 0; d < Rank; ++d)
    total *= shape[d];
  for (int64_t linear = 0; linear < total; ++linear) {
    auto load = [&](const auto &input) {
      int64_t o = 0;
      for (int d = 0; d < Rank; ++d)
        o += idx[d] * input.strides[d];
      using E = std::remove_cv_t<std::remove_pointer_t<decltype(input.p)>>;
      return compute_t<E>(input.p[o]);
    };
    out[linear] = store_as<T>(f(load(in)...));
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
