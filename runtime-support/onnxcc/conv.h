//===- conv.h - fixed-shape convolutions ------------------------*- C++ -*-===//
//
// conv2d(): f32 NCHW convolution by the algorithm the compiler chose
// (kernel.conv2d's `algorithm`): `im2col`, GEMM per image and group, Y_g =
// W_g * col(X_g), where col() is im2col into the caller's scratch (planned
// in the arena), written in the packed panels of gemm_packed.h;
// `pointwise`, a 1x1, stride-1, unpadded convolution multiplying the input
// directly; `winograd`, a 3x3 stride-1 one as Winograd F(2,3) (winograd.h)
// on weights the compiler transformed; `implicit_gemm`, an ungrouped one
// whose GEMM reads its columns from padded input planes (conv_implicit.h);
// `pointwise_split_depth`, a pointwise one whose threads split its input
// channels (conv_split_depth.h: kernel.conv2d's `split_depth`);
// `pointwise_lanes`, a pointwise one with its output channels in the
// vector lanes, on W^T the compiler packed, and `im2col_lanes`, any
// ungrouped one the same way over im2col's rows (conv_lanes.h).
//
// conv2d(par, ...) runs on par's threads (parallel.h). An ungrouped
// convolution splits its im2col by channel, then its GEMM by tile; a
// grouped one gives each thread whole groups and its own copy of the
// scratch (the planner reserves Par::kThreads copies: kernel.conv2d's
// `threads`).
//
// conv_direct(): any numeric type, 1 to 3 axes (`axis`, window.h), each
// output the sum over its window's taps inside the input, in accum_t
// (linalg.h: compute_t for floats, wrapping unsigned for integers).
// conv_transpose() and col2im(): scatters, each input row added to the
// output row its tap reaches, the rows in range computed per tap
// (scatter_range); they accumulate in T, so 16-bit floats come as f32.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_CONV_H
#define ONNXCC_RUNTIME_CONV_H

#include "onnxcc/conv_implicit.h"
#include "onnxcc/conv_lanes.h"
#include "onnxcc/conv_split_depth.h"
#include "onnxcc/gemm.h"
#include "onnxcc/gemm_packed.h"
#include "onnxcc/linalg.h"
#include "onnxcc/types.h"
#include "onnxcc/winograd.h"
#include "onnxcc/window.h"

#include <cmath>

