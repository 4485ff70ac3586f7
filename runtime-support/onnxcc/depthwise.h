//===- depthwise.h - one-channel-per-group convolution ----------*- C++ -*-===//
//
// depthwise2d(): f32 NCHW convolution whose every group is one input and
// one output channel (MobileNet's 3x3 and 5x5 layers), kernel.conv2d's
// `depthwise` algorithm. A band of output rows copies its input rows into
// zero-padded planes on the stack (at most 16 KiB), split by stride phase
// so that every tap reads unit-stride: the band's outputs are then one
// run of vectors, each taking KH x KW fused multiply-adds, whatever the
// stride and however narrow the rows. Rows too wide for the buffer read
// their taps from x, and only their interior is vectorised; so do layers
// at stride 2 along rows of at least a vector of outputs, which split each
// row into even and odd columns in registers. No planned
// scratch: im2col copied each input element KH x KW times to multiply one
// row of weights. Planes whose rows are narrower than a vector (MobileNet's
// 14x14 and 7x7 maps) are one flat run of vectors instead, each tap one
// offset away, with the taps that wrap around a row's end masked off.
//
// depthwise2d(par, ...) gives each thread whole channels.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_DEPTHWISE_H
#define ONNXCC_RUNTIME_DEPTHWISE_H

#include "onnxcc/config.h"
#include "onnxcc/deinterleave.h"
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

/// The row axis of a layer at stride 2 along its rows.
template <typename S> using stride2_row = axis<S::W, S::OW, S::KW, 2, S::PL, 0, 1>;

/// Whether depthwise_direct() splits the layer's rows in registers
/// (depthwise_stride2_vectors()): stride 2 and no dilation along the rows,
/// windows at least 2 wide, and at least a whole vector of outputs whose
/// windows lie inside the row.
template <typename S> constexpr bool takes_stride2_rows() {
#if ONNXCC_HAS_SIMD
  if constexpr (S::SW != 2 || S::DW != 1 || S::KW < 2) {
    return false;
  } else {
    constexpr index_range in = stride2_interior<stride2_row<S>>();
    return has_even_odd<vfloat>() && in.hi - in.lo >= kVecWidth;
  }
#else
  return false;
#endif
}

#if ONNXCC_HAS_SIMD
/// Vectors of outputs a depthwise_stride2_vectors() call takes. Several
/// keep more of the rows' loads in flight: from L3, mobilenet_v2's 96
/// channels at 112 -> 56 took 260 us one vector at a time, 200 us four.
constexpr int kStride2Group = 4;

