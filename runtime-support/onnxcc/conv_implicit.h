//===- conv_implicit.h - convolution as an implicit GEMM --------*- C++ -*-===//
//
// conv2d_implicit(): an ungrouped f32 convolution as the product
// Y = W * col(X) without writing col(X). The image is copied once into
// zero-padded planes (the scratch), Hp x Wp each; at stride 1, col(X)'s
// row k = (c, kh, kw) at output (oh, ow) is then
//   plane_c[(oh + kh*DH) * Wp + ow + kw*DW],
// so a run of columns along an output row is a contiguous run of a plane,
// and a register tile loads its B vectors straight from the planes. At a
// column stride SW, each plane row is stored as SW phase rows (columns
// p, p + SW, ... in phase p), and tap (kh, kw) of output (oh, ow) is
// column ow + kw*DW / SW of phase kw*DW % SW in row oh*SH + kh*DH: still
// contiguous along the output row. The compiler uses it at stride > 1 for
// a stem's few input channels, where im2col's copy was most of the layer.
// im2col (conv.h) writes every input element KH*KW times, which cost the
// shallow layers (3 -> 16 -> 32 channels, where each column feeds few
// output channels) a third of their time; the planes are written once and
// are KH*KW times smaller.
//
// The output is covered by "spots" of kVecWidth consecutive columns of one
// row: a row's spots start at 0, kVecWidth, ..., the last at OW -
// kVecWidth, overlapping the one before it (the overlap is recomputed with
// the same operations and stored twice). A row narrower than a vector is
// one spot, whose lanes past OW read on into the next plane row (or the
// slack after the last plane) and are not stored. Rows of at most half a
// vector share a spot, a half each (load_halves()): an 8x8 map under
// AVX-512 computed 8 wasted lanes of 16, which made a 16 -> 32 channel
// layer 1.7x slower than with two rows a spot. At stride 1, where a row
// is wider than a vector and its spots would compute over 10/9 of it,
// spots are "flat" instead: consecutive runs of the planes' rows end to
// end, a spot crossing a row's end storing the outputs on either side
// (implicit_shape::kFlat, store_flat_spot()). A register tile is R
// output channels x two spots (the rows of for_row_tiles(),
// gemm_blocking.h), or 8 x 3 for at most 64 channels (implicit_narrow()),
// each accumulating over k = (c, kh, kw) in im2col's order.
//
// conv2d_implicit(par, ...) copies the planes split by channel, then
// splits the spots; every output is computed as by one thread.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_CONV_IMPLICIT_H
#define ONNXCC_RUNTIME_CONV_IMPLICIT_H

#include "onnxcc/depthwise.h"
#include "onnxcc/gemm.h"

namespace onnxcc {
namespace rt {

#if ONNXCC_HAS_SIMD
/// A vector of kVecWidth / 2 floats from `lo`, then as many from `hi`.
ONNXCC_INLINE vfloat load_halves(const float *lo, const float *hi) {
#if defined(__AVX512F__)
  return _mm512_castpd_ps(_mm512_insertf64x4(
      _mm512_castps_pd(_mm512_castps256_ps512(_mm256_loadu_ps(lo))),
      _mm256_castps_pd(_mm256_loadu_ps(hi)), 1));
#elif defined(__AVX__)
  return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(lo)),
                              _mm_loadu_ps(hi), 1);
#elif defined(__aarch64__)
  return vcombine_f32(vld1_f32(lo), vld1_f32(hi));
#else
  alignas(64) float lanes[kVecWidth];
  for (int64_t l = 0; l < kVecWidth / 2; ++l) {
    lanes[l] = lo[l];
    lanes[kVecWidth / 2 + l] = hi[l];
  }
  return vfloat::load_aligned(lanes);
#endif
}
#endif

