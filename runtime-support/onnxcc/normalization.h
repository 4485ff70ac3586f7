//===- normalization.h - layer/group norm, LRN, log-softmax -----*- C++ -*-===//
//
// Statistics are computed in compute_t<T> (float for f16/bf16/f32, double
// for f64) in two passes over a block, mean then the squared deviations,
// which keeps the variance exact enough without Welford's updates; the
// normalised value is scaled and shifted before the one rounding to T.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_NORMALIZATION_H
#define ONNXCC_RUNTIME_NORMALIZATION_H

#include "onnxcc/config.h"
#include "onnxcc/reduce.h"
#include "onnxcc/types.h"

#include <limits>
#include <type_traits>

namespace onnxcc {
namespace rt {

namespace detail {

/// The mean and 1/sqrt(variance + eps) of x[0..N) (Rms: mean 0 and the
/// root mean square). N == 0 gives NaN for both, as 0/0 does in numpy.
template <int64_t N, bool Rms, typename C, typename T>
ONNXCC_INLINE void block_stats(const T *x, C eps, C &mean, C &inv_std) {
  if constexpr (N == 0) {
    mean = inv_std = std::numeric_limits<C>::quiet_NaN();
  } else {
    C m = C(0);
    if constexpr (!Rms) {
      for (int64_t i = 0; i < N; ++i)
        m += C(x[i]);
      m /= C(N);
    }
    C var = C(0);
    for (int64_t i = 0; i < N; ++i) {
      C d = C(x[i]) - m;
      var += d * d;
    }
    mean = m;
    inv_std = C(1) / std::sqrt(var / C(N) + eps);
  }
}

#if ONNXCC_HAS_SIMD
/// Float rows of two vectors or more sum in vector lanes (reduce.h): a
/// chain of scalar adds let a 32 x 128 LayerNormalization take 6 us.
template <int64_t N, bool Rms>
ONNXCC_INLINE void block_stats(const float *x, float eps, float &mean,
                               float &inv_std) {
  if constexpr (N < 2 * kVecWidth) {
    block_stats<N, Rms, float, float>(x, eps, mean, inv_std);
  } else {
    const float m =
        Rms ? 0.0f : sum_contiguous<reduce_op::sum>(x, N) / float(N);
    mean = m;
    inv_std = 1.0f / std::sqrt(sum_contiguous<reduce_op::sum_square>(x, N, m) /
                                   float(N) +
                               eps);
  }
}
#endif

} // namespace detail

#if ONNXCC_HAS_SIMD
/// y = (x - m) * r * scale (+ bias) over one float row: vectors, then the
/// rest, in the scalar form's order of operations. x may be y (each
/// element is read before it is written).
template <int64_t Inner>
ONNXCC_INLINE void normalize_row(const float *x,
                                 const float *ONNXCC_RESTRICT scale,
                                 const float *ONNXCC_RESTRICT bias, float m,
                                 float r, float *y) {
  constexpr int64_t kMain = Inner / kVecWidth * kVecWidth;
  const vfloat vm(m), vr(r);
  for (int64_t i = 0; i < kMain; i += kVecWidth) {
    vfloat v = (vfloat::load_unaligned(x + i) - vm) * vr *
               vfloat::load_unaligned(scale + i);
    if (bias)
      v += vfloat::load_unaligned(bias + i);
    v.store_unaligned(y + i);
  }
  for (int64_t i = kMain; i < Inner; ++i)
    y[i] = (x[i] - m) * r * scale[i] + (bias ? bias[i] : 0.0f);
}
#endif

namespace detail {
/// One row of layer_norm(): its statistics (stored to *mean and *inv_std
/// when not nullptr), then the normalised, scaled and shifted values. xr
/// may be yr.
template <int64_t Inner, bool Rms, typename T, typename S, typename M>
ONNXCC_INLINE void layer_norm_row(const T *xr, const S *ONNXCC_RESTRICT sr,
                                  const S *ONNXCC_RESTRICT br, float epsilon,
                                  T *yr, M *mean, M *inv_std) {
  using C = compute_t<T>;
  C m, r;
  block_stats<Inner, Rms>(xr, C(epsilon), m, r);
  if (mean)
    *mean = store_as<M>(m);
  if (inv_std)
    *inv_std = store_as<M>(r);
#if ONNXCC_HAS_SIMD
  if constexpr (std::is_same<T, float>::value && std::is_same<S, float>::value) {
    normalize_row<Inner>(xr, sr, br, m, r, yr);
    return;
  }
#endif
  if (br) {
    for (int64_t i = 0; i < Inner; ++i)
      yr[i] = store_as<T>((C(xr[i]) - m) * r * C(compute_t<S>(sr[i])) +
                          C(compute_t<S>(br[i])));
  } else {
    for (int64_t i = 0; i < Inner; ++i)
      yr[i] = store_as<T>((C(xr[i]) - m) * r * C(compute_t<S>(sr[i])));
  }
}
} // namespace detail

/// LayerNormalization and RMSNormalization: each of `Outer` rows of `Inner`
/// elements is normalised, then multiplied by scale and shifted by bias
/// (nullptr: none). Scale and bias advance by their RowStride per row: 0
/// when one row serves all, Inner when they have the input's shape. The
/// row statistics go to mean and inv_std when not nullptr.
template <int64_t Outer, int64_t Inner, bool Rms, int64_t ScaleRowStride,
          int64_t BiasRowStride, typename T, typename S, typename M>
inline void layer_norm(const T *ONNXCC_RESTRICT x, const S *ONNXCC_RESTRICT scale,
                       const S *ONNXCC_RESTRICT bias, float epsilon,
                       T *ONNXCC_RESTRICT y, M *ONNXCC_RESTRICT mean,
                       M *ONNXCC_RESTRICT inv_std) {
  for (int64_t o = 0; o < Outer; ++o)
    detail::layer_norm_row<Inner, Rms>(
        x + o * Inner, scale + o * ScaleRowStride,
        bias ? bias + o * BiasRowStride : nullptr, epsilon, y + o * Inner,
        mean ? mean + o : nullptr, inv_std ? inv_std + o : nullptr);
}

/// layer_norm() of x + skip (a transformer's residual Add, ONNX Runtime's
/// SkipLayerNormalization): each row's sum is rounded to T into y, as the
/// Add would store it, then normalised there while it is in L1. One pass
/// fewer over the activations; at two threads, the Add read the half of
/// the GEMM output the other core wrote, 1.6 us a time in tiny_transformer.
template <int64_t Outer, int64_t Inner, bool Rms, int64_t ScaleRowStride,
          int64_t BiasRowStride, typename T, typename S, typename M>
inline void layer_norm_skip(const T *ONNXCC_RESTRICT x,
                            const T *ONNXCC_RESTRICT skip,
                            const S *ONNXCC_RESTRICT scale,
                            const S *ONNXCC_RESTRICT bias, float epsilon,
                            T *ONNXCC_RESTRICT y, M *ONNXCC_RESTRICT mean,
                            M *ONNXCC_RESTRICT inv_std) {
  using C = compute_t<T>;
  for (int64_t o = 0; o < Outer; ++o) {
    T *yr = y + o * Inner;
    for (int64_t i = 0; i < Inner; ++i) // vectorises: a plain sum
      yr[i] = store_as<T>(C(x[o * Inner + i]) + C(skip[o * Inner + i]));
    detail::layer_norm_row<Inner, Rms>(
        yr, scale + o * ScaleRowStride,
        bias ? bias + o * BiasRowStride : nullptr, epsilon, yr,
        mean ? mean + o : nullptr, inv_std ? inv_std + o : nullptr);
  }
}

/// GroupNormalization and InstanceNormalization of [N, Channels, Spatial]:
/// each group of Channels/Groups channels of each instance is normalised,
/// then scaled and shifted per channel.
template <int64_t N, int64_t Channels, int64_t Groups, int64_t Spatial, typename T>
inline void group_norm(const T *ONNXCC_RESTRICT x, const T *ONNXCC_RESTRICT scale,
                       const T *ONNXCC_RESTRICT bias, float epsilon,
                       T *ONNXCC_RESTRICT y) {
  using C = compute_t<T>;
  constexpr int64_t kPerGroup = Channels / Groups;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t g = 0; g < Groups; ++g) {
      const int64_t at = (n * Channels + g * kPerGroup) * Spatial;
      C m, r;
      detail::block_stats<kPerGroup * Spatial, false>(x + at, C(epsilon), m, r);
      for (int64_t c = 0; c < kPerGroup; ++c) {
        const int64_t ch = g * kPerGroup + c;
        const C s = C(scale[ch]) * r, b = C(bias[ch]);
        const T *xc = x + at + c * Spatial;
        T *yc = y + at + c * Spatial;
        for (int64_t i = 0; i < Spatial; ++i)
          yc[i] = store_as<T>((C(xc[i]) - m) * s + b);
      }
    }
}

/// LRN over [N, Channels, Spatial]: x / (bias + alpha/Size * sum of the
/// squares over the channel window [c - floor((Size-1)/2),
/// c + ceil((Size-1)/2)], cut at the edges) ^ beta.
template <int64_t N, int64_t Channels, int64_t Spatial, int64_t Size, typename T>
inline void lrn(const T *ONNXCC_RESTRICT x, float alpha, float beta, float bias,
                T *ONNXCC_RESTRICT y) {
  using C = compute_t<T>;
  constexpr int64_t kBefore = (Size - 1) / 2, kAfter = Size / 2; // ceil((Size-1)/2)
  const C scale = C(alpha) / C(Size);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < Channels; ++c) {
      const int64_t lo = c < kBefore ? 0 : c - kBefore;
      const int64_t hi = Channels - 1 - c < kAfter ? Channels - 1 : c + kAfter;
      const T *xn = x + n * Channels * Spatial;
      T *yc = y + (n * Channels + c) * Spatial;
      for (int64_t i = 0; i < Spatial; ++i) {
        C sum = C(0);
        for (int64_t k = lo; k <= hi; ++k) {
          C v = C(xn[k * Spatial + i]);
          sum += v * v;
        }
        yc[i] = store_as<T>(C(xn[c * Spatial + i]) /
                            std::pow(C(bias) + scale * sum, C(beta)));
      }
    }
}

