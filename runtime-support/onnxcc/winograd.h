//===- winograd.h - 3x3 stride-1 convolution as Winograd F(2,3) --*- C++ -*-===//
//
// conv2d_winograd(): kernel.conv2d's `winograd` algorithm (Lavin and Gray,
// "Fast Algorithms for Convolutional Neural Networks"). Each 2x2 block of
// outputs of channel o is A^T [sum over c of U[o][c] (.) V[c]] A, with
// V = B^T d B of the 4x4 input tile d under it and U = G g G^T of the 3x3
// kernel g, which the compiler computes (onnxcc-choose-conv-algorithm):
// the weight operand is U as [16][O][C]. Per element xi of the 4x4
// transform domain, the sum over c is one GEMM, M_xi (O x T tiles) =
// U_xi (O x C) * V_xi (C x T): 16 GEMMs of C x O x T multiply-adds instead
// of one of 9 x C x O x 4T, 2.25x fewer.
//
// Scratch (planned; Conv2dOp::getScratchElements mirrors kScratch and
// winograd_floats()): the 16 V_xi, packed in the panels of gemm_packed.h,
// then the 16 M_xi row-major, then a vector's slack the output transform
// reads past the last. While the inputs are transformed, the M_xi region
// stages them (see winograd_input()). Threads that each transform the
// whole input (winograd_own_inputs()) add their own V_xi and staging.
//
// Both transforms run kVecWidth tiles of a tile row at once: the input
// rows are first split into even and odd columns, so each tile's four
// columns are unit-stride loads across tiles. A map of at most 16 tiles
// runs winograd_map.h's layout instead, every tile in one row of lanes,
// within the same scratch.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_WINOGRAD_H
#define ONNXCC_RUNTIME_WINOGRAD_H

#include "onnxcc/gemm_packed.h"
#include "onnxcc/parallel.h"
#include "onnxcc/window.h"
#include "onnxcc/winograd_map.h"

