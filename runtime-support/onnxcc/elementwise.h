//===- elementwise.h - fused elementwise loops ------------------*- C++ -*-===//
//
// map(): every input has the output's shape or is a single element; float
// only, one vector main loop plus a scalar tail (XNNPACK's vadd layout).
// map(par, ...) splits it across par's threads (parallel.h).
// map_scalar(): the same for any element types, one element at a time.
// map_strided(): general numpy broadcasting with compile-time strides
// (0 where an input is broadcast): vector runs along the innermost axis
// wherever each input is dense or broadcast there, an odometer over the
// outer axes.
//
// Inputs load their element type's compute type (compute_t: float for the
// 16-bit floats) and the body's result is stored back as the output's type.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_ELEMENTWISE_H
#define ONNXCC_RUNTIME_ELEMENTWISE_H

#include "onnxcc/config.h"
#include "onnxcc/parallel.h"
#include "onnxcc/scalar_ops.h"
#include "onnxcc/types.h"

#include <utility>

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

/// map() on par's threads: each part takes whole vectors of the main loop,
/// the last one the scalar tail too, so every element is computed as by
/// map(). Parts are contiguous: a part reads the inputs where the kernels
/// before it, split the same way, wrote them on its own core.
template <int64_t N, typename Par, typename F, typename... In>
inline void map(Par &par, float *out, F f, In... in) {
  constexpr int64_t kVectors = ONNXCC_HAS_SIMD ? N / kVecWidth : 0;
  par.run([&](int t, int T) {
    const part p = split(kVectors, t, T);
    int64_t i = p.lo * kVecWidth;
#if ONNXCC_HAS_SIMD
    for (; i < p.hi * kVecWidth; i += kVecWidth)
      f(in.load_vec(i)...).store_unaligned(out + i);
#endif
    if (t == T - 1)
      for (i = kVectors * kVecWidth; i < N; ++i)
        out[i] = f(in.load(i)...);
  });
}

template <int64_t N, typename T, typename F, typename... In>
inline void map_scalar(T *out, F f, In... in) {
  for (int64_t i = 0; i < N; ++i)
    out[i] = store_as<T>(f(in.load(i)...));
}

/// An input with per-dimension element strides into the output index space.
template <int Rank, typename T> struct strided_in {
  using element = T;
  const T *p;
  int64_t strides[Rank];
};

/// One input's run along the innermost axis: its start and element stride.
template <typename E> struct row_in {
  const E *p;
  int64_t s;
  ONNXCC_INLINE compute_t<E> load(int64_t i) const {
    return compute_t<E>(p[i * s]);
  }
};

/// Calls k(loaders...) with each row turned into the loader its stride
/// allows: splat_in for 0, dense_in for 1. Only for rows of those strides.
template <typename K> ONNXCC_INLINE void with_unit_rows(K k) { k(); }
template <typename K, typename E, typename... Rest>
ONNXCC_INLINE void with_unit_rows(K k, row_in<E> r, Rest... rest) {
  auto next = [&](auto first) ONNXCC_INLINE_LAMBDA {
    with_unit_rows(
        [&](auto... more) ONNXCC_INLINE_LAMBDA { k(first, more...); },
        rest...);
  };
  if (r.s == 0)
    next(splat_in<E>{r.p});
  else
    next(dense_in<E>{r.p});
}

/// out[0, n) = f(rows...): vectors when Vector (float everywhere, a body
/// with vector forms) and every row is splat or dense, else element by
/// element.
template <bool Vector, typename T, typename F, typename... E>
ONNXCC_INLINE void map_row(T *out, int64_t n, F f, row_in<E>... rows) {
#if ONNXCC_HAS_SIMD
  if constexpr (Vector) {
    const bool unit = ((rows.s == 0 || rows.s == 1) && ...);
    if (unit) {
      with_unit_rows(
          [&](auto... in) ONNXCC_INLINE_LAMBDA {
            // As map(): a bound computed once (g++ 12 warns of undefined
            // behaviour in a tail loop that continues the main one).
            const int64_t main = n / kVecWidth * kVecWidth;
            for (int64_t i = 0; i < main; i += kVecWidth)
              f(in.load_vec(i)...).store_unaligned(out + i);
            for (int64_t i = main; i < n; ++i)
              out[i] = f(in.load(i)...);
          },
          rows...);
      return;
    }
  }
#endif
  for (int64_t i = 0; i < n; ++i)
    out[i] = store_as<T>(f(rows.load(i)...));
}

/// out = f(in...) over shape, each input read through its strides (0 where
/// broadcast). Runs of the innermost axis go to map_row(); the outer axes
/// step every input's offset by its stride, an odometer with no
/// per-element index arithmetic. The emitter merges axes that are
/// contiguous in every input first, so the innermost run is as long as
/// the broadcast allows. Vector: see map_row().
template <int Rank, bool Vector, typename T, typename F, size_t... I,
          typename... In>
inline void map_strided_rows(const int64_t (&shape)[Rank], T *out, F f,
                             std::index_sequence<I...>, In... in) {
  const int64_t n = shape[Rank - 1];
  int64_t rows = 1;
  for (int d = 0; d + 1 < Rank; ++d)
    rows *= shape[d];
  int64_t idx[Rank] = {};
  int64_t off[sizeof...(In) > 0 ? sizeof...(In) : 1] = {};
  for (int64_t r = 0; r < rows; ++r) {
    map_row<Vector>(out + r * n, n, f,
                    row_in<typename In::element>{in.p + off[I],
                                                 in.strides[Rank - 1]}...);
    for (int d = Rank - 2; d >= 0; --d) { // odometer over the outer axes
      ((off[I] += in.strides[d]), ...);
      if (++idx[d] < shape[d])
        break;
      ((off[I] -= in.strides[d] * shape[d]), ...);
      idx[d] = 0;
    }
  }
}

template <int Rank, bool Vector = false, typename T, typename F,
          typename... In>
inline void map_strided(const int64_t (&shape)[Rank], T *out, F f,
                        In... in) {
  map_strided_rows<Rank, Vector>(shape, out, f,
                                 std::index_sequence_for<In...>{}, in...);
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_ELEMENTWISE_H