/// U vectors of outputs of row oh at stride 2 along the row, the k-th
/// (k = g + u) starting at output min(lo + k * width, hi - width) of the
/// interior [lo, hi): whole vectors, then one overlapping the last. Tap 0
/// of each window row comes from the even columns of the 2 * width floats
/// at the vector's first tap, tap kw from the odd columns of those at tap
/// kw - 1, split in registers (deinterleave.h): every load reads the row
/// itself and none reads past the last window. The band path copied each
/// row into phase planes and each band out of a buffer, and took
/// mobilenet_v2's 112 -> 56 layer 1.8x ONNX Runtime's time.
template <typename S, int U, typename Epi>
ONNXCC_INLINE void depthwise_stride2_vectors(const float *ONNXCC_RESTRICT xc,
                                             const float *wc, float b,
                                             float *ONNXCC_RESTRICT yr,
                                             int64_t oh, index_range rh,
                                             int64_t g, Epi epi) {
  constexpr index_range in = stride2_interior<stride2_row<S>>();
  constexpr int64_t VW = kVecWidth;
  int64_t ow[U];
  vfloat acc[U];
  for (int u = 0; u < U; ++u) {
    const int64_t o = in.lo + (g + u) * VW;
    ow[u] = o < in.hi - VW ? o : in.hi - VW;
    acc[u] = vfloat(b);
  }
  for (int64_t kh = rh.lo; kh < rh.hi; ++kh) {
    const float *xr = xc + (oh * S::SH - S::PT + kh * S::DH) * S::W - S::PL;
    const float *wr = wc + kh * S::KW;
    even_odd<vfloat> t[U];
    for (int u = 0; u < U; ++u) {
      const float *xu = xr + ow[u] * 2;
      t[u] = deinterleave(vfloat::load_unaligned(xu),
                          vfloat::load_unaligned(xu + VW));
      acc[u] = vfma(vfloat(wr[0]), t[u].even, acc[u]);
      acc[u] = vfma(vfloat(wr[1]), t[u].odd, acc[u]);
    }
    if constexpr (has_one_lane_on<vfloat>()) {
      // Tap kw >= 2 is tap kw - 2 one lane on, its last lane the float
      // 2 * VW + kw - 2 past the vector's first tap (inside the row: the
      // last window's).
      for (int u = 0; u < U; ++u) {
        const float *xu = xr + ow[u] * 2;
        vfloat taps[2] = {t[u].even, t[u].odd};
        for (int64_t kw = 2; kw < S::KW; ++kw) {
          vfloat &tap = taps[kw % 2];
          tap = one_lane_on(tap, xu[2 * VW + kw - 2]);
          acc[u] = vfma(vfloat(wr[kw]), tap, acc[u]);
        }
      }
      continue;
    }
    for (int64_t kw = 2; kw < S::KW; ++kw)
      for (int u = 0; u < U; ++u) {
        const float *xu = xr + ow[u] * 2 + kw - 1;
        acc[u] = vfma(vfloat(wr[kw]),
                      deinterleave(vfloat::load_unaligned(xu),
                                   vfloat::load_unaligned(xu + VW))
                          .odd,
                      acc[u]);
      }
  }
  for (int u = 0; u < U; ++u)
    epi(acc[u]).store_unaligned(yr + ow[u]);
}
#endif

