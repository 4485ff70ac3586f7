//===- gemm.h - fixed-shape GEMM with epilogue ------------------*- C++ -*-===//
//
// C[M x N] = epi(alpha * A' * B' + beta * bias), row-major, shapes fixed at
// compile time. bias[i * BRS + j * BCS] covers every ONNX broadcast of C
// ([N]: 0,1; [M,1]: 1,0; [M,N]: N,1; scalar: 0,0).
//
// B' = B (K x N): the blocked kernel of gemm_blocked.h, cut as
// gemm_blocking.h says.
// B' = B^T (N x K, PyTorch's Linear): one dot product per output, and so
// is a matrix times a column vector (B = x, K x 1: gemv_rows()); a vector
// of outputs at a time (dot_group()), or with fewer than kFewColumnsMax
// columns several rows of A at a time against all of B^T
// (gemm_few_columns()).
//
// gemm(par, ...) splits C across par's threads (parallel.h): whole column
// pairs of vectors when C has more of them than row panels, else whole row
// panels, handed out in runs (run_units: a thread done early takes a late
// one's runs); dot products by whole dot groups, a fixed cut, and the few
// columns' by rows. Each output
// is computed as in gemm(...) alone, so the result does not depend on the
// thread count or on which thread takes a run.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_GEMM_H
#define ONNXCC_RUNTIME_GEMM_H

#include "onnxcc/gemm_blocked.h"
#include "onnxcc/parallel.h"

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

/// Rows of B^T below which gemm_few_columns() takes a product, on every
/// ISA; the lowering gives a constant B of fewer columns as B^T
/// (kernel::kFewDotColumns).
constexpr int64_t kFewColumnsMax = 16;

#if ONNXCC_HAS_SIMD
/// Rows of A gemm_few_columns() takes at a time: as many as keep N
/// accumulators each, their A vectors and a B vector in registers, at
/// most 4.
template <int64_t N>
constexpr int kFewColumnRows =
    (kVecRegisters - 1) / (N + 1) < 1   ? 1
    : (kVecRegisters - 1) / (N + 1) > 4 ? 4
                                        : int((kVecRegisters - 1) / (N + 1));

/// Dot groups the N rows of B^T fill.
template <int64_t N>
constexpr int kFewColumnGroups = int((N + kDotGroup - 1) / kDotGroup);

/// R rows of A (from `a`, K apart) against the N rows of B^T: one
/// accumulator per output along k, as dot_group()'s, then each row's sums
/// a dot group at a time in one horizontal add (sum_lanes(); lanes past
/// N sum zeros), then the k past the last whole vector.
template <int R, int64_t N, int64_t K>
ONNXCC_INLINE void few_column_dots(const float *a, const float *B,
                                   vfloat (&s)[R][kFewColumnGroups<N>]) {
  constexpr int G = kFewColumnGroups<N>;
  constexpr int64_t kVectors = K / kVecWidth * kVecWidth;
  vfloat acc[R][G][kDotGroup];
  for (int r = 0; r < R; ++r)
    for (int g = 0; g < G; ++g)
      for (int c = 0; c < kDotGroup; ++c)
        acc[r][g][c] = vfloat(0.0f);
  for (int64_t k = 0; k < kVectors; k += kVecWidth) {
    vfloat av[R];
    for (int r = 0; r < R; ++r)
      av[r] = vfloat::load_unaligned(a + r * K + k);
    unrolled<int(N)>([&](auto c) ONNXCC_INLINE_LAMBDA {
      const vfloat b = vfloat::load_unaligned(B + c * K + k);
      for (int r = 0; r < R; ++r)
        acc[r][c / kDotGroup][c % kDotGroup] =
            vfma(av[r], b, acc[r][c / kDotGroup][c % kDotGroup]);
    });
  }
  for (int r = 0; r < R; ++r)
    for (int g = 0; g < G; ++g) {
      s[r][g] = sum_lanes(acc[r][g]);
      if constexpr (kVectors < K) {
        alignas(64) float lanes[kDotGroup];
        s[r][g].store_aligned(lanes);
        for (int64_t c = 0; c < kDotGroup && g * kDotGroup + c < N; ++c)
          for (int64_t k = kVectors; k < K; ++k)
            lanes[c] += a[r * K + k] * B[(g * kDotGroup + c) * K + k];
        s[r][g] = vfloat::load_aligned(lanes);
      }
    }
}

/// Rows [ib, ie) of C = A * B^T where B^T has fewer than kFewColumnsMax
/// rows (a classifier's last Linear, 10 outputs): kFewColumnRows rows of
/// A at a time share each load of B's rows, and no accumulator sums a
/// padding row. gemm_dots() took every row of A alone against whole dot
/// groups, B's last row repeated: 64 x 10 x 256 ran 3.0-3.7 us so, the
/// blocked kernel over the transposed B (a vector tile of 10 columns)
/// 3.7-4.9 us, this 1.5 (AVX-512). Each output's sum does not depend on
/// its row's partners.
template <int64_t M, int64_t N, int64_t K, int64_t BRS, int64_t BCS,
          bool HasBias, typename Epi>