namespace onnxcc {
namespace rt {

/// Geometry of one convolution, all compile-time.
template <int64_t N_, int64_t C_, int64_t H_, int64_t W_, int64_t O_,
          int64_t KH_, int64_t KW_, int64_t OH_, int64_t OW_, int64_t SH_,
          int64_t SW_, int64_t PT_, int64_t PL_, int64_t DH_, int64_t DW_,
          int64_t G_>
struct conv_shape {
  static constexpr int64_t N = N_, C = C_, H = H_, W = W_, O = O_, KH = KH_,
                           KW = KW_, OH = OH_, OW = OW_, SH = SH_, SW = SW_,
                           PT = PT_, PL = PL_, DH = DH_, DW = DW_, G = G_;
  static constexpr int64_t Cg = C / G, Og = O / G, P = OH * OW,
                           Kdim = Cg * KH * KW;
};

/// Writes n < 2 * Piece values src[0], src[s], ... (zeros when src is
/// null) as pieces of fixed sizes Piece, Piece / 2, ..., 1: compilers turn
/// a loop of run-time length into a memmove or memset call, which costs
/// more than these short copies (an 8x8 image's rows are 8 long).
template <int64_t Piece>
ONNXCC_INLINE void put_pieces(float *dst, const float *src, int64_t s,
                              int64_t n) {
  if constexpr (Piece >= 1) {
    if (n & Piece) {
      if (src) {
        for (int64_t i = 0; i < Piece; ++i)
          dst[i] = src[i * s];
        src += Piece * s;
      } else {
        for (int64_t i = 0; i < Piece; ++i)
          dst[i] = 0.0f;
      }
      dst += Piece;
    }
    put_pieces<Piece / 2>(dst, src, s, n);
  }
}

/// Writes one row of a packed operand (gemm_packed.h) in column order:
/// runs of values cut where panels end.
template <int64_t K> struct packed_cursor {
  float *at;        ///< the current panel's row
  int64_t lane = 0; ///< the next column within it

  /// n values src[0], src[s], ...; zeros when src is null. A whole panel
  /// row is one fixed-size copy (vector moves), a part of one put_pieces.
  ONNXCC_INLINE void put(const float *src, int64_t s, int64_t n) {
    while (n > 0) {
      const int64_t m = kPanel - lane < n ? kPanel - lane : n;
      float *dst = at + lane;
      if (src && m == kPanel) {
        for (int64_t i = 0; i < kPanel; ++i)
          dst[i] = src[i * s];
      } else if (m == kPanel) {
        for (int64_t i = 0; i < kPanel; ++i)
          dst[i] = 0.0f;
      } else {
        put_pieces<kPanel / 2>(dst, src, s, m);
      }
      if (src)
        src += m * s;
      lane += m;
      n -= m;
      if (lane == kPanel) {
        lane = 0;
        at += K * kPanel;
      }
    }
  }
};

/// Rows [c_lo, c_hi) * KH * KW of col = im2col(x), packed in panels
/// (gemm_packed.h): row (c*KH + kh)*KW + kw, column oh*OW + ow holds
/// x[c][oh*SH - PT + kh*DH][ow*SW - PL + kw*DW], 0 outside the image, and
/// the last panel is padded with zeros. Each output row is zeros, a
/// strided copy and zeros, split where in_bounds says: no loop tests
/// bounds per element. g++ 12 -O3 with AVX if-converted such tests into a
/// group of masked loads, one per column of an unrolled row, and
/// vectorized the group with the first vector's mask for all of it, so
/// runs of in-image elements came out 0 (resnet18 layer4.0 conv2).
template <typename S>
inline void im2col(const float *ONNXCC_RESTRICT x, float *ONNXCC_RESTRICT col,
                   int64_t c_lo = 0, int64_t c_hi = S::Cg) {
  constexpr int64_t pad = (S::P + kPanel - 1) / kPanel * kPanel - S::P;
  // A 1x1, stride-1, unpadded convolution's rows are its input planes:
  // one run each (the compiler packs these where the GEMM repays it).
  if constexpr (S::KH == 1 && S::KW == 1 && S::SH == 1 && S::SW == 1 &&
                S::PT == 0 && S::PL == 0 && S::OH == S::H && S::OW == S::W) {
    for (int64_t c = c_lo; c < c_hi; ++c) {
      packed_cursor<S::Kdim> out{col + c * kPanel};
      out.put(x + c * S::P, 1, S::P);
      out.put(nullptr, 0, pad);
    }
    return;
  }
  for (int64_t c = c_lo; c < c_hi; ++c)
    for (int64_t kh = 0; kh < S::KH; ++kh) {
      const int64_t ih0 = kh * S::DH - S::PT; // input row of output row 0
      const index_range rows = in_bounds(ih0, S::SH, S::H, S::OH);
      for (int64_t kw = 0; kw < S::KW; ++kw) {
        const int64_t iw0 = kw * S::DW - S::PL; // input column of output col 0
        const index_range cols = in_bounds(iw0, S::SW, S::W, S::OW);
        const int64_t k = (c * S::KH + kh) * S::KW + kw;
        packed_cursor<S::Kdim> out{col + k * kPanel};
        out.put(nullptr, 0, rows.lo * S::OW);
        for (int64_t oh = rows.lo; oh < rows.hi; ++oh) {
          const float *src = x + (c * S::H + ih0 + oh * S::SH) * S::W;
          out.put(nullptr, 0, cols.lo);
          if (cols.hi > cols.lo) // else the first tap may lie before x
            out.put(src + iw0 + cols.lo * S::SW, S::SW, cols.hi - cols.lo);
          out.put(nullptr, 0, S::OW - cols.hi);
        }
        out.put(nullptr, 0, (S::OH - rows.hi) * S::OW + pad);
      }
    }
}

/// Which kernel conv2d() runs; onnxcc-choose-conv-algorithm decides.
enum class conv_algo {
  im2col,
  pointwise,
  winograd,
  implicit_gemm,
  pointwise_split_depth,
  pointwise_lanes,
  im2col_lanes
};

/// Image n, group g: im2col into `cols` (packed) and gemm_packed, or, for
/// a pointwise convolution, gemm on the input itself.
template <typename S, conv_algo Algo, typename Epi>
ONNXCC_INLINE void conv2d_group(const float *x, const float *w,
                                const float *bias, float *y, float *cols,
                                int64_t n, int64_t g, Epi epi) {
  const float *xg = x + (n * S::C + g * S::Cg) * S::H * S::W;
  float *yg = y + (n * S::O + g * S::Og) * S::P;
  const float *wg = w + g * S::Og * S::Kdim;
  if constexpr (Algo == conv_algo::im2col) {
    im2col<S>(xg, cols);
    gemm_packed<S::Og, S::P, S::Kdim, 1, true>(wg, cols, bias + g * S::Og, yg,
                                               epi);
  } else {
    gemm<S::Og, S::P, S::Kdim, false, false, 1, 0, true>(
        wg, xg, bias + g * S::Og, 1.0f, 1.0f, yg, epi);
  }
}

template <typename S, conv_algo Algo = conv_algo::im2col, typename Epi>
inline void conv2d(const float *x, const float *w, const float *bias, float *y,
                   float *scratch, Epi epi) {
  if constexpr (Algo == conv_algo::winograd) {
    conv2d_winograd<S>(x, w, bias, y, scratch, epi);
  } else if constexpr (Algo == conv_algo::implicit_gemm) {
    conv2d_implicit<S>(x, w, bias, y, scratch, epi);
  } else if constexpr (Algo == conv_algo::pointwise_split_depth) {
    serial one;
    conv2d_pointwise_split_depth<S>(one, x, w, bias, y, scratch, epi);
  } else if constexpr (Algo == conv_algo::pointwise_lanes) {
    (void)scratch;
    conv2d_lanes<S>(x, w, bias, y, epi);
  } else if constexpr (Algo == conv_algo::im2col_lanes) {
    conv2d_im2col_lanes<S>(x, w, bias, y, scratch, epi);
  } else {
    for (int64_t n = 0; n < S::N; ++n)
      for (int64_t g = 0; g < S::G; ++g)
        conv2d_group<S, Algo>(x, w, bias, y, scratch, n, g, epi);
  }
}

template <typename S, conv_algo Algo = conv_algo::im2col, typename Par,
          typename Epi>
inline void conv2d(Par &par, const float *x, const float *w, const float *bias,
                   float *y, float *scratch, Epi epi) {
  if constexpr (Algo == conv_algo::winograd) {
    conv2d_winograd<S>(par, x, w, bias, y, scratch, epi);
  } else if constexpr (Algo == conv_algo::implicit_gemm) {
    conv2d_implicit<S>(par, x, w, bias, y, scratch, epi);
  } else if constexpr (Algo == conv_algo::pointwise_split_depth) {
    conv2d_pointwise_split_depth<S>(par, x, w, bias, y, scratch, epi);
  } else if constexpr (Algo == conv_algo::pointwise_lanes) {
    (void)scratch;
    conv2d_lanes<S>(par, x, w, bias, y, epi);
  } else if constexpr (Algo == conv_algo::im2col_lanes) {
    conv2d_im2col_lanes<S>(par, x, w, bias, y, scratch, epi);
  } else if constexpr (S::G == 1) {
    for (int64_t n = 0; n < S::N; ++n) {
      const float *xn = x + n * S::C * S::H * S::W;
      float *yn = y + n * S::O * S::P;
      if constexpr (Algo == conv_algo::im2col) {
        par.run([&](int t, int T) {
          const part p = split(S::Cg, t, T);
          im2col<S>(xn, scratch, p.lo, p.hi);
        });
        gemm_packed<S::Og, S::P, S::Kdim, 1, true>(par, w, scratch, bias, yn,
                                                   epi);
      } else {
        gemm<S::Og, S::P, S::Kdim, false, false, 1, 0, true>(
            par, w, xn, bias, 1.0f, 1.0f, yn, epi);
      }
    }
  } else {
    par.run([&](int t, int T) {
      float *mine = nullptr; // this thread's copy of the scratch
      if constexpr (Algo == conv_algo::im2col)
        mine = scratch + t * packed_floats(S::Kdim, S::P);
      const part p = split(S::N * S::G, t, T);
      for (int64_t u = p.lo; u < p.hi; ++u)
        conv2d_group<S, Algo>(x, w, bias, y, mine, u / S::G, u % S::G, epi);
    });
  }
}

/// y[n][o] = bias[o] + sum over c of group(o), taps in range of
/// x[n][c] * w[o][c]; w is [O, C/G, KD, KH, KW].
template <int64_t N, int64_t C, int64_t O, int64_t G, typename AD, typename AH,
          typename AW, bool HasBias, typename T>
inline void conv_direct(const T *ONNXCC_RESTRICT x, const T *ONNXCC_RESTRICT w,
                        const T *bias, T *ONNXCC_RESTRICT y) {
  using Acc = accum_t<T>; // integers wrap (unsigned), floats as compute_t
  constexpr int64_t Cg = C / G, Og = O / G;
  constexpr int64_t KS = AD::K * AH::K * AW::K;
  constexpr int64_t XS = AD::In * AH::In * AW::In;
  constexpr int64_t YS = AD::Out * AH::Out * AW::Out;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t o = 0; o < O; ++o) {
      const T *wo = w + o * Cg * KS;
      const T *xg = x + (n * C + o / Og * Cg) * XS;
      T *yo = y + (n * O + o) * YS;
      const Acc b = HasBias ? Acc(bias[o]) : Acc(0);
      for_each_window3<AD, AH, AW>(
          [&](int64_t od, int64_t oh, int64_t ow, index_range rd,
              index_range rh, index_range rw) ONNXCC_INLINE_LAMBDA {
            const int64_t at =
                ((od * AD::S - AD::P) * AH::In + oh * AH::S - AH::P) * AW::In +
                ow * AW::S - AW::P;
            Acc s = b;
            for (int64_t c = 0; c < Cg; ++c) {
              const T *xc = xg + c * XS;
              const T *wc = wo + c * KS;
              for (int64_t kd = rd.lo; kd < rd.hi; ++kd)
                for (int64_t kh = rh.lo; kh < rh.hi; ++kh)
                  for (int64_t kw = rw.lo; kw < rw.hi; ++kw)
                    s += Acc(xc[at + (kd * AD::D * AH::In + kh * AH::D) * AW::In +
                                kw * AW::D]) *
                         Acc(wc[(kd * AH::K + kh) * AW::K + kw]);
            }
            yo[(od * AH::Out + oh) * AW::Out + ow] = store_as<T>(s);
          });
    }
}

/// x[h][w] of an H x W image sampled bilinearly at (h, w), 0 outside it
/// (ONNX GridSample's zeros padding with align_corners). Reads only
/// clamped indices: a corner outside the image gets weight 0, and a point
/// not strictly inside (-1, H) x (-1, W), NaN included, is 0 before any
/// float-to-int conversion.
template <int64_t H, int64_t W, typename C, typename T>
ONNXCC_INLINE C bilinear_zero(const T *ONNXCC_RESTRICT x, C h, C w) {
  if (!(h > C(-1) && h < C(H) && w > C(-1) && w < C(W)))
    return C(0);
  const C hf = std::floor(h), wf = std::floor(w);
  const int64_t h0 = static_cast<int64_t>(hf), w0 = static_cast<int64_t>(wf);
  const C lh = h - hf, lw = w - wf;
  C s = C(0);
  for (int64_t dy = 0; dy < 2; ++dy)
    for (int64_t dx = 0; dx < 2; ++dx) {
      const int64_t yy = h0 + dy, xx = w0 + dx;
      const bool inside = yy >= 0 && yy < H && xx >= 0 && xx < W;
      const int64_t yc = yy < 0 ? 0 : yy >= H ? H - 1 : yy;
      const int64_t xc = xx < 0 ? 0 : xx >= W ? W - 1 : xx;
      const C wt = (dy ? lh : C(1) - lh) * (dx ? lw : C(1) - lw);
      s += inside ? wt * C(x[yc * W + xc]) : C(0);
    }
  return s;
}

/// ONNX DeformConv over 2 axes: tap (i, j) of output (oy, ox) reads
/// bilinear_zero(oy*SH - PT + i*DH + dy, ox*SW - PL + j*DW + dx), the
/// offsets (dy, dx) from offset[n][((og*KH + i)*KW + j)*2 + {0, 1}][oy][ox]
/// for input channel c's offset group og = c / (C/OG), times
/// mask[n][(og*KH + i)*KW + j][oy][ox] when HasMask. Floats only.
template <int64_t N, int64_t C, int64_t H, int64_t W, int64_t O, int64_t G,
          int64_t OG, int64_t KH, int64_t KW, int64_t OH, int64_t OW, int64_t SH,
          int64_t SW, int64_t PT, int64_t PL, int64_t DH, int64_t DW,
          bool HasBias, bool HasMask, typename T>
inline void deform_conv2d(const T *ONNXCC_RESTRICT x, const T *ONNXCC_RESTRICT w,
                          const T *ONNXCC_RESTRICT offset, const T *mask,
                          const T *bias, T *ONNXCC_RESTRICT y) {
  using Acc = compute_t<T>;
  constexpr int64_t Cg = C / G, Og = O / G, Cog = C / OG, OS = OH * OW;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t o = 0; o < O; ++o) {
      const int64_t g = o / Og;
      for (int64_t oy = 0; oy < OH; ++oy)
        for (int64_t ox = 0; ox < OW; ++ox) {
          const int64_t at = oy * OW + ox;
          Acc s = HasBias ? Acc(bias[o]) : Acc(0);
          for (int64_t c = 0; c < Cg; ++c) {
            const int64_t ci = g * Cg + c, og = ci / Cog;
            const T *xc = x + (n * C + ci) * H * W;
            const T *wc = w + (o * Cg + c) * KH * KW;
            for (int64_t i = 0; i < KH; ++i)
              for (int64_t j = 0; j < KW; ++j) {
                const int64_t tap = (og * KH + i) * KW + j;
                const T *off = offset + (n * OG * KH * KW * 2 + tap * 2) * OS + at;
                const Acc hy = Acc(oy * SH - PT + i * DH) + Acc(off[0]);
                const Acc wx = Acc(ox * SW - PL + j * DW) + Acc(off[OS]);
                Acc v = bilinear_zero<H, W>(xc, hy, wx);
                if (HasMask)
                  v *= Acc(mask[(n * OG * KH * KW + tap) * OS + at]);
                s += Acc(wc[i * KW + j]) * v;
              }
          }
          y[(n * O + o) * OS + at] = store_as<T>(s);
        }
    }
}

