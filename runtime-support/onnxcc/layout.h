//===- layout.h - copies, concat, transpose, softmax ------------*- C++ -*-===//
#ifndef ONNXCC_RUNTIME_LAYOUT_H
#define ONNXCC_RUNTIME_LAYOUT_H

#include "onnxcc/config.h"
#include "onnxcc/parallel.h"
#include "onnxcc/types.h"
#include "onnxcc/vmath.h"

namespace onnxcc {
namespace rt {

template <int64_t Bytes>
ONNXCC_INLINE void copy(const void *src, void *dst) {
  if (src != dst)
    std::memmove(dst, src, Bytes);
}

/// Appends `Inner` contiguous elements of each of `Outer` rows of one input
/// into the concatenated output, whose rows are `OutInner` long.
template <int64_t Outer, int64_t Inner, int64_t OutInner, typename T>
inline void concat_part(const T *ONNXCC_RESTRICT src, T *ONNXCC_RESTRICT dst) {
  for (int64_t o = 0; o < Outer; ++o)
    std::memcpy(dst + o * OutInner, src + o * Inner, Inner * sizeof(T));
}

/// y = transpose(x, perm) for a rank-R tensor: `in_strides[d]` is the
/// input stride of output dimension d.
template <int R, typename T>
inline void transpose(const int64_t (&out_shape)[R],
                      const int64_t (&in_strides)[R], const T *ONNXCC_RESTRICT x,
                      T *ONNXCC_RESTRICT y) {
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

/// softmax() of one contiguous f32 row (the last axis: attention's
/// scores). exp_poly() (vmath.h) replaces libm's expf, a call per element
/// that kept the whole row scalar; the max and the sum run on vectors.
/// A [128 x 32] attention softmax took 28 us, four times ONNX Runtime's.
template <int64_t Axis>
ONNXCC_INLINE void softmax_row(const float *ONNXCC_RESTRICT x,
                               float *ONNXCC_RESTRICT y) {
  float m = -INFINITY, sum = 0.0f;
  int64_t a = 0;
#if ONNXCC_HAS_SIMD
  constexpr int64_t kVectors = Axis / kVecWidth * kVecWidth;
  if constexpr (kVectors > 0) {
    vfloat vm = vfloat::load_unaligned(x);
    for (a = kVecWidth; a < kVectors; a += kVecWidth)
      vm = xsimd::max(vm, vfloat::load_unaligned(x + a));
    m = hmax(vm);
  }
#endif
  for (; a < Axis; ++a)
    m = x[a] > m ? x[a] : m;
  for (a = 0; a < Axis; ++a) // vectorises: exp_poly has no call
    y[a] = exp_poly(x[a] - m);
  a = 0;
#if ONNXCC_HAS_SIMD
  if constexpr (kVectors > 0) {
    vfloat vs(0.0f);
    for (; a < kVectors; a += kVecWidth)
      vs += vfloat::load_unaligned(y + a);
    sum = xsimd::hadd(vs);
  }
#endif
  for (; a < Axis; ++a)
    sum += y[a];
  for (a = 0; a < Axis; ++a) // (a reciprocal's product was slower on SSE2)
    y[a] /= sum;
}

#if ONNXCC_HAS_SIMD
/// softmax() of `Rows` rows of `K` whole vectors each, held in registers.
/// One row is a chain of dependent steps (max, its reduction, exp, the sum,
/// its reduction) about 100 cycles long for 2 vectors; interleaving rows
/// lets them overlap. [128 x 32] on AVX-512: 2.6 -> 1.9 us.
template <int Rows, int64_t K>
ONNXCC_INLINE void softmax_rows_in_registers(const float *ONNXCC_RESTRICT x,
                                             float *ONNXCC_RESTRICT y) {
  vfloat v[Rows][K], scale[Rows];
  for (int r = 0; r < Rows; ++r) {
    vfloat m = v[r][0] = vfloat::load_unaligned(x + r * K * kVecWidth);
    for (int64_t k = 1; k < K; ++k) {
      v[r][k] = vfloat::load_unaligned(x + (r * K + k) * kVecWidth);
      m = xsimd::max(m, v[r][k]);
    }
    scale[r] = vfloat(hmax(m));
  }
  for (int r = 0; r < Rows; ++r) {
    vfloat sum(0.0f);
    for (int64_t k = 0; k < K; ++k) {
      v[r][k] = exp_poly(v[r][k] - scale[r]);
      sum += v[r][k];
    }
    scale[r] = vfloat(1.0f / xsimd::hadd(sum));
  }
  for (int r = 0; r < Rows; ++r)
    for (int64_t k = 0; k < K; ++k)
      (v[r][k] * scale[r]).store_unaligned(y + (r * K + k) * kVecWidth);
}
#endif

/// Rows [4 * first, 4 * (first + groups)) of the last axis, cut at Outer, in
/// groups of four: a group of four whole-vector rows (at most 4 vectors
/// each) goes through registers together, any other row alone. Every row
/// is computed the same whichever group or thread it falls to.
template <int64_t Outer, int64_t Axis>
inline void softmax_row_groups(const float *ONNXCC_RESTRICT x,
                               float *ONNXCC_RESTRICT y, int64_t first,
                               int64_t groups) {
  for (int64_t g = first; g < first + groups; ++g) {
    const int64_t o = 4 * g, rows = Outer - o < 4 ? Outer - o : 4;
#if ONNXCC_HAS_SIMD
    constexpr int64_t K = Axis / kVecWidth;
    if constexpr (Axis % kVecWidth == 0 && K >= 1 && K <= 4) {
      if (rows == 4) {
        softmax_rows_in_registers<4, K>(x + o * Axis, y + o * Axis);
        continue;
      }
      for (int64_t r = 0; r < rows; ++r)
        softmax_rows_in_registers<1, K>(x + (o + r) * Axis, y + (o + r) * Axis);
      continue;
    }
#endif
    for (int64_t r = 0; r < rows; ++r)
      softmax_row<Axis>(x + (o + r) * Axis, y + (o + r) * Axis);
  }
}

/// Softmax over a dimension of extent `Axis` with `Inner` elements after it.
/// Computes in compute_t<T> (float for the 16-bit floats).
template <int64_t Outer, int64_t Axis, int64_t Inner, typename T>
inline void softmax(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y) {
  if constexpr (Inner == 1 && std::is_same<T, float>::value) {
    softmax_row_groups<Outer, Axis>(x, y, 0, (Outer + 3) / 4);
    return;
  }
  using C = compute_t<T>;
  for (int64_t o = 0; o < Outer; ++o)
    for (int64_t i = 0; i < Inner; ++i) {
      const T *xs = x + o * Axis * Inner + i;
      T *ys = y + o * Axis * Inner + i;
      C m = -INFINITY;
      for (int64_t a = 0; a < Axis; ++a)
        m = C(xs[a * Inner]) > m ? C(xs[a * Inner]) : m;
      C sum = 0;
      if constexpr (std::is_same<T, C>::value) { // keep exp() in y
        for (int64_t a = 0; a < Axis; ++a) {
          ys[a * Inner] = std::exp(xs[a * Inner] - m);
          sum += ys[a * Inner];
        }
        for (int64_t a = 0; a < Axis; ++a)
          ys[a * Inner] /= sum;
      } else { // a 16-bit y would round exp(): compute it twice
        for (int64_t a = 0; a < Axis; ++a)
          sum += std::exp(C(xs[a * Inner]) - m);
        for (int64_t a = 0; a < Axis; ++a)
          ys[a * Inner] = store_as<T>(std::exp(C(xs[a * Inner]) - m) / sum);
      }
    }
}

/// softmax() of f32 rows (a last axis) on par's threads, each taking a
/// contiguous run of whole groups of four rows. Attention's two [128 x 32]
/// softmaxes ran on one core while the other waited.
template <int64_t Outer, int64_t Axis, int64_t Inner, typename Par>
inline void softmax(Par &par, const float *ONNXCC_RESTRICT x,
                    float *ONNXCC_RESTRICT y) {
  static_assert(Inner == 1, "only a last axis splits across threads");
  constexpr int64_t kGroups = (Outer + 3) / 4;
  par.run([&](int t, int parts) {
    const part p = split(kGroups, t, parts);
    softmax_row_groups<Outer, Axis>(x, y, p.lo, p.hi - p.lo);
  });
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_LAYOUT_H
