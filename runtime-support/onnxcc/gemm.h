//===- gemm.h - fixed-shape GEMM with epilogue ------------------*- C++ -*-===//
//
// C[M x N] = epi(alpha * A' * B' + beta * bias), row-major, shapes fixed at
// compile time. bias[i * BRS + j * BCS] covers every ONNX broadcast of C
// ([N]: 0,1; [M,1]: 1,0; [M,N]: N,1; scalar: 0,0).
//
// B' = B (K x N): register tiles of R rows x NV vectors of C accumulate
// over k with A broadcast and B streamed. K is cut into depth blocks of at
// most row_major_depth() and columns into blocks whose B slab (depth x
// columns) fits in kSlabFloats, half of a 512 KiB L2: every row panel of a
// block then reads its B from L2 (from L1 when the map is small), and a
// panel's A rows (R x depth) stay in L1. No packing yet. Columns left
// after the vector tiles, up to a quarter of a vector, are gathered per depth
// block and computed as dot products (tail_dots()). This blocked form
// takes the shape as run-time values (gemm_shape) in one out-of-line copy
// per epilogue: generated code calls it with constants, and its compile
// time no longer grows with the number of distinct layer shapes. A
// product of few rows (narrow_rows()) takes 8-row, 3-vector tiles in a
// copy of its own (gemm_block_narrow_rt()).
// B' = B^T (N x K, PyTorch's Linear): one dot product per output, and so
// is a matrix times a column vector (B = x, K x 1: gemv_rows()); a vector
// of outputs at a time (dot_group()).
//
// gemm(par, ...) splits C across par's threads (parallel.h): whole column
// pairs of vectors when C has more of them than row panels, else whole row
// panels; dot products by whole dot groups. Each output is computed as in
// gemm(...) alone, so the result does not depend on the thread count.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_GEMM_H
#define ONNXCC_RUNTIME_GEMM_H

#include "onnxcc/config.h"
#include "onnxcc/parallel.h"

#include <type_traits>
#include <utility>

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

constexpr int64_t kColBlock = 256;    ///< most columns in a block
constexpr int64_t kDepthBlock = 384;  ///< most k in a block of packed B
/// Least k in a depth block of a row-major B (gemm_block_rt), and the B
/// floats its block should keep to stay in L1: see row_major_depth().
constexpr int64_t kRowMajorDepthBlock = 128;
constexpr int64_t kL1SlabFloats = 6144;
constexpr int64_t kSlabFloats = 65536; ///< B floats a block may hold

/// K cut into equal depth blocks of at most `most`.
constexpr int64_t depth_block(int64_t K, int64_t most) {
  const int64_t blocks = K > 0 ? (K + most - 1) / most : 1;
  return K > 0 ? (K + blocks - 1) / blocks : 1;
}
template <int64_t K> constexpr int64_t depth_block() {
  return depth_block(K, kDepthBlock);
}

/// The depth block of gemm_block_rt. A row-major B's rows lie N floats
/// apart, a new cache line each k, so where several row panels reuse a
/// block it is cut to fit 24 KiB of L1 beside the A rows, but not below
/// kRowMajorDepthBlock (a 7x7 map's 49 columns: 128 k, 25 KiB). At 384,
/// mobilenet_v2's 1x1 layers over 7x7 and 14x14 maps streamed B from L2:
/// 9% slower, 430 us of its 9.9 ms. One row panel (a matrix-vector
/// product) reads B once whatever the cut, so it keeps the long blocks.
constexpr int64_t row_major_depth(int64_t M, int64_t N, int64_t K,
                                  int64_t rows) {
  if (M <= rows || N <= 0)
    return depth_block(K, kDepthBlock);
  const int64_t fit = kL1SlabFloats / N;
  return depth_block(K, fit < kRowMajorDepthBlock ? kRowMajorDepthBlock
                        : fit > kDepthBlock       ? kDepthBlock
                                                  : fit);
}

