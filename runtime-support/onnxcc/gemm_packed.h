//===- gemm_packed.h - GEMM over a B packed in column panels ----*- C++ -*-===//
//
// C[M x N] = epi(A[M x K] * B + bias[row]) where B (K x N) is stored in
// panels of kPanel columns, panel p at Bp + p * K * kPanel holding its
// (k, c) element at k * kPanel + c; the last panel is zero-padded. A
// register tile then reads its B as one contiguous stream: the row-major
// B of gemm() reads one row per k, kilobytes apart (a TLB miss and a new
// prefetch stream each), which costs resnet18's 3x3 layers a third of
// their rate. im2col (conv.h) writes its columns in this layout, so the
// packing is free there.
//
// gemm_panels() reads a constant B the compiler packed the same way but in
// panels of kPanelPad columns (kernel.gemm's `packed_b`, written by
// onnxcc-pack-gemm-weights), so that one layout serves every ISA: a
// register tile reads its kPanel columns at their offset in the panel.
// Read row-major, a MatMul's weights arrive from L3 one row of B per k; as
// one stream, transformer-sized products (32x384x128) ran 25% faster.
//
// Depth blocks, column blocks and row panels are gemm()'s (gemm_blocking.h);
// the threaded forms hand out runs of panels, or row panels when there are
// more of those, to par's threads (run_units), or, for a few rows against
// a small constant B, an equal share of whole rows to each thread
// (kRowsPerThread), and give the same bits as one thread.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_GEMM_PACKED_H
#define ONNXCC_RUNTIME_GEMM_PACKED_H

#include "onnxcc/gemm.h"

#include <type_traits>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Waggressive-loop-optimizations"
#endif

