//===- conv_lanes.h - convolutions with channels in lanes ------*- C++ -*-===//
//
// kernel.conv2d's `pointwise_lanes` and `im2col_lanes`: a convolution of
// one group computed as Y^T = X^T W^T, the output channels along the
// vector lanes and the output positions along the register tile's rows.
// `pointwise` and `im2col` run the positions along the lanes, which over a
// small map pads each row of outputs to whole vectors: a 7x7 map's 49
// positions are 64 lanes under AVX-512, and mobilenet_v2's 7x7 layers
// (576 -> 160 to 320 -> 1280 channels) computed 31% zeros. Their output
// channels are multiples of 16, so in the lanes nothing pads.
//
// X is K rows of P positions, row-major: for `pointwise_lanes` (1x1,
// stride 1, unpadded) the input itself; for `im2col_lanes` the rows
// im2row() writes into the scratch, Kdim = C * KH * KW of them, each one
// tap's view of the map (resnet18's stride-2 3x3 layers over 14x14 and
// 7x7 maps). Packing im2col's columns in panels cost those layers more
// than the row copy (117 against 30 us at 256 -> 512 channels over 7x7,
// AVX-512), and the panel of 32 padded 49 columns to 64.
//
// The weight is the compiler's (onnxcc-choose-conv-algorithm): W^T in
// panels of kPanelPad output channels, [ceil(O / 32), K, 32] (im2col_lanes:
// [ceil(O / 32), C, KH, KW, 32], the same floats), channel o of row k at
// packed_at<K, kPanelPad>(k, o), the last panel's columns past O zero;
// gemm_panels' layout, so every ISA reads its register panels (two
// vectors) at their offset in a panel. A register tile is R positions x
// one register panel; the sums of a run of positions go through a block
// on the stack to the output, each channel's positions a contiguous run
// of its plane.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_CONV_LANES_H
#define ONNXCC_RUNTIME_CONV_LANES_H

#include "onnxcc/gemm_packed.h"
#include "onnxcc/window.h"

