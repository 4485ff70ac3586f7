//===- recurrent_product.h - a recurrent step's gate product -----*- C++ -*-===//
//
// The product of a recurrent layer's state with R, H(t-1) * R^T + bias,
// in the two layouts the compiler leaves R in (see recurrent.h):
//   - ONNX's [gates * hidden, hidden]: one dot product per output
//     (matmul_bt(): gemm.h's dot groups for f32, plain loops otherwise);
//   - k-major [hidden, gates * hidden] (rnn_shape::r_transposed, f32, one
//     sequence): rows of multiply-adds into output vectors held in
//     registers (matmul_kmajor()).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_RECURRENT_PRODUCT_H
#define ONNXCC_RUNTIME_RECURRENT_PRODUCT_H

#include "onnxcc/config.h"
#include "onnxcc/gemm.h"

namespace onnxcc {
namespace rt {
namespace detail {

/// C[M x N] = A[M x K] * B^T + bias, B row-major [N x K], bias row i at
/// bias + i * BRS. gemm.h's dot products for float (`backward`: see
/// gemm_dots()), plain loops otherwise.
template <int64_t M, int64_t N, int64_t K, int64_t BRS, typename TA, typename TB,
          typename Acc>
inline void matmul_bt(const TA *A, const TB *B, const Acc *bias, Acc *C,
                      bool backward = false) {
  if constexpr (std::is_same<TA, float>::value && std::is_same<TB, float>::value &&
                std::is_same<Acc, float>::value) {
    gemm_dots<M, N, K, false, BRS, 1, true>(A, B, bias, 1.0f, 1.0f, C, 0, N,
                                            identity{}, backward);
  } else {
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        Acc s = 0;
        for (int64_t k = 0; k < K; ++k)
          s += static_cast<Acc>(A[i * K + k]) * static_cast<Acc>(B[j * K + k]);
        C[i * N + j] = s + bias[i * BRS + j];
      }
  }
}

#if ONNXCC_HAS_SIMD
/// Output vectors a k-major block keeps in registers: 8, not 16 (a whole
/// 4 x 64 LSTM step in AVX-512 registers): g++ ran either in the same
/// time, clang++ 15% slower with 16.
constexpr int64_t kKMajorBlock = 8;

/// c[0, NV vectors) = bias + sum over k of a[k] * B's row k.
template <int64_t NV, int64_t K, int64_t LDB, bool Backward>
ONNXCC_INLINE void kmajor_block(const float *a, const float *B, const float *bias,
                                float *c) {
  constexpr int64_t L = kVecWidth;
  vfloat acc[NV];
  for (int64_t v = 0; v < NV; ++v)
    acc[v] = vfloat::load_unaligned(bias + v * L);
  for (int64_t q = 0; q < K; ++q) {
    const int64_t k = Backward ? K - 1 - q : q;
    const vfloat ak(a[k]);
    const float *row = B + k * LDB;
    for (int64_t v = 0; v < NV; ++v)
      acc[v] = vfma(ak, vfloat::load_unaligned(row + v * L), acc[v]);
  }
  for (int64_t v = 0; v < NV; ++v)
    acc[v].store_unaligned(c + v * L);
}
#endif

/// One row of the product in R^T's layout: c[j] = bias[j] + sum_k a[k] *
/// B[k * LDB + j] for j < N, B k-major: blocks of kKMajorBlock output
/// vectors in registers while k runs, one broadcast a[k] and one vector
/// of B's row per multiply-add, then a scalar tail. `Backward` runs the
/// blocks and k last to first (recurrent.h's step order); a template
/// argument, as clang++ left a runtime one in the inner loop's index (15%
/// slower).
template <int64_t N, int64_t K, int64_t LDB, bool Backward>
inline void kmajor_row(const float *ONNXCC_RESTRICT a, const float *ONNXCC_RESTRICT B,
                       const float *bias, float *ONNXCC_RESTRICT c) {
#if ONNXCC_HAS_SIMD
  constexpr int64_t L = kVecWidth, NV = N / L;
  constexpr int64_t blocks = NV / kKMajorBlock, rest = NV % kKMajorBlock;
  constexpr int64_t jr = blocks * kKMajorBlock * L;
  if constexpr (Backward && rest > 0)
    kmajor_block<rest, K, LDB, true>(a, B + jr, bias + jr, c + jr);
  for (int64_t q = 0; q < blocks; ++q) {
    const int64_t j = (Backward ? blocks - 1 - q : q) * kKMajorBlock * L;
    kmajor_block<kKMajorBlock, K, LDB, Backward>(a, B + j, bias + j, c + j);
  }
  if constexpr (!Backward && rest > 0)
    kmajor_block<rest, K, LDB, false>(a, B + jr, bias + jr, c + jr);
  // Outputs past the whole vectors, scalar; a constant, so that g++ sees
  // the loop empty where there are none.
  constexpr int64_t tail = NV * L;
#else
  constexpr int64_t tail = 0;
#endif
  for (int64_t j = tail; j < N; ++j) {
    float s = bias[j];
    for (int64_t q = 0; q < K; ++q) {
      const int64_t k = Backward ? K - 1 - q : q;
      s += a[k] * B[k * LDB + j];
    }
    c[j] = s;
  }
}

/// The deepest projection project_kmajor() takes: a column of its tiles
/// holds K x 4 vectors of B, 32 KiB at 128 under AVX-512, which the
/// smallest L1 here (32 KiB) keeps across the rows.
constexpr int64_t kProjectDepth = 128;

#if ONNXCC_HAS_SIMD
/// Rows and output vectors of project_kmajor()'s register tile: 4 x 4
/// where there are 32 vector registers, 2 x 4 where 16.
constexpr int kProjectRows = kTileRows >= 12 ? 4 : 2;
constexpr int64_t kProjectVectors = 4;

/// Rows [i, i + R) of out = x * B + bias over output vectors [j, j + NV
/// vectors): the tile's accumulators in registers while k runs; each
/// vector of B's row k serves the R rows' broadcasts of x.
template <int R, int64_t NV, int64_t N, int64_t K>
ONNXCC_INLINE void project_tile(const float *x, const float *B,
                                const float *bias, float *out, int64_t i,
                                int64_t j) {
  constexpr int64_t L = kVecWidth;
  vfloat acc[R][NV];
  for (int64_t v = 0; v < NV; ++v) {
    const vfloat b = vfloat::load_unaligned(bias + j + v * L);
    for (int r = 0; r < R; ++r)
      acc[r][v] = b;
  }
  for (int64_t k = 0; k < K; ++k) {
    vfloat bk[NV];
    for (int64_t v = 0; v < NV; ++v)
      bk[v] = vfloat::load_unaligned(B + k * N + j + v * L);
    for (int r = 0; r < R; ++r) {
      const vfloat a(x[(i + r) * K + k]);
      for (int64_t v = 0; v < NV; ++v)
        acc[r][v] = vfma(a, bk[v], acc[r][v]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int64_t v = 0; v < NV; ++v)
      acc[r][v].store_unaligned(out + (i + r) * N + j + v * L);
}

/// Every row of output vectors [j, j + NV vectors): whole tiles of
/// kProjectRows rows, then the rows left one at a time.
template <int64_t NV, int64_t M, int64_t N, int64_t K>
ONNXCC_INLINE void project_columns(const float *x, const float *B,
                                   const float *bias, float *out, int64_t j) {
  constexpr int64_t whole = M / kProjectRows * kProjectRows;
  for (int64_t i = 0; i < whole; i += kProjectRows)
    project_tile<kProjectRows, NV, N, K>(x, B, bias, out, i, j);
  for (int64_t i = whole; i < M; ++i)
    project_tile<1, NV, N, K>(x, B, bias, out, i, j);
}
#endif

/// out[M x N] = x[M x K] * B + bias, B k-major [K x N] (a recurrent
/// layer's W^T) and one bias row for all: columns of kProjectVectors
/// vectors, each over every row in register tiles, so a column's K x 64
/// (AVX-512) floats of B serve all the rows from L1 (10 KiB for
/// lstm_classifier's 40 inputs); then the columns past the whole vectors,
/// scalar. For K up to kProjectDepth, which recurrent.h checks; gemm.h's
/// blocked kernel cuts deeper ones. lstm_classifier's layer (a 50 x 256
/// x 40 projection), interleaved with the gemm() form call by call
/// (Emerald Rapids): 33.3 -> 29.7 us with g++ -O3, 30.2 -> 28.7 with
/// clang++; the blocked kernel's 12-row tiles leave 2 of 50 rows to a
/// narrow tile and walk all 40 KiB of B per row tile.
template <int64_t M, int64_t N, int64_t K>
inline void project_kmajor(const float *ONNXCC_RESTRICT x,
                           const float *ONNXCC_RESTRICT B, const float *bias,
                           float *ONNXCC_RESTRICT out) {
#if ONNXCC_HAS_SIMD
  constexpr int64_t L = kVecWidth, NV = N / L;
  constexpr int64_t whole = NV / kProjectVectors * kProjectVectors;
  for (int64_t v = 0; v < whole; v += kProjectVectors)
    project_columns<kProjectVectors, M, N, K>(x, B, bias, out, v * L);
  if constexpr (NV > whole)
    project_columns<NV - whole, M, N, K>(x, B, bias, out, whole * L);
  constexpr int64_t tail = NV * L;
#else
  constexpr int64_t tail = 0;
#endif
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = tail; j < N; ++j) {
      float s = bias[j];
      for (int64_t k = 0; k < K; ++k)
        s += x[i * K + k] * B[k * N + j];
      out[i * N + j] = s;
    }
}

/// C[M x N] = A[M x K] * B + bias, B k-major with rows LDB apart, bias row
/// i at bias + i * BRS: kmajor_row() per row. The compiler lays R out so
/// only for one sequence, where there is one row.
template <int64_t M, int64_t N, int64_t K, int64_t LDB, int64_t BRS>
inline void matmul_kmajor(const float *A, const float *B, const float *bias,
                          float *C, bool backward) {
  for (int64_t i = 0; i < M; ++i) {
    if (backward)
      kmajor_row<N, K, LDB, true>(A + i * K, B, bias + i * BRS, C + i * N);
    else
      kmajor_row<N, K, LDB, false>(A + i * K, B, bias + i * BRS, C + i * N);
  }
}

/// The recurrent product of gate block [J0, J0 + N) of R (R's rows
/// J0..J0+N-1, or R^T's columns), H * R_block^T + bias, in the layout S
/// says; R is one direction's, GH its gate rows.
template <typename S, int64_t GH, int64_t J0, int64_t N, int64_t BRS,
          typename TR, typename Acc>
inline void recurrent_product(const Acc *h, const TR *r, const Acc *bias,
                              Acc *out, bool backward) {
  constexpr int64_t H = S::hidden;
  if constexpr (S::r_transposed) {
    static_assert(std::is_same<TR, float>::value && std::is_same<Acc, float>::value,
                  "R is laid out k-major only for f32");
    matmul_kmajor<S::batch, N, H, GH, BRS>(h, r + J0, bias, out, backward);
  } else {
    matmul_bt<S::batch, N, H, BRS>(h, r + J0 * H, bias, out, backward);
  }
}

} // namespace detail
} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_RECURRENT_PRODUCT_H
