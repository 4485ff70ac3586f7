//===- gemm.h - fixed-shape GEMM with epilogue ------------------*- C++ -*-===//
//
// C[M x N] = epi(alpha * A' * B' + beta * bias), row-major, shapes fixed at
// compile time. bias[i * BRS + j * BCS] covers every ONNX broadcast of C
// ([N]: 0,1; [M,1]: 1,0; [M,N]: N,1; scalar: 0,0).
//
// B' = B (K x N): register tiles of R rows x NV vectors of C accumulate
// over k with A broadcast and B streamed; columns are blocked by kColBlock
// so a B panel stays in L2. A simple scheme without packing, good for the
// skinny products of batch-1 inference; packing is a later step.
// B' = B^T (N x K, PyTorch's Linear): one dot product per output.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_GEMM_H
#define ONNXCC_RUNTIME_GEMM_H

#include "onnxcc/config.h"

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

constexpr int64_t kColBlock = 256;

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

template <int64_t M, int64_t K, bool TA>
ONNXCC_INLINE float a_at(const float *A, int64_t i, int64_t k) {
  return TA ? A[k * M + i] : A[i * K + k];
}

template <int64_t BRS, int64_t BCS, bool HasBias, typename Epi>
ONNXCC_INLINE float finish(float acc, const float *bias, int64_t i, int64_t j,
                           float alpha, float beta, Epi epi) {
  float v = alpha * acc;
  if (HasBias)
    v += beta * bias[i * BRS + j * BCS];
  return epi(v);
}

#if ONNXCC_HAS_SIMD
template <int64_t BRS, int64_t BCS, bool HasBias, typename Epi>
ONNXCC_INLINE vfloat finish_vec(vfloat acc, const float *bias, int64_t i,
                                int64_t j, float alpha, float beta, Epi epi) {
  vfloat v = vfloat(alpha) * acc;
  if (HasBias) {
    vfloat b = BCS == 0 ? vfloat(bias[i * BRS])
                        : vfloat::load_unaligned(bias + i * BRS + j);
    v = xsimd::fma(vfloat(beta), b, v);
  }
  return epi(v);
}

/// R rows x NV vectors of C at (i, j), accumulated over all of K.
template <int R, int NV, int64_t M, int64_t N, int64_t K, bool TA,
          int64_t BRS, int64_t BCS, bool HasBias, typename Epi>
ONNXCC_INLINE void tile(const float *A, const float *B, const float *bias,
                        float alpha, float beta, float *C, int64_t i,
                        int64_t j, Epi epi) {
  vfloat acc[R][NV];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v)
      acc[r][v] = vfloat(0.0f);
  for (int64_t k = 0; k < K; ++k) {
    vfloat b[NV];
    for (int v = 0; v < NV; ++v)
      b[v] = vfloat::load_unaligned(B + k * N + j + v * kVecWidth);
    for (int r = 0; r < R; ++r) {
      vfloat a(a_at<M, K, TA>(A, i + r, k));
      for (int v = 0; v < NV; ++v)
        acc[r][v] = xsimd::fma(a, b[v], acc[r][v]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v)
      finish_vec<BRS, BCS, HasBias>(acc[r][v], bias, i + r, j + v * kVecWidth,
                                    alpha, beta, epi)
          .store_unaligned(C + (i + r) * N + j + v * kVecWidth);
}
#endif

/// Rows [i, i + R) from column j to jend, vector tiles then a scalar tail.
template <int R, int64_t M, int64_t N, int64_t K, bool TA, int64_t BRS,
          int64_t BCS, bool HasBias, typename Epi>
ONNXCC_INLINE void row_panel(const float *A, const float *B, const float *bias,
                             float alpha, float beta, float *C, int64_t i,
                             int64_t j, int64_t jend, Epi epi) {
#if ONNXCC_HAS_SIMD
  for (; j + 2 * kVecWidth <= jend; j += 2 * kVecWidth)
    tile<R, 2, M, N, K, TA, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C, i, j, epi);
  for (; j + kVecWidth <= jend; j += kVecWidth)
    tile<R, 1, M, N, K, TA, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C, i, j, epi);
  // A tail narrower than a vector reruns the row's last whole vector,
  // overlapping columns already done: each output is recomputed from A and
  // B in the same order, so they get the same values again. (A 7x7 map's
  // one leftover column otherwise costs a third of its layer.)
  if constexpr (N >= kVecWidth)
    if (j < jend) {
      tile<R, 1, M, N, K, TA, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C, i,
                                                 jend - kVecWidth, epi);
      j = jend;
    }
