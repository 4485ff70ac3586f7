//===- depthwise.h - one-channel-per-group convolution ----------*- C++ -*-===//
//
// depthwise2d(): f32 NCHW convolution whose every group is one input and
// one output channel (MobileNet's 3x3 layers), kernel.conv2d's
// `depthwise` algorithm. Each output row accumulates its window's taps in
// registers: between the image edges (for_each_window's interior) a vector
// of kVecWidth outputs takes KH x KW fused multiply-adds from unaligned
// loads at stride 1, or lane by lane at larger strides. Each output row
// first copies its input rows into a zero-padded buffer on the stack (at
// most 16 KiB, else the taps are read from x and only the interior is
// vectorised), so the edges and small maps take the same path. No
// planned scratch: im2col copied each input element KH x KW times to
// multiply one row of weights.
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

/// Calls f(xc, wc, yc, b) for channels [u_lo, u_hi) of all images (u =
/// n * C + c): the channel's input and output planes, weights and bias.
template <typename S, typename F>
ONNXCC_INLINE void for_each_channel(const float *x, const float *w,
                                    const float *bias, float *y, int64_t u_lo,
                                    int64_t u_hi, F f) {
  for (int64_t u = u_lo; u < u_hi; ++u) {
    const int64_t c = u % S::C;
    f(x + u * S::H * S::W, w + c * S::KH * S::KW, y + u * S::P, bias[c]);
  }
}

/// Channels [u_lo, u_hi) of all images (u = n * C + c), reading taps
/// straight from x: only the interior of each row is vectorised.
template <typename S, typename Epi>
inline void depthwise_direct(const float *ONNXCC_RESTRICT x,
                             const float *ONNXCC_RESTRICT w, const float *bias,
                             float *ONNXCC_RESTRICT y, int64_t u_lo,
                             int64_t u_hi, Epi epi) {
  // Outputs whose every column tap is inside the image.
  constexpr index_range cols =
      in_bounds(-S::PL, S::SW, S::W - (S::KW - 1) * S::DW, S::OW);
  auto channel = [&](const float *ONNXCC_RESTRICT xc, const float *wc,
                     float *ONNXCC_RESTRICT yc, float b) ONNXCC_INLINE_LAMBDA {
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
  };
  for_each_channel<S>(x, w, bias, y, u_lo, u_hi, channel);
}

/// The row buffer of depthwise_padded(): the left padding, the image row,
/// the right padding and a vector of slack, so that every output's taps,
/// and every vector of outputs, read inside it.
template <typename S> struct depthwise_rows {
  static constexpr int64_t last = (S::OW - 1) * S::SW + (S::KW - 1) * S::DW;
  static constexpr int64_t width =
      (last + 1 > S::PL + S::W ? last + 1 : S::PL + S::W) + kVecWidth;
  /// Stack bytes it takes: the padded path runs while this is small.
  static constexpr int64_t bytes = S::KH * width * 4;
};

/// As depthwise_direct(), but each output row first copies its KH input
/// rows into a zero-padded buffer on the stack: every output then takes
/// its whole window without bounds, so small maps (MobileNet's 7x7 and
/// 14x14 5x5 layers, where the interior is a few columns) vectorise too.
template <typename S, typename Epi>
inline void depthwise_padded(const float *ONNXCC_RESTRICT x,
                             const float *ONNXCC_RESTRICT w, const float *bias,
                             float *ONNXCC_RESTRICT y, int64_t u_lo,
                             int64_t u_hi, Epi epi) {
  using R = depthwise_rows<S>;
  alignas(64) float rows[S::KH][R::width];
  for (int64_t kh = 0; kh < S::KH; ++kh)
    for (int64_t i = 0; i < R::width; ++i)
      rows[kh][i] = 0.0f; // the padding stays 0
  auto channel = [&](const float *ONNXCC_RESTRICT xc, const float *wc,
                     float *ONNXCC_RESTRICT yc, float b) ONNXCC_INLINE_LAMBDA {
    for (int64_t oh = 0; oh < S::OH; ++oh) {
      const index_range rh = in_bounds(oh * S::SH - S::PT, S::DH, S::H, S::KH);
      for (int64_t kh = rh.lo; kh < rh.hi; ++kh) {
        const float *xr = xc + (oh * S::SH - S::PT + kh * S::DH) * S::W;
        for (int64_t i = 0; i < S::W; ++i)
          rows[kh][S::PL + i] = xr[i];
      }
      float *yr = yc + oh * S::OW;
      int64_t ow = 0;
#if ONNXCC_HAS_SIMD
      if constexpr (S::SW == 1)
        for (; ow + kVecWidth <= S::OW; ow += kVecWidth) {
          vfloat acc(b);
          for (int64_t kh = rh.lo; kh < rh.hi; ++kh)
            for (int64_t kw = 0; kw < S::KW; ++kw)
              acc = xsimd::fma(
                  vfloat(wc[kh * S::KW + kw]),
                  vfloat::load_unaligned(&rows[kh][ow + kw * S::DW]), acc);
          epi(acc).store_unaligned(yr + ow);
        }
#endif
      for (; ow < S::OW; ++ow) {
        float s = b;
        for (int64_t kh = rh.lo; kh < rh.hi; ++kh)
          for (int64_t kw = 0; kw < S::KW; ++kw)
            s += rows[kh][ow * S::SW + kw * S::DW] * wc[kh * S::KW + kw];
        yr[ow] = epi(s);
      }
    }
  };
  for_each_channel<S>(x, w, bias, y, u_lo, u_hi, channel);
}

/// Channels [u_lo, u_hi): the padded rows when they fit 16 KiB of stack
/// and the left padding is not negative, else straight from x.
template <typename S, typename Epi>
ONNXCC_INLINE void depthwise_channels(const float *x, const float *w,
                                      const float *bias, float *y,
                                      int64_t u_lo, int64_t u_hi, Epi epi) {
  if constexpr (depthwise_rows<S>::bytes <= 16384 && S::PL >= 0)
    depthwise_padded<S>(x, w, bias, y, u_lo, u_hi, epi);
  else
    depthwise_direct<S>(x, w, bias, y, u_lo, u_hi, epi);
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