/// Channels [u_lo, u_hi) of all images (u = n * C + c), reading taps
/// straight from x: only the interior of each row is vectorised, at
/// stride 1 or, split in registers, at stride 2.
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
      if constexpr (takes_stride2_rows<S>()) {
        constexpr int64_t NV = (cols.hi - cols.lo + kVecWidth - 1) / kVecWidth;
        constexpr int64_t full = NV / kStride2Group * kStride2Group;
        for (int64_t g = 0; g < full; g += kStride2Group)
          depthwise_stride2_vectors<S, kStride2Group>(xc, wc, b, yr, oh, rh, g,
                                                      epi);
        if constexpr (NV % kStride2Group != 0)
          depthwise_stride2_vectors<S, NV % kStride2Group>(xc, wc, b, yr, oh,
                                                           rh, full, epi);
        ow = cols.hi;
      } else if constexpr (S::SW == 1)
        for (; ow + kVecWidth <= cols.hi; ow += kVecWidth) {
          vfloat acc(b);
          for (int64_t kh = rh.lo; kh < rh.hi; ++kh) {
            const float *xr =
                xc + (oh * S::SH - S::PT + kh * S::DH) * S::W + ow - S::PL;
            for (int64_t kw = 0; kw < S::KW; ++kw)
              acc = vfma(vfloat(wc[kh * S::KW + kw]),
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

/// The stack buffer of depthwise_banded(), all compile-time. A band of OB
/// output rows reads its input through SH x SW phase planes: plane (p, q)
/// holds the zero-padded input's rows p, p + SH, ... and columns q,
/// q + SW, ..., Wq columns a row. Output (ob, ow)'s tap (kh, kw) then sits
/// in plane ((kh*DH) % SH, (kw*DW) % SW) at flat offset
///   (ob + kh*DH / SH) * Wq + ow + kw*DW / SW,
/// linear in the flat output index ob * Wq + ow: a band is one run of
/// vectors at every stride, whatever the row width, the Wq - OW columns
/// past each row being computed and dropped.
template <typename S> struct depthwise_band {
  static constexpr int64_t kUnroll = 4; // vectors sharing each weight
  static constexpr int64_t kStep = kUnroll * kVecWidth;
  static constexpr int64_t kBudget = 16384 / 4; // floats of stack
  /// Padded columns read or copied, and the phase width.
  static constexpr int64_t last = (S::OW - 1) * S::SW + (S::KW - 1) * S::DW;
  static constexpr int64_t cols =
      last + 1 > S::PL + S::W ? last + 1 : S::PL + S::W;
  static constexpr int64_t Wq = (cols + S::SW - 1) / S::SW;
  /// Phase rows past a band's OB that its taps reach.
  static constexpr int64_t halo = (S::KH - 1) * S::DH / S::SH;
  static constexpr int64_t run(int64_t ob) {
    return (ob * Wq + kStep - 1) / kStep * kStep;
  }
  /// One plane: its rows, then what the last vector reads past them.
  static constexpr int64_t plane(int64_t ob) {
    return halo * Wq + (S::KW - 1) * S::DW / S::SW + run(ob);
  }
  static constexpr int64_t floats(int64_t ob) {
    return S::SH * S::SW * plane(ob) + run(ob);
  }
  static constexpr int64_t rows() {
    int64_t ob = 1;
    while (ob < S::OH && floats(ob + 1) <= kBudget)
      ++ob;
    return ob;
  }
  static constexpr int64_t OB = rows();
  static constexpr int64_t kPlane = plane(OB), kRun = run(OB);
  /// Tap k = kh * KW + kw: its plane's offset plus its offset inside.
  static constexpr int64_t tap(int64_t k) {
    const int64_t kh = k / S::KW, kw = k % S::KW;
    return ((kh * S::DH) % S::SH * S::SW + (kw * S::DW) % S::SW) * kPlane +
           (kh * S::DH) / S::SH * Wq + (kw * S::DW) / S::SW;
  }
  /// Whether the band buffer fits the budget at all (else the taps are
  /// read straight from x).
  static constexpr bool fits =
      floats(1) <= kBudget && S::PL >= 0 && S::PT >= 0;
};

/// even[m] = src[2m] and odd[m] = src[2m + 1] for the indices inside
/// [0, n): a stride-2 layer's row split into its two column phases. Eight
/// outputs of each take three shuffles on AVX and one load on NEON, where
/// a strided scalar copy took a cycle an element: the copy was most of
/// MobileNet's stride-2 depthwise layers (2x and 4.6x ONNX Runtime's time).
ONNXCC_INLINE void deinterleave2(const float *ONNXCC_RESTRICT src, int64_t n,
                                 float *ONNXCC_RESTRICT even,
                                 float *ONNXCC_RESTRICT odd) {
  int64_t m = 0;
#if ONNXCC_HAS_SIMD && defined(__AVX__)
  for (; 2 * m + 16 <= n; m += 8) {
    const __m256 a = _mm256_loadu_ps(src + 2 * m);
    const __m256 b = _mm256_loadu_ps(src + 2 * m + 8);
    const __m256 lo = _mm256_permute2f128_ps(a, b, 0x20); // a0-3 b0-3
    const __m256 hi = _mm256_permute2f128_ps(a, b, 0x31); // a4-7 b4-7
    _mm256_storeu_ps(even + m, _mm256_shuffle_ps(lo, hi, 0x88));
    _mm256_storeu_ps(odd + m, _mm256_shuffle_ps(lo, hi, 0xDD));
  }
#elif ONNXCC_HAS_SIMD && (defined(__ARM_NEON) || defined(__ARM_NEON__))
  for (; 2 * m + 8 <= n; m += 4) {
    const float32x4x2_t v = vld2q_f32(src + 2 * m);
    vst1q_f32(even + m, v.val[0]);
    vst1q_f32(odd + m, v.val[1]);
  }
#endif
  for (; 2 * m < n; ++m) {
    even[m] = src[2 * m];
    if (2 * m + 1 < n)
      odd[m] = src[2 * m + 1];
  }
}

/// Copies the input rows of the band of ob_n output rows from row oh0 into
/// the phase planes: rows outside the image become zeros, the padding
/// columns were zeroed once and are never written. A last, shorter band
/// fills only the rows it reads (filling a whole band's was 60% of a
/// 56 -> 28 layer, most of it zeros past the image).
template <typename S>
ONNXCC_INLINE void depthwise_fill(const float *ONNXCC_RESTRICT xc,
                                  float *ONNXCC_RESTRICT planes, int64_t oh0,
                                  int64_t ob_n) {
  using B = depthwise_band<S>;
  for (int64_t p = 0; p < S::SH; ++p)
    for (int64_t r = 0; r < ob_n + B::halo; ++r) {
      const int64_t ih = (oh0 + r) * S::SH + p - S::PT;
      if constexpr (S::SW == 2) {
        // Both phases of an image row at once: column iw = 2m + e goes to
        // phase (e + PL) % 2 at column m + (e + PL) / 2.
        if (ih >= 0 && ih < S::H) {
          float *row = planes + p * 2 * B::kPlane + r * B::Wq;
          constexpr int64_t pe = S::PL % 2, po = (S::PL + 1) % 2;
          deinterleave2(xc + ih * S::W, S::W, row + pe * B::kPlane + S::PL / 2,
                        row + po * B::kPlane + (S::PL + 1) / 2);
          continue;
        }
      }
      for (int64_t q = 0; q < S::SW; ++q) {
        // Image columns iw with (iw + PL) % SW == q, at phase column
        // (iw + PL) / SW.
        float *dst = planes + (p * S::SW + q) * B::kPlane + r * B::Wq;
        const int64_t iw0 = ((q - S::PL) % S::SW + S::SW) % S::SW;
        const int64_t c0 = (iw0 + S::PL) / S::SW;
        if (ih < 0 || ih >= S::H) {
          for (int64_t iw = iw0, c = c0; iw < S::W; iw += S::SW, ++c)
            dst[c] = 0.0f;
          continue;
        }
        const float *src = xc + ih * S::W;
        for (int64_t iw = iw0, c = c0; iw < S::W; iw += S::SW, ++c)
          dst[c] = src[iw];
      }
    }
}

#if ONNXCC_HAS_SIMD
/// Whether depthwise_banded() computes a band's rows straight into y: at
/// stride 1 (a phase row is an output row plus its padding) over rows of
/// at least a vector.
template <typename S> constexpr bool banded_rows_direct() {
  return S::SH == 1 && S::SW == 1 && S::OW >= kVecWidth;
}

/// U vectors of output row `ob` of a band from its padded plane, the k-th
/// (k = g + u) at column min(k * width, OW - width): whole vectors, then
/// one overlapping the row's last.
template <typename S, int U, typename Epi>
ONNXCC_INLINE void depthwise_row_vectors(const float *ONNXCC_RESTRICT plane,
                                         const float *wc, float b,
                                         float *ONNXCC_RESTRICT yr, int64_t g,
                                         Epi epi) {
  using B = depthwise_band<S>;
  constexpr int64_t VW = kVecWidth;
  int64_t ow[U];
  vfloat acc[U];
  for (int u = 0; u < U; ++u) {
    const int64_t o = (g + u) * VW;
    ow[u] = o < S::OW - VW ? o : S::OW - VW;
    acc[u] = vfloat(b);
  }
  for (int64_t k = 0; k < S::KH * S::KW; ++k) {
    const vfloat wk(wc[k]);
    for (int u = 0; u < U; ++u)
      acc[u] = vfma(wk, vfloat::load_unaligned(plane + B::tap(k) + ow[u]),
                    acc[u]);
  }
  for (int u = 0; u < U; ++u)
    epi(acc[u]).store_unaligned(yr + ow[u]);
}
#endif

/// Channels [u_lo, u_hi) of all images (u = n * C + c), a band of
/// depthwise_band<S>::OB output rows at a time: every output takes its
/// whole window from the zero-padded phase planes, at any stride and
/// however narrow the rows (MobileNet's 7x7 maps, its stride-2 layers).
template <typename S, typename Epi>
inline void depthwise_banded(const float *ONNXCC_RESTRICT x,
                             const float *ONNXCC_RESTRICT w, const float *bias,
                             float *ONNXCC_RESTRICT y, int64_t u_lo,
                             int64_t u_hi, Epi epi) {
  using B = depthwise_band<S>;
  alignas(64) float planes[S::SH * S::SW * B::kPlane];
  alignas(64) float out[B::kRun];
  for (int64_t i = 0; i < S::SH * S::SW * B::kPlane; ++i)
    planes[i] = 0.0f; // padding, and the finite values past the rows
  auto channel = [&](const float *ONNXCC_RESTRICT xc, const float *wc,
                     float *ONNXCC_RESTRICT yc, float b) ONNXCC_INLINE_LAMBDA {
    for (int64_t oh0 = 0; oh0 < S::OH; oh0 += B::OB) {
      const int64_t ob_n = S::OH - oh0 < B::OB ? S::OH - oh0 : B::OB;
      depthwise_fill<S>(xc, planes, oh0, ob_n);
#if ONNXCC_HAS_SIMD
      if constexpr (banded_rows_direct<S>()) {
        // Row by row into y: the flat run below computes the padding
        // columns too and copies its buffer out (32 channels at 112x112:
        // 158 -> 129 us isolated).
        constexpr int64_t NV = (S::OW + kVecWidth - 1) / kVecWidth;
        constexpr int64_t full = NV / B::kUnroll * B::kUnroll;
        for (int64_t ob = 0; ob < ob_n; ++ob) {
          const float *plane = planes + ob * B::Wq;
          float *yr = yc + (oh0 + ob) * S::OW;
          for (int64_t g = 0; g < full; g += B::kUnroll)
            depthwise_row_vectors<S, B::kUnroll>(plane, wc, b, yr, g, epi);
          if constexpr (NV % B::kUnroll != 0)
            depthwise_row_vectors<S, NV % B::kUnroll>(plane, wc, b, yr, full,
                                                      epi);
        }
        continue;
      }
#endif
      const int64_t n = B::run(ob_n);
      for (int64_t f = 0; f < n; f += B::kStep) {
#if ONNXCC_HAS_SIMD
        vfloat acc[B::kUnroll];
        for (int64_t u = 0; u < B::kUnroll; ++u)
          acc[u] = vfloat(b);
        for (int64_t k = 0; k < S::KH * S::KW; ++k) {
          const vfloat wk(wc[k]);
          const float *src = planes + B::tap(k) + f;
          for (int64_t u = 0; u < B::kUnroll; ++u)
            acc[u] =
                vfma(wk, vfloat::load_unaligned(src + u * kVecWidth), acc[u]);
        }
        for (int64_t u = 0; u < B::kUnroll; ++u)
          epi(acc[u]).store_aligned(out + f + u * kVecWidth);
#else
        for (int64_t u = 0; u < B::kStep; ++u) {
          float s = b;
          for (int64_t k = 0; k < S::KH * S::KW; ++k)
            s += planes[B::tap(k) + f + u] * wc[k];
          out[f + u] = epi(s);
        }
#endif
      }
      for (int64_t ob = 0; ob < ob_n; ++ob)
        for (int64_t ow = 0; ow < S::OW; ++ow)
          yc[(oh0 + ob) * S::OW + ow] = out[ob * B::Wq + ow];
    }
  };
  for_each_channel<S>(x, w, bias, y, u_lo, u_hi, channel);
}

#if ONNXCC_HAS_SIMD
/// The plane layout of depthwise_flat(), all compile-time. At stride 1
/// with output planes the size of the input's, output o = oh * W + ow
/// reads tap (kh, kw) at flat offset o + kh * W + kw of the input plane
/// with PT zero rows above it, KH - 1 - PT below and PL floats before:
/// whole planes are one run of vectors, however narrow the rows. A tap
/// that wraps from one row's end to the next's start (ow + kw - PL
/// outside the row) is masked off, per column kw, as a bit mask
/// (so that an Inf or NaN next to the padding cannot leak in).
template <typename S> struct depthwise_plane {
  static constexpr int64_t kFloats = (S::H + S::KH - 1) * S::W + S::KW - 1;
  static constexpr int64_t kOffset = S::PL + S::PT * S::W; ///< of x's row 0
  static constexpr int64_t NV = (S::P + kVecWidth - 1) / kVecWidth;
  /// Vector v's first output: whole vectors, then one ending at the last.
  static constexpr int64_t first(int64_t v) {
    return v * kVecWidth < S::P - kVecWidth ? v * kVecWidth
                                            : S::P - kVecWidth;
  }
  /// Lane bits of column kw for each vector: all ones where the tap lies
  /// inside the output's row.
  struct masks {
    int32_t bits[NV * S::KW * kVecWidth];
  };
  static constexpr masks make_masks() {
    masks m{};
    for (int64_t v = 0; v < NV; ++v)
      for (int64_t kw = 0; kw < S::KW; ++kw)
        for (int64_t i = 0; i < kVecWidth; ++i) {
          const int64_t col = (first(v) + i) % S::W + kw - S::PL;
          m.bits[(v * S::KW + kw) * kVecWidth + i] =
              col >= 0 && col < S::W ? -1 : 0;
        }
    return m;
  }
  static constexpr masks kMasks = make_masks();
};

/// Whether depthwise_flat() takes the layer: stride 1, no dilation,
/// output planes of the input planes' size, no negative padding, at least
/// a vector a plane and both planes within the band budget; rows narrower
/// than a vector, or than two with windows 5 or more wide. Wider rows
/// vectorise along themselves (depthwise_banded()), which is faster for
/// 3x3 windows from a vector up (28x28 on AVX-512: 39 us flat 58) and
/// slower for 5x5 under two vectors (14x14 on AVX2: 78 us, flat 48).
/// mobilenet_v2's 14x14 and 7x7 layers had taken bands of 16-float rows,
/// copied in and out element by element: 36 and 25 GFLOP/s, flat 50.
template <typename S> constexpr bool takes_flat_planes() {
  return S::SH == 1 && S::SW == 1 && S::DH == 1 && S::DW == 1 &&
         S::OH == S::H && S::OW == S::W && S::PT >= 0 && S::PL >= 0 &&
         S::P >= kVecWidth &&
         (S::W < kVecWidth || (S::W < 2 * kVecWidth && S::KW >= 5)) &&
         2 * depthwise_plane<S>::kFloats <= depthwise_band<S>::kBudget;
}

/// U vectors of outputs of a padded plane, the k-th (k = g + u) starting
/// at depthwise_plane<S>::first(k): column kw's taps summed apart and
/// masked where they wrap, all U at once so that their sums are
/// independent chains sharing each weight.
template <typename S, int U, typename Epi>
ONNXCC_INLINE void depthwise_plane_vectors(const float *ONNXCC_RESTRICT plane,
                                           const float *wc, float b,
                                           float *ONNXCC_RESTRICT yc,
                                           int64_t g, Epi epi) {
  using L = depthwise_plane<S>;
  using vint = xsimd::batch<int32_t, vfloat::arch_type>;
  constexpr int64_t VW = kVecWidth;
  vfloat acc[U], sum[U];
  for (int u = 0; u < U; ++u)
    acc[u] = vfloat(b);
  for (int64_t kw = 0; kw < S::KW; ++kw) {
    for (int u = 0; u < U; ++u)
      sum[u] = kw == S::PL ? acc[u] : vfloat(0.0f);
    for (int64_t kh = 0; kh < S::KH; ++kh)
      for (int u = 0; u < U; ++u)
        sum[u] = vfma(vfloat(wc[kh * S::KW + kw]),
                      vfloat::load_unaligned(plane + L::first(g + u) +
                                             kh * S::W + kw),
                      sum[u]);
    for (int u = 0; u < U; ++u) {
      if (kw == S::PL) { // never wraps
        acc[u] = sum[u];
        continue;
      }
      const vint bits = vint::load_unaligned(
          L::kMasks.bits + ((g + u) * S::KW + kw) * VW);
      acc[u] = acc[u] + (sum[u] & xsimd::bitwise_cast<vfloat>(bits));
    }
  }
  for (int u = 0; u < U; ++u)
    epi(acc[u]).store_unaligned(yc + L::first(g + u));
}

/// Channels [u_lo, u_hi) of all images (u = n * C + c), a whole plane at a
/// time: each channel is copied once into a zero-padded plane, then its
/// outputs are computed 4 vectors at a time. Two planes take
/// turns, the next channel copied in while this one is computed: loads
/// straddling the vectors just stored cannot be forwarded from the store
/// buffer and waited for them (one plane: 576 channels at 14x14 took
/// 79 us, two 44 us).
template <typename S, typename Epi>
inline void depthwise_flat(const float *ONNXCC_RESTRICT x,
                           const float *ONNXCC_RESTRICT w, const float *bias,
                           float *ONNXCC_RESTRICT y, int64_t u_lo,
                           int64_t u_hi, Epi epi) {
  using L = depthwise_plane<S>;
  constexpr int64_t VW = kVecWidth, U = 4;
  constexpr int64_t full = L::NV / U * U;
  alignas(64) float planes[2][L::kFloats];
  for (int64_t i = 0; i < 2 * L::kFloats; ++i)
    planes[i / L::kFloats][i % L::kFloats] = 0.0f; // padding rows, guards
  auto fill = [&](int64_t u, float *plane) ONNXCC_INLINE_LAMBDA {
    const float *xc = x + u * S::H * S::W;
    for (int64_t i = 0; i < S::P; i += VW) {
      const int64_t at = i < S::P - VW ? i : S::P - VW;
      vfloat::load_unaligned(xc + at).store_unaligned(plane + L::kOffset + at);
    }
  };
  if (u_lo < u_hi)
    fill(u_lo, planes[0]);
  for (int64_t u = u_lo; u < u_hi; ++u) {
    const float *plane = planes[(u - u_lo) % 2];
    if (u + 1 < u_hi)
      fill(u + 1, planes[(u + 1 - u_lo) % 2]);
    const int64_t c = u % S::C;
    const float *wc = w + c * S::KH * S::KW;
    float *yc = y + u * S::P;
    for (int64_t g = 0; g < full; g += U)
      depthwise_plane_vectors<S, U>(plane, wc, bias[c], yc, g, epi);
    if constexpr (L::NV % U != 0)
      depthwise_plane_vectors<S, L::NV % U>(plane, wc, bias[c], yc, full,
                                            epi);
  }
}
#endif

/// Channels [u_lo, u_hi): banded when the band buffer fits 16 KiB of
/// stack and the padding is not negative, else straight from x, and
/// straight from x as well at stride 2 along rows of at least a vector.
template <typename S, typename Epi>
ONNXCC_INLINE void depthwise_channels(const float *x, const float *w,
                                      const float *bias, float *y,
                                      int64_t u_lo, int64_t u_hi, Epi epi) {
#if ONNXCC_HAS_SIMD
  if constexpr (takes_flat_planes<S>()) {
    depthwise_flat<S>(x, w, bias, y, u_lo, u_hi, epi);
    return;
  }
#endif
  if constexpr (depthwise_band<S>::fits && !takes_stride2_rows<S>())
    depthwise_banded<S>(x, w, bias, y, u_lo, u_hi, epi);
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
