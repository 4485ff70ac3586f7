//===- winograd_map.h - Winograd F(2,3) over a small map's tiles -*- C++ -*-===//
//
// conv2d_winograd_map(): winograd.h's algorithm for a map of at most
// kMaxMapTiles 2x2 output tiles (up to 8x8 outputs, resnet's 7x7), with
// every tile of the map side by side in the lanes of one row. winograd.h
// runs its transforms a tile row at a time (an 8x8 map's four tiles used
// 4 lanes of 16) and its 16 GEMMs through gemm_packed, whose blocking
// cost more than the few multiply-adds of a small map: for a 16 -> 32
// channel 8x8 layer, 7.2 us against 6.4 for the implicit GEMM and 3.8
// here (g++ -O3, AVX-512, Zen 4). A 16x16 map (64 tiles in four rows)
// gained nothing over the implicit GEMM: its gathers and its transformed
// input (64 KiB at 16 channels) grow with the tiles.
//
// Here each (xi, c) of the transformed input is one row of kLanes floats,
// tile t = th * TW + tw in lane t (finite values past the last tile,
// never stored), so
//   - the input transform runs along each padded input row for every tile
//     column, then along the rows for whole rows of lanes (B^T d B);
//   - a register tile of R output channels x a row of lanes accumulates
//     U_xi[o][c] * V_xi[c] over c, for all 16 xi of its channels in turn,
//     into a stack block of [16][R][kLanes];
//   - the output transform (A^T M A) then reads that block, still in L1,
//     interleaves each tile row's two output columns in registers and
//     copies whole output rows to the map.
// The scratch holds V only, [16][C][kLanes] floats, within what
// Conv2dOp::getScratchElements reserves for `winograd`.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_WINOGRAD_MAP_H
#define ONNXCC_RUNTIME_WINOGRAD_MAP_H

#include "onnxcc/config.h"
#include "onnxcc/deinterleave.h"
#include "onnxcc/gemm_blocking.h"
#include "onnxcc/parallel.h"

