//===- gemm_blocked.h - GEMM over a row-major B, in blocks ------*- C++ -*-===//
//
// C = epi(alpha * A' * B + beta * bias) for B (K x N) row-major, as gemm()
// (gemm.h) runs it: register tiles of R rows x NV vectors of C accumulate
// over k with A broadcast and B streamed. K is cut into depth blocks of at
// most row_major_depth() and columns into blocks whose B slab (depth x
// columns) fits in kSlabFloats, half of a 512 KiB L2: every row panel of a
// block then reads its B from L2 (from L1 when the map is small), and a
// panel's A rows (R x depth) stay in L1. Columns left after the vector
// tiles, up to a quarter of a vector, are gathered per depth block and
// computed as dot products (tail_dots()). This blocked form takes the
// shape as run-time values (gemm_shape) in one out-of-line copy per
// epilogue: generated code calls it with constants, and its compile time
// no longer grows with the number of distinct layer shapes. A product of
// few rows (narrow_rows()) takes 8-row, 3-vector tiles in a copy of its
// own (gemm_block_narrow_rt()), reading its rows of A packed per tile.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_GEMM_BLOCKED_H
#define ONNXCC_RUNTIME_GEMM_BLOCKED_H

#include "onnxcc/gemm_blocking.h"

// g++ 12 reports "iteration N invokes undefined behavior" for scalar tail
// loops that never run (j == jend after the vector tiles) when the output is
// a known-size array; the accesses it names are unreachable. Silence that one
// diagnostic for this header only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Waggressive-loop-optimizations"
#endif