/// Transposed convolution: y = bias, then for each input element and tap,
/// y[n][o][i*S - P + k*D] += x[n][c][i] * w[c][o % (O/G)][k] for c in
/// group(o); w is [C, O/G, KD, KH, KW]; the axes' In are the input extents,
/// Out the output extents.
template <int64_t N, int64_t C, int64_t O, int64_t G, typename AD, typename AH,
          typename AW, bool HasBias, typename T>
inline void conv_transpose(const T *ONNXCC_RESTRICT x, const T *ONNXCC_RESTRICT w,
                           const T *bias, T *ONNXCC_RESTRICT y) {
  constexpr int64_t Cg = C / G, Og = O / G;
  constexpr int64_t KS = AD::K * AH::K * AW::K;
  constexpr int64_t XS = AD::In * AH::In * AW::In;
  constexpr int64_t YS = AD::Out * AH::Out * AW::Out;
  for (int64_t no = 0; no < N * O; ++no)
    for (int64_t i = 0; i < YS; ++i)
      y[no * YS + i] = HasBias ? bias[no % O] : T(0);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c) {
      const int64_t g = c / Cg;
      const T *xc = x + (n * C + c) * XS;
      for (int64_t o = 0; o < Og; ++o) {
        const T *wc = w + (c * Og + o) * KS;
        T *yo = y + (n * O + g * Og + o) * YS;
        for (int64_t kd = 0; kd < AD::K; ++kd) {
          const index_range rd = scatter_range<AD>(kd);
          for (int64_t kh = 0; kh < AH::K; ++kh) {
            const index_range rh = scatter_range<AH>(kh);
            for (int64_t kw = 0; kw < AW::K; ++kw) {
              const index_range rw = scatter_range<AW>(kw);
              const T wv = wc[(kd * AH::K + kh) * AW::K + kw];
              for (int64_t id = rd.lo; id < rd.hi; ++id)
                for (int64_t ih = rh.lo; ih < rh.hi; ++ih) {
                  const int64_t row =
                      ((id * AD::S - AD::P + kd * AD::D) * AH::Out + ih * AH::S -
                       AH::P + kh * AH::D) * AW::Out + kw * AW::D - AW::P;
                  const T *xr = xc + (id * AH::In + ih) * AW::In;
                  for (int64_t iw = rw.lo; iw < rw.hi; ++iw)
                    yo[row + iw * AW::S] += wv * xr[iw];
                }
            }
          }
        }
      }
    }
}

