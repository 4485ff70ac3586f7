//===- linalg.h - typed GEMM and batched products ---------------*- C++ -*-===//
//
// gemm_typed(): the reference GEMM for every element type but float (which
// has the blocked SIMD gemm() of gemm.h): f64 in double, f16 and bf16
// accumulated in float, integers accumulated in the unsigned type of their
// width so that overflow wraps (signed overflow would be undefined).
// batch_matmul(): one product per batch index, the operands' batch offsets
// given per dimension (0 where an operand is broadcast).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_LINALG_H
#define ONNXCC_RUNTIME_LINALG_H

#include "onnxcc/config.h"
#include "onnxcc/gemm.h"
#include "onnxcc/gemm_packed.h"
#include "onnxcc/parallel.h"
#include "onnxcc/scalar_ops.h"
#include "onnxcc/types.h"

#include <type_traits>

namespace onnxcc {
namespace rt {

/// The type a product of T accumulates in.
template <typename T, bool = std::is_integral<T>::value> struct accum_type {
  using type = compute_t<T>;
};
template <typename T> struct accum_type<T, true> {
  using type = std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>;
};
template <typename T> using accum_t = typename accum_type<T>::type;

/// alpha * acc + beta * bias, stored as T. Integers stay exact (wrapping)
/// for the usual alpha = beta = 1 and otherwise go through double,
/// saturated back to T's range.
template <typename T, bool HasBias>
ONNXCC_INLINE compute_t<T> gemm_finish(accum_t<T> acc, const T *bias, float alpha,
                                       float beta) {
  if constexpr (std::is_integral<T>::value) {
    using U = accum_t<T>;
    if (alpha == 1.0f && (!HasBias || beta == 1.0f))
      return static_cast<T>(acc + (HasBias ? static_cast<U>(*bias) : U(0)));
    double v = static_cast<double>(alpha) * static_cast<double>(static_cast<T>(acc));
    if (HasBias)
      v += static_cast<double>(beta) * static_cast<double>(*bias);
    return to_int<T, std::is_unsigned<T>::value>(v);
  } else {
    using C = compute_t<T>;
    C v = static_cast<C>(alpha) * acc;
    if (HasBias)
      v += static_cast<C>(beta) * static_cast<C>(*bias);
    return v;
  }
}

/// C[M x N] = epi(alpha * A' * B' + beta * bias) for any element type;
/// bias[i * BRS + j * BCS] as in gemm(). C must not alias A or B.
template <int64_t M, int64_t N, int64_t K, bool TA, bool TB, int64_t BRS,
          int64_t BCS, bool HasBias, typename T, typename Epi>
inline void gemm_typed(const T *ONNXCC_RESTRICT A, const T *ONNXCC_RESTRICT B,
                       const T *bias, float alpha, float beta,
                       T *ONNXCC_RESTRICT C, Epi epi) {
  using U = accum_t<T>;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      U s = U(0);
      for (int64_t k = 0; k < K; ++k) {
        const T a = TA ? A[k * M + i] : A[i * K + k];
        const T b = TB ? B[j * K + k] : B[k * N + j];
        s += static_cast<U>(a) * static_cast<U>(b);
      }
      C[i * N + j] = store_as<T>(
          epi(gemm_finish<T, HasBias>(s, bias + i * BRS + j * BCS, alpha, beta)));
    }
}

/// Whether a batched float product's row-major b (K x N) is read as one
/// packed panel N columns wide (packed_at<K, N> is row-major), by the
/// compile-time-shaped gemm_packed_all(): an attention's 32 x 32 x 32
/// products otherwise ran gemm_block_rt(), shaped at run time, at the
/// whim of g++'s constant propagation: cloned for the shape in a small
/// translation unit, 2.8 us for 4 of them, not cloned in tiny_transformer
/// once other kernels grew, 4.3 us. Only where b fits L1 (a row of b per
/// k), and N is whole register panels.
template <int64_t N, int64_t K>
constexpr bool kBatchAsPanel = N % kPanel == 0 && N * K <= 8192;

/// y[b] = a[b] x b[b] for the batch indices linear in [lo, hi) of the R
/// batch dims `batch`, with a [M, K] and b [K, N] matrices found at
/// sum(index * a_strides) and sum(index * b_strides) elements.
template <int R, int64_t M, int64_t N, int64_t K, typename T>
inline void batch_matmul_range(const int64_t (&batch)[R],
                               const int64_t (&a_strides)[R],
                               const int64_t (&b_strides)[R], const T *a,
                               const T *b, T *ONNXCC_RESTRICT y, int64_t lo,
                               int64_t hi) {
  if (lo >= hi) // (also keeps an empty batch dim out of the % below)
    return;
  int64_t idx[R] = {};
  for (int64_t rest = lo, d = R - 1; d >= 0; --d) {
    idx[d] = rest % batch[d];
    rest /= batch[d];
  }
  for (int64_t linear = lo; linear < hi; ++linear) {
    int64_t oa = 0, ob = 0;
    for (int d = 0; d < R; ++d) {
      oa += idx[d] * a_strides[d];
      ob += idx[d] * b_strides[d];
    }
    if constexpr (std::is_same<T, float>::value && kBatchAsPanel<N, K>)
      gemm_packed_all<M, N, K, N, 0, 0, false>(a + oa, b + ob, nullptr, 1.0f,
                                               1.0f, y + linear * M * N,
                                               identity{});
    else if constexpr (std::is_same<T, float>::value)
      gemm<M, N, K, false, false, 0, 0, false>(a + oa, b + ob, nullptr, 1.0f,
                                               1.0f, y + linear * M * N,
                                               identity{});
    else
      gemm_typed<M, N, K, false, false, 0, 0, false>(
          a + oa, b + ob, static_cast<const T *>(nullptr), 1.0f, 1.0f,
          y + linear * M * N, identity{});
    for (int d = R - 1; d >= 0; --d) {
      if (++idx[d] < batch[d])
        break;
      idx[d] = 0;
    }
  }
}

template <int R> inline int64_t batch_count(const int64_t (&batch)[R]) {
  int64_t total = 1;
  for (int d = 0; d < R; ++d)
    total *= batch[d];
  return total;
}

/// Every batch index on the calling thread.
template <int R, int64_t M, int64_t N, int64_t K, typename T>
inline void batch_matmul(const int64_t (&batch)[R], const int64_t (&a_strides)[R],
                         const int64_t (&b_strides)[R], const T *a, const T *b,
                         T *ONNXCC_RESTRICT y) {
  batch_matmul_range<R, M, N, K>(batch, a_strides, b_strides, a, b, y, 0,
                                 batch_count(batch));
}

/// batch_matmul() on par's threads, each taking a contiguous run of batch
/// indices (attention's heads): every product is computed as on one
/// thread. A head's product is too small to split (tiny_transformer's are
/// 32 x 32 x 32, 2.6 us), and four of them in a row were a tenth of the
/// two-thread call run on one core.
template <int R, int64_t M, int64_t N, int64_t K, typename Par, typename T>
inline void batch_matmul(Par &par, const int64_t (&batch)[R],
                         const int64_t (&a_strides)[R],
                         const int64_t (&b_strides)[R], const T *a, const T *b,
                         T *ONNXCC_RESTRICT y) {
  const int64_t total = batch_count(batch);
  par.run([&](int t, int parts) {
    const part p = split(total, t, parts);
    batch_matmul_range<R, M, N, K>(batch, a_strides, b_strides, a, b, y, p.lo,
                                   p.hi);
  });
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_LINALG_H
