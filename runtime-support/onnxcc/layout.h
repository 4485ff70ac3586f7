//===- layout.h - copies, concat, transpose, softmax ------------*- C++ -*-===//
#ifndef ONNXCC_RUNTIME_LAYOUT_H
#define ONNXCC_RUNTIME_LAYOUT_H

#include "onnxcc/config.h"

namespace onnxcc {
namespace rt {

template <int64_t Bytes>
ONNXCC_INLINE void copy(const void *src, void *dst) {
  if (src != dst)
    std::memmove(dst, src, Bytes);
}

/// Appends `Inner` contiguous elements of each of `Outer` rows of one input
/// into the concatenated output, whose rows are `OutInner` long.
template <int64_t Outer, int64_t Inner, int64_t OutInner>
inline void concat_part(const float *ONNXCC_RESTRICT src, float *ONNXCC_RESTRICT dst) {
  for (int64_t o = 0; o < Outer; ++o)
    std::memcpy(dst + o * OutInner, src + o * Inner, Inner * sizeof(float));
}

/// y = transpose(x, perm) for a rank-R tensor: `in_strides[d]` is the
/// input stride of output dimension d.
template <int R>
inline void transpose(const int64_t (&out_shape)[R],
                      const int64_t (&in_strides)[R], const float *ONNXCC_RESTRICT x,
                      float *ONNXCC_RESTRICT y) {
  int64_t idx[R] = {};
  int64_t total = 1;
  for (int d = 0; d < R; ++d)
    total *= out_shape[d];
  for (int64_t linear = 0; linear < total; ++linear) {
    int64_t src = 0;
    for (int d = 0; d < R; ++d)
      src += idx[d] * in_strides[d];
    y[linear] = x[src];
    for (int d = R - 1; d >= 0; --d) {
      if (++idx[d] < out_shape[d])
        break;
      idx[d] = 0;
    }
  }
}

/// Softmax over a dimension of extent `Axis` with `Inner` elements after it.
template <int64_t Outer, int64_t Axis, int64_t Inner>
inline void softmax(const float *ONNXCC_RESTRICT x, float *ONNXCC_RESTRICT y) {
  for (int64_t o = 0; o < Outer; ++o)
    for (int64_t i = 0; i < Inner; ++i) {
      const float *xs = x + o * Axis * Inner + i;
      float *ys = y + o * Axis * Inner + i;
      float m = -INFINITY;
      for (int64_t a = 0; a < Axis; ++a)
        m = xs[a * Inner] > m ? xs[a * Inner] : m;
      float sum = 0.0f;
      for (int64_t a = 0; a < Axis; ++a) {
        ys[a * Inner] = std::exp(xs[a * Inner] - m);
        sum += ys[a * Inner];
      }
      for (int64_t a = 0; a < Axis; ++a)
        ys[a * Inner] /= sum;
    }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_LAYOUT_H
