//===- conv_lanes.h - a 1x1 convolution with channels in lanes --*- C++ -*-===//
//
// conv2d_lanes(): kernel.conv2d's `pointwise_lanes`, a 1x1, stride-1,
// unpadded convolution of one group computed as Y^T = X^T W^T: the output
// channels run along the vector lanes and the output positions along the
// register tile's rows. `pointwise` runs the positions along the lanes,
// which over a small map pads each row of outputs to whole vectors: a 7x7
// map's 49 positions are 64 lanes under AVX-512, and mobilenet_v2's 7x7
// layers (576 -> 160 to 320 -> 1280 channels) computed 31% zeros. Their
// output channels are multiples of 16, so in the lanes nothing pads.
//
// The weight is the compiler's (onnxcc-choose-conv-algorithm): W^T in
// panels of kPanelPad output channels, [ceil(O / 32), C, 32], channel o of
// input channel c at packed_at<C, kPanelPad>(c, o), the last panel's
// columns past O zero; gemm_panels' layout, so every ISA reads its
// register panels (two vectors) at their offset in a panel. A register
// tile is R positions x one register panel; the sums of a run of
// positions go through a block on the stack to the output, each
// channel's positions a contiguous run of its plane.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_CONV_LANES_H
#define ONNXCC_RUNTIME_CONV_LANES_H

#include "onnxcc/gemm_packed.h"