namespace onnxcc {
namespace rt {

/// The product of one image: O output channels at P positions over K rows
/// of X, and the register panels of the output channels.
template <int64_t K_, int64_t P_, int64_t O_> struct lanes_dims {
  static constexpr int64_t K = K_, P = P_, O = O_;
  static constexpr int64_t kPanels = (O + kPanel - 1) / kPanel;
};

/// How many rows of W^T ahead (rows of kPanelPad floats, 128 bytes) the
/// first tile of a depth block asks for: a model's weights are read once a
/// call, from DRAM or a shared L3, and the hardware prefetcher, which stops
/// at each 4 KiB page, left resnet18's 256 -> 512 channel stride-2 layer
/// (4.7 MB of weights) at 1260 us with cold weights against 830 warm.
constexpr int64_t kLanesPrefetchRows = 64;

/// Partial sums of output channels [o, o + kPanel) at positions [p, p +
/// R) over rows [c0, c1) of X, added to (or, from c0 = 0, starting)
/// sums[p - p0..][kPanel], p0 the first position the sums hold. With
/// `lead`, asks for the weight rows kLanesPrefetchRows ahead, short of
/// `wend`.
template <int R, typename D>
ONNXCC_INLINE void lanes_tile(const float *ONNXCC_RESTRICT x,
                              const float *ONNXCC_RESTRICT wo,
                              float *ONNXCC_RESTRICT sums, int64_t p,
                              int64_t p0, int64_t c0, int64_t c1, bool lead,
                              const float *wend) {
  constexpr int64_t P = D::P;
  float *s = sums + (p - p0) * kPanel;
#if ONNXCC_HAS_SIMD
  vfloat acc[R][2];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < 2; ++v)
      acc[r][v] = c0 == 0 ? vfloat(0.0f)
                          : vfloat::load_aligned(s + r * kPanel + v * kVecWidth);
  for (int64_t c = c0; c < c1; ++c) {
    if (lead && wend - (wo + c * kPanelPad) > kLanesPrefetchRows * kPanelPad)
      for (int64_t l = 0; l < kPanel; l += kLineFloats)
        prefetch_read(wo + (c + kLanesPrefetchRows) * kPanelPad + l);
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
  (void)lead;
  (void)wend;
  for (int r = 0; r < R; ++r)
    for (int64_t j = 0; j < kPanel; ++j) {
      float a = c0 == 0 ? 0.0f : s[r * kPanel + j];
      for (int64_t c = c0; c < c1; ++c)
        a += x[c * P + p + r] * wo[c * kPanelPad + j];
      s[r * kPanel + j] = a;
    }
#endif
}

/// The sums of positions [p0, p1) of the register panel at channel o
/// (kPanel channels a position, `cols` of them real), finished, to each
/// channel's run of positions in its plane. Under SIMD a whole panel's
/// positions finish as vectors (the bias along the lanes) and 4 x 4 tiles
/// through registers turn them into the planes' runs: element by element,
/// reading the sums at stride kPanel, the store took 16% of squeezenet1_1's
/// 512 -> 1000 channel classifier (AVX-512).
template <typename D, typename Epi>
ONNXCC_INLINE void lanes_store(float *ONNXCC_RESTRICT sums,
                               const float *bias, float *ONNXCC_RESTRICT y,
                               int64_t o, int64_t cols, int64_t p0,
                               int64_t p1, Epi epi) {
  int64_t p = p0;
#if ONNXCC_HAS_SIMD
  using v4 = vfloat_upto<4>;
  static_assert(v4::size == 4 && kPanel % 4 == 0, "4 x 4 tiles");
  if (cols == kPanel) {
    for (int64_t q = 0; q < p1 - p0; ++q)
      for (int64_t v = 0; v < kPanel; v += kVecWidth) {
        float *s = sums + q * kPanel + v;
        finish_vec<true>(vfloat::load_aligned(s), bias, o + v, true, 1.0f,
                         1.0f, epi)
            .store_aligned(s);
      }
    for (; p + 4 <= p1; p += 4) {
      const float *s = sums + (p - p0) * kPanel;
      for (int64_t j = 0; j < kPanel; j += 4) {
        const v4 a = v4::load_aligned(s + j),
                 b = v4::load_aligned(s + kPanel + j),
                 c = v4::load_aligned(s + 2 * kPanel + j),
                 d = v4::load_aligned(s + 3 * kPanel + j);
        const v4 ac_lo = xsimd::zip_lo(a, c), ac_hi = xsimd::zip_hi(a, c);
        const v4 bd_lo = xsimd::zip_lo(b, d), bd_hi = xsimd::zip_hi(b, d);
        float *out = y + (o + j) * D::P + p;
        xsimd::zip_lo(ac_lo, bd_lo).store_unaligned(out);
        xsimd::zip_hi(ac_lo, bd_lo).store_unaligned(out + D::P);
        xsimd::zip_lo(ac_hi, bd_hi).store_unaligned(out + 2 * D::P);
        xsimd::zip_hi(ac_hi, bd_hi).store_unaligned(out + 3 * D::P);
      }
    }
    for (int64_t j = 0; j < kPanel; ++j)
      for (int64_t q = p; q < p1; ++q)
        y[(o + j) * D::P + q] = sums[(q - p0) * kPanel + j];
    return;
  }
#endif
  for (int64_t j = 0; j < cols; ++j) {
    float *yo = y + (o + j) * D::P;
    for (int64_t q = p; q < p1; ++q)
      yo[q] = finish<true>(sums[(q - p0) * kPanel + j], bias, o + j, 1.0f,
                           1.0f, epi);
  }
}

/// Rows of X (input channels, or im2col's rows) per depth block: a block's
/// weights (128 x 32 floats, 16 KiB) and rows of X stay in L1 while every
/// position tile of the panel reads them. Without blocks a 320 -> 1280 channel 7x7 layer read each
/// panel's 40 KiB of weights from L2 once per tile and lost to
/// `pointwise` (1.11x its time); with blocks of 64, 128 and 256 channels
/// 0.95x, 0.80x, 0.91x (AVX-512).
constexpr int64_t kLanesDepth = 128;

/// Positions whose sums one pass keeps on the stack (16 KiB under
/// AVX-512): a larger map runs in runs of this many.
constexpr int64_t kLanesPositions = 128;

/// Maps of at most this many positions (14x14) run in one pass, their
/// sums 25 KiB, cut into near-equal register tiles
/// (for_balanced_row_tiles()). In runs of 128, squeezenet1_1's 13x13
/// classifier (512 -> 1000 channels) ended each panel in tiles of 4, 4,
/// and 5 positions, and mobilenet_v2's 7x7 layers in 6, 4 and 3, whose B
/// loads per multiply-add are up to three times a full tile's: in one
/// pass, 743 -> 699 us and 193 -> 164 us at 320 -> 1280 channels over
/// 7x7 (AVX-512; AVX2's 6-row tiles left no such tails, and ran the same).
constexpr int64_t kLanesWholeMap = 196;

/// Register panels [q_lo, q_hi) x positions [p_lo, p_hi) of one image, in
/// runs of at most kLanesPositions positions (a whole map of at most
/// kLanesWholeMap in one run): depth blocks through every
/// position tile of the run into `sums`, then each channel's run of
/// positions, finished, to its plane. A tile's sums do not depend on the
/// cut, so neither do the bits.
template <typename D, typename Epi>
inline void lanes_panels(const float *x, const float *w, const float *bias,
                         float *y, int64_t q_lo, int64_t q_hi, int64_t p_lo,
                         int64_t p_hi, Epi epi) {
  constexpr int64_t kc = depth_block(D::K, kLanesDepth);
  constexpr bool kWhole = D::P <= kLanesWholeMap;
  constexpr int64_t kRun = kWhole ? D::P : kLanesPositions;
  const float *wend = w + D::kPanels * kPanel * D::K; // this ISA's panels
  alignas(64) float sums[kRun * kPanel];
  for (int64_t q = q_lo; q < q_hi; ++q) {
    const int64_t o = q * kPanel;
    const float *wo = w + packed_at<D::K, kPanelPad>(0, o);
    const int64_t cols = D::O - o < kPanel ? D::O - o : kPanel;
    for (int64_t p0 = p_lo; p0 < p_hi; p0 += kRun) {
      const int64_t p1 = p0 + kRun < p_hi ? p0 + kRun : p_hi;
      for (int64_t c0 = 0; c0 < D::K; c0 += kc) {
        const int64_t c1 = c0 + kc < D::K ? c0 + kc : D::K;
        auto tile = [&](auto rows, int64_t p) ONNXCC_INLINE_LAMBDA {
          lanes_tile<decltype(rows)::value, D>(x, wo, sums, p, p0, c0, c1,
                                               p == p0, wend);
        };
        if (kWhole && p0 == 0 && p1 == D::P)
          for_balanced_row_tiles<D::P>(tile);
        else // a thread's share of the positions
          for_row_tiles<D::P>(p0, p1, tile);
      }
      lanes_store<D>(sums, bias, y, o, cols, p0, p1, epi);
    }
  }
}

/// One image's product on par's threads (run_units): whole register
/// panels where they split evenly or there are at least four a thread,
/// else runs of positions, about four a thread in whole register tiles
/// (mobilenet_v2's 960 -> 160 layer has 5 panels under AVX-512: 3 and 2
/// a thread).
template <typename D, typename Par, typename Epi>
inline void lanes_image(Par &par, const float *x, const float *w,
                        const float *bias, float *y, Epi epi) {
  constexpr int64_t T = Par::kThreads;
  if constexpr (D::kPanels % T == 0 || D::kPanels >= 4 * T) {
    run_units(par, D::kPanels, [&](int64_t q) {
      lanes_panels<D>(x, w, bias, y, q, q + 1, 0, D::P, epi);
    });
  } else {
    constexpr int64_t tiles = (D::P + kTileRows - 1) / kTileRows;
    run_runs(par, tiles, [&](int64_t lo, int64_t hi) {
      lanes_panels<D>(x, w, bias, y, 0, D::kPanels, lo * kTileRows,
                      hi == tiles ? D::P : hi * kTileRows, epi);
    });
  }
}

/// `pointwise_lanes`: the input planes are X.
template <typename S> struct pointwise_lanes_dims : lanes_dims<S::C, S::P, S::O> {
  static_assert(S::G == 1 && S::KH == 1 && S::KW == 1 && S::SH == 1 &&
                    S::SW == 1 && S::PT == 0 && S::PL == 0,
                "pointwise_lanes: a 1x1, stride-1, unpadded convolution");
};

template <typename S, typename Epi>
inline void conv2d_lanes(const float *x, const float *w, const float *bias,
                         float *y, Epi epi) {
  using D = pointwise_lanes_dims<S>;
  for (int64_t n = 0; n < S::N; ++n)
    lanes_panels<D>(x + n * S::C * S::P, w, bias, y + n * S::O * S::P, 0,
                    D::kPanels, 0, S::P, epi);
}

template <typename S, typename Par, typename Epi>
inline void conv2d_lanes(Par &par, const float *x, const float *w,
                         const float *bias, float *y, Epi epi) {
  for (int64_t n = 0; n < S::N; ++n)
    lanes_image<pointwise_lanes_dims<S>>(par, x + n * S::C * S::P, w, bias,
                                         y + n * S::O * S::P, epi);
}

/// Rows [c_lo * KH * KW, c_hi * KH * KW) of im2col(x), row-major: row
/// (c * KH + kh) * KW + kw, position oh * OW + ow holds
/// x[c][oh * SH - PT + kh * DH][ow * SW - PL + kw * DW], 0 outside the
/// image. Each output row is zeros, a strided copy and zeros, split where
/// in_bounds says, so no loop tests bounds per element.
template <typename S>
inline void im2row(const float *ONNXCC_RESTRICT x, float *ONNXCC_RESTRICT rows,
                   int64_t c_lo, int64_t c_hi) {
  for (int64_t c = c_lo; c < c_hi; ++c)
    for (int64_t kh = 0; kh < S::KH; ++kh) {
      const int64_t ih0 = kh * S::DH - S::PT; // input row of output row 0
      const index_range r = in_bounds(ih0, S::SH, S::H, S::OH);
      for (int64_t kw = 0; kw < S::KW; ++kw) {
        const int64_t iw0 = kw * S::DW - S::PL; // input column of output 0
        const index_range cols = in_bounds(iw0, S::SW, S::W, S::OW);
        float *out = rows + ((c * S::KH + kh) * S::KW + kw) * S::P;
        for (int64_t i = 0; i < r.lo * S::OW; ++i)
          out[i] = 0.0f;
        for (int64_t oh = r.lo; oh < r.hi; ++oh) {
          float *o = out + oh * S::OW;
          // Offsets from the row's start: the first tap may lie before x.
          const float *src = x + (c * S::H + ih0 + oh * S::SH) * S::W;
          for (int64_t ow = 0; ow < cols.lo; ++ow)
            o[ow] = 0.0f;
          for (int64_t ow = cols.lo; ow < cols.hi; ++ow)
            o[ow] = src[iw0 + ow * S::SW];
          for (int64_t ow = cols.hi; ow < S::OW; ++ow)
            o[ow] = 0.0f;
        }
        for (int64_t i = r.hi * S::OW; i < S::P; ++i)
          out[i] = 0.0f;
      }
    }
}

/// `im2col_lanes`: im2row() into the scratch (Kdim x P floats), then the
/// product over its rows.
template <typename S>
struct im2col_lanes_dims : lanes_dims<S::Kdim, S::P, S::O> {
  static_assert(S::G == 1, "im2col_lanes: a convolution of one group");
};

template <typename S, typename Epi>
inline void conv2d_im2col_lanes(const float *x, const float *w,
                                const float *bias, float *y, float *scratch,
                                Epi epi) {
  using D = im2col_lanes_dims<S>;
  for (int64_t n = 0; n < S::N; ++n) {
    im2row<S>(x + n * S::C * S::H * S::W, scratch, 0, S::C);
    lanes_panels<D>(scratch, w, bias, y + n * S::O * S::P, 0, D::kPanels, 0,
                    S::P, epi);
  }
}

/// On par's threads: input channels of im2row, then the product.
template <typename S, typename Par, typename Epi>
inline void conv2d_im2col_lanes(Par &par, const float *x, const float *w,
                                const float *bias, float *y, float *scratch,
                                Epi epi) {
  for (int64_t n = 0; n < S::N; ++n) {
    const float *xn = x + n * S::C * S::H * S::W;
    par.run([&](int t, int T) {
      const part p = split(S::C, t, T);
      im2row<S>(xn, scratch, p.lo, p.hi);
    });
    lanes_image<im2col_lanes_dims<S>>(par, scratch, w, bias,
                                      y + n * S::O * S::P, epi);
  }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_CONV_LANES_H