/// The inverse of im2col: x is [NC * KD*KH*KW, blocks] (blocks = the axes'
/// In, the window positions), y [NC, image] (the axes' Out); block element
/// k of position b is added to image element b*S - P + k*D when that is
/// inside the image.
template <int64_t NC, typename AD, typename AH, typename AW, typename T>
inline void col2im(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y) {
  constexpr int64_t KS = AD::K * AH::K * AW::K;
  constexpr int64_t BS = AD::In * AH::In * AW::In;
  constexpr int64_t YS = AD::Out * AH::Out * AW::Out;
  for (int64_t i = 0; i < NC * YS; ++i)
    y[i] = T(0);
  for (int64_t c = 0; c < NC; ++c) {
    T *yc = y + c * YS;
    for (int64_t kd = 0; kd < AD::K; ++kd) {
      const index_range rd = scatter_range<AD>(kd);
      for (int64_t kh = 0; kh < AH::K; ++kh) {
        const index_range rh = scatter_range<AH>(kh);
        for (int64_t kw = 0; kw < AW::K; ++kw) {
          const index_range rw = scatter_range<AW>(kw);
          const T *xk = x + (c * KS + (kd * AH::K + kh) * AW::K + kw) * BS;
          for (int64_t bd = rd.lo; bd < rd.hi; ++bd)
            for (int64_t bh = rh.lo; bh < rh.hi; ++bh) {
              const int64_t row =
                  ((bd * AD::S - AD::P + kd * AD::D) * AH::Out + bh * AH::S -
                   AH::P + kh * AH::D) * AW::Out + kw * AW::D - AW::P;
              const T *xr = xk + (bd * AH::In + bh) * AW::In;
              for (int64_t bw = rw.lo; bw < rw.hi; ++bw)
                yc[row + bw * AW::S] += xr[bw];
            }
        }
      }
    }
  }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_CONV_H