inline void gemm_few_columns(const float *ONNXCC_RESTRICT A,
                             const float *ONNXCC_RESTRICT B, const float *bias,
                             float alpha, float beta, float *ONNXCC_RESTRICT C,
                             int64_t ib, int64_t ie, Epi epi) {
  constexpr int R = kFewColumnRows<N>, G = kFewColumnGroups<N>;
  auto rows = [&](auto count, int64_t i) ONNXCC_INLINE_LAMBDA {
    constexpr int kRows = decltype(count)::value;
    vfloat s[kRows][G];
    few_column_dots<kRows, N, K>(A + i * K, B, s);
    for (int r = 0; r < kRows; ++r)
      for (int g = 0; g < G; ++g) {
        const int64_t j = g * kDotGroup;
        finish_group<HasBias>(s[r][g], N - j < kDotGroup ? N - j : kDotGroup,
                              bias, (i + r) * BRS + j * BCS, BCS, alpha, beta,
                              C + (i + r) * N + j, epi);
      }
  };
  int64_t i = ib;
  for (; i + R <= ie; i += R)
    rows(std::integral_constant<int, R>{}, i);
  for (; i < ie; ++i)
    rows(std::integral_constant<int, 1>{}, i);
}
#endif

/// Whether gemm() of this form is gemm_few_columns(): B^T of more than
/// one row and fewer than kFewColumnsMax.
template <int64_t N, bool TA, bool TB>
constexpr bool kFewColumns = ONNXCC_HAS_SIMD && !TA && TB && N > 1 &&
                             N < kFewColumnsMax;

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
#if ONNXCC_HAS_SIMD
  else if constexpr (kFewColumns<N, TA, TB>)
    gemm_few_columns<M, N, K, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C, 0,
                                                 M, epi);
#endif
  else if constexpr (TB)
    gemm_dots<M, N, K, TA, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C, 0, N,
                                              epi);
  else
    gemm_block<M, N, K, TA, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C, 0,
                                               M, 0, N, epi);
}

/// Part t of T of a product by dot products (gemv_rows(), gemm_dots()):
/// whole dot groups of its rows or columns.
template <int64_t M, int64_t N, int64_t K, bool TA, bool TB, int64_t BRS,
          int64_t BCS, bool HasBias, typename Epi>
inline void gemm_dots_part(const float *ONNXCC_RESTRICT A,
                           const float *ONNXCC_RESTRICT B, const float *bias,
                           float alpha, float beta, float *ONNXCC_RESTRICT C,
                           int t, int T, Epi epi) {
  if constexpr (kIsGemv<N, TA, TB>) {
    const part p = group_part(M, t, T);
    gemv_rows<M, K, BRS, HasBias>(A, B, bias, alpha, beta, C, p.lo, p.hi, epi);
#if ONNXCC_HAS_SIMD
  } else if constexpr (kFewColumns<N, TA, TB>) { // cut the rows
    const part p = split(M, t, T);
    gemm_few_columns<M, N, K, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C,
                                                 p.lo, p.hi, epi);
#endif
  } else {
    const part p = group_part(N, t, T);
    gemm_dots<M, N, K, TA, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C, p.lo,
                                              p.hi, epi);
  }
}

/// gemm() on par's threads: see the file comment. The blocked product's
/// whole column pairs (or row panels, where there are more of those) go
/// out in runs of about a quarter of a thread's share (run_units): a run
/// keeps the B block or A rows the whole share would reuse.
template <int64_t M, int64_t N, int64_t K, bool TA, bool TB, int64_t BRS,
          int64_t BCS, bool HasBias, typename Par, typename Epi>
inline void gemm(Par &par, const float *ONNXCC_RESTRICT A,
                 const float *ONNXCC_RESTRICT B, const float *bias, float alpha,
                 float beta, float *ONNXCC_RESTRICT C, Epi epi) {
  if constexpr (kIsGemv<N, TA, TB> || TB) {
    par.run([&](int t, int T) {
      gemm_dots_part<M, N, K, TA, TB, BRS, BCS, HasBias>(A, B, bias, alpha,
                                                         beta, C, t, T, epi);
    });
  } else {
    constexpr int64_t pair = 2 * kVecWidth;
    constexpr int64_t unit = narrow_rows(M, K) ? kNarrowRows : kTileRows;
    constexpr int64_t cols = N / pair, rows = M / unit;
    constexpr int64_t units = cols >= rows ? (cols > 0 ? cols : 1) : rows;
    run_runs(par, units, [&](int64_t lo, int64_t hi) {
      if constexpr (cols >= rows)
        gemm_block<M, N, K, TA, BRS, BCS, HasBias>(
            A, B, bias, alpha, beta, C, 0, M, lo * pair,
            hi == units ? N : hi * pair, epi);
      else
        gemm_block<M, N, K, TA, BRS, BCS, HasBias>(
            A, B, bias, alpha, beta, C, lo * unit,
            hi == rows ? M : hi * unit, 0, N, epi);
    });
  }
}

} // namespace rt
} // namespace onnxcc

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif // ONNXCC_RUNTIME_GEMM_H
