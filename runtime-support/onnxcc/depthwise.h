//===- depthwise.h - one-channel-per-group convolution ----------*- C++ -*-===//
//
// depthwise2d(): f32 NCHW convolution whose every group is one input and
// one output channel (MobileNet's 3x3 layers), kernel.conv2d's
// `depthwise` algorithm. Each output row accumulates its window's taps in
// registers: between the image edges (for_each_window's interior) a vector
// of kVecWidth outputs takes KH x KW fused multiply-adds from unaligned
// loads at stride 1, or lane by lane at larger strides; at the edges only
// the taps inside the image are summed. No scratch: im2col copied each
// input element KH x KW times to multiply one row of weights.
//
// depthwise2d(par, ...) gives each thread whole channels.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_DEPTHWISE_H
#define ONNXCC_RUNTIME_DEPTHWISE_H

#include "onnxcc/config.h"
#include "onnxcc/parallel.h"
#include "onnxcc/window.h"

namespace onnxcc {
namespace rt {

/// Output (oh, ow) of one channel over the taps kh in rh, kw in rw.
template <typename S>
ONNXCC_INLINE float depthwise_at(const float *xc, const float *wc, float b,
                                 int64_t oh, int64_t ow, index_range rh,
                                 index_range rw) {
  float s = b;
  for (int64_t kh = rh.lo; kh < rh.hi; ++kh)
    for (int64_t kw = rw.lo; kw < rw.hi; ++kw)
      s += xc[(oh * S::SH - S::PT + kh * S::DH) * S::W + ow * S::SW - S::PL +
              kw * S::DW] *
           wc[kh * S::KW + kw];
  return s;
}

/// Channels [u_lo, u_hi) of all images (u = n * C + c).
template <typename S, typename Epi>
inline void depthwise_channels(const float *ONNXCC_RESTRICT x,
                               const float *ONNXCC_RESTRICT w,
                               const float *bias, float *ONNXCC_RESTRICT y,
                               int64_t u_lo, int64_t u_hi, Epi epi) {
  // Outputs whose every column tap is inside the image.
  constexpr index_range cols =
      in_bounds(-S::PL, S::SW, S::W - (S::KW - 1) * S::DW, S::OW);
  for (int64_t u = u_lo; u < u_hi; ++u) {
    const int64_t c = u % S::C;
    const float *xc = x + u * S::H * S::W;
    const float *wc = w + c * S::KH * S::KW;
    float *yc = y + u * S::P;
    const float b = bias[c];
    for (int64_t oh = 0; oh < S::OH; ++oh) {
      const index_range rh = in_bounds(oh * S::SH - S::PT, S::DH, S::H, S::KH);
      float *yr = yc + oh * S::OW;
      auto edge = [&](int64_t ow) ONNXCC_INLINE_LAMBDA {
        yr[ow] = epi(depthwise_at<S>(
            xc, wc, b, oh, ow, rh,
            in_bounds(ow * S::SW - S::PL, S::DW, S::W, S::KW)));
      };
      for (int64_t ow = 0; ow < cols.lo; ++ow)
        edge(ow);
      int64_t ow = cols.lo;
#if ONNXCC_HAS_SIMD
      if constexpr (S::SW == 1)
        for (; ow + kVecWidth <= cols.hi; ow += kVecWidth) {
          vfloat acc(b);
          for (int64_t kh = rh.lo; kh < rh.hi; ++kh) {
            const float *xr =
                xc + (oh * S::SH - S::PT + kh * S::DH) * S::W + ow - S::PL;
            for (int64_t kw = 0; kw < S::KW; ++kw)
              acc = xsimd::fma(vfloat(wc[kh * S::KW + kw]),
                               vfloat::load_unaligned(xr + kw * S::DW), acc);
          }
          epi(acc).store_unaligned(yr + ow);
        }
#endif
      for (; ow < cols.hi; ++ow)
        yr[ow] = epi(depthwise_at<S>(xc, wc, b, oh, ow, rh,
                                     index_range{0, S::KW}));
      for (ow = cols.hi; ow < S::OW; ++ow)
        edge(ow);
    }
  }
}

/// y = epi(depthwise convolution of x with w [C, 1, KH, KW] + bias).
template <typename S, typename Epi>
inline void depthwise2d(const float *x, const float *w, const float *bias,
                        float *y, Epi epi) {
  static_assert(S::G == S::C && S::O == S::C, "one channel per group");
  depthwise_channels<S>(x, w, bias, y, 0, S::N * S::C, epi);
}

template <typename S, typename Par, typename Epi>
inline void depthwise2d(Par &par, const float *x, const float *w,
                        const float *bias, float *y, Epi epi) {
  static_assert(S::G == S::C && S::O == S::C, "one channel per group");
  par.run([&](int t, int T) {
    const part p = split(S::N * S::C, t, T);
    depthwise_channels<S>(x, w, bias, y, p.lo, p.hi, epi);
  });
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_DEPTHWISE_H