/// The planes and spots of conv2d_implicit() for conv_shape S, all
/// compile-time. kScratch is what Conv2dOp::getScratchElements reserves.
template <typename S> struct implicit_shape {
  static_assert(S::G == 1 && S::PT >= 0 && S::PL >= 0,
                "implicit GEMM needs one group and no negative pad");
  /// The padded input rows and columns the windows reach.
  static constexpr int64_t Hp = (S::OH - 1) * S::SH + (S::KH - 1) * S::DH + 1;
  static constexpr int64_t Wp = (S::OW - 1) * S::SW + (S::KW - 1) * S::DW + 1;
  /// Each padded row is stored as SW phase rows of Wq columns, phase p
  /// holding its columns p, p + SW, ...: a window tap then reads a run
  /// of consecutive outputs' inputs contiguously at any stride.
  static constexpr int64_t Wq = (Wp + S::SW - 1) / S::SW;
  static constexpr int64_t kRow = S::SW * Wq;
  static constexpr int64_t kPlane = Hp * kRow;
  /// Zeros after the last plane: what a narrow row's spot reads past it
  /// (under a vector; 32 covers every ISA, as kPanelPad does).
  static constexpr int64_t kSlack = 32;
  static_assert(kVecWidth <= kSlack, "the slack must cover a vector");
  static constexpr int64_t kScratch = S::C * kPlane + kSlack;
  /// At stride 1, columns [q_lo, q_hi) of a plane row inside the image
  /// hold input columns q - PL; the rest is zero.
  static constexpr int64_t q_lo = S::PL < Wp ? S::PL : Wp;
  static constexpr int64_t q_hi = S::W + S::PL < Wp ? S::W + S::PL : Wp;
  /// Output rows in one spot: two where a row fills at most half a
  /// vector (8x8 maps under AVX-512), each half of the spot one row.
  static constexpr int64_t kSpotRows = 2 * S::OW <= kVecWidth ? 2 : 1;
  static constexpr int64_t kRowSpots =
      S::OW >= kVecWidth ? (S::OW + kVecWidth - 1) / kVecWidth : 1;
  /// Flat spots: at stride 1, output (oh, ow) reads the planes at
  /// oh * kRow + ow plus its tap's offset, so a spot may run on past a
  /// row's end into the next; its lanes over the kRow - OW columns between
  /// are computed and not stored. Where a row is wider than a vector but
  /// not a multiple of one, that wastes kRow - OW columns a row instead of
  /// the rest of the last vector (squeezenet1_1's 55-wide rows: 2 of 57
  /// instead of 9 of 64; its 16 -> 64 layers 573 -> 520 us in the model).
  /// The stores of the spots that cross a row's end cost more, so rows
  /// that waste little either way keep row spots (a 30-wide row's 32
  /// columns: 8.0 us as row spots, 9.0 flat, for 3 -> 16 channels): flat
  /// where it computes at most 9/10 of the row spots' columns.
  static constexpr bool kFlat = kVecWidth > 1 && S::SH == 1 && S::SW == 1 &&
                                S::OW > kVecWidth &&
                                10 * kRow <= 9 * kRowSpots * kVecWidth;
  /// The flat index after the last output.
  static constexpr int64_t kFlatEnd = (S::OH - 1) * kRow + S::OW;
  static constexpr int64_t kSpots =
      kFlat ? (kFlatEnd + kVecWidth - 1) / kVecWidth
            : kSpotRows == 2 ? (S::OH + 1) / 2 : S::OH * kRowSpots;
  /// Spots a block takes through every output channel: whole output rows
  /// whose planes' rows (C x (rows + the window's height) x Wp) fit the
  /// slab gemm() keeps in L2, so that the channel tiles after the first
  /// read them from there.
  static constexpr int64_t kBlockRows = [] {
    const int64_t rows =
        (kSlabFloats / (S::C * kRow) - (S::KH - 1) * S::DH - 1) / S::SH + 1;
    return rows < 1 ? 1 : rows;
  }();
  static constexpr int64_t kBlockSpots =
      kFlat ? (kBlockRows * kRow > kVecWidth ? kBlockRows * kRow / kVecWidth : 1)
      : kSpotRows == 1 ? kBlockRows * kRowSpots
                       : kBlockRows > 1 ? kBlockRows / 2 : 1;
  /// Where col(X)'s row k = (c, kh, kw) starts in the planes. A tile walks
  /// k as one flat loop through this table, as a GEMM walks its depth: the
  /// nest over (c, kh, kw), unrolled over the window, left g++ and clang
  /// too few registers for the 12 accumulators, and they spilled them.
  static_assert(kScratch < (int64_t(1) << 31), "plane offsets fit 32 bits");
  struct tap_table {
    int32_t at[S::Kdim];
  };
  static constexpr tap_table kTaps = [] {
    tap_table t{};
    for (int64_t c = 0; c < S::C; ++c)
      for (int64_t kh = 0; kh < S::KH; ++kh)
        for (int64_t kw = 0; kw < S::KW; ++kw)
          t.at[(c * S::KH + kh) * S::KW + kw] = static_cast<int32_t>(
              c * kPlane + kh * S::DH * kRow + kw * S::DW % S::SW * Wq +
              kw * S::DW / S::SW);
    return t;
  }();
  /// Where spot s starts: its output row and column. A spot of two rows
  /// is rows row(s) and row2(s) from column 0; an odd OH's last spot
  /// repeats its row (computed the same, stored twice).
  static constexpr int64_t row(int64_t s) {
    return kSpotRows == 2 ? 2 * s : s / kRowSpots;
  }
  static constexpr int64_t row2(int64_t s) {
    return 2 * s + 1 < S::OH ? 2 * s + 1 : S::OH - 1;
  }
  static constexpr int64_t col(int64_t s) {
    const int64_t c = s % kRowSpots * kVecWidth;
    return S::OW < kVecWidth ? 0 : c + kVecWidth <= S::OW ? c : S::OW - kVecWidth;
  }
  /// Where flat spot s starts; the last ends at kFlatEnd, overlapping the
  /// one before it.
  static constexpr int64_t flat(int64_t s) {
    return s * kVecWidth + kVecWidth <= kFlatEnd ? s * kVecWidth
                                                 : kFlatEnd - kVecWidth;
  }
};