#endif
  for (; j < jend; ++j)
    for (int r = 0; r < R; ++r) {
      float s = 0.0f;
      for (int64_t k = 0; k < K; ++k)
        s += a_at<M, K, TA>(A, i + r, k) * B[k * N + j];
      C[(i + r) * N + j] =
          finish<BRS, BCS, HasBias>(s, bias, i + r, j, alpha, beta, epi);
    }
}

/// dot(A'(i, :), B[j, :]) for the transposed-B form.
template <int64_t M, int64_t K, bool TA>
ONNXCC_INLINE float dot_row(const float *A, const float *Bj, int64_t i) {
  int64_t k = 0;
  float s = 0.0f;
#if ONNXCC_HAS_SIMD
  if (!TA) {
    const float *Ai = A + i * K;
    vfloat acc0(0.0f), acc1(0.0f);
    for (; k + 2 * kVecWidth <= K; k += 2 * kVecWidth) {
      acc0 = xsimd::fma(vfloat::load_unaligned(Ai + k),
                        vfloat::load_unaligned(Bj + k), acc0);
      acc1 = xsimd::fma(vfloat::load_unaligned(Ai + k + kVecWidth),
                        vfloat::load_unaligned(Bj + k + kVecWidth), acc1);
    }
    for (; k + kVecWidth <= K; k += kVecWidth)
      acc0 = xsimd::fma(vfloat::load_unaligned(Ai + k),
                        vfloat::load_unaligned(Bj + k), acc0);
    s = xsimd::hadd(acc0 + acc1);
  }
#endif
  for (; k < K; ++k)
    s += a_at<M, K, TA>(A, i, k) * Bj[k];
  return s;
}

template <int64_t M, int64_t N, int64_t K, bool TA, bool TB, int64_t BRS,
          int64_t BCS, bool HasBias, typename Epi>
inline void gemm(const float *ONNXCC_RESTRICT A, const float *ONNXCC_RESTRICT B,
                 const float *bias, float alpha, float beta,
                 float *ONNXCC_RESTRICT C, Epi epi) {
  if (TB) {
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j)
        C[i * N + j] = finish<BRS, BCS, HasBias>(
            dot_row<M, K, TA>(A, B + j * K, i), bias, i, j, alpha, beta, epi);
    return;
  }
  for (int64_t j0 = 0; j0 < N; j0 += kColBlock) {
    int64_t jend = j0 + kColBlock < N ? j0 + kColBlock : N;
    int64_t i = 0;
    // Panels of fewer rows than M cannot run: do not instantiate them.
    if constexpr (kTileRows > 4 && M >= kTileRows)
      for (; i + kTileRows <= M; i += kTileRows)
        row_panel<kTileRows, M, N, K, TA, BRS, BCS, HasBias>(
            A, B, bias, alpha, beta, C, i, j0, jend, epi);
    if constexpr (M >= 4)
      for (; i + 4 <= M; i += 4)
        row_panel<4, M, N, K, TA, BRS, BCS, HasBias>(A, B, bias, alpha, beta,
                                                     C, i, j0, jend, epi);
    for (; i < M; ++i)
      row_panel<1, M, N, K, TA, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C,
                                                   i, j0, jend, epi);
  }
}

} // namespace rt
} // namespace onnxcc

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif // ONNXCC_RUNTIME_GEMM_H
