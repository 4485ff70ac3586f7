//===- pool.h - fixed-shape 2-D pooling -------------------------*- C++ -*-===//
//
// Max and average pooling over NCHW. Output sizes (ceil_mode included) are
// decided by the compiler; windows are clamped to the padded input, so a
// ceil_mode window hanging past the edge sees only real elements.
//
// Windows are clamped per output and axis (in_bounds), not tested per tap,
// the loop shape g++ 12 miscompiled in im2col (conv.h); the interior, where
// no clamping is needed, gets constant trip counts and vectorizes.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_POOL_H
#define ONNXCC_RUNTIME_POOL_H

#include "onnxcc/window.h"

namespace onnxcc {
namespace rt {

/// Calls f(o, taps) for each output o in [0, Out) along one axis, taps being
/// the k in [0, K) whose input o*S - P + k*D is inside [0, In). Between the
/// edges that is every k, passed as the constant [0, K) so that the loops
/// over it unroll and vectorize across outputs; that needs f inlined into
/// all three loops, hence ONNXCC_INLINE_LAMBDA on the callers' lambdas.
template <int64_t In, int64_t Out, int64_t K, int64_t S, int64_t P, int64_t D,
          typename F>
ONNXCC_INLINE void for_each_window(F f) {
  constexpr index_range whole = in_bounds(-P, S, In - (K - 1) * D, Out);
  for (int64_t o = 0; o < whole.lo; ++o)
    f(o, in_bounds(o * S - P, D, In, K));
  for (int64_t o = whole.lo; o < whole.hi; ++o)
    f(o, index_range{0, K});
  for (int64_t o = whole.hi; o < Out; ++o)
    f(o, in_bounds(o * S - P, D, In, K));
}

template <int64_t NC, int64_t H, int64_t W, int64_t OH, int64_t OW,
          int64_t KH, int64_t KW, int64_t SH, int64_t SW, int64_t PT,
          int64_t PL, int64_t PB, int64_t PR, int64_t DH, int64_t DW>
inline void max_pool2d(const float *ONNXCC_RESTRICT x, float *ONNXCC_RESTRICT y) {
  for (int64_t c = 0; c < NC; ++c) {
    const float *xc = x + c * H * W;
    float *yc = y + c * OH * OW;
    for_each_window<H, OH, KH, SH, PT, DH>(
        [&](int64_t oh, index_range rows) ONNXCC_INLINE_LAMBDA {
          for_each_window<W, OW, KW, SW, PL, DW>(
              [&](int64_t ow, index_range cols) ONNXCC_INLINE_LAMBDA {
                const int64_t at = (oh * SH - PT) * W + ow * SW - PL;
                float m = -INFINITY;
                for (int64_t kh = rows.lo; kh < rows.hi; ++kh)
                  for (int64_t kw = cols.lo; kw < cols.hi; ++kw) {
                    float v = xc[at + kh * DH * W + kw * DW];
                    m = (v > m || v != v) ? v : m;
                  }
                yc[oh * OW + ow] = m;
              });
        });
  }
}

template <int64_t NC, int64_t H, int64_t W, int64_t OH, int64_t OW,
          int64_t KH, int64_t KW, int64_t SH, int64_t SW, int64_t PT,
          int64_t PL, int64_t PB, int64_t PR, int64_t DH, int64_t DW,
          bool CountIncludePad>
inline void avg_pool2d(const float *ONNXCC_RESTRICT x, float *ONNXCC_RESTRICT y) {
  constexpr int64_t HP = H + PT + PB, WP = W + PL + PR; // the padded image
  for (int64_t c = 0; c < NC; ++c) {
    const float *xc = x + c * H * W;
    float *yc = y + c * OH * OW;
    for_each_window<H, OH, KH, SH, PT, DH>(
        [&](int64_t oh, index_range rows) ONNXCC_INLINE_LAMBDA {
          // Taps inside the padded image; none lies above or left of it.
          const int64_t pad_rows = in_bounds(oh * SH, DH, HP, KH).hi;
          for_each_window<W, OW, KW, SW, PL, DW>(
              [&](int64_t ow, index_range cols) ONNXCC_INLINE_LAMBDA {
                const int64_t at = (oh * SH - PT) * W + ow * SW - PL;
                float s = 0.0f;
                for (int64_t kh = rows.lo; kh < rows.hi; ++kh)
                  for (int64_t kw = cols.lo; kw < cols.hi; ++kw)
                    s += xc[at + kh * DH * W + kw * DW];
                int64_t count = (rows.hi - rows.lo) * (cols.hi - cols.lo);
                if (CountIncludePad)
                  count = pad_rows * in_bounds(ow * SW, DW, WP, KW).hi;
                yc[oh * OW + ow] = count ? s / static_cast<float>(count) : 0.0f;
              });
        });
  }
}

/// Mean over the trailing `Spatial` elements of each of NC channels.
template <int64_t NC, int64_t Spatial>
inline void global_avg_pool(const float *ONNXCC_RESTRICT x, float *ONNXCC_RESTRICT y) {
  for (int64_t c = 0; c < NC; ++c) {
    const float *xc = x + c * Spatial;
    float s = 0.0f;
    for (int64_t i = 0; i < Spatial; ++i)
      s += xc[i];
    y[c] = s / static_cast<float>(Spatial);
  }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_POOL_H