namespace onnxcc {
namespace rt {

#if ONNXCC_HAS_SIMD
/// Most depth at which tile() asks for C's lines ahead of its stores,
/// and for B's kPrefetchTiles tiles on.
constexpr int64_t kWritePrefetchDepth = 64;
constexpr int64_t kPrefetchTiles = 4;

/// R rows x NV vectors of C at (i, j) over one depth block. `skip` > 0
/// (NV = 1 only) stores lanes [skip, kVecWidth) alone: a tail tile that
/// overlaps columns already done leaves them as they are. With PackedA, A
/// is the tile's rows over the block packed k-major (pack_rows()).
///
/// Two prefetches, hints that change no result. A row-major A is R
/// streams of a few lines each per depth block, too many and too short
/// for the hardware prefetcher; weights are read once a call, so they
/// come from L3 or memory. The first tile of a row panel (`lead`) asks
/// for the next panel's rows of the block while it computes: with cold
/// weights (AVX-512), 1280 x 49 x 320 went from 474 to 427 us, and
/// mobilenet_v2's layers over 7x7 maps by 40-90 us each. And at a depth
/// of at most kWritePrefetchDepth, a tile computes too little to hide
/// the misses of storing to C lines not yet in cache: each asks for the
/// next tile's lines with write intent (mobilenet_v2's 32 -> 16 layer
/// over 112x112: 262 -> 169 us), and for its rows of B a few tiles on
/// (isolated, 155 -> 139 us). Deeper, that measured no gain, except for
/// the narrow tiles' first tile of rows (`stream`, gemm_block_narrow_rt()).
template <int R, int NV, bool TA, bool HasBias, typename Epi,
          bool PackedA = false>
ONNXCC_INLINE void tile(const gemm_shape &g, const float *A, const float *B,
                        const float *bias, float alpha, float beta, float *C,
                        int64_t i, int64_t j, depth d, int64_t skip, Epi epi,
                        bool lead = false, bool stream = false) {
  const int64_t N = g.N;
  vfloat acc[R][NV];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v)
      acc[r][v] = d.first ? vfloat(0.0f)
                          : vfloat::load_unaligned(C + (i + r) * N + j +
                                                   v * kVecWidth);
  // One pointer per row of A and one walking B: with the strides as
  // values, indexing A[(i + r) * K + k] would cost integer work per load.
  const float *a[R];
  for (int r = 0; r < R; ++r)
    a[r] = PackedA ? A + r
           : TA    ? A + d.k0 * g.M + i + r
                   : A + (i + r) * g.lda + d.k0;
  const int64_t astep = PackedA ? R : TA ? g.M : 1;
  // Rows of the next panel that exist (the panel may be a shorter one).
  const int64_t ahead = PackedA || TA || !lead     ? 0
                        : g.M - i - R < R ? g.M - i - R
                                          : R;
  // B's rows (a 1x1 convolution's input planes) are K streams: at small
  // depth, too many for the hardware prefetcher to run ahead of tiles this
  // short, so each asks for its rows kPrefetchTiles tiles on.
  const bool shallow = (stream || g.K <= kWritePrefetchDepth) &&
                       j + (kPrefetchTiles + 1) * NV * kVecWidth <= N;
  if (d.first && g.K <= kWritePrefetchDepth && j + 2 * NV * kVecWidth <= N)
    for (int r = 0; r < R; ++r)
      for (int v = 0; v < NV; ++v)
        prefetch_write(C + (i + r) * N + j + (NV + v) * kVecWidth);
  const float *b = B + d.k0 * N + j;
  for (int64_t k = d.k0; k < d.k1; ++k, b += N) {
    if (ahead > 0 && (k - d.k0) % kLineFloats == 0)
      for (int r = 0; r < R; ++r)
        if (r < ahead)
          prefetch_read(a[r] + R * g.lda);
    if (shallow)
      for (int v = 0; v < NV; ++v)
        prefetch_read(b + (kPrefetchTiles * NV + v) * kVecWidth);
    vfloat bv[NV];
    for (int v = 0; v < NV; ++v)
      bv[v] = vfloat::load_unaligned(b + v * kVecWidth);
    for (int r = 0; r < R; ++r) {
      vfloat av(*a[r]);
      a[r] += astep;
      for (int v = 0; v < NV; ++v)
        acc[r][v] = vfma(av, bv[v], acc[r][v]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v) {
      float *c = C + (i + r) * N + j + v * kVecWidth;
      vfloat out = acc[r][v];
      if (d.last)
        out = finish_vec<HasBias>(
            out, bias, (i + r) * g.brs + (j + v * kVecWidth) * g.bcs,
            g.bcs != 0, alpha, beta, epi);
      if (skip == 0) {
        out.store_unaligned(c);
      } else {
        alignas(64) float lanes[kVecWidth];
        out.store_aligned(lanes);
        for (int64_t l = skip; l < kVecWidth; ++l)
          c[l] = lanes[l];
      }
    }
}

/// Columns [j, j + t) of rows [i, i + R) over one depth block as R * t
/// dot products along k, for a tail narrower than a vector. `bt` holds
/// the block's t columns of B gathered contiguous (gather_tail()). Each
/// keeps R accumulators busy where the rerun vector tile (row_panel())
/// computes a whole vector for them: a 7x7 map's one leftover column cost
/// its layer a sixth of its time that way.
template <int R, bool HasBias, typename Epi>
ONNXCC_INLINE void tail_dots(const gemm_shape &g, const float *A,
                             const float *bt, const float *bias, float alpha,
                             float beta, float *C, int64_t i, int64_t j,
                             int64_t t, depth d, Epi epi) {
  const int64_t kc = d.k1 - d.k0, kv = kc / kVecWidth * kVecWidth;
  const float *a = A + i * g.lda + d.k0;
  for (int64_t c = 0; c < t; ++c) {
    const float *b = bt + c * kc;
    vfloat acc[R];
    for (int r = 0; r < R; ++r)
      acc[r] = vfloat(0.0f);
    for (int64_t k = 0; k < kv; k += kVecWidth) {
      const vfloat bv = vfloat::load_unaligned(b + k);
      for (int r = 0; r < R; ++r)
        acc[r] = vfma(vfloat::load_unaligned(a + r * g.lda + k), bv, acc[r]);
    }
    for (int r = 0; r < R; ++r) {
      float s = xsimd::hadd(acc[r]);
      for (int64_t k = kv; k < kc; ++k)
        s += a[r * g.lda + k] * b[k];
      float *o = C + (i + r) * g.N + j + c;
      if (!d.first)
        s += *o;
      *o = d.last ? finish<HasBias>(s, bias, (i + r) * g.brs + (j + c) * g.bcs,
                                    alpha, beta, epi)
                  : s;
    }
  }
}

/// Floats of gemm_block_rt's gathered tail: fewer than a vector of
/// columns, each at most a depth block deep. It lives on that call's
/// stack: 10.5 KiB with AVX2, 22.5 KiB with AVX-512, 4.5 KiB with NEON;
/// the scalar path (microcontrollers) has none.
constexpr int64_t kTailFloats = (kVecWidth - 1) * kDepthBlock;

/// Gathers the tail of columns [j0, jend) that tail_dots() computes into
/// `tail`, returning it, or null where the tail reruns a vector tile
/// instead: a row-major A (the dots read its rows), and a tail of at
/// most a quarter of a vector or no whole vector at all. At half a vector
/// (a 14x14 map's 4 of 8 columns) the dots' sums and gathering already
/// cost as much as the rerun tile.
ONNXCC_INLINE const float *gather_tail(const gemm_shape &g, bool ta,
                                       const float *B, int64_t j0,
                                       int64_t jend, depth d, float *tail) {
  const int64_t t = (jend - j0) % kVecWidth, kc = d.k1 - d.k0;
  if (ta || t == 0 || (4 * t > kVecWidth && g.N >= kVecWidth))
    return nullptr;
  const float *b = B + d.k0 * g.N + jend - t;
  for (int64_t k = 0; k < kc; ++k, b += g.N)
    for (int64_t c = 0; c < t; ++c)
      tail[c * kc + k] = b[c];
  return tail;
}
#endif

/// Rows [i, i + R) from column j to jend over one depth block, vector
/// tiles (of NV vectors, then 2, then 1), then the tail narrower than a
/// vector: as dot products when gather_tail() gathered it (`bt`), else a
/// rerun vector, else scalar. With NV > 2 (narrow panels) the vector
/// tiles read the rows packed in `ap` (pack_rows()).
template <int R, bool TA, bool HasBias, int NV = 2, bool kPacked = (NV > 2),
          typename Epi>
ONNXCC_INLINE void row_panel(const gemm_shape &g, const float *A,
                             const float *B, const float *bt,
                             const float *bias, float alpha, float beta,
                             float *C, int64_t i, int64_t j, int64_t jend,
                             depth d, Epi epi, const float *ap = nullptr) {
  const int64_t N = g.N;
#if ONNXCC_HAS_SIMD
  const float *at = kPacked ? ap : A;
  bool lead = true; // the first tile streams A's rows: see tile()
  if constexpr (NV > 2)
    for (; j + NV * kVecWidth <= jend; j += NV * kVecWidth, lead = false)
      tile<R, NV, TA, HasBias, Epi, kPacked>(g, at, B, bias, alpha, beta, C, i,
                                             j, d, 0, epi, lead);
  for (; j + 2 * kVecWidth <= jend; j += 2 * kVecWidth, lead = false)
    tile<R, 2, TA, HasBias, Epi, kPacked>(g, at, B, bias, alpha, beta, C, i, j,
                                          d, 0, epi, lead);
  for (; j + kVecWidth <= jend; j += kVecWidth, lead = false)
    tile<R, 1, TA, HasBias, Epi, kPacked>(g, at, B, bias, alpha, beta, C, i, j,
                                          d, 0, epi, lead);
  if (bt != nullptr && j < jend) {
    tail_dots<R, HasBias>(g, A, bt, bias, alpha, beta, C, i, j, jend - j, d,
                          epi);
    j = jend;
  }
  // A wider tail reruns the row's last whole vector and stores only its
  // new columns.
  if (N >= kVecWidth && j < jend) {
    tile<R, 1, TA, HasBias, Epi, kPacked>(g, at, B, bias, alpha, beta, C, i,
                                          jend - kVecWidth, d,
                                          j - (jend - kVecWidth), epi);
    j = jend;
  }
#else
  (void)bt;
  (void)ap;
#endif
  for (; j < jend; ++j)
    for (int r = 0; r < R; ++r) {
      float s = d.first ? 0.0f : C[(i + r) * N + j];
      for (int64_t k = d.k0; k < d.k1; ++k)
        s += a_at(g, TA, A, i + r, k) * B[k * N + j];
      C[(i + r) * N + j] =
          d.last ? finish<HasBias>(s, bias, (i + r) * g.brs + j * g.bcs, alpha,
                                   beta, epi)
                 : s;
    }
}

/// rows(j0, jend, d, bt) for each depth block d and column block [j0,
/// jend) of columns [jb, je), with the block's gathered tail bt (see
/// gather_tail()). A block that does not end at N ends on a whole vector
/// pair, so a tail's overlapping rerun stays inside the block.
template <bool TA, typename Rows>
ONNXCC_INLINE void for_gemm_blocks(const gemm_shape &g, const float *B,
                                   int64_t jb, int64_t je, Rows rows) {
  const int64_t K = g.K, kc = row_major_depth(g.M, g.N, K, kTileRows),
                nc = column_block_of(kc);
#if ONNXCC_HAS_SIMD
  alignas(64) float tail[kTailFloats];
#endif
  for (int64_t k0 = 0; k0 < K || k0 == 0; k0 += kc) {
    const int64_t k1 = k0 + kc < K ? k0 + kc : K;
    const depth d{k0, k1, k0 == 0, k1 == K};
    for (int64_t j0 = jb; j0 < je; j0 += nc) {
      const int64_t jend = j0 + nc < je ? j0 + nc : je;
#if ONNXCC_HAS_SIMD
      rows(j0, jend, d, gather_tail(g, TA, B, j0, jend, d, tail));
#else
      (void)B; // no tail to gather: the scalar path computes it in place
      rows(j0, jend, d, static_cast<const float *>(nullptr));
#endif
    }
    if (k1 == K)
      break;
  }
}

/// Rows [ib, ie) x columns [jb, je) of C = A' * B in for_row_tiles()'
/// tiles. Not inlined: one copy per (TA, HasBias, Epi).
template <bool TA, bool HasBias, typename Epi>
ONNXCC_NOINLINE void gemm_block_rt(gemm_shape g, const float *ONNXCC_RESTRICT A,
                                   const float *ONNXCC_RESTRICT B,
                                   const float *bias, float alpha, float beta,
                                   float *ONNXCC_RESTRICT C, int64_t ib,
                                   int64_t ie, int64_t jb, int64_t je, Epi epi) {
  for_gemm_blocks<TA>(g, B, jb, je, [&](int64_t j0, int64_t jend, depth d,
                                        const float *bt) ONNXCC_INLINE_LAMBDA {
    for_row_tiles<kTileRows>(ib, ie, [&](auto rows, int64_t i) ONNXCC_INLINE_LAMBDA {
      row_panel<decltype(rows)::value, TA, HasBias>(
          g, A, B, bt, bias, alpha, beta, C, i, j0, jend, d, epi);
    });
  });
}

/// Rows [i, i + R) of A' over depth block d into `ap`, k-major: element
/// (r, k) at (k - d.k0) * R + r, so that a tile's broadcasts walk one
/// pointer.
template <int R, bool TA>
ONNXCC_INLINE void pack_rows(const gemm_shape &g, const float *A, int64_t i,
                             depth d, float *ap) {
  for (int64_t k = d.k0; k < d.k1; ++k)
    for (int r = 0; r < R; ++r)
      *ap++ = a_at(g, TA, A, i + r, k);
}

/// Floats of A packed for the narrow tiles of a depth block: 64 rows x
/// 128 deep (32 KiB), the depth row_major_depth() gives a map of at least
/// 48 columns; a deeper block packs fewer tiles at a time.
constexpr int64_t kNarrowPackFloats = 64 * kRowMajorDepthBlock;
static_assert(kNarrowPackFloats >= 8 * kDepthBlock,
              "the buffer holds one narrow tile's rows at any depth");

/// gemm_block_rt() in narrow tiles (narrow_rows()); ie - ib is a multiple
/// of kNarrowRows. Each tile reads its rows of A packed (pack_rows()):
/// through kNarrowRows row pointers g++ 12 ran out of registers and kept
/// B's vectors on the stack (24 x 3136 x 144: 266 us so, 210 packed). Every
/// tile's rows are packed once a depth block (as many tiles at a time as
/// kNarrowPackFloats holds) and the columns run outermost, each run of 3
/// vectors through all those tiles of rows: B's rows (a 1x1 convolution's
/// input planes, K streams a new 4 KiB page apart) then come from L2 for
/// the first tile only, which asks for them a few runs ahead (tile()'s
/// `stream`). Row tiles outermost read each block's B from L2 once per
/// tile: squeezenet1_1's 128 -> 16 layer over 55x55 and 256 -> 32 over
/// 27x27 ran 12% and 5% slower so (AVX-512).
/// A function of its own: with these tiles beside the 12-row ones, the
/// 12-row tile spilled (96 x 196 x 576: 206 -> 350 us).
template <bool TA, bool HasBias, typename Epi>
ONNXCC_NOINLINE void gemm_block_narrow_rt(
    gemm_shape g, const float *ONNXCC_RESTRICT A,
    const float *ONNXCC_RESTRICT B, const float *bias, float alpha,
    float beta, float *ONNXCC_RESTRICT C, int64_t ib, int64_t ie, int64_t jb,
    int64_t je, Epi epi) {
#if ONNXCC_HAS_SIMD
  alignas(64) float ap[kNarrowPackFloats];
  constexpr int64_t kWide = 3 * kVecWidth;
  for_gemm_blocks<TA>(g, B, jb, je, [&](int64_t j0, int64_t jend, depth d,
                                        const float *bt) ONNXCC_INLINE_LAMBDA {
    // Tiles of rows in groups whose packed rows fit the buffer: all of
    // them at the depth row_major_depth() gives a map of 48 columns or
    // more, at least one tile (8 x kDepthBlock floats) at any depth.
    // kNarrowRows is 0 where these tiles are never taken (AVX2, SSE2), and
    // g++ rejects the constant division by it even here, uninstantiated.
    constexpr int64_t R = kNarrowRows > 0 ? kNarrowRows : 1;
    const int64_t kc = d.k1 - d.k0;
    const int64_t group = kNarrowPackFloats / (kc * R) * R;
    for (int64_t gb = ib; gb < ie; gb += group) {
      const int64_t ge = gb + group < ie ? gb + group : ie;
      for (int64_t i = gb; i < ge; i += kNarrowRows)
        pack_rows<kNarrowRows, TA>(g, A, i, d, ap + (i - gb) * kc);
      // Each run of columns through every tile of rows: its rows of B are
      // read from L2 once, then from L1.
      const int64_t jw = j0 + (jend - j0) / kWide * kWide;
      for (int64_t j = j0; j < jw; j += kWide)
        for (int64_t i = gb; i < ge; i += kNarrowRows)
          tile<kNarrowRows, 3, TA, HasBias, Epi, true>(
              g, ap + (i - gb) * kc, B, bias, alpha, beta, C, i, j, d, 0, epi,
              false, i == gb);
      if (jw < jend)
        for (int64_t i = gb; i < ge; i += kNarrowRows)
          row_panel<kNarrowRows, TA, HasBias, 2, true>(
              g, A, B, bt, bias, alpha, beta, C, i, jw, jend, d, epi,
              ap + (i - gb) * kc);
    }
  });
#else
  // kNarrowRows is 0 where there are no vector registers to hold the tiles.
  (void)g, (void)A, (void)B, (void)bias, (void)alpha, (void)beta, (void)C,
      (void)ib, (void)ie, (void)jb, (void)je, (void)epi;
#endif
}

/// Rows [ib, ie) x columns [jb, je) of the product of shape g in the
/// tiles narrow_rows() picks for an M x K operand: one dispatch for
/// gemm_block() and gemm_depth_part().
template <int64_t M, int64_t K, bool TA, bool HasBias, typename Epi>
ONNXCC_INLINE void gemm_block_of(const gemm_shape &g,
                                 const float *ONNXCC_RESTRICT A,
                                 const float *ONNXCC_RESTRICT B,
                                 const float *bias, float alpha, float beta,
                                 float *ONNXCC_RESTRICT C, int64_t ib,
                                 int64_t ie, int64_t jb, int64_t je, Epi epi) {
  if constexpr (narrow_rows(M, K))
    gemm_block_narrow_rt<TA, HasBias>(g, A, B, bias, alpha, beta, C, ib, ie,
                                      jb, je, epi);
  else
    gemm_block_rt<TA, HasBias>(g, A, B, bias, alpha, beta, C, ib, ie, jb, je,
                               epi);
}

template <int64_t M, int64_t N, int64_t K, bool TA, int64_t BRS, int64_t BCS,
          bool HasBias, typename Epi>
ONNXCC_INLINE void gemm_block(const float *ONNXCC_RESTRICT A,
                              const float *ONNXCC_RESTRICT B, const float *bias,
                              float alpha, float beta, float *ONNXCC_RESTRICT C,
                              int64_t ib, int64_t ie, int64_t jb, int64_t je,
                              Epi epi) {
  gemm_block_of<M, K, TA, HasBias>(gemm_shape{M, N, K, BRS, BCS, K}, A, B,
                                   bias, alpha, beta, C, ib, ie, jb, je, epi);
}

/// C (M x N) = A[:, k0:k1) * B[k0:k1, :) for a row-major A of K columns:
/// the product over a share of the depth, a partial sum without bias or
/// epilogue (conv2d_pointwise_split_depth() adds the shares). An empty
/// share writes zeros.
template <int64_t M, int64_t N, int64_t K>
ONNXCC_INLINE void gemm_depth_part(const float *ONNXCC_RESTRICT A,
                                   const float *ONNXCC_RESTRICT B,
                                   float *ONNXCC_RESTRICT C, int64_t k0,
                                   int64_t k1) {
  gemm_block_of<M, K, false, false>(gemm_shape{M, N, k1 - k0, 0, 0, K}, A + k0,
                                    B + k0 * N, nullptr, 1.0f, 1.0f, C, 0, M,
                                    0, N, identity{});
}

} // namespace rt
} // namespace onnxcc

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif // ONNXCC_RUNTIME_GEMM_BLOCKED_H