/// Columns per block of depth kc: as many vector pairs as fit the slab,
/// at least one.
constexpr int64_t column_block_of(int64_t kc) {
  const int64_t pair = 2 * kVecWidth;
  const int64_t fit = kSlabFloats / kc / pair * pair;
  return fit < pair ? pair : fit > kColBlock ? kColBlock : fit;
}
template <int64_t K> constexpr int64_t column_block() {
  return column_block_of(depth_block<K>());
}

/// Rows of C in the widest register tile: each row keeps 2 vectors of
/// accumulators, next to the 2 B vectors and the A broadcast. 32 vector
/// registers (AVX-512, AArch64 NEON) hold 8 rows; 16 (AVX2, SSE) hold 6.
/// More rows per streamed B vector is what lifts the FMA rate.
#if ONNXCC_HAS_SIMD && (defined(__AVX512F__) || defined(__aarch64__))
constexpr int kTileRows = 12;
#elif ONNXCC_HAS_SIMD && (defined(__SSE2__) || defined(__AVX__))
constexpr int kTileRows = 6;
#else
constexpr int kTileRows = 4;
#endif

/// Rows in the tiles that cover what kTileRows leaves: at most 6, the
/// AVX2 tile, so every ISA's register file holds them.
constexpr int kMinorTileRows = kTileRows < 6 ? kTileRows : 6;

/// Rows of the narrow tiles, 8 rows x 3 vectors (24 accumulators, 3 B
/// vectors, the A broadcast), where 32 vector registers hold them; 0
/// where they do not.
#if ONNXCC_HAS_SIMD && (defined(__AVX512F__) || defined(__aarch64__))
constexpr int kNarrowRows = 8;
#else
constexpr int kNarrowRows = 0;
#endif

/// Whether a row-major product of M rows and depth K runs in narrow
/// tiles: at most 64 rows, a whole number of tiles, and depth enough to
/// repay a tile's 24 loads and stores of C. Few rows cut in 12-row tiles
/// leave 4-row ones (16 = 12 + 4, 32 = 12 + 12 + 4 + 4), and a 12 x 2
/// tile loads B twice as often per multiply-add as 8 x 3: squeezenet1_1's
/// squeeze layers and mobilenet_v2's projections (24 x 3136 x 144: 334 ->
/// 210 us, 32 x 729 x 256: 215 -> 120 us, 48 x 169 x 384: 99 -> 63 us,
/// with A packed per tile, gemm_block_narrow_rt()). At depth 32 or less
/// they gained nothing or ran up to 10% slower.
constexpr bool narrow_rows(int64_t M, int64_t K) {
  return kNarrowRows > 0 && M % (kNarrowRows > 0 ? kNarrowRows : 1) == 0 &&
         M <= 64 && K >= 64;
}

namespace detail {
template <int64_t M, int R = 1, typename F>
ONNXCC_INLINE void rows_tile(int64_t rows, int64_t i, F &f) {
  if constexpr (R <= kMinorTileRows && R <= M) {
    if (rows == R)
      f(std::integral_constant<int, R>{}, i);
    else
      rows_tile<M, R + 1>(rows, i, f);
  }
}
} // namespace detail

/// Cuts rows [i, ie) of an M-row product into register tiles, calling
/// f(std::integral_constant<int, R>{}, row) for each. Tiles of kTileRows
/// while they leave at least 4 rows, then near-equal tiles of at most
/// kMinorTileRows. A tile of one or two rows holds too few accumulators
/// to hide the FMA latency: a 1-row tile runs at a sixth of the 6-row
/// tile's rate, and M = 32 cut as 6 * 5 + 1 + 1 spent a third of its
/// time in the two single rows. Each row's sums do not depend on its
/// tile, so the cut does not change the bits.
template <int64_t M, typename F>
ONNXCC_INLINE void for_row_tiles(int64_t i, int64_t ie, F f) {
  if constexpr (M >= kTileRows)
    while (ie - i == kTileRows || ie - i >= kTileRows + 4) {
      f(std::integral_constant<int, kTileRows>{}, i);
      i += kTileRows;
    }
  // Fewer than kTileRows + 4 rows, so at most three tiles.
  for (int n = 0; n < 3 && i < ie; ++n) {
    const int64_t left = ie - i;
    int64_t rows = left <= kMinorTileRows ? left : (left + 1) / 2;
    rows = rows < kMinorTileRows ? rows : kMinorTileRows;
    detail::rows_tile<M>(rows, i, f);
    i += rows;
  }
}