#if ONNXCC_HAS_SIMD
/// Stores the lanes of flat spot v (implicit_shape::kFlat) that are
/// outputs: those before its row's end, then those from the next row's
/// start, into channel plane yo. Masked stores where the ISA has them.
template <typename S>
ONNXCC_INLINE void store_flat_spot(vfloat v, float *ONNXCC_RESTRICT yo,
                                   int64_t f) {
  using I = implicit_shape<S>;
  constexpr int64_t V = kVecWidth;
  const int64_t oh = f / I::kRow, ow = f % I::kRow;
  float *dst = yo + oh * S::OW + ow;
  if (ow + V <= S::OW) { // inside one row: most spots
    v.store_unaligned(dst);
    return;
  }
  // Lanes [0, n) end row oh; lanes [b, V) start row oh + 1 (b >= V: none).
  const int64_t n = ow < S::OW ? S::OW - ow : 0, b = I::kRow - ow;
  float *next = yo + (oh + 1) * S::OW - b; // lane l at next + l; l >= b
#if defined(__AVX512F__)
  if constexpr (V == 16) {
    const __mmask16 lo = static_cast<__mmask16>((1u << n) - 1u);
    _mm512_mask_storeu_ps(dst, lo, v);
    if (b < V)
      _mm512_mask_storeu_ps(next, static_cast<__mmask16>(~((1u << b) - 1u)), v);
    return;
  }
#endif
  alignas(64) float lanes[V];
  v.store_aligned(lanes);
  for (int64_t l = 0; l < V; ++l) {
    if (l < n)
      dst[l] = lanes[l];
    if (l >= b)
      next[l] = lanes[l];
  }
}
#endif

/// Padded row r of channel c's plane: at stride 1 the input row between
/// zero padding columns, at a stride SW its SW column phases.
template <typename S>
ONNXCC_INLINE void implicit_plane_row(const float *ONNXCC_RESTRICT x,
                                      float *ONNXCC_RESTRICT row, int64_t c,
                                      int64_t r) {
  using I = implicit_shape<S>;
  const int64_t h = r - S::PT;
  const bool inside = h >= 0 && h < S::H;
  const float *src = inside ? x + (c * S::H + h) * S::W : x;
  if constexpr (S::SW == 1) {
    const int64_t q_hi = inside ? I::q_hi : 0;
    for (int64_t q = 0; q < I::Wp; ++q)
      if (q < I::q_lo || q >= q_hi)
        row[q] = 0.0f;
    for (int64_t q = I::q_lo; q < q_hi; ++q)
      row[q] = src[q - S::PL];
  } else if constexpr (S::SW == 2) { // zeros, then both phases at once
    for (int64_t q = 0; q < I::kRow; ++q)
      row[q] = 0.0f;
    constexpr int64_t pe = S::PL % 2, po = (S::PL + 1) % 2;
    constexpr int64_t n = S::W < I::Wp - S::PL ? S::W : I::Wp - S::PL;
    if (inside)
      deinterleave2(src, n, row + pe * I::Wq + S::PL / 2,
                    row + po * I::Wq + (S::PL + 1) / 2);
  } else {
    for (int64_t p = 0; p < S::SW; ++p)
      for (int64_t q = 0; q < I::Wq; ++q) {
        const int64_t w = q * S::SW + p - S::PL;
        row[p * I::Wq + q] = inside && w >= 0 && w < S::W ? src[w] : 0.0f;
      }
  }
}

