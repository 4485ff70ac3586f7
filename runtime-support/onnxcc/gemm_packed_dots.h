//===- gemm_packed_dots.h - a few rows against a packed B^T ----*- C++ -*-===//
//
// gemm_packed_dots(): a `kernel.gemm` with trans_b and packed_b, C [M x N]
// = epi(alpha * A * B^T + beta * bias) for the few rows (M < 4) that a
// PyTorch Linear runs at batch 1, one dot product per output as in gemm.h.
//
// B^T's N rows of K floats are the compiler's (onnxcc-pack-gemm-weights),
// in groups of kDotRows = 16 rows, [ceil(N / 16), K, 16]: group g holds,
// for each whole block of kDotDepth = 16 k, rows 16g to 16g + 15's 16
// floats one row after another (1 KiB), then the same rows' last K % 16
// floats, row by row; rows past N are zeros. A dot group (gemm.h) of
// kDotGroup <= 16 rows finds its rows' floats of a block in one run, so
// the weights stream once, in address order. Row by row, a group's rows
// were kDotGroup streams K floats apart: the classifier's 256 x 784 layer
// read its 802 KB in 6.6 us, against 3.8 packed (AMD EPYC Zen 5, AVX-512,
// L2-hot, g++ -O3).
//
// Every output sums its row's whole blocks vector by vector in k order,
// folds the lanes (sum_lanes()), then adds the last K % 16 products one at
// a time; a thread count only moves whole groups between threads, so the
// bits do not depend on it. Nor on the direction: the groups are read
// last to first on every other call (sweep.h), so that the weight's lines
// stay in L2 from one call to the next.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_GEMM_PACKED_DOTS_H
#define ONNXCC_RUNTIME_GEMM_PACKED_DOTS_H

#include "onnxcc/gemm.h"
#include "onnxcc/sweep.h"