/// The depth [k0, k1) a tile accumulates: the whole of K, or one of its
/// blocks. The first block starts from 0, later ones from the partial sums
/// in C; only the last applies alpha, the bias and the epilogue. Summing
/// in k order either way, blocks do not change the result.
struct depth {
  int64_t k0, k1;
  bool first, last;
};

/// A GEMM's shape and bias strides as run-time values. The blocked kernel
/// below takes them so that one compiled copy serves every shape: as
/// template arguments they made one ~14 KB instance per layer, and
/// mobilenet_v2's 35 GEMMs were most of its compile time. The register
/// tiles stay templates; only loop bounds and strides become values.
struct gemm_shape {
  int64_t M, N, K, brs, bcs;
};

ONNXCC_INLINE float a_at(const gemm_shape &g, bool ta, const float *A,
                         int64_t i, int64_t k) {
  return ta ? A[k * g.M + i] : A[i * g.K + k];
}

template <int64_t M, int64_t K, bool TA>
ONNXCC_INLINE float a_at(const float *A, int64_t i, int64_t k) {
  return TA ? A[k * M + i] : A[i * K + k];
}

/// epi(alpha * acc + beta * bias[at]): one output's last step, in every
/// GEMM form. `at` is the output's bias offset, i * row stride + j *
/// column stride; bias is read only with HasBias (it may be null).
template <bool HasBias, typename Epi>
ONNXCC_INLINE float finish(float acc, const float *bias, int64_t at,
                           float alpha, float beta, Epi epi) {
  float v = alpha * acc;
  if (HasBias)
    v += beta * bias[at];
  return epi(v);
}

#if ONNXCC_HAS_SIMD
/// finish() for a vector of outputs along a row: their bias is the vector
/// at `at` (`lanes`, a bias varying along the row) or the one value there.
template <bool HasBias, typename Epi>
ONNXCC_INLINE vfloat finish_vec(vfloat acc, const float *bias, int64_t at,
                                bool lanes, float alpha, float beta, Epi epi) {
  vfloat v = vfloat(alpha) * acc;
  if (HasBias) {
    vfloat b = lanes ? vfloat::load_unaligned(bias + at) : vfloat(bias[at]);
    v = vfma(vfloat(beta), b, v);
  }
  return epi(v);
}

/// R rows x NV vectors of C at (i, j) over one depth block. `skip` > 0
/// (NV = 1 only) stores lanes [skip, kVecWidth) alone: a tail tile that
/// overlaps columns already done leaves them as they are. With PackedA, A
/// is the tile's rows over the block packed k-major (pack_rows()).
template <int R, int NV, bool TA, bool HasBias, typename Epi,
          bool PackedA = false>