/// y = x - max - log(sum(exp(x - max))) along Axis of [Outer, Axis, Inner].
template <int64_t Outer, int64_t Axis, int64_t Inner, typename T>
inline void log_softmax(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y) {
  using C = compute_t<T>;
  for (int64_t o = 0; o < Outer; ++o)
    for (int64_t i = 0; i < Inner; ++i) {
      const T *xs = x + o * Axis * Inner + i;
      T *ys = y + o * Axis * Inner + i;
      C m = -std::numeric_limits<C>::infinity();
      for (int64_t a = 0; a < Axis; ++a)
        m = C(xs[a * Inner]) > m ? C(xs[a * Inner]) : m;
      C sum = C(0);
      for (int64_t a = 0; a < Axis; ++a)
        sum += std::exp(C(xs[a * Inner]) - m);
      // (x - m) - log(sum), not x - (m + log(sum)): m + log(sum) would
      // round away the small log(sum) next to a large m.
      const C log_sum = std::log(sum);
      for (int64_t a = 0; a < Axis; ++a)
        ys[a * Inner] = store_as<T>((C(xs[a * Inner]) - m) - log_sum);
    }
}

/// y = 1 at the first largest element along Axis of [Outer, Axis, Inner]
/// (a NaN counts as the largest, as in numpy's argmax), 0 elsewhere.
template <int64_t Outer, int64_t Axis, int64_t Inner, typename T>
inline void hardmax(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y) {
  using C = compute_t<T>;
  for (int64_t o = 0; o < Outer; ++o)
    for (int64_t i = 0; i < Inner; ++i) {
      const T *xs = x + o * Axis * Inner + i;
      T *ys = y + o * Axis * Inner + i;
      int64_t best_at = 0;
      C best = Axis > 0 ? C(xs[0]) : C(0);
      for (int64_t a = 1; a < Axis; ++a) {
        C v = C(xs[a * Inner]);
        if (best == best && (v > best || v != v)) {
          best = v;
          best_at = a;
        }
      }
      for (int64_t a = 0; a < Axis; ++a)
        ys[a * Inner] = store_as<T>(C(a == best_at ? 1 : 0));
    }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_NORMALIZATION_H