namespace onnxcc {
namespace rt {

constexpr int64_t kDotRows = 16;  ///< rows in a packed group
constexpr int64_t kDotDepth = 16; ///< k in a block of a packed group
static_assert(kDotRows % kDotGroup == 0 && kDotDepth % kVecWidth == 0,
              "every ISA's dot group and vector must divide a packed block");

/// The sum of products of a[k] and row r of `group` (a packed group of
/// depth K) over the k past the whole blocks.
template <int64_t K>
ONNXCC_INLINE float packed_tail(const float *a, const float *group,
                                int64_t r, float s) {
  constexpr int64_t kBody = K / kDotDepth * kDotDepth, kTail = K - kBody;
  const float *t = group + kBody * kDotRows + r * kTail;
  for (int64_t k = 0; k < kTail; ++k)
    s += a[kBody + k] * t[k];
  return s;
}

#if ONNXCC_HAS_SIMD
/// The dot products of `a` with rows [h * kDotGroup, (h + 1) * kDotGroup)
/// of a packed group, as one vector of sums (dot_group()'s order).
template <int64_t K>
ONNXCC_INLINE vfloat packed_dot_group(const float *ONNXCC_RESTRICT a,
                                      const float *ONNXCC_RESTRICT group,
                                      int64_t h) {
  constexpr int64_t kBlocks = K / kDotDepth, kPerRow = kDotDepth / kVecWidth;
  vfloat acc[kDotGroup];
  for (int c = 0; c < kDotGroup; ++c)
    acc[c] = vfloat(0.0f);
  const float *p = group + h * kDotGroup * kDotDepth;
  for (int64_t b = 0; b < kBlocks; ++b, p += kDotRows * kDotDepth)
    for (int64_t v = 0; v < kPerRow; ++v) {
      const vfloat av = vfloat::load_unaligned(a + b * kDotDepth + v * kVecWidth);
      unrolled<kDotGroup>([&](auto c) ONNXCC_INLINE_LAMBDA {
        acc[c] = vfma(av, vfloat::load_unaligned(p + c * kDotDepth + v * kVecWidth),
                      acc[c]);
      });
    }
  vfloat s = sum_lanes(acc);
  if constexpr (K % kDotDepth != 0) {
    alignas(64) float lanes[kDotGroup];
    s.store_aligned(lanes);
    for (int c = 0; c < kDotGroup; ++c)
      lanes[c] = packed_tail<K>(a, group, h * kDotGroup + c, lanes[c]);
    s = vfloat::load_aligned(lanes);
  }
  return s;
}
#endif

/// Outputs of packed groups [gb, ge) for every row of A, first to last or
/// last to first. Each group serves every row of A before the next group
/// is read.
template <int64_t M, int64_t N, int64_t K, int64_t BRS, int64_t BCS,
          bool HasBias, typename Epi>
inline void gemm_packed_dot_groups(const float *ONNXCC_RESTRICT A,
                                   const float *ONNXCC_RESTRICT B,
                                   const float *bias, float alpha, float beta,
                                   float *ONNXCC_RESTRICT C, int64_t gb,
                                   int64_t ge, sweep dir, Epi epi) {
  for (int64_t n = 0; n < ge - gb; ++n) {
    const int64_t g = dir == sweep::forward ? gb + n : ge - 1 - n;
    const float *group = B + g * kDotRows * K;
#if ONNXCC_HAS_SIMD
    for (int64_t h = 0; h < kDotRows / kDotGroup; ++h) {
      const int64_t j = g * kDotRows + h * kDotGroup;
      if (j >= N)
        break;
      const int64_t n = N - j < kDotGroup ? N - j : kDotGroup;
      for (int64_t i = 0; i < M; ++i)
        finish_group<HasBias>(packed_dot_group<K>(A + i * K, group, h), n,
                              bias, i * BRS + j * BCS, BCS, alpha, beta,
                              C + i * N + j, epi);
    }
#else
    for (int64_t r = 0; r < kDotRows && g * kDotRows + r < N; ++r) {
      const int64_t j = g * kDotRows + r;
      for (int64_t i = 0; i < M; ++i) {
        const float *a = A + i * K;
        float s = 0.0f;
        for (int64_t b = 0; b < K / kDotDepth; ++b)
          for (int64_t k = 0; k < kDotDepth; ++k)
            s += a[b * kDotDepth + k] *
                 group[(b * kDotRows + r) * kDotDepth + k];
        C[i * N + j] = finish<HasBias>(packed_tail<K>(a, group, r, s), bias,
                                       i * BRS + j * BCS, alpha, beta, epi);
      }
    }
#endif
  }
}

/// Packed groups of an N-row B^T.
template <int64_t N> constexpr int64_t kDotGroups = (N + kDotRows - 1) / kDotRows;

/// C = epi(alpha * A * B^T + beta * bias[i * BRS + j * BCS]) with B^T the
/// compiler packed in groups (kernel.gemm's `packed_b` with `trans_b`).
template <int64_t M, int64_t N, int64_t K, int64_t BRS, int64_t BCS,
          bool HasBias, typename Epi>
inline void gemm_packed_dots(const float *ONNXCC_RESTRICT A,
                             const float *ONNXCC_RESTRICT B, const float *bias,
                             float alpha, float beta, float *ONNXCC_RESTRICT C,
                             Epi epi, sweep dir = sweep::forward) {
  static_assert(kDotRows == 16 && kDotDepth == 16,
                "the compiler packs B^T in groups of 16 rows and blocks of "
                "16 k (kernel::kPackedDotRows, kPackedDotDepth)");
  gemm_packed_dot_groups<M, N, K, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C,
                                                     0, kDotGroups<N>, dir, epi);
}

/// gemm_packed_dots() on par's threads: each a contiguous run of whole
/// groups, so each streams its own part of the weights, in `dir`.
template <int64_t M, int64_t N, int64_t K, int64_t BRS, int64_t BCS,
          bool HasBias, typename Par, typename Epi>
inline void gemm_packed_dots(Par &par, const float *ONNXCC_RESTRICT A,
                             const float *ONNXCC_RESTRICT B, const float *bias,
                             float alpha, float beta, float *ONNXCC_RESTRICT C,
                             Epi epi, sweep dir = sweep::forward) {
  par.run([&](int t, int T) {
    const part p = split(kDotGroups<N>, t, T);
    gemm_packed_dot_groups<M, N, K, BRS, BCS, HasBias>(A, B, bias, alpha, beta,
                                                       C, p.lo, p.hi, dir, epi);
  });
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_GEMM_PACKED_DOTS_H