namespace onnxcc {
namespace rt {

/// Register panels of a 1x1 convolution's output channels.
template <typename S> struct lanes_shape {
  static_assert(S::G == 1 && S::KH == 1 && S::KW == 1 && S::SH == 1 &&
                    S::SW == 1 && S::PT == 0 && S::PL == 0,
                "pointwise_lanes: a 1x1, stride-1, unpadded convolution");
  static constexpr int64_t kPanels = (S::O + kPanel - 1) / kPanel;
};

/// Partial sums of output channels [o, o + kPanel) at positions [p, p +
/// R) over input channels [c0, c1), added to (or, from c0 = 0, starting)
/// sums[p - p0..][kPanel], p0 the first position the sums hold.
template <int R, typename S>
ONNXCC_INLINE void lanes_tile(const float *ONNXCC_RESTRICT x,
                              const float *ONNXCC_RESTRICT wo,
                              float *ONNXCC_RESTRICT sums, int64_t p,
                              int64_t p0, int64_t c0, int64_t c1) {
  constexpr int64_t P = S::P;
  float *s = sums + (p - p0) * kPanel;
#if ONNXCC_HAS_SIMD
  vfloat acc[R][2];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < 2; ++v)
      acc[r][v] = c0 == 0 ? vfloat(0.0f)
                          : vfloat::load_aligned(s + r * kPanel + v * kVecWidth);
  for (int64_t c = c0; c < c1; ++c) {
    const vfloat b0 = vfloat::load_unaligned(wo + c * kPanelPad),
                 b1 = vfloat::load_unaligned(wo + c * kPanelPad + kVecWidth);
    for (int r = 0; r < R; ++r) {
      const vfloat a(x[c * P + p + r]);
      acc[r][0] = vfma(a, b0, acc[r][0]);
      acc[r][1] = vfma(a, b1, acc[r][1]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < 2; ++v)
      acc[r][v].store_aligned(s + r * kPanel + v * kVecWidth);
#else
  for (int r = 0; r < R; ++r)
    for (int64_t j = 0; j < kPanel; ++j) {
      float a = c0 == 0 ? 0.0f : s[r * kPanel + j];
      for (int64_t c = c0; c < c1; ++c)
        a += x[c * P + p + r] * wo[c * kPanelPad + j];
      s[r * kPanel + j] = a;
    }
#endif
}

/// Input channels per depth block: a block's weights (128 x 32 floats, 16
/// KiB) and input rows stay in L1 while every position tile of the panel
/// reads them. Without blocks a 320 -> 1280 channel 7x7 layer read each
/// panel's 40 KiB of weights from L2 once per tile and lost to
/// `pointwise` (1.11x its time); with blocks of 64, 128 and 256 channels
/// 0.95x, 0.80x, 0.91x (AVX-512).
constexpr int64_t kLanesDepth = 128;

/// Positions whose sums one pass keeps on the stack (16 KiB under
/// AVX-512): a larger map runs in runs of this many.
constexpr int64_t kLanesPositions = 128;

/// Register panels [q_lo, q_hi) x positions [p_lo, p_hi) of one image, in
/// runs of at most kLanesPositions positions: depth blocks through every
/// position tile of the run into `sums`, then each channel's run of
/// positions, finished, to its plane. A tile's sums do not depend on the
/// cut, so neither do the bits.
template <typename S, typename Epi>
inline void lanes_panels(const float *x, const float *w, const float *bias,
                         float *y, int64_t q_lo, int64_t q_hi, int64_t p_lo,
                         int64_t p_hi, Epi epi) {
  constexpr int64_t kc = depth_block(S::C, kLanesDepth);
  constexpr int64_t kRun = S::P < kLanesPositions ? S::P : kLanesPositions;
  alignas(64) float sums[kRun * kPanel];
  for (int64_t q = q_lo; q < q_hi; ++q) {
    const int64_t o = q * kPanel;
    const float *wo = w + packed_at<S::C, kPanelPad>(0, o);
    const int64_t cols = S::O - o < kPanel ? S::O - o : kPanel;
    for (int64_t p0 = p_lo; p0 < p_hi; p0 += kRun) {
      const int64_t p1 = p0 + kRun < p_hi ? p0 + kRun : p_hi;
      for (int64_t c0 = 0; c0 < S::C; c0 += kc) {
        const int64_t c1 = c0 + kc < S::C ? c0 + kc : S::C;
        for_row_tiles<S::P>(p0, p1, [&](auto rows, int64_t p)
                                        ONNXCC_INLINE_LAMBDA {
          lanes_tile<decltype(rows)::value, S>(x, wo, sums, p, p0, c0, c1);
        });
      }
      for (int64_t j = 0; j < cols; ++j) {
        float *yo = y + (o + j) * S::P;
        for (int64_t p = p0; p < p1; ++p)
          yo[p] = finish<true>(sums[(p - p0) * kPanel + j], bias, o + j, 1.0f,
                               1.0f, epi);
      }
    }
  }
}

template <typename S, typename Epi>
inline void conv2d_lanes(const float *x, const float *w, const float *bias,
                         float *y, Epi epi) {
  for (int64_t n = 0; n < S::N; ++n)
    lanes_panels<S>(x + n * S::C * S::P, w, bias, y + n * S::O * S::P, 0,
                    lanes_shape<S>::kPanels, 0, S::P, epi);
}

/// On par's threads: whole register panels where they split evenly or
/// there are at least four a thread, else the positions (mobilenet_v2's
/// 960 -> 160 layer has 5 panels under AVX-512: 3 and 2 a thread).
template <typename S, typename Par, typename Epi>
inline void conv2d_lanes(Par &par, const float *x, const float *w,
                         const float *bias, float *y, Epi epi) {
  constexpr int64_t panels = lanes_shape<S>::kPanels;
  for (int64_t n = 0; n < S::N; ++n)
    par.run([&](int t, int T) {
      const float *xn = x + n * S::C * S::P;
      float *yn = y + n * S::O * S::P;
      if (panels % T == 0 || panels >= 4 * T) {
        const part q = split(panels, t, T);
        lanes_panels<S>(xn, w, bias, yn, q.lo, q.hi, 0, S::P, epi);
      } else {
        const part p = split(S::P, t, T);
        lanes_panels<S>(xn, w, bias, yn, 0, panels, p.lo, p.hi, epi);
      }
    });
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_CONV_LANES_H