ONNXCC_INLINE void tile(const gemm_shape &g, const float *A, const float *B,
                        const float *bias, float alpha, float beta, float *C,
                        int64_t i, int64_t j, depth d, int64_t skip, Epi epi) {
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
                   : A + (i + r) * g.K + d.k0;
  const int64_t astep = PackedA ? R : TA ? g.M : 1;
  const float *b = B + d.k0 * N + j;
  for (int64_t k = d.k0; k < d.k1; ++k, b += N) {
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
  const float *a = A + i * g.K + d.k0;
  for (int64_t c = 0; c < t; ++c) {
    const float *b = bt + c * kc;
    vfloat acc[R];
    for (int r = 0; r < R; ++r)
      acc[r] = vfloat(0.0f);
    for (int64_t k = 0; k < kv; k += kVecWidth) {
      const vfloat bv = vfloat::load_unaligned(b + k);
      for (int r = 0; r < R; ++r)
        acc[r] = vfma(vfloat::load_unaligned(a + r * g.K + k), bv, acc[r]);
    }
    for (int r = 0; r < R; ++r) {
      float s = xsimd::hadd(acc[r]);
      for (int64_t k = kv; k < kc; ++k)
        s += a[r * g.K + k] * b[k];
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
template <int R, bool TA, bool HasBias, int NV = 2, typename Epi>
ONNXCC_INLINE void row_panel(const gemm_shape &g, const float *A,
                             const float *B, const float *bt,
                             const float *bias, float alpha, float beta,
                             float *C, int64_t i, int64_t j, int64_t jend,
                             depth d, Epi epi, const float *ap = nullptr) {
  const int64_t N = g.N;
#if ONNXCC_HAS_SIMD
  constexpr bool kPacked = NV > 2; // the narrow panels' tiles read ap
  const float *at = kPacked ? ap : A;
  if constexpr (NV > 2)
    for (; j + NV * kVecWidth <= jend; j += NV * kVecWidth)
      tile<R, NV, TA, HasBias, Epi, kPacked>(g, at, B, bias, alpha, beta, C, i,
                                             j, d, 0, epi);
  for (; j + 2 * kVecWidth <= jend; j += 2 * kVecWidth)
    tile<R, 2, TA, HasBias, Epi, kPacked>(g, at, B, bias, alpha, beta, C, i, j,
                                          d, 0, epi);
  for (; j + kVecWidth <= jend; j += kVecWidth)
    tile<R, 1, TA, HasBias, Epi, kPacked>(g, at, B, bias, alpha, beta, C, i, j,
                                          d, 0, epi);
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

/// dot(A'(i, :), B[j, :]) for the transposed-B form, one multiply-add at
/// a time: a transposed A, and the scalar path.
template <int64_t M, int64_t K, bool TA>
ONNXCC_INLINE float dot_row(const float *A, const float *Bj, int64_t i) {
  float s = 0.0f;
  for (int64_t k = 0; k < K; ++k)
    s += a_at<M, K, TA>(A, i, k) * Bj[k];
  return s;
}

#if ONNXCC_HAS_SIMD
/// Outputs computed together by dot_group(): one per vector lane.
constexpr int64_t kDotGroup = kVecWidth;

/// One vector whose lane c is the sum of acc[c]'s lanes: xsimd::haddp,
/// except with AVX-512, where xsimd 8.1's haddp scrambles lanes (it gave
/// wrong dot products on the first AVX-512 machine this ran on). There a
/// four-step fold, each step adding the two halves of a pair of vectors,
/// leaves lane 4q + m holding row 4m + q of its input order, so the rows
/// go in transposed and come out in place.
ONNXCC_INLINE vfloat sum_lanes(const vfloat (&acc)[kDotGroup]) {
#if defined(__AVX512F__)
  __m512 s[8], u[4], v[2];
  for (int i = 0; i < 8; ++i) { // 16 rows -> 8: 256-bit halves
    const int a = 2 * i, b = 2 * i + 1;
    const __m512 x = acc[a % 4 * 4 + a / 4], y = acc[b % 4 * 4 + b / 4];
    s[i] = _mm512_add_ps(_mm512_shuffle_f32x4(x, y, _MM_SHUFFLE(1, 0, 1, 0)),
                         _mm512_shuffle_f32x4(x, y, _MM_SHUFFLE(3, 2, 3, 2)));
  }
  for (int i = 0; i < 4; ++i) // 8 -> 4: 128-bit quarters
    u[i] = _mm512_add_ps(
        _mm512_shuffle_f32x4(s[2 * i], s[2 * i + 1], _MM_SHUFFLE(2, 0, 2, 0)),
        _mm512_shuffle_f32x4(s[2 * i], s[2 * i + 1], _MM_SHUFFLE(3, 1, 3, 1)));
  for (int i = 0; i < 2; ++i) // 4 -> 2: pairs of lanes
    v[i] = _mm512_add_ps(
        _mm512_shuffle_ps(u[2 * i], u[2 * i + 1], _MM_SHUFFLE(1, 0, 1, 0)),
        _mm512_shuffle_ps(u[2 * i], u[2 * i + 1], _MM_SHUFFLE(3, 2, 3, 2)));
  return _mm512_add_ps( // 2 -> 1: single lanes
      _mm512_shuffle_ps(v[0], v[1], _MM_SHUFFLE(2, 0, 2, 0)),
      _mm512_shuffle_ps(v[0], v[1], _MM_SHUFFLE(3, 1, 3, 1)));
#else
  return xsimd::haddp(acc);
#endif
}

/// f(0), f(1), ..., f(N - 1) with each index a compile-time constant: a
/// loop g++ 12 would leave rolled, its accumulators in memory.
template <typename F, int... I>
ONNXCC_INLINE void unrolled_seq(F &f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}
template <int N, typename F> ONNXCC_INLINE void unrolled(F f) {
  unrolled_seq(f, std::make_integer_sequence<int, N>{});
}

/// The 64-byte lines a dot group's rows of K floats are apart, modulo the
/// 64 sets of a 32 KiB 8-way L1: when more than half a set's ways would
/// hold rows' lines, every step's lines land in few sets and evict one
/// another and the L1 prefetcher's with them. Rows of 1024 or 2048 floats
/// (4 or 8 KiB, torch_small_cnn's 2048-wide Linear) streamed at 60-70 GB/s
/// from L2 where 2040 or 2064 reached 100-110.
template <int64_t K> constexpr bool rows_share_sets() {
  int rows_in_set[64] = {};
  int most = 0;
  for (int64_t c = 0; c < kDotGroup; ++c) {
    const int n = ++rows_in_set[(c * K * 4 / 64) % 64];
    most = n > most ? n : most;
  }
  // Rows under a page apart are one contiguous block, which the L2
  // streamer follows anyway: staggered, resnet18's 1000 x 512 Linear from
  // L3 ran 20% slower.
  return most > 4 && K * 4 >= 4096; // more than half of a set's ways
}

/// The dot products of `a` (K floats) with the kDotGroup rows rows[c] (K
/// floats each), as one vector of sums: one accumulator per row along k,
/// so kDotGroup independent chains hide the FMA latency, then a single
/// horizontal add of them all (sum_lanes()), then the k past the last
/// whole vector. A horizontal add per product cost more than the
/// products themselves at K = 64 (an LSTM's recurrent step). Where the
/// rows would share cache sets (rows_share_sets()), rows 2g and 2g + 1
/// start 4g lines along their rows and wrap around, so the rows' lines in
/// flight spread over the sets; each row still sums in one fixed order.
template <int64_t K>
ONNXCC_INLINE vfloat dot_group(const float *a,
                               const float *const (&rows)[kDotGroup]) {
  constexpr int64_t kVectors = K / kVecWidth * kVecWidth;
  vfloat acc[kDotGroup];
  for (int c = 0; c < kDotGroup; ++c)
    acc[c] = vfloat(0.0f);
  if constexpr (rows_share_sets<K>() && kVectors >= 64) {
    // Pairs of rows share a start (and a's load): a start for every row
    // left the loads of `a` as many as the rows', and L1's load ports
    // the limit.
    constexpr int kPairs = kDotGroup / 2;
    int64_t at[kPairs];
    for (int g = 0; g < kPairs; ++g)
      at[g] = g * 64 % kVectors;
    for (int64_t k = 0; k < kVectors; k += kVecWidth)
      unrolled<kPairs>([&](auto g) ONNXCC_INLINE_LAMBDA {
        const vfloat av = vfloat::load_unaligned(a + at[g]);
        acc[2 * g] = vfma(av, vfloat::load_unaligned(rows[2 * g] + at[g]), acc[2 * g]);
        acc[2 * g + 1] = vfma(av, vfloat::load_unaligned(rows[2 * g + 1] + at[g]),
                              acc[2 * g + 1]);
        at[g] = at[g] + kVecWidth == kVectors ? 0 : at[g] + kVecWidth;
      });
  } else {
    for (int64_t k = 0; k < kVectors; k += kVecWidth) {
      const vfloat av = vfloat::load_unaligned(a + k);
      for (int c = 0; c < kDotGroup; ++c)
        acc[c] = vfma(av, vfloat::load_unaligned(rows[c] + k), acc[c]);
    }
  }
  vfloat s = sum_lanes(acc);
  if constexpr (kVectors < K) {
    alignas(64) float lanes[kDotGroup];
    s.store_aligned(lanes);
    for (int c = 0; c < kDotGroup; ++c)
      for (int64_t k = kVectors; k < K; ++k)
        lanes[c] += a[k] * rows[c][k];
    s = vfloat::load_aligned(lanes);
  }
  return s;
}

/// Stores dot_group()'s sums for outputs at `out`, out + 1, ... (`n` of
/// them, at most kDotGroup) with their last step; the bias of the first is
/// at `at` and steps by `step` (0 or 1). A whole group finishes as a
/// vector, a partial one lane by lane.
template <bool HasBias, typename Epi>
ONNXCC_INLINE void finish_group(vfloat s, int64_t n, const float *bias,
                                int64_t at, int64_t step, float alpha,
                                float beta, float *out, Epi epi) {
  if (n == kDotGroup) {
    finish_vec<HasBias>(s, bias, at, step != 0, alpha, beta, epi)
        .store_unaligned(out);
    return;
  }
  alignas(64) float lanes[kDotGroup];
  s.store_aligned(lanes);
  for (int64_t c = 0; c < n; ++c)
    out[c] = finish<HasBias>(lanes[c], bias, at + c * step, alpha, beta, epi);
}
#else
constexpr int64_t kDotGroup = 1;
#endif

/// Outputs [lo, hi) of `total` cut into whole dot groups from 0, so that
/// every output keeps its group and lane whatever the thread count.
ONNXCC_INLINE part group_part(int64_t total, int t, int T) {
  const part g = split((total + kDotGroup - 1) / kDotGroup, t, T);
  const int64_t hi = g.hi * kDotGroup;
  return {g.lo * kDotGroup, hi < total ? hi : total};
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

/// gemm_block_rt() in narrow tiles (narrow_rows()); ie - ib is a multiple
/// of kNarrowRows. Each tile reads its rows of A packed (pack_rows()):
/// through kNarrowRows row pointers g++ 12 ran out of registers and kept
/// B's vectors on the stack (24 x 3136 x 144: 266 us packed, 216). A
/// function of its own, for the same reason: with these tiles beside the
/// 12-row ones, the 12-row tile spilled too (96 x 196 x 576: 206 -> 350
/// us).
template <bool TA, bool HasBias, typename Epi>
ONNXCC_NOINLINE void gemm_block_narrow_rt(
    gemm_shape g, const float *ONNXCC_RESTRICT A,
    const float *ONNXCC_RESTRICT B, const float *bias, float alpha,
    float beta, float *ONNXCC_RESTRICT C, int64_t ib, int64_t ie, int64_t jb,
    int64_t je, Epi epi) {
  alignas(64) float ap[kNarrowRows * kDepthBlock];
  for_gemm_blocks<TA>(g, B, jb, je, [&](int64_t j0, int64_t jend, depth d,
                                        const float *bt) ONNXCC_INLINE_LAMBDA {
    for (int64_t i = ib; i < ie; i += kNarrowRows) {
      pack_rows<kNarrowRows, TA>(g, A, i, d, ap);
      row_panel<kNarrowRows, TA, HasBias, 3>(g, A, B, bt, bias, alpha, beta, C,
                                             i, j0, jend, d, epi, ap);
    }
  });
}

template <int64_t M, int64_t N, int64_t K, bool TA, int64_t BRS, int64_t BCS,
          bool HasBias, typename Epi>
ONNXCC_INLINE void gemm_block(const float *ONNXCC_RESTRICT A,
                              const float *ONNXCC_RESTRICT B, const float *bias,
                              float alpha, float beta, float *ONNXCC_RESTRICT C,
                              int64_t ib, int64_t ie, int64_t jb, int64_t je,
                              Epi epi) {
  if constexpr (narrow_rows(M, K))
    gemm_block_narrow_rt<TA, HasBias>(gemm_shape{M, N, K, BRS, BCS}, A, B,
                                      bias, alpha, beta, C, ib, ie, jb, je,
                                      epi);
  else
    gemm_block_rt<TA, HasBias>(gemm_shape{M, N, K, BRS, BCS}, A, B, bias,
                               alpha, beta, C, ib, ie, jb, je, epi);
}

/// Outputs [jb, je) of every row of the transposed-B form; jb is a
/// multiple of kDotGroup (group_part()). Each dot group's rows of B serve
/// every row of A before the next group's are read, so B streams through
/// the cache once, not once per row. `backward` runs the groups last to
/// first; every output is the same dot product in either order, so the
/// bits do not change (recurrent.h alternates it, see there).
template <int64_t M, int64_t N, int64_t K, bool TA, int64_t BRS, int64_t BCS,
          bool HasBias, typename Epi>
inline void gemm_dots(const float *ONNXCC_RESTRICT A,
                      const float *ONNXCC_RESTRICT B, const float *bias,
                      float alpha, float beta, float *ONNXCC_RESTRICT C,
                      int64_t jb, int64_t je, Epi epi, bool backward = false) {
#if ONNXCC_HAS_SIMD
  if constexpr (!TA) {
    const int64_t groups = (je - jb + kDotGroup - 1) / kDotGroup;
    for (int64_t q = 0; q < groups; ++q) {
      const int64_t j = jb + (backward ? groups - 1 - q : q) * kDotGroup;
      const float *rows[kDotGroup]; // past N: the last row again, unused
      for (int64_t c = 0; c < kDotGroup; ++c)
        rows[c] = B + (j + c < N ? j + c : N - 1) * K;
      const int64_t n = je - j < kDotGroup ? je - j : kDotGroup;
      for (int64_t i = 0; i < M; ++i)
        finish_group<HasBias>(dot_group<K>(A + i * K, rows), n, bias,
                              i * BRS + j * BCS, BCS, alpha, beta,
                              C + i * N + j, epi);
    }
    return;
  }
#endif
  (void)backward;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = jb; j < je; ++j)
      C[i * N + j] = finish<HasBias>(dot_row<M, K, TA>(A, B + j * K, i), bias,
                                     i * BRS + j * BCS, alpha, beta, epi);
}

/// Rows [ib, ie) of C = A * x for a column vector x (N = 1, neither
/// operand transposed; ib a multiple of kDotGroup). x's one column is
/// contiguous, as a row of B' is, so each output is a dot product: rows
/// of A in dot groups against the one x. The blocked kernel's tiles are a
/// vector of columns wide, and ran this shape (a squeeze-excitation
/// block's 1x1 convolution over a 1x1 map) one scalar multiply-add after
/// another.
template <int64_t M, int64_t K, int64_t BRS, bool HasBias, typename Epi>
inline void gemv_rows(const float *ONNXCC_RESTRICT A,
                      const float *ONNXCC_RESTRICT x, const float *bias,
                      float alpha, float beta, float *ONNXCC_RESTRICT C,
                      int64_t ib, int64_t ie, Epi epi) {
#if ONNXCC_HAS_SIMD
  for (int64_t i = ib; i < ie; i += kDotGroup) {
    const float *rows[kDotGroup]; // past M: the last row again, unused
    for (int64_t c = 0; c < kDotGroup; ++c)
      rows[c] = A + (i + c < M ? i + c : M - 1) * K;
    const int64_t n = ie - i < kDotGroup ? ie - i : kDotGroup;
    finish_group<HasBias>(dot_group<K>(x, rows), n, bias, i * BRS, BRS, alpha,
                          beta, C + i, epi);
  }
#else
  for (int64_t i = ib; i < ie; ++i)
    C[i] = finish<HasBias>(dot_row<1, K, false>(x, A + i * K, 0), bias,
                           i * BRS, alpha, beta, epi);
#endif
}

/// Whether gemm() of this form is gemv_rows().
template <int64_t N, bool TA, bool TB>
constexpr bool kIsGemv = N == 1 && !TA && !TB;

template <int64_t M, int64_t N, int64_t K, bool TA, bool TB, int64_t BRS,
          int64_t BCS, bool HasBias, typename Epi>
inline void gemm(const float *ONNXCC_RESTRICT A, const float *ONNXCC_RESTRICT B,
                 const float *bias, float alpha, float beta,
                 float *ONNXCC_RESTRICT C, Epi epi) {
  if constexpr (kIsGemv<N, TA, TB>)
    gemv_rows<M, K, BRS, HasBias>(A, B, bias, alpha, beta, C, 0, M, epi);
  else if constexpr (TB)
    gemm_dots<M, N, K, TA, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C, 0, N,
                                              epi);
  else
    gemm_block<M, N, K, TA, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C, 0,
                                               M, 0, N, epi);
}

/// Part t of T of gemm(): see the file comment.
template <int64_t M, int64_t N, int64_t K, bool TA, bool TB, int64_t BRS,
          int64_t BCS, bool HasBias, typename Epi>
inline void gemm_part(const float *ONNXCC_RESTRICT A,
                      const float *ONNXCC_RESTRICT B, const float *bias,
                      float alpha, float beta, float *ONNXCC_RESTRICT C,
                      int t, int T, Epi epi) {
  if constexpr (kIsGemv<N, TA, TB>) {
    const part p = group_part(M, t, T);
    gemv_rows<M, K, BRS, HasBias>(A, B, bias, alpha, beta, C, p.lo, p.hi, epi);
    return;
  } else if constexpr (TB) {
    const part p = group_part(N, t, T);
    gemm_dots<M, N, K, TA, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C, p.lo,
                                              p.hi, epi);
    return;
  }
  constexpr int64_t pair = 2 * kVecWidth;
  constexpr int64_t unit = narrow_rows(M, K) ? kNarrowRows : kTileRows;
  constexpr int64_t cols = N / pair, rows = M / unit;
  if constexpr (cols >= rows) {
    constexpr int64_t units = cols > 0 ? cols : 1;
    const part p = split(units, t, T);
    if (p.lo < p.hi)
      gemm_block<M, N, K, TA, BRS, BCS, HasBias>(
          A, B, bias, alpha, beta, C, 0, M, p.lo * pair,
          p.hi == units ? N : p.hi * pair, epi);
  } else {
    const part p = split(rows, t, T);
    if (p.lo < p.hi)
      gemm_block<M, N, K, TA, BRS, BCS, HasBias>(
          A, B, bias, alpha, beta, C, p.lo * unit,
          p.hi == rows ? M : p.hi * unit, 0, N, epi);
  }
}

template <int64_t M, int64_t N, int64_t K, bool TA, bool TB, int64_t BRS,
          int64_t BCS, bool HasBias, typename Par, typename Epi>
inline void gemm(Par &par, const float *ONNXCC_RESTRICT A,
                 const float *ONNXCC_RESTRICT B, const float *bias, float alpha,
                 float beta, float *ONNXCC_RESTRICT C, Epi epi) {
  par.run([&](int t, int T) {
    gemm_part<M, N, K, TA, TB, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C,
                                                  t, T, epi);
  });
}

} // namespace rt
} // namespace onnxcc

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif // ONNXCC_RUNTIME_GEMM_H