/// Channels [c_lo, c_hi) of image x into their zero-padded planes.
template <typename S>
inline void implicit_planes(const float *ONNXCC_RESTRICT x,
                            float *ONNXCC_RESTRICT planes, int64_t c_lo,
                            int64_t c_hi) {
  using I = implicit_shape<S>;
  for (int64_t c = c_lo; c < c_hi; ++c)
    for (int64_t r = 0; r < I::Hp; ++r)
      implicit_plane_row<S>(x, planes + c * I::kPlane + r * I::kRow, c, r);
  if (c_lo < c_hi && c_hi == S::C) // one thread writes the slack
    for (int64_t i = 0; i < I::kSlack; ++i)
      planes[S::C * I::kPlane + i] = 0.0f;
}

/// Output channels [o, o + R) at NV spots: sums over k = (c, kh, kw).
template <int R, int NV, typename S, typename Epi>
ONNXCC_INLINE void implicit_tile(const float *ONNXCC_RESTRICT w,
                                 const float *ONNXCC_RESTRICT planes,
                                 const float *bias, float *ONNXCC_RESTRICT y,
                                 int64_t o, int64_t s, Epi epi) {
  using I = implicit_shape<S>;
  int64_t in[NV], out[NV];
  [[maybe_unused]] int64_t in2[NV], out2[NV]; // two-row spots' second rows
  for (int v = 0; v < NV; ++v) {
    if constexpr (I::kFlat) { // out[] unused: see store_flat_spot
      in[v] = I::flat(s + v);
      out[v] = 0;
      continue;
    }
    in[v] = I::row(s + v) * S::SH * I::kRow + I::col(s + v);
    out[v] = I::row(s + v) * S::OW + I::col(s + v);
    if constexpr (I::kSpotRows == 2) {
      in2[v] = I::row2(s + v) * S::SH * I::kRow;
      out2[v] = I::row2(s + v) * S::OW;
    }
  }
  const float *wo = w + o * S::Kdim;
#if ONNXCC_HAS_SIMD
  vfloat acc[R][NV];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v)
      acc[r][v] = vfloat(0.0f);
  for (int64_t k = 0; k < S::Kdim; ++k) {
    const float *pk = planes + I::kTaps.at[k];
    vfloat b[NV];
    for (int v = 0; v < NV; ++v)
      if constexpr (I::kSpotRows == 2)
        b[v] = load_halves(pk + in[v], pk + in2[v]);
      else
        b[v] = vfloat::load_unaligned(pk + in[v]);
    for (int r = 0; r < R; ++r) {
      const vfloat a(wo[r * S::Kdim + k]);
      for (int v = 0; v < NV; ++v)
        acc[r][v] = vfma(a, b[v], acc[r][v]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v) {
      const vfloat res =
          finish_vec<true>(acc[r][v], bias, o + r, false, 1.0f, 1.0f, epi);
      float *dst = y + (o + r) * S::P + out[v];
      if constexpr (I::kFlat) {
        store_flat_spot<S>(res, y + (o + r) * S::P, in[v]);
      } else if constexpr (S::OW >= kVecWidth) {
        res.store_unaligned(dst);
      } else if constexpr (I::kSpotRows == 2) {
        alignas(64) float lanes[kVecWidth];
        res.store_aligned(lanes);
        float *dst2 = y + (o + r) * S::P + out2[v];
        for (int64_t l = 0; l < S::OW; ++l) {
          dst[l] = lanes[l];
          dst2[l] = lanes[kVecWidth / 2 + l];
        }
      } else {
        alignas(64) float lanes[kVecWidth];
        res.store_aligned(lanes);
        for (int64_t l = 0; l < S::OW; ++l)
          dst[l] = lanes[l];
      }
    }
#else
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v) {
      float acc = 0.0f;
      for (int64_t k = 0; k < S::Kdim; ++k)
        acc += wo[r * S::Kdim + k] * planes[I::kTaps.at[k] + in[v]];
      y[(o + r) * S::P + out[v]] =
          finish<true>(acc, bias, o + r, 1.0f, 1.0f, epi);
    }
#endif
}