namespace onnxcc {
namespace rt {

namespace winograd_detail {
#if ONNXCC_HAS_SIMD
using lanes = vfloat;
ONNXCC_INLINE lanes load(const float *p) { return vfloat::load_unaligned(p); }
ONNXCC_INLINE void store(float *p, lanes v) { v.store_aligned(p); }
ONNXCC_INLINE void store_unaligned(float *p, lanes v) { v.store_unaligned(p); }
#else
using lanes = float;
ONNXCC_INLINE lanes load(const float *p) { return *p; }
ONNXCC_INLINE void store(float *p, lanes v) { *p = v; }
ONNXCC_INLINE void store_unaligned(float *p, lanes v) { *p = v; }
#endif

/// dst[i] = src[2i] for i in [Lo, Hi), zeros elsewhere in [0, N).
template <int64_t Lo, int64_t Hi, int64_t N>
ONNXCC_INLINE void split_columns(float *ONNXCC_RESTRICT dst,
                                 const float *ONNXCC_RESTRICT src) {
  for (int64_t i = 0; i < Lo; ++i)
    dst[i] = 0.0f;
  for (int64_t i = Lo; i < Hi; ++i)
    dst[i] = src[2 * i];
  for (int64_t i = Hi; i < N; ++i)
    dst[i] = 0.0f;
}
} // namespace winograd_detail

/// The tiling of convolution S (3x3, stride 1, one group) into 2x2 output
/// tiles, and its scratch.
template <typename S> struct winograd_shape {
  static_assert(S::KH == 3 && S::KW == 3 && S::SH == 1 && S::SW == 1 &&
                    S::DH == 1 && S::DW == 1 && S::G == 1,
                "Winograd F(2,3) takes 3x3, stride-1, undilated, ungrouped");
  static constexpr int64_t TH = (S::OH + 1) / 2, TW = (S::OW + 1) / 2;
  static constexpr int64_t T = TH * TW;
  /// Floats of one packed V_xi (C x T) and of one M_xi (O x T).
  static constexpr int64_t kV = packed_floats(S::C, T), kM = S::O * T;
  static constexpr int64_t kScratch = 16 * (kV + kM) + kPanelPad;
  /// A tile row's input row split by column parity: TW + 1 columns each,
  /// and a vector of zeros read past them.
  static constexpr int64_t kRow = TW + 1 + kVecWidth;
  /// A channel's staged transform (winograd_input()): 16 rows of every
  /// tile and a vector of slack, and how many channels' stagings the M_xi
  /// region, idle while the inputs are transformed, holds at once.
  /// The slack is the widest ISA's vector, so the planner sizes threads'
  /// own stagings (winograd_floats()) without knowing the target's.
  static constexpr int64_t kStageRow = T + 16, kStage = 16 * kStageRow;
  static_assert(kVecWidth <= 16, "a stage row's slack holds a vector");
  static constexpr int64_t kStages = 16 * kM / kStage;
  /// Channels a thread stages at once, at most: blocks of 4 or 8 channels
  /// wrote 32 channels over 27x27 in 22 us, 1 in 30, all 32 in 23; 256
  /// over 14x14: 64, 101 and 74 us.
  static constexpr int64_t kStageBlock = 8;
  /// Channels each of `threads` threads stages at once in M's region: 0
  /// where it holds none for this thread.
  static constexpr int64_t stage_channels(int threads) {
    return kStages / threads > kStageBlock ? kStageBlock : kStages / threads;
  }
};

/// Writes the n <= kVecWidth values of v, columns t0.. of row k, into a
/// K-row operand packed in panels; the run may cross into the next panel.
template <int64_t K>
ONNXCC_INLINE void winograd_put(float *packed, int64_t k, int64_t t0, int64_t n,
                                winograd_detail::lanes v) {
#if ONNXCC_HAS_SIMD
  const int64_t lane = t0 % kPanel;
  if (n == kVecWidth && lane + kVecWidth <= kPanel) { // inside one panel
    v.store_unaligned(packed + packed_at<K>(k, t0));
    return;
  }
#endif
  // Lane by lane, a constant trip count: a loop of run-time length
  // becomes a memmove call.
  alignas(64) float tmp[kVecWidth];
  winograd_detail::store(tmp, v);
  for (int64_t l = 0; l < kVecWidth; ++l)
    if (l < n)
      packed[packed_at<K>(k, t0 + l)] = tmp[l];
}

/// Rows [c0, c1) of the 16 packed operands at v (kV floats apart) from
/// their staged transforms (kStage floats a channel from `stage`), row xi
/// of each channel holding every tile in order and a vector of slack.
/// Panel by panel and channel by channel, so each operand is written
/// front to back: a channel's rows, a panel apart, are K x kPanel floats
/// apart, a multiple of 4 KiB for 32 or 64 channels under AVX-512, and
/// written channel by channel all 16 x panels of them fell in the same
/// two L1 sets (32 channels over 27x27: 44 us for the input transform).
/// Whole vectors: those past T, in the last panel's padding, are never
/// stored from the products.
template <typename S>
ONNXCC_INLINE void winograd_unstage(const float *ONNXCC_RESTRICT stage,
                                    float *ONNXCC_RESTRICT v, int64_t c0,
                                    int64_t c1) {
  using WS = winograd_shape<S>;
  for (int64_t xi = 0; xi < 16; ++xi)
    for (int64_t p = 0; p < WS::T; p += kPanel) {
      float *dst = v + xi * WS::kV + p * S::C + c0 * kPanel;
      const float *src = stage + xi * WS::kStageRow + p;
      for (int64_t c = c0; c < c1; ++c, dst += kPanel, src += WS::kStage) {
#if ONNXCC_HAS_SIMD
        for (int64_t l = 0; l < kPanel && p + l < WS::T; l += kVecWidth)
          vfloat::load_unaligned(src + l).store_unaligned(dst + l);
#else
        for (int64_t l = 0; l < kPanel && p + l < WS::T; ++l)
          dst[l] = src[l];
#endif
      }
    }
}

/// The 16 transformed values of channel c's tiles: rows of every tile
/// in order at `stage` (whole vectors; one running past a tile row's end
/// is overwritten by the next row's), or, without, put into the packed
/// operands at v one vector at a time.
template <typename S>
inline void winograd_channel(const float *ONNXCC_RESTRICT xc,
                             float *ONNXCC_RESTRICT v, int64_t c,
                             float *ONNXCC_RESTRICT stage) {
  using WS = winograd_shape<S>;
  using winograd_detail::lanes;
  using winograd_detail::load;
  // Tile column u's input columns 2u - PL + j: parity j % 2, index u + j / 2
  // in that half; those in the image, by parity. Every loop filling a row
  // runs a constant trip count: of run-time length, GCC made the zeroing
  // loops `rep stos`, whose start-up cost ~50 cycles each (8 a tile row:
  // 31 of the 39 us of a 48-channel 13x13 input transform, AVX-512).
  constexpr index_range cols[2] = {in_bounds(-S::PL, 2, S::W, WS::TW + 1),
                                   in_bounds(1 - S::PL, 2, S::W, WS::TW + 1)};
  // The next tile row's input rows are split while this one's are
  // transformed: a vector load of floats stored one at a time waits for
  // all of them to reach the cache (no store forwarding across stores),
  // and right after them that stalled each tile row (48 channels over
  // 13x13: 13 -> 9 us).
  alignas(64) float rows[2][4][2][WS::kRow] = {}; // zeros past TW + 1
  auto split_tile_row = [&](int64_t th, float (*dst)[2][WS::kRow]) {
    for (int64_t r = 0; r < 4; ++r) {
      const int64_t ih = 2 * th - S::PT + r;
      if (ih < 0 || ih >= S::H) {
        for (int64_t q = 0; q < 2; ++q)
          for (int64_t i = 0; i < WS::TW + 1; ++i)
            dst[r][q][i] = 0.0f;
        continue;
      }
      winograd_detail::split_columns<cols[0].lo, cols[0].hi, WS::TW + 1>(
          dst[r][0], xc + ih * S::W - S::PL);
      winograd_detail::split_columns<cols[1].lo, cols[1].hi, WS::TW + 1>(
          dst[r][1], xc + ih * S::W + 1 - S::PL);
    }
  };
  split_tile_row(0, rows[0]);
  for (int64_t th = 0; th < WS::TH; ++th) {
    if (th + 1 < WS::TH)
      split_tile_row(th + 1, rows[(th + 1) % 2]);
    const float(*in)[2][WS::kRow] = rows[th % 2];
    for (int64_t tw = 0; tw < WS::TW; tw += kVecWidth) {
      lanes d[4][4], s[4][4];
      for (int64_t r = 0; r < 4; ++r) {
        d[r][0] = load(in[r][0] + tw);
        d[r][1] = load(in[r][1] + tw);
        d[r][2] = load(in[r][0] + tw + 1);
        d[r][3] = load(in[r][1] + tw + 1);
      }
      for (int64_t j = 0; j < 4; ++j) { // B^T d
        s[0][j] = d[0][j] - d[2][j];
        s[1][j] = d[1][j] + d[2][j];
        s[2][j] = d[2][j] - d[1][j];
        s[3][j] = d[1][j] - d[3][j];
      }
      const int64_t t0 = th * WS::TW + tw;
      const int64_t n = WS::TW - tw < kVecWidth ? WS::TW - tw : kVecWidth;
      for (int64_t i = 0; i < 4; ++i) { // (B^T d) B
        const lanes e[4] = {s[i][0] - s[i][2], s[i][1] + s[i][2],
                            s[i][2] - s[i][1], s[i][1] - s[i][3]};
        for (int64_t j = 0; j < 4; ++j) {
          if (stage)
            winograd_detail::store_unaligned(
                stage + (4 * i + j) * WS::kStageRow + t0, e[j]);
          else
            winograd_put<S::C>(v + (4 * i + j) * WS::kV, c, t0, n, e[j]);
        }
      }
    }
  }
}

/// V_xi = B^T d B for the tiles of channels [c_lo, c_hi) of one image,
/// into the 16 packed operands at v. With a stage of `stage_channels`
/// channels (kStage floats each, at least one), blocks of that many
/// channels are transformed into it and then copied into the panels
/// whole vectors at a time (winograd_unstage()): a tile row's vectors
/// start anywhere in a panel, and put one at a time, most straddled two
/// panels and went lane by lane (resnet18's 56x56 layers: 790 of the
/// 1730 us).
template <typename S>
inline void winograd_input(const float *ONNXCC_RESTRICT x,
                           float *ONNXCC_RESTRICT v, int64_t c_lo,
                           int64_t c_hi, float *ONNXCC_RESTRICT stage,
                           int64_t stage_channels = 1) {
  using WS = winograd_shape<S>;
  if (!stage) {
    for (int64_t c = c_lo; c < c_hi; ++c)
      winograd_channel<S>(x + c * S::H * S::W, v, c, nullptr);
    return;
  }
  for (int64_t c0 = c_lo; c0 < c_hi; c0 += stage_channels) {
    const int64_t c1 = c_hi - c0 < stage_channels ? c_hi : c0 + stage_channels;
    for (int64_t c = c0; c < c1; ++c)
      winograd_channel<S>(x + c * S::H * S::W, v, c,
                          stage + (c - c0) * WS::kStage);
    winograd_unstage<S>(stage, v, c0, c1);
  }
}

/// y[o] = epi(A^T M A + bias[o]) for output channels [o_lo, o_hi) of one
/// image, M_xi at m (kM floats apart).
template <typename S, typename Epi>
inline void winograd_output(const float *ONNXCC_RESTRICT m, const float *bias,
                            float *ONNXCC_RESTRICT y, int64_t o_lo,
                            int64_t o_hi, Epi epi) {
  using WS = winograd_shape<S>;
  using winograd_detail::lanes;
  using winograd_detail::load;
  for (int64_t o = o_lo; o < o_hi; ++o) {
    const lanes b(bias[o]);
    float *yo = y + o * S::OH * S::OW;
    for (int64_t th = 0; th < WS::TH; ++th)
      for (int64_t tw = 0; tw < WS::TW; tw += kVecWidth) {
        const float *mt = m + o * WS::T + th * WS::TW + tw;
        lanes a[2][4];
        for (int64_t j = 0; j < 4; ++j) { // A^T M
          const lanes m0 = load(mt + j * WS::kM);
          const lanes m1 = load(mt + (4 + j) * WS::kM);
          const lanes m2 = load(mt + (8 + j) * WS::kM);
          const lanes m3 = load(mt + (12 + j) * WS::kM);
          a[0][j] = m0 + m1 + m2;
          a[1][j] = m1 - m2 - m3;
        }
        const int64_t n = WS::TW - tw < kVecWidth ? WS::TW - tw : kVecWidth;
        for (int64_t i = 0; i < 2 && 2 * th + i < S::OH; ++i) { // (A^T M) A
          alignas(64) float left[kVecWidth], right[kVecWidth];
          winograd_detail::store(left, epi(a[i][0] + a[i][1] + a[i][2] + b));
          winograd_detail::store(right, epi(a[i][1] - a[i][2] - a[i][3] + b));
          float *yr = yo + (2 * th + i) * S::OW + 2 * tw;
          for (int64_t l = 0; l < n; ++l) {
            yr[2 * l] = left[l];
            if (2 * (tw + l) + 1 < S::OW)
              yr[2 * l + 1] = right[l];
          }
        }
      }
  }
}

/// Rows [o0, o0 + R) of product xi, M_xi = U_xi V_xi: a product of its
/// own, whose panels-outer order and row tiles R decides.
template <typename S, int64_t R = S::O>
ONNXCC_INLINE void winograd_product(const float *u, const float *v, float *m,
                                    int64_t xi, int64_t o0 = 0) {
  using WS = winograd_shape<S>;
  gemm_packed<R, WS::T, S::C, 1, false>(u + (xi * S::O + o0) * S::C,
                                       v + xi * WS::kV, nullptr,
                                       m + xi * WS::kM + o0 * WS::T, identity{});
}

/// Output channels [o0, o0 + R) of one image from its transformed input
/// v: their rows of all 16 products, then their output transform.
template <typename S, int64_t R, typename Epi>
ONNXCC_INLINE void winograd_channels(const float *u, const float *v, float *m,
                                     const float *bias, float *y, int64_t o0,
                                     Epi epi) {
  for (int64_t xi = 0; xi < 16; ++xi)
    winograd_product<S, R>(u, v, m, xi, o0);
  winograd_output<S>(m, bias, y, o0, o0 + R, epi);
}

/// y = epi(conv(x, g) + bias) with u = G g G^T as [16][O][C].
template <typename S, typename Epi>
inline void conv2d_winograd(const float *x, const float *u, const float *bias,
                            float *y, float *scratch, Epi epi) {
  using WS = winograd_shape<S>;
  if constexpr (winograd_map_shape<S>::kApplies) {
    static_assert(winograd_map_shape<S>::kScratch <= WS::kScratch,
                  "the map layout fits the planned scratch");
    conv2d_winograd_map<S>(x, u, bias, y, scratch, epi);
  } else {
    float *v = scratch, *m = scratch + 16 * WS::kV;
    for (int64_t n = 0; n < S::N; ++n) {
      winograd_input<S>(x + n * S::C * S::H * S::W, v, 0, S::C,
                        WS::kStages > 0 ? m : nullptr, WS::stage_channels(1));
      winograd_channels<S, S::O>(u, v, m, bias, y + n * S::O * S::P, 0, epi);
    }
  }
}

/// Most tiles of a map whose threaded Winograd cuts its products by rows
/// whatever its channels.
constexpr int64_t kRowSplitTiles = 64;

/// Whether threaded Winograd on `threads` threads cuts its products by
/// rows (output channels), each thread with its own transformed input,
/// rather than handing out whole products. Every thread then transforms
/// all of the input into its own copy of V, runs its rows of all 16
/// products and the output transform of the same channels: neither V nor
/// M crosses to the other core, and two barriers go. Handed out whole,
/// each product's M is read by both threads' output transforms and each
/// V_xi by the thread of its product. With the two vCPUs of an AMD Zen 5
/// host on different dies (~210 ns core to core), whole products / rows
/// over one shared V / rows over own V (us, medians): 48 -> 192 over 13x13
/// 102-107 / 101-104 / 85-87, 64 -> 256 over 13x13 144-156 / 145-149 /
/// 115-119, 256 over 14x14 452-486 / 454-469 / 376-384. On one die
/// (~45 ns) the second transform costs each thread its C x T x 16 values
/// (48 -> 192: 49 / 49 / 54 us, 64 -> 256: 80 / 79 / 85, 256 over 14x14
/// 297 / 290 / 320). Maps of more than kRowSplitTiles tiles ran 2-4% slower
/// cut by rows over a shared V on one die (each thread reads all of a V
/// that no longer fits its L2: 64 over 56x56 435 -> 445 us) and keep whole
/// products, unless M is at least 4x V (4C <= O, squeezenet1_1's expand
/// layers), whose crossing then costs most: 32 -> 128 over 27x27, whole
/// products / own V, 191-202 / 152-166 us on two dies, 87 / 100 on one.
/// Independent of the ISA, so that the planner's scratch
/// (Conv2dOp::getScratchElements) can follow it.
template <typename S>
constexpr bool winograd_own_inputs(int threads) {
  return threads > 1 && !winograd_map_shape<S>::kApplies &&
         (winograd_shape<S>::T <= kRowSplitTiles || 4 * S::C <= S::O) &&
         S::O % threads == 0;
}

/// Where threads transform their own inputs: the first float after
/// kScratch on a cache line, where each further thread's V starts, and
/// after those every thread's staging of kStageBlock channels (M's
/// region, where one thread stages, is being written by the others).
template <typename S>
constexpr int64_t kWinogradOwnInputs = (winograd_shape<S>::kScratch + 15) / 16 * 16;

/// Floats of conv2d_winograd()'s scratch on `threads` threads.
template <typename S> constexpr int64_t winograd_floats(int threads) {
  using WS = winograd_shape<S>;
  return winograd_own_inputs<S>(threads)
             ? kWinogradOwnInputs<S> + (threads - 1) * 16 * WS::kV +
                   threads * WS::kStageBlock * WS::kStage
             : WS::kScratch;
}

/// conv2d_winograd() on par's threads: see winograd_own_inputs(), or else
/// channels of the input transform, whole products and then output
/// channels of the output transform. Every output's sum is the one
/// thread's, so are the bits.
template <typename S, typename Par, typename Epi>
inline void conv2d_winograd(Par &par, const float *x, const float *u,
                            const float *bias, float *y, float *scratch,
                            Epi epi) {
  if constexpr (winograd_map_shape<S>::kApplies) {
    static_assert(winograd_map_shape<S>::kScratch <= winograd_shape<S>::kScratch,
                  "the map layout fits the planned scratch");
    conv2d_winograd_map<S>(par, x, u, bias, y, scratch, epi);
  } else {
    using WS = winograd_shape<S>;
    constexpr int D = Par::kThreads;
    float *v = scratch, *m = scratch + 16 * WS::kV;
    for (int64_t n = 0; n < S::N; ++n) {
      const float *xn = x + n * S::C * S::H * S::W;
      float *yn = y + n * S::O * S::P;
      if constexpr (winograd_own_inputs<S>(D)) {
        float *own_v = scratch + kWinogradOwnInputs<S>; // threads 1..
        float *stages = own_v + (D - 1) * 16 * WS::kV;
        par.run([&](int t, int T) {
          float *stage = stages + t * WS::kStageBlock * WS::kStage;
          if (T != D) { // the pool was busy: every channel here
            winograd_input<S>(xn, v, 0, S::C, stage, WS::kStageBlock);
            winograd_channels<S, S::O>(u, v, m, bias, yn, 0, epi);
            return;
          }
          constexpr int64_t R = S::O / D;
          float *vt = t == 0 ? v : own_v + (t - 1) * 16 * WS::kV;
          winograd_input<S>(xn, vt, 0, S::C, stage, WS::kStageBlock);
          winograd_channels<S, R>(u, vt, m, bias, yn, t * R, epi);
        });
      } else {
        par.run([&](int t, int T) {
          // Each thread stages in its own share of M's region; threads
          // past what it holds put their vectors one at a time.
          const part p = split(S::C, t, T);
          const int64_t share =
              WS::stage_channels(T) > 0 ? WS::stage_channels(T) : 1;
          winograd_input<S>(xn, v, p.lo, p.hi,
                            (t + 1) * share <= WS::kStages
                                ? m + t * share * WS::kStage
                                : nullptr,
                            share);
        });
        run_units(par, 16, [&](int64_t xi) {
          winograd_product<S>(u, v, m, xi);
        });
        par.run([&](int t, int T) {
          const part p = split(S::O, t, T);
          winograd_output<S>(m, bias, yn, p.lo, p.hi, epi);
        });
      }
    }
  }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_WINOGRAD_H
