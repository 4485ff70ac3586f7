//===- gemm_blocking.h - how a fixed-shape GEMM is cut ----------*- C++ -*-===//
//
// What every GEMM form here shares (gemm_blocked.h, gemm.h, gemm_packed.h,
// conv_implicit.h): depth blocks of K and column blocks of N sized for L1
// and L2, the rows of a register tile on each ISA (kTileRows, the narrow
// tiles), how rows are cut into tiles (for_row_tiles()), and each output's
// last step (finish(): alpha, the bias, the epilogue).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_GEMM_BLOCKING_H
#define ONNXCC_RUNTIME_GEMM_BLOCKING_H

#include "onnxcc/config.h"

#include <type_traits>

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

/// Floats in a 64-byte cache line: a row of A streams one line every
/// kLineFloats steps of k.
constexpr int64_t kLineFloats = 16;

/// Asks for the line at p ahead of its use, into L2 (read) or with write
/// intent (prefetchw where the ISA has it). Hints only: no result changes.
/// A no-op where the compiler offers no builtin.
ONNXCC_INLINE void prefetch_read(const void *p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p, 0, 2);
#else
  (void)p;
#endif
}
ONNXCC_INLINE void prefetch_write(const void *p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p, 1, 3);
#else
  (void)p;
#endif
}

/// Vector registers: 32 with AVX-512 and AArch64 NEON, 16 otherwise (the
/// register file every tile below is sized for).
#if defined(__AVX512F__) || defined(__aarch64__)
constexpr int kVecRegisters = 32;
#else
constexpr int kVecRegisters = 16;
#endif

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

/// Cuts all M rows into the fewest tiles of at most kTileRows, of
/// near-equal rows (32 = 11 + 11 + 10 rather than 12 + 12 + 4 + 4), at
/// compile time, calling f as for_row_tiles() does. For products whose
/// row tiles all sweep one panel of B in L1 (gemm_packed.h), where a
/// 4-row tile's B load per 8 multiply-adds, not L2, is what costs. Two
/// loops, of R and R - 1 rows, so f has two instances however many tiles:
/// unrolled tile by tile, squeezenet1_1's 169 positions (conv_lanes.h)
/// made one function of 15 tiles in which GCC kept the accumulators on
/// the stack, at half the speed.
template <int64_t M, typename F>
ONNXCC_INLINE void for_balanced_row_tiles(F &f) {
  constexpr int64_t tiles = (M + kTileRows - 1) / kTileRows;
  if constexpr (tiles > 0) {
    constexpr int R = int((M + tiles - 1) / tiles);
    constexpr int64_t big = M - (R - 1) * tiles; // tiles of R rows, 1..tiles
    for (int64_t t = 0; t < big; ++t)
      f(std::integral_constant<int, R>{}, t * R);
    if constexpr (R > 1 && big < tiles)
      for (int64_t t = big; t < tiles; ++t)
        f(std::integral_constant<int, R - 1>{}, big * R + (t - big) * (R - 1));
  }
}

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
/// `lda` is a row-major A's row stride: K, or more for a product over a
/// share of a wider A's columns (gemm_depth_part()).
struct gemm_shape {
  int64_t M, N, K, brs, bcs, lda;
};

ONNXCC_INLINE float a_at(const gemm_shape &g, bool ta, const float *A,
                         int64_t i, int64_t k) {
  return ta ? A[k * g.M + i] : A[i * g.lda + k];
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
#endif

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_GEMM_BLOCKING_H