/// Whether conv2d_implicit() takes narrow tiles, kNarrowRows output
/// channels x 3 spots, for its S::O channels: whole tiles of them, at most
/// 64 (narrow_rows()'s rule, at any depth). 12 x 2 tiles load a B vector
/// per 12 multiply-adds, 8 x 3 per 8 but 3 B vectors per 8 broadcasts
/// instead of 2 per 12 (11 loads per 24 multiply-adds, not 14), and 64
/// channels cut in 12-row tiles leave a 4-row one: the stems (3 -> 64
/// channels, 7x7 and 3x3 at stride 2; 3 -> 32) ran 5-7% faster, and
/// squeezenet1_1's 16 -> 64 channel 3x3 layers over 55x55 3% (AVX-512).
template <typename S> constexpr bool implicit_narrow() {
  return kNarrowRows > 0 && S::O % (kNarrowRows > 0 ? kNarrowRows : 1) == 0 &&
         S::O <= 64;
}

/// Spots [s_lo, s_hi) of all output channels, two spots a tile (three in
/// narrow tiles, implicit_narrow()), in blocks of kBlockSpots.
template <typename S, typename Epi>
inline void implicit_spots(const float *w, const float *planes,
                           const float *bias, float *y, int64_t s_lo,
                           int64_t s_hi, Epi epi) {
  using I = implicit_shape<S>;
  for (int64_t b = s_lo; b < s_hi; b += I::kBlockSpots) {
    const int64_t be = b + I::kBlockSpots < s_hi ? b + I::kBlockSpots : s_hi;
    if constexpr (implicit_narrow<S>()) {
      constexpr int R = kNarrowRows > 0 ? kNarrowRows : 1;
      for (int64_t o = 0; o < S::O; o += R) {
        int64_t s = b;
        for (; s + 3 <= be; s += 3)
          implicit_tile<R, 3, S>(w, planes, bias, y, o, s, epi);
        if (be - s == 2)
          implicit_tile<R, 2, S>(w, planes, bias, y, o, s, epi);
        else if (be - s == 1)
          implicit_tile<R, 1, S>(w, planes, bias, y, o, s, epi);
      }
      continue;
    }
    for_row_tiles<S::O>(0, S::O, [&](auto rows, int64_t o) ONNXCC_INLINE_LAMBDA {
      constexpr int R = decltype(rows)::value;
      int64_t s = b;
      for (; s + 2 <= be; s += 2)
        implicit_tile<R, 2, S>(w, planes, bias, y, o, s, epi);
      if (s < be)
        implicit_tile<R, 1, S>(w, planes, bias, y, o, s, epi);
    });
  }
}

template <typename S, typename Epi>
inline void conv2d_implicit(const float *x, const float *w, const float *bias,
                            float *y, float *scratch, Epi epi) {
  using I = implicit_shape<S>;
  for (int64_t n = 0; n < S::N; ++n) {
    implicit_planes<S>(x + n * S::C * S::H * S::W, scratch, 0, S::C);
    implicit_spots<S>(w, scratch, bias, y + n * S::O * S::P, 0, I::kSpots,
                      epi);
  }
}

/// Threads split the planes by channel, then the spots in runs of pairs,
/// about four runs a thread (run_units: a thread that finishes early
/// takes the late one's last runs).
template <typename S, typename Par, typename Epi>
inline void conv2d_implicit(Par &par, const float *x, const float *w,
                            const float *bias, float *y, float *scratch,
                            Epi epi) {
  using I = implicit_shape<S>;
  constexpr int64_t pairs = (I::kSpots + 1) / 2;
  for (int64_t n = 0; n < S::N; ++n) {
    const float *xn = x + n * S::C * S::H * S::W;
    par.run([&](int t, int T) {
      const part p = split(S::C, t, T);
      implicit_planes<S>(xn, scratch, p.lo, p.hi);
    });
    run_runs(par, pairs, [&](int64_t lo, int64_t hi) {
      implicit_spots<S>(w, scratch, bias, y + n * S::O * S::P, 2 * lo,
                        2 * hi < I::kSpots ? 2 * hi : I::kSpots, epi);
    });
  }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_CONV_IMPLICIT_H