namespace onnxcc {
namespace rt {

/// The most 2x2 tiles winograd_map runs: one row of 16 lanes.
constexpr int64_t kMaxMapTiles = 16;

template <typename S> struct winograd_map_shape {
  static constexpr int64_t TH = (S::OH + 1) / 2, TW = (S::OW + 1) / 2;
  static constexpr int64_t T = TH * TW;
  static constexpr bool kApplies = T <= kMaxMapTiles;
  /// Lanes of a row: 16 (whole vectors on every ISA, so the layout and
  /// the scratch do not depend on the ISA); those past T compute zeros.
  static constexpr int64_t kLanes = (T + 15) / 16 * 16;
  /// Vectors of a row, and the output channels of a register tile: at
  /// most as many accumulators as gemm's widest tile keeps (2 x kTileRows:
  /// 24 where there are 32 vector registers, 12 where 16), and at most 8
  /// rows (a 16 -> 32 channel 8x8 layer under AVX-512: 3.8 us with 8 rows,
  /// 4.0 with 12; 512 channels over 7x7 under AVX2: 2330 us with 6 rows,
  /// 2790 with 4).
  static constexpr int64_t kRowVectors = kLanes / kVecWidth;
  static constexpr int kTileRows = [] {
    const int64_t rows = 2 * rt::kTileRows / kRowVectors;
    return static_cast<int>(rows < 1 ? 1 : rows > 8 ? 8 : rows);
  }();
  /// The zero-padded input rows the tiles read (Hp), each split into its
  /// even and odd columns, Wh of each.
  static constexpr int64_t Hp = 2 * TH + 2, Wh = TW + 1;
  static constexpr int64_t kScratch = 16 * S::C * kLanes;
};

namespace winograd_map_detail {
#if ONNXCC_HAS_SIMD
using vec = vfloat;
// Unaligned: the scratch is only as aligned as its caller made it.
ONNXCC_INLINE vec load(const float *p) { return vfloat::load_unaligned(p); }
ONNXCC_INLINE void store(float *p, vec v) { v.store_unaligned(p); }
ONNXCC_INLINE vec fma(vec a, vec b, vec c) { return vfma(a, b, c); }
#else
using vec = float;
ONNXCC_INLINE vec load(const float *p) { return *p; }
ONNXCC_INLINE void store(float *p, vec v) { *p = v; }
ONNXCC_INLINE vec fma(vec a, vec b, vec c) { return a * b + c; }
#endif
constexpr int64_t kStep = kVecWidth; ///< floats of one vec
} // namespace winograd_map_detail

/// V[xi][c] = B^T d B of every tile of channels [c_lo, c_hi), as rows of
/// kLanes at v + (xi * C + c) * kLanes. B^T d B is separable: first the
/// transform along each padded input row, for every tile column at once
/// (e[q][pr][tw], four taps to four values), then along the rows, for
/// whole rows of lanes. Tile (th, tw) reads padded rows 2 th + r, so with
/// e's rows split by parity, e[q][r % 2] + (r / 2) * TW holds tap row r of
/// every tile, in lane order: each of the 16 rows of V is one vector
/// operation on two such loads. Gathering the 16 taps of each tile into
/// lanes one float at a time took 256 scalar moves a channel: a 16 -> 32
/// channel 8x8 layer's input transform 0.75 -> 0.6 us under clang++
/// (-O3, AVX-512), 1.15 -> 1.25 under g++ (whose output transform gained
/// 1 us, winograd_map_output()).
template <typename S>
inline void winograd_map_input(const float *ONNXCC_RESTRICT x,
                               float *ONNXCC_RESTRICT v, int64_t c_lo,
                               int64_t c_hi) {
  using WM = winograd_map_shape<S>;
  using namespace winograd_map_detail;
  constexpr int64_t L = WM::kLanes, TH = WM::TH, TW = WM::TW;
  // Rows of one parity: TH + 1 of TW. A row of lanes from row r / 2 reads
  // up to TW + L floats: lanes past the last tile read later rows or the
  // zeros past them, finite values whose outputs are never stored.
  constexpr int64_t kRows = (TH + 1) * TW;
  constexpr int64_t kSpan = kRows > TW + L ? kRows : TW + L;
  // half[pr][p][k]: padded input row pr, column 2k + p.
  float half[WM::Hp][2][WM::Wh];
  alignas(64) float e[4][2][kSpan];
  for (int64_t q = 0; q < 4; ++q)
    for (int64_t p = 0; p < 2; ++p)
      for (int64_t k = kRows; k < kSpan; ++k)
        e[q][p][k] = 0.0f;
  for (int64_t c = c_lo; c < c_hi; ++c) {
    const float *xc = x + c * S::H * S::W;
    for (int64_t pr = 0; pr < WM::Hp; ++pr) {
      const int64_t h = pr - S::PT;
      for (int64_t p = 0; p < 2; ++p)
        for (int64_t k = 0; k < WM::Wh; ++k) {
          const int64_t w = 2 * k + p - S::PL;
          half[pr][p][k] =
              h >= 0 && h < S::H && w >= 0 && w < S::W ? xc[h * S::W + w] : 0.0f;
        }
    }
    for (int64_t pr = 0; pr < WM::Hp; ++pr) { // d B, taps 2 tw + 0..3
      const float *xe = half[pr][0], *xo = half[pr][1];
      const int64_t at = pr / 2 * TW;
      for (int64_t tw = 0; tw < TW; ++tw) {
        e[0][pr % 2][at + tw] = xe[tw] - xe[tw + 1];
        e[1][pr % 2][at + tw] = xo[tw] + xe[tw + 1];
        e[2][pr % 2][at + tw] = xe[tw + 1] - xo[tw];
        e[3][pr % 2][at + tw] = xo[tw] - xo[tw + 1];
      }
    }
    for (int64_t q = 0; q < 4; ++q) // B^T (d B), rows 2 th + 0..3
      for (int64_t l = 0; l < L; l += kStep) {
        const vec d0 = load(e[q][0] + l), d1 = load(e[q][1] + l),
                  d2 = load(e[q][0] + TW + l), d3 = load(e[q][1] + TW + l);
        float *vq = v + (q * S::C + c) * L + l;
        store(vq, d0 - d2);
        store(vq + 4 * S::C * L, d1 + d2);
        store(vq + 8 * S::C * L, d2 - d1);
        store(vq + 12 * S::C * L, d1 - d3);
      }
  }
}

/// How far ahead (floats) along a register tile's read order each row of
/// U is prefetched: 16 lines, about 400 ns of products at 512 channels.
/// A 512-channel 7x7 layer with cold weights (Emerald Rapids): 3.6 ms
/// without, 1.47 with 256; 512 and 2048 were no better.
constexpr int64_t kMapPrefetch = 256;

/// m[xi][r] = sum over c of U_xi[o + r][c] * V_xi[c], for R channels.
template <typename S, int R>
ONNXCC_INLINE void winograd_map_products(const float *ONNXCC_RESTRICT u,
                                         const float *ONNXCC_RESTRICT v,
                                         int64_t o, float *ONNXCC_RESTRICT m) {
  using WM = winograd_map_shape<S>;
  using namespace winograd_map_detail;
  constexpr int64_t L = WM::kLanes, NV = L / kStep;
  for (int64_t xi = 0; xi < 16; ++xi) {
    const float *ux = u + (xi * S::O + o) * S::C;
    const float *vx = v + xi * S::C * L;
    vec acc[R][NV];
    for (int r = 0; r < R; ++r)
      for (int64_t n = 0; n < NV; ++n)
        acc[r][n] = vec(0.0f);
    for (int64_t c0 = 0; c0 < S::C; c0 += kLineFloats) {
      // U's R rows are R streams read once a call, which the hardware
      // prefetcher did not keep ahead of (see kMapPrefetch). The line
      // kMapPrefetch floats on along this tile's (xi, c) order may be in
      // a later xi's rows, or the next tile's first.
      const int64_t ahead = xi * S::C + c0 + kMapPrefetch;
      const int64_t at = ahead < 16 * S::C
                             ? ((ahead / S::C) * S::O + o) * S::C + ahead % S::C
                             : (o + R) * S::C + (ahead - 16 * S::C);
      for (int r = 0; r < R; ++r)
        if (at + r * S::C < 16 * S::O * S::C) // no pointer past U's end
          prefetch_read(u + at + r * S::C);
      const int64_t ce = c0 + kLineFloats < S::C ? c0 + kLineFloats : S::C;
      for (int64_t c = c0; c < ce; ++c) {
        vec b[NV];
        for (int64_t n = 0; n < NV; ++n)
          b[n] = load(vx + c * L + n * kStep);
        for (int r = 0; r < R; ++r) {
          const vec a(ux[r * S::C + c]);
          for (int64_t n = 0; n < NV; ++n)
            acc[r][n] = fma(a, b[n], acc[r][n]);
        }
      }
    }
    for (int r = 0; r < R; ++r)
      for (int64_t n = 0; n < NV; ++n)
        store(m + (xi * R + r) * L + n * kStep, acc[r][n]);
  }
}

/// Whether winograd_map_output interleaves a tile row's two output columns
/// in registers (deinterleave.h) and then copies whole output rows.
/// Without it each output is a scalar copy, which g++ (12, AVX-512)
/// vectorised into ~100 single-lane shuffles a channel: 1.44 us of a
/// 16 -> 32 channel 8x8 layer's 5.8, against 0.41 under clang++.
constexpr bool winograd_map_interleaves() {
#if ONNXCC_HAS_SIMD
  return has_even_odd<vfloat>();
#else
  return false;
#endif
}

/// y[o + r] = epi(A^T M A + bias) from the block m of R channels.
template <typename S, int R, typename Epi>
ONNXCC_INLINE void winograd_map_output(const float *ONNXCC_RESTRICT m,
                                       const float *bias, int64_t o,
                                       float *ONNXCC_RESTRICT y, Epi epi) {
  using WM = winograd_map_shape<S>;
  using namespace winograd_map_detail;
  constexpr int64_t L = WM::kLanes, TW = WM::TW;
  // out[i][j][t]: output (2 th + i, 2 tw + j) of tile t; interleaved,
  // rows[i][2 t + j], so tile row th's outputs of row 2 th + i are the
  // 2 TW floats from rows[i] + 2 TW th, of which the first OW are real.
  alignas(64) float out[2][2][L];
  alignas(64) float rows[2][2 * L];
  for (int r = 0; r < R; ++r) {
    const vec b(bias[o + r]);
    for (int64_t l = 0; l < L; l += kStep) {
      vec a[2][4];
      for (int64_t j = 0; j < 4; ++j) { // A^T M
        const float *mj = m + r * L + l;
        const vec m0 = load(mj + j * R * L), m1 = load(mj + (4 + j) * R * L),
                  m2 = load(mj + (8 + j) * R * L),
                  m3 = load(mj + (12 + j) * R * L);
        a[0][j] = m0 + m1 + m2;
        a[1][j] = m1 - m2 - m3;
      }
      for (int64_t i = 0; i < 2; ++i) { // (A^T M) A
        const vec y0 = epi(a[i][0] + a[i][1] + a[i][2] + b);
        const vec y1 = epi(a[i][1] - a[i][2] - a[i][3] + b);
        if constexpr (winograd_map_interleaves()) {
#if ONNXCC_HAS_SIMD
          const even_odd<vec> z = interleave(y0, y1);
          store(rows[i] + 2 * l, z.even);
          store(rows[i] + 2 * l + kStep, z.odd);
#endif
        } else {
          store(out[i][0] + l, y0);
          store(out[i][1] + l, y1);
        }
      }
    }
    float *yo = y + (o + r) * S::OH * S::OW;
    if constexpr (winograd_map_interleaves()) {
      for (int64_t th = 0; th < WM::TH; ++th)
        for (int64_t i = 0; i < 2; ++i)
          if (2 * th + i < S::OH)
            std::memcpy(yo + (2 * th + i) * S::OW, rows[i] + 2 * TW * th,
                        S::OW * sizeof(float));
    } else {
      for (int64_t th = 0; th < WM::TH; ++th)
        for (int64_t i = 0; i < 2; ++i)
          if (2 * th + i < S::OH)
            for (int64_t tw = 0; tw < TW; ++tw)
              for (int64_t j = 0; j < 2; ++j)
                if (2 * tw + j < S::OW)
                  yo[(2 * th + i) * S::OW + 2 * tw + j] =
                      out[i][j][th * TW + tw];
    }
  }
}

/// Output channels [o_lo, o_hi) of one image, from its transformed input.
template <typename S, typename Epi>
inline void winograd_map_channels(const float *u, const float *v,
                                  const float *bias, float *y, int64_t o_lo,
                                  int64_t o_hi, Epi epi) {
  using WM = winograd_map_shape<S>;
  constexpr int R = WM::kTileRows;
  alignas(64) float m[16 * R * WM::kLanes];
  int64_t o = o_lo;
  for (; o + R <= o_hi; o += R) {
    winograd_map_products<S, R>(u, v, o, m);
    winograd_map_output<S, R>(m, bias, o, y, epi);
  }
  // Fewer than R left; the bound R also keeps g++ from reasoning about
  // 2^56 iterations (-Waggressive-loop-optimizations).
  const int64_t left = o_hi - o;
  for (int64_t k = 0; k < R && k < left; ++k) {
    winograd_map_products<S, 1>(u, v, o + k, m);
    winograd_map_output<S, 1>(m, bias, o + k, y, epi);
  }
}

/// y = epi(conv(x, g) + bias) with u = G g G^T as [16][O][C].
template <typename S, typename Epi>
inline void conv2d_winograd_map(const float *x, const float *u,
                                const float *bias, float *y, float *scratch,
                                Epi epi) {
  for (int64_t n = 0; n < S::N; ++n) {
    winograd_map_input<S>(x + n * S::C * S::H * S::W, scratch, 0, S::C);
    winograd_map_channels<S>(u, scratch, bias, y + n * S::O * S::P, 0, S::O,
                             epi);
  }
}

/// On par's threads: input channels, then output channels in whole tiles.
template <typename S, typename Par, typename Epi>
inline void conv2d_winograd_map(Par &par, const float *x, const float *u,
                                const float *bias, float *y, float *scratch,
                                Epi epi) {
  constexpr int64_t R = winograd_map_shape<S>::kTileRows;
  for (int64_t n = 0; n < S::N; ++n) {
    const float *xn = x + n * S::C * S::H * S::W;
    float *yn = y + n * S::O * S::P;
    par.run([&](int t, int T) {
      const part p = split(S::C, t, T);
      winograd_map_input<S>(xn, scratch, p.lo, p.hi);
    });
    par.run([&](int t, int T) {
      const part p = split((S::O + R - 1) / R, t, T);
      const int64_t hi = p.hi * R < S::O ? p.hi * R : S::O;
      winograd_map_channels<S>(u, scratch, bias, yn, p.lo * R, hi, epi);
    });
  }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_WINOGRAD_MAP_H
