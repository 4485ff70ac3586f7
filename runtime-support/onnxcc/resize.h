//===- resize.h - Resize, one axis at a time --------------------*- C++ -*-===//
//
// The compiler plans every tap of a resize (ResizeMath.h): these kernels
// only gather rows of `Inner` contiguous elements and blend them.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_RESIZE_H
#define ONNXCC_RUNTIME_RESIZE_H

#include "onnxcc/config.h"
#include "onnxcc/scalar_ops.h"
#include "onnxcc/types.h"

#include <type_traits>

namespace onnxcc {
namespace rt {

/// An interpolated value stored as T: integers round half to even and
/// saturate, like onnx.reference's saturate_cast.
template <typename T, typename A> ONNXCC_INLINE T resize_store(A v) {
  if constexpr (std::is_integral<T>::value)
    return to_int<T, std::is_unsigned<T>::value>(std::nearbyint(v));
  else
    return store_as<T>(v);
}

/// Nearest-neighbour resizing of the middle axis of an [Outer, InW, Inner]
/// tensor to OutW: output row j copies input row idx[j], or holds
/// `extrapolation` where idx[j] is -1.
template <int64_t Outer, int64_t InW, int64_t OutW, int64_t Inner, typename T>
inline void resize_gather(const int64_t *ONNXCC_RESTRICT idx, double extrapolation,
                          const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y) {
  const T fill = resize_store<T>(extrapolation);
  for (int64_t o = 0; o < Outer; ++o)
    for (int64_t j = 0; j < OutW; ++j) {
      T *row = y + (o * OutW + j) * Inner;
      if (idx[j] < 0) {
        for (int64_t i = 0; i < Inner; ++i)
          row[i] = fill;
      } else {
        std::memcpy(row, x + (o * InW + idx[j]) * Inner, Inner * sizeof(T));
      }
    }
}

/// Interpolating resize of the middle axis of an [Outer, InW, Inner]
/// tensor: output row j is the sum over t < Taps of w[j * Taps + t] times
/// input row idx[j * Taps + t], computed in A.
template <int64_t Outer, int64_t InW, int64_t OutW, int64_t Inner, int64_t Taps,
          typename A, typename T, typename U>
inline void resize_blend(const int64_t *ONNXCC_RESTRICT idx, const A *ONNXCC_RESTRICT w,
                         double extrapolation, const T *ONNXCC_RESTRICT x,
                         U *ONNXCC_RESTRICT y) {
  const U fill = resize_store<U>(static_cast<A>(extrapolation));
  for (int64_t o = 0; o < Outer; ++o)
    for (int64_t j = 0; j < OutW; ++j) {
      const int64_t *ix = idx + j * Taps;
      const A *wj = w + j * Taps;
      U *row = y + (o * OutW + j) * Inner;
      if (ix[0] < 0) {
        for (int64_t i = 0; i < Inner; ++i)
          row[i] = fill;
        continue;
      }
      const T *base = x + o * InW * Inner;
      for (int64_t i = 0; i < Inner; ++i) {
        A acc = 0;
        for (int64_t t = 0; t < Taps; ++t)
          acc += wj[t] * static_cast<A>(base[ix[t] * Inner + i]);
        row[i] = resize_store<U>(acc);
      }
    }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_RESIZE_H