namespace onnxcc {
namespace rt {

/// Columns of one packed panel: the two vectors of a register tile.
constexpr int64_t kPanel = 2 * kVecWidth;
/// Columns a packed operand is padded to. Every ISA's kPanel divides it,
/// so the compiler sizes im2col scratch without knowing the target's
/// (Conv2dOp::getScratchElements uses the same 32).
constexpr int64_t kPanelPad = 32;
static_assert(kPanelPad % kPanel == 0, "a panel must divide the padding");

/// Floats of a K x N operand packed in panels, as the planner reserves.
constexpr int64_t packed_floats(int64_t K, int64_t N) {
  return K * ((N + kPanelPad - 1) / kPanelPad * kPanelPad);
}

/// Where element (k, j) of a K x N operand packed in panels of Width
/// columns lives: kPanel for the per-call packing, kPanelPad for the
/// compiler's.
template <int64_t K, int64_t Width = kPanel>
ONNXCC_INLINE constexpr int64_t packed_at(int64_t k, int64_t j) {
  return j / Width * K * Width + k * Width + j % Width;
}

/// R rows of C at (i, j) from `bp`, column j's depth 0 in its panel of
/// Width columns, over one depth block; only the first `cols` columns are
/// stored (the last panel's). NV vectors a row: 2, or 1 for a last panel
/// of at most one vector's columns, whose other vector would multiply the
/// zero padding (a Winograd product over a 7x7 map's 16 tiles did that
/// for half its multiply-adds under AVX-512). The bias of output (i, j) is
/// at i * BRS + j * BCS. `lead`: as tile()'s (gemm_blocked.h). Asking
/// for C's lines ahead, as tile() does at small depth, measured no gain
/// here: mobilenet_v2's 16 -> 96 layer over 112x112 ran 545 us without,
/// 570 with.
template <int R, int NV, int64_t M, int64_t N, int64_t K, int64_t Width,
          int64_t BRS, int64_t BCS, bool HasBias, typename Epi>
ONNXCC_INLINE void packed_tile(const float *A, const float *bp,
                               const float *bias, float alpha, float beta,
                               float *C, int64_t i, int64_t j, int64_t cols,
                               depth d, Epi epi, bool lead) {
  const int64_t k1 = d.k1 < K ? d.k1 : K;
#if ONNXCC_HAS_SIMD
  constexpr int64_t kCols = NV * kVecWidth;
  const int64_t ahead = !lead ? 0 : M - i - R < R ? M - i - R : R;
  vfloat acc[R][NV];
  for (int r = 0; r < R; ++r) {
    const float *c = C + (i + r) * N + j;
    if (d.first) {
      for (int v = 0; v < NV; ++v)
        acc[r][v] = vfloat(0.0f);
    } else if (cols == kCols) {
      for (int v = 0; v < NV; ++v)
        acc[r][v] = vfloat::load_unaligned(c + v * kVecWidth);
    } else { // the last panel's partial sums, lane by lane
      alignas(64) float lanes[kCols];
      for (int64_t l = 0; l < kCols; ++l)
        lanes[l] = l < cols ? c[l] : 0.0f;
      for (int v = 0; v < NV; ++v)
        acc[r][v] = vfloat::load_aligned(lanes + v * kVecWidth);
    }
  }
  for (int64_t k = d.k0; k < k1; ++k) {
    if (ahead > 0 && (k - d.k0) % kLineFloats == 0)
      for (int r = 0; r < R; ++r)
        if (r < ahead)
          prefetch_read(A + (i + R + r) * K + k);
    vfloat b[NV];
    for (int v = 0; v < NV; ++v)
      b[v] = vfloat::load_unaligned(bp + k * Width + v * kVecWidth);
    for (int r = 0; r < R; ++r) {
      const vfloat a(A[(i + r) * K + k]);
      for (int v = 0; v < NV; ++v)
        acc[r][v] = vfma(a, b[v], acc[r][v]);
    }
  }
  for (int r = 0; r < R; ++r) {
    float *c = C + (i + r) * N + j;
    if (BCS != 0 && d.last && cols < kCols) {
      // A bias along the row ends at N: finish the last panel lane by lane.
      alignas(64) float lanes[kCols];
      for (int v = 0; v < NV; ++v)
        acc[r][v].store_aligned(lanes + v * kVecWidth);
      for (int64_t l = 0; l < cols; ++l)
        c[l] = finish<HasBias>(lanes[l], bias, (i + r) * BRS + (j + l) * BCS,
                               alpha, beta, epi);
      continue;
    }
    vfloat out[NV];
    for (int v = 0; v < NV; ++v)
      out[v] = d.last ? finish_vec<HasBias>(
                            acc[r][v], bias,
                            (i + r) * BRS + (j + v * kVecWidth) * BCS,
                            BCS != 0, alpha, beta, epi)
                      : acc[r][v];
    if (cols == kCols) {
      for (int v = 0; v < NV; ++v)
        out[v].store_unaligned(c + v * kVecWidth);
    } else {
      alignas(64) float lanes[kCols];
      for (int v = 0; v < NV; ++v)
        out[v].store_aligned(lanes + v * kVecWidth);
      for (int64_t l = 0; l < cols; ++l)
        c[l] = lanes[l];
    }
  }
#else
  (void)lead;
  for (int r = 0; r < R; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      float s = d.first ? 0.0f : C[(i + r) * N + j + c];
      for (int64_t k = d.k0; k < k1; ++k)
        s += A[(i + r) * K + k] * bp[k * Width + c];
      C[(i + r) * N + j + c] =
          d.last ? finish<HasBias>(s, bias, (i + r) * BRS + (j + c) * BCS,
                                   alpha, beta, epi)
                 : s;
    }
#endif
}

#if ONNXCC_HAS_SIMD
/// Register panels a tile of R rows computes side by side. A tile of R
/// rows and one panel keeps 2R accumulators, each a chain of multiply-adds
/// that waits out the FMA latency at every k: a one-row product (a
/// matrix-vector one, classifier's 784 -> 256 at batch 1) so kept 2 of
/// the 8 in flight that two FMA pipes need. G panels side by side share
/// A's broadcasts and keep 2RG chains, within the register file (R = 3
/// takes two panels only where there are 32 vector registers).
template <int R>
constexpr int kPanelGroup = R == 1                             ? 4
                            : R == 2 || (R == 3 && kTileRows >= 12) ? 2
                                                                   : 1;

/// R rows of C at (i, j) over G whole register panels from j, B packed
/// in panels of Width columns, over one depth block: packed_tile()'s
/// arithmetic, each output summed over k in the same order, so the same
/// bits.
template <int R, int G, int64_t M, int64_t N, int64_t K, int64_t Width,
          int64_t BRS, int64_t BCS, bool HasBias, typename Epi>
ONNXCC_INLINE void packed_tile_group(const float *A, const float *Bp,
                                     const float *bias, float alpha,
                                     float beta, float *C, int64_t i,
                                     int64_t j, depth d, Epi epi) {
  constexpr int NV = 2;
  const int64_t k1 = d.k1 < K ? d.k1 : K;
  const float *bp[G];
  for (int g = 0; g < G; ++g)
    bp[g] = Bp + packed_at<K, Width>(0, j + g * kPanel);
  vfloat acc[R][G][NV];
  for (int r = 0; r < R; ++r)
    for (int g = 0; g < G; ++g)
      for (int v = 0; v < NV; ++v)
        acc[r][g][v] =
            d.first ? vfloat(0.0f)
                    : vfloat::load_unaligned(C + (i + r) * N + j + g * kPanel +
                                             v * kVecWidth);
  for (int64_t k = d.k0; k < k1; ++k) {
    vfloat a[R];
    for (int r = 0; r < R; ++r)
      a[r] = vfloat(A[(i + r) * K + k]);
    for (int g = 0; g < G; ++g)
      for (int v = 0; v < NV; ++v) {
        const vfloat b =
            vfloat::load_unaligned(bp[g] + k * Width + v * kVecWidth);
        for (int r = 0; r < R; ++r)
          acc[r][g][v] = vfma(a[r], b, acc[r][g][v]);
      }
  }
  for (int r = 0; r < R; ++r)
    for (int g = 0; g < G; ++g)
      for (int v = 0; v < NV; ++v) {
        const int64_t col = j + g * kPanel + v * kVecWidth;
        const vfloat out =
            d.last ? finish_vec<HasBias>(acc[r][g][v], bias,
                                         (i + r) * BRS + col * BCS, BCS != 0,
                                         alpha, beta, epi)
                   : acc[r][g][v];
        out.store_unaligned(C + (i + r) * N + col);
      }
}
#endif

/// Whether the whole of an M-row packed product runs its register panels
/// outermost, every row tile (for_balanced_row_tiles()) through one panel
/// before the next. Row tiles outermost read a column block of B once per
/// tile: from L1 where the block fits there (kL1SlabFloats), from L2 where
/// it does not. Then, if a depth block of all of A's rows fits L1 beside a
/// panel (at most 64 KiB, so L2 at worst), each panel is read from L2 once
/// instead: transformer-sized products (32 x 384 x 128, 32 x 128 x 256)
/// ran 12-20% faster so, 128 x 384 x 128 and 32 x 512 x 768 10%, while
/// 256 x 196 x 2304 (768 KiB of A a block) ran 10% slower, and so did
/// mobilenet_v2's 16 -> 96 layer over 112x112 (a 16-deep block of B in L1
/// either way, C's rows written a panel at a time: 534 -> 685 us). At
/// most kMinorTileRows rows are one tile either way, and keep their panel
/// groups. (squeezenet1_1's Winograd products over 13x13 maps, 256 x 49 x
/// 64, keep the old order: their two panels of B fit L1, 18% slower so.)
template <int64_t M, int64_t N, int64_t K>
constexpr bool kPanelsOuter =
    M > kMinorTileRows && M * depth_block<K>() <= 16384 &&
    depth_block<K>() * (column_block<K>() < N ? column_block<K>() : N) >
        kL1SlabFloats;

/// Columns of C past its last whole vector, at most kMaxDotTail, that
/// packed_dot_tail() sums as dot products rather than packed_panel() in a
/// register tile, which would multiply a whole vector of zero padding: a
/// Winograd product over a 13x13 or 14x14 map's 49 tiles (256 x 49 x 64,
/// squeezenet1_1; 256 x 49 x 256, resnet18) took 153 and 560 us where 48
/// columns took 110 and 440 (AVX-512, a 17-column last panel in a
/// two-vector tile). Only past at least one whole panel; 0 where none.
constexpr int64_t kMaxDotTail = 2;
template <int64_t N>
constexpr int64_t kDotTail = ONNXCC_HAS_SIMD && N >= kPanel && N % kVecWidth != 0 &&
                                     N % kVecWidth <= kMaxDotTail
                                 ? N % kVecWidth
                                 : 0;

#if ONNXCC_HAS_SIMD
/// The kDotTail columns of rows [ib, ie) of C over all of K, finished: a
/// dot product per output. Each column of B is copied to the stack once
/// (kDotChunk k at a time) for all the rows, which read it 8 at a time, so
/// that 8 chains of multiply-adds are in flight; then the k past the last
/// whole vector. 256 x 49 x 256 then takes 491 us against 440 for 48
/// columns and 556 before (AMD Zen 5). Copied per row tile, a vector at a
/// time, it measured the same within the host's noise (485 us); read with
/// a gather instruction, 65 us slower.
template <int64_t M, int64_t N, int64_t K, int64_t Width, int64_t BRS,
          int64_t BCS, bool HasBias, typename Epi>
inline void packed_dot_tail(const float *ONNXCC_RESTRICT A,
                            const float *ONNXCC_RESTRICT Bp, const float *bias,
                            float alpha, float beta, float *ONNXCC_RESTRICT C,
                            int64_t ib, int64_t ie, Epi epi) {
  constexpr int64_t kTail = kDotTail<N>, j0 = N - kTail;
  constexpr int64_t kVectors = K / kVecWidth * kVecWidth;
  constexpr int64_t kDotChunk = kVectors < 512 ? (kVectors > 0 ? kVectors : 1) : 512;
  constexpr int kRows = 8;
  for (int64_t c = 0; c < kTail; ++c) {
    const float *bp = Bp + packed_at<K, Width>(0, j0 + c);
    for (int64_t k0 = 0; k0 < kVectors; k0 += kDotChunk) {
      const int64_t k1 = k0 + kDotChunk < kVectors ? k0 + kDotChunk : kVectors;
      alignas(64) float column[kDotChunk];
      for (int64_t k = k0; k < k1; ++k)
        column[k - k0] = bp[k * Width];
      // Rows' sums over this chunk, added to the earlier chunks' in C.
      auto rows = [&](auto count, int64_t i) ONNXCC_INLINE_LAMBDA {
        constexpr int R = decltype(count)::value;
        vfloat acc[R];
        for (int r = 0; r < R; ++r)
          acc[r] = vfloat(0.0f);
        for (int64_t k = k0; k < k1; k += kVecWidth) {
          const vfloat b = vfloat::load_aligned(column + (k - k0));
          for (int r = 0; r < R; ++r)
            acc[r] = vfma(vfloat::load_unaligned(A + (i + r) * K + k), b, acc[r]);
        }
        for (int r = 0; r < R; ++r) {
          float *out = C + (i + r) * N + j0 + c;
          *out = k0 == 0 ? xsimd::hadd(acc[r]) : *out + xsimd::hadd(acc[r]);
        }
      };
      int64_t i = ib;
      for (; i + kRows <= ie; i += kRows)
        rows(std::integral_constant<int, kRows>{}, i);
      for (; i < ie; ++i)
        rows(std::integral_constant<int, 1>{}, i);
    }
    for (int64_t i = ib; i < ie; ++i) {
      float *out = C + i * N + j0 + c;
      float s = kVectors > 0 ? *out : 0.0f;
      for (int64_t k = kVectors; k < K; ++k)
        s += A[i * K + k] * bp[k * Width];
      *out = finish<HasBias>(s, bias, i * BRS + (j0 + c) * BCS, alpha, beta, epi);
    }
  }
}
#endif

/// packed_tile() as a function of its own, for products of at most 32
/// rows and 1024 columns (a transformer's tokens against its weights):
/// inlined into the product's loops beside its other tiles' instances, g++
/// kept one of an 11-row tile's two B vectors on the stack and read it
/// with each multiply-add. tiny_transformer's 32-row products (32 x 384 x
/// 128 and three more) took 42 us at 198 GFLOP/s, 33 apart (clang++: 32
/// either way), and the model's call 90.8 -> 77.6 us (AVX-512, g++ -O3).
/// Larger products keep the inlined tile: apart, mobilenet_v2 and
/// resnet18 ran 3-4% slower in the same benchmark run (within its noise,
/// not kept without a reason).
template <int R, int NV, int64_t M, int64_t N, int64_t K, int64_t Width,
          int64_t BRS, int64_t BCS, bool HasBias, typename Epi>
ONNXCC_NOINLINE void packed_tile_apart(const float *A, const float *bp,
                                       const float *bias, float alpha,
                                       float beta, float *C, int64_t i,
                                       int64_t j, int64_t cols, depth d,
                                       Epi epi, bool lead) {
  packed_tile<R, NV, M, N, K, Width, BRS, BCS, HasBias>(
      A, bp, bias, alpha, beta, C, i, j, cols, d, epi, lead);
}
template <int R, int NV, int64_t M, int64_t N, int64_t K, int64_t Width,
          int64_t BRS, int64_t BCS, bool HasBias, typename Epi>
ONNXCC_INLINE void packed_tile_call(const float *A, const float *bp,
                                    const float *bias, float alpha, float beta,
                                    float *C, int64_t i, int64_t j,
                                    int64_t cols, depth d, Epi epi, bool lead) {
  if constexpr (M <= 32 && N <= 1024)
    packed_tile_apart<R, NV, M, N, K, Width, BRS, BCS, HasBias>(
        A, bp, bias, alpha, beta, C, i, j, cols, d, epi, lead);
  else
    packed_tile<R, NV, M, N, K, Width, BRS, BCS, HasBias>(
        A, bp, bias, alpha, beta, C, i, j, cols, d, epi, lead);
}

/// One register panel (kPanel columns from j, `cols` of them in C) of an
/// R-row tile at row i over depth d, B packed in panels of Width columns:
/// the half-width tile where the last panel fills at most one vector; of
/// a last panel with kDotTail columns, only its whole vector (the columns
/// past it are packed_dot_tail()'s).
template <int R, int64_t M, int64_t N, int64_t K, int64_t Width,
          int64_t BRS, int64_t BCS, bool HasBias, typename Epi>
ONNXCC_INLINE void packed_panel(const float *A, const float *Bp,
                                const float *bias, float alpha, float beta,
                                float *C, int64_t i, int64_t j, depth d,
                                Epi epi, bool lead) {
  // Whether the last panel fills at most one vector (or all of N does).
  constexpr bool kHalfPanel =
      kPanel > kVecWidth && N % kPanel != 0 && N % kPanel <= kVecWidth;
  const int64_t cols = N - j < kPanel ? N - j : kPanel;
  const float *bp = Bp + packed_at<K, Width>(0, j);
#if ONNXCC_HAS_SIMD
  if constexpr (kDotTail<N> > 0) {
    if (j + cols == N) { // the last panel: its whole vector, if any
      static_assert(kPanel == 2 * kVecWidth, "a last panel is 0 or 1 vector");
      if (cols - kDotTail<N> == kVecWidth)
        packed_tile_call<R, 1, M, N, K, Width, BRS, BCS, HasBias>(
            A, bp, bias, alpha, beta, C, i, j, kVecWidth, d, epi, lead);
      return;
    }
  }
#endif
  if constexpr (kHalfPanel) { // only then the one-vector tile
    if (cols <= kVecWidth) {
      packed_tile_call<R, 1, M, N, K, Width, BRS, BCS, HasBias>(
          A, bp, bias, alpha, beta, C, i, j, cols, d, epi, lead);
      return;
    }
  }
  packed_tile_call<R, 2, M, N, K, Width, BRS, BCS, HasBias>(
      A, bp, bias, alpha, beta, C, i, j, cols, d, epi, lead);
}

/// All M rows x register panels [pb, pe) of C = A * B where
/// kPanelsOuter: each panel through every row tile before the next.
template <int64_t M, int64_t N, int64_t K, int64_t Width, int64_t BRS,
          int64_t BCS, bool HasBias, typename Epi>
inline void gemm_packed_panels_outer(const float *ONNXCC_RESTRICT A,
                                     const float *ONNXCC_RESTRICT Bp,
                                     const float *bias, float alpha,
                                     float beta, float *ONNXCC_RESTRICT C,
                                     int64_t pb, int64_t pe, Epi epi) {
  constexpr int64_t kc = depth_block<K>();
  for (int64_t k0 = 0; k0 < K || k0 == 0; k0 += kc) {
    const int64_t k1 = k0 + kc < K ? k0 + kc : K;
    const depth d{k0, k1, k0 == 0, k1 == K};
    for (int64_t p = pb; p < pe; ++p) {
      auto tile = [&](auto rows, int64_t i) ONNXCC_INLINE_LAMBDA {
        packed_panel<decltype(rows)::value, M, N, K, Width, BRS, BCS,
                     HasBias>(A, Bp, bias, alpha, beta, C, i, p * kPanel, d,
                              epi, false);
      };
      for_balanced_row_tiles<M>(tile);
    }
    if (k1 == K)
      break;
  }
}

/// Rows [ib, ie) x register panels [pb, pe) (kPanel columns each) of C =
/// A * B, B packed in panels of Width columns. All M rows (one thread's
/// product, or a thread's run of panels) go in near-equal row tiles
/// (for_balanced_row_tiles()): cut as for_row_tiles() does, 64 rows left
/// a 4-row tile of 8 accumulators, whose B loads per multiply-add ran it
/// at two thirds of the 12-row tile's rate. As 11 x 4 + 10 x 2, the
/// classifier's 64 x 256 x 784 went from 110.8 to 107.1 us, 128 x 784 x
/// 576 from 527 to 496 and 256 x 49 x 256 from 32.3 to 30.6 (interleaved,
/// AVX-512); shapes of whole 12-row tiles keep theirs.
template <int64_t M, int64_t N, int64_t K, int64_t Width, int64_t BRS,
          int64_t BCS, bool HasBias, typename Epi>
inline void gemm_packed_block(const float *ONNXCC_RESTRICT A,
                              const float *ONNXCC_RESTRICT Bp,
                              const float *bias, float alpha, float beta,
                              float *ONNXCC_RESTRICT C, int64_t ib, int64_t ie,
                              int64_t pb, int64_t pe, Epi epi) {
  static_assert(Width % kPanel == 0, "a register panel must not straddle two");
#if ONNXCC_HAS_SIMD
  if constexpr (kDotTail<N> > 0)
    if (pe * kPanel >= N) // the last panel's: its columns past the vector
      packed_dot_tail<M, N, K, Width, BRS, BCS, HasBias>(A, Bp, bias, alpha,
                                                         beta, C, ib, ie, epi);
#endif
  if constexpr (kPanelsOuter<M, N, K>) {
    if (ib == 0 && ie == M) { // all rows: not a threaded row panel
      gemm_packed_panels_outer<M, N, K, Width, BRS, BCS, HasBias>(
          A, Bp, bias, alpha, beta, C, pb, pe, epi);
      return;
    }
  }
  constexpr int64_t kc = depth_block<K>(), nc = column_block<K>() / kPanel;
  for (int64_t k0 = 0; k0 < K || k0 == 0; k0 += kc) {
    const int64_t k1 = k0 + kc < K ? k0 + kc : K;
    const depth d{k0, k1, k0 == 0, k1 == K};
    for (int64_t p0 = pb; p0 < pe; p0 += nc) {
      const int64_t pend = p0 + nc < pe ? p0 + nc : pe;
      auto panels = [&](auto rows, int64_t i) ONNXCC_INLINE_LAMBDA {
        constexpr int R = decltype(rows)::value;
        int64_t p = p0;
#if ONNXCC_HAS_SIMD
        // Whole panels in groups while a group fits before pend and N.
        constexpr int G = kPanelGroup<R>;
        if constexpr (G > 1)
          for (; p + G <= pend && (p + G) * kPanel <= N; p += G)
            packed_tile_group<R, G, M, N, K, Width, BRS, BCS, HasBias>(
                A, Bp, bias, alpha, beta, C, i, p * kPanel, d, epi);
#endif
        for (; p < pend; ++p)
          packed_panel<R, M, N, K, Width, BRS, BCS, HasBias>(
              A, Bp, bias, alpha, beta, C, i, p * kPanel, d, epi, p == p0);
      };
      if (ib == 0 && ie == M) // all rows: near-equal tiles, none of 4 rows
        for_balanced_row_tiles<M>(panels);
      else
        for_row_tiles<M>(ib, ie, panels);
    }
    if (k1 == K)
      break;
  }
}

/// All of a packed product on the calling thread.
template <int64_t M, int64_t N, int64_t K, int64_t Width, int64_t BRS,
          int64_t BCS, bool HasBias, typename Epi>
inline void gemm_packed_all(const float *ONNXCC_RESTRICT A,
                            const float *ONNXCC_RESTRICT Bp, const float *bias,
                            float alpha, float beta, float *ONNXCC_RESTRICT C,
                            Epi epi) {
  gemm_packed_block<M, N, K, Width, BRS, BCS, HasBias>(
      A, Bp, bias, alpha, beta, C, 0, M, 0, (N + kPanel - 1) / kPanel, epi);
}

/// A packed product on par's threads (run_units): units of about a
/// quarter of a thread's register panels (a row tile's A stays in L1
/// across them: units of one panel ran 256 x 1024 x 256 7% slower), or of
/// one row panel when there are more of those (the last takes the rows a
/// whole panel leaves).
template <int64_t M, int64_t N, int64_t K, int64_t Width, int64_t BRS,
          int64_t BCS, bool HasBias, typename Par, typename Epi>
inline void gemm_packed_units(Par &par, const float *ONNXCC_RESTRICT A,
                              const float *ONNXCC_RESTRICT Bp,
                              const float *bias, float alpha, float beta,
                              float *ONNXCC_RESTRICT C, Epi epi) {
  constexpr int64_t panels = (N + kPanel - 1) / kPanel;
  constexpr int64_t rows = M / kTileRows;
  if constexpr (panels >= rows) {
    run_runs(par, panels, [&](int64_t lo, int64_t hi) {
      gemm_packed_block<M, N, K, Width, BRS, BCS, HasBias>(
          A, Bp, bias, alpha, beta, C, 0, M, lo, hi, epi);
    });
  } else {
    run_units(par, rows, [&](int64_t u) {
      gemm_packed_block<M, N, K, Width, BRS, BCS, HasBias>(
          A, Bp, bias, alpha, beta, C, u * kTileRows,
          u + 1 == rows ? M : (u + 1) * kTileRows, 0, panels, epi);
    });
  }
}

/// C = epi(A * B + bias[i * BRS]) with B packed per call (K x N in panels).
template <int64_t M, int64_t N, int64_t K, int64_t BRS, bool HasBias,
          typename Epi>
inline void gemm_packed(const float *ONNXCC_RESTRICT A,
                        const float *ONNXCC_RESTRICT Bp, const float *bias,
                        float *ONNXCC_RESTRICT C, Epi epi) {
  gemm_packed_all<M, N, K, kPanel, BRS, 0, HasBias>(A, Bp, bias, 1.0f, 1.0f, C,
                                                    epi);
}

/// gemm_packed() on par's threads.
template <int64_t M, int64_t N, int64_t K, int64_t BRS, bool HasBias,
          typename Par, typename Epi>
inline void gemm_packed(Par &par, const float *ONNXCC_RESTRICT A,
                        const float *ONNXCC_RESTRICT Bp, const float *bias,
                        float *ONNXCC_RESTRICT C, Epi epi) {
  gemm_packed_units<M, N, K, kPanel, BRS, 0, HasBias>(par, A, Bp, bias, 1.0f,
                                                      1.0f, C, epi);
}

/// C = epi(alpha * A * B + beta * bias[i * BRS + j * BCS]) with a constant
/// B the compiler packed in panels of kPanelPad columns (packed_at<K,
/// kPanelPad>; kernel.gemm's `packed_b`).
template <int64_t M, int64_t N, int64_t K, int64_t BRS, int64_t BCS,
          bool HasBias, typename Epi>
inline void gemm_panels(const float *ONNXCC_RESTRICT A,
                        const float *ONNXCC_RESTRICT Bp, const float *bias,
                        float alpha, float beta, float *ONNXCC_RESTRICT C,
                        Epi epi) {
  static_assert(kPanelPad == 32, "the compiler packs B in panels of 32 "
                                 "columns (kernel::kPackedPanel)");
  gemm_packed_all<M, N, K, kPanelPad, BRS, BCS, HasBias>(A, Bp, bias, alpha,
                                                         beta, C, epi);
}

/// Whether threaded gemm_panels() gives each of Threads threads M /
/// Threads whole rows against all of B rather than runs of panels: few
/// rows (a transformer's tokens), each thread's share a tile's worth, and
/// a constant B small enough (256 KiB) that every core's L2 keeps all of
/// it. Cut by panels, each thread reads every row of A, half of them
/// written by the other core a kernel earlier, and writes half of each
/// row of C, which the next kernel's threads read across again; with two
/// vCPUs a 350 ns round trip apart (15 GB/s between their caches) that
/// traffic cost tiny_transformer's 32-row products 5-6 us each at two
/// threads. Cut by rows, a thread reads the rows its core wrote and B from
/// its own L2: the model's call went from 186 to 165 us,
/// torch_transformer_encoder's from 41 to 35.
template <int64_t M, int64_t N, int64_t K, int Threads>
constexpr bool kRowsPerThread = Threads > 1 && M <= 64 && M % Threads == 0 &&
                                M / Threads >= 8 && K * N <= 65536;

/// gemm_panels() on par's threads.
template <int64_t M, int64_t N, int64_t K, int64_t BRS, int64_t BCS,
          bool HasBias, typename Par, typename Epi>
inline void gemm_panels(Par &par, const float *ONNXCC_RESTRICT A,
                        const float *ONNXCC_RESTRICT Bp, const float *bias,
                        float alpha, float beta, float *ONNXCC_RESTRICT C,
                        Epi epi) {
  if constexpr (kRowsPerThread<M, N, K, Par::kThreads>) {
    constexpr int64_t R = M / Par::kThreads;
    par.run([&](int t, int T) {
      if (T != Par::kThreads) { // the pool was busy: every row here
        gemm_packed_all<M, N, K, kPanelPad, BRS, BCS, HasBias>(
            A, Bp, bias, alpha, beta, C, epi);
        return;
      }
      // Rows [t R, (t + 1) R) are a product of their own; every row's
      // sums are computed as in the whole one, so the bits are the same.
      gemm_packed_all<R, N, K, kPanelPad, BRS, BCS, HasBias>(
          A + t * R * K, Bp, HasBias ? bias + t * R * BRS : bias, alpha, beta,
          C + t * R * N, epi);
    });
  } else {
    gemm_packed_units<M, N, K, kPanelPad, BRS, BCS, HasBias>(
        par, A, Bp, bias, alpha, beta, C, epi);
  }
}

} // namespace rt
} // namespace onnxcc

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif // ONNXCC_RUNTIME_GEMM_PACKED_H
