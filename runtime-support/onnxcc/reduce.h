//===- reduce.h - reductions over axes, arg max/min -------------*- C++ -*-===//
//
// reduce(): every output element is one accumulator run over the input
// elements that map to it. The compiler splits the input's dimensions into
// kept ones (the output's, in order) and reduced ones, each with its input
// strides, merging neighbours of one kind; both lists have at least one
// entry (a dimension of 1 when there is none). The accumulator is a local
// of the op's accumulation type, so no scratch buffer is needed: float for
// the 16-bit floats, the element type for f32/f64, and for integers
// unsigned arithmetic of at least 32 bits, which wraps like numpy's
// reductions in the element type do (no signed-overflow UB).
//
// This is the simple gather form (each output reads its inputs with the
// reduced strides); a later version may stream the input once when the
// reduced dimensions are outer ones.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_REDUCE_H
#define ONNXCC_RUNTIME_REDUCE_H

#include "onnxcc/config.h"
#include "onnxcc/types.h"

#include <limits>
#include <type_traits>

namespace onnxcc {
namespace rt {

enum class reduce_op {
  sum,
  mean,
  max,
  min,
  prod,
  l1,
  l2,
  log_sum,
  log_sum_exp,
  sum_square
};

namespace detail {

template <typename T>
constexpr bool is_int_v = std::is_integral<T>::value && !std::is_same<T, bool>::value;

/// Wrapping integer arithmetic for T: unsigned, and no narrower than 32
/// bits so that products of 8- and 16-bit values do not promote to int.
template <typename T>
using wrap_t = std::conditional_t<(sizeof(T) < 4), std::uint32_t, std::make_unsigned_t<T>>;

/// The accumulator of `Op` over elements of type T.
template <reduce_op Op, typename T, typename = void> struct acc_type {
  using type = compute_t<T>;
};
template <reduce_op Op, typename T>
struct acc_type<Op, T, std::enable_if_t<is_int_v<T> && Op != reduce_op::max && Op != reduce_op::min>> {
  // numpy sums the (wrapped) squares of L2 in 64 bits before the sqrt.
  using type = std::conditional_t<Op == reduce_op::l2, std::uint64_t, wrap_t<T>>;
};

/// The wrapped value v as T (two's complement, as every supported compiler
/// converts).
template <typename T, typename W> ONNXCC_INLINE T wrap_to(W v) {
  return static_cast<T>(v);
}

template <reduce_op Op, typename T> ONNXCC_INLINE typename acc_type<Op, T>::type acc_init() {
  using A = typename acc_type<Op, T>::type;
  if constexpr (Op == reduce_op::max) {
    if constexpr (std::is_floating_point<A>::value)
      return -std::numeric_limits<A>::infinity();
    else
      return std::numeric_limits<A>::lowest();
  } else if constexpr (Op == reduce_op::min) {
    if constexpr (std::is_floating_point<A>::value)
      return std::numeric_limits<A>::infinity();
    else
      return std::numeric_limits<A>::max();
  } else if constexpr (Op == reduce_op::prod) {
    return A(1);
  } else {
    return A(0);
  }
}

/// acc combined with one element (log_sum_exp's elements arrive already as
/// exp(x - max)).
template <reduce_op Op, typename T, typename A>
ONNXCC_INLINE A acc_step(A acc, T x) {
  if constexpr (Op == reduce_op::max || Op == reduce_op::min) {
    A v = A(x);
    if constexpr (std::is_floating_point<A>::value) {
      bool better = Op == reduce_op::max ? v > acc : v < acc;
      return (better || v != v) ? v : acc; // NaN wins, as in numpy
    } else {
      return (Op == reduce_op::max ? v > acc : v < acc) ? v : acc;
    }
  } else if constexpr (is_int_v<T>) {
    A v = static_cast<A>(x); // sign-extends, then wraps
    if constexpr (Op == reduce_op::prod) {
      return A(acc * v);
    } else if constexpr (Op == reduce_op::l1) {
      if constexpr (std::is_signed<T>::value)
        return A(acc + (x < T(0) ? A(0) - v : v));
      else
        return A(acc + v);
    } else if constexpr (Op == reduce_op::sum_square) {
      return A(acc + v * v);
    } else if constexpr (Op == reduce_op::l2) {
      // The square wraps in T (np.square), then widens with its sign.
      wrap_t<T> w = static_cast<wrap_t<T>>(x);
      T sq = wrap_to<T>(wrap_t<T>(w * w));
      using W = std::conditional_t<std::is_signed<T>::value, std::int64_t, std::uint64_t>;
      return A(acc + static_cast<A>(static_cast<W>(sq)));
    } else {
      return A(acc + v);
    }
  } else {
    A v = A(x);
    if constexpr (Op == reduce_op::prod)
      return acc * v;
    else if constexpr (Op == reduce_op::l1)
      return acc + std::fabs(v);
    else if constexpr (Op == reduce_op::sum_square || Op == reduce_op::l2)
      return acc + v * v;
    else
      return acc + v;
  }
}

/// The output element from the accumulator of `Count` elements.
template <reduce_op Op, int64_t Count, typename T, typename A>
ONNXCC_INLINE T acc_finish(A acc) {
  if constexpr (is_int_v<T>) {
    if constexpr (Op == reduce_op::max || Op == reduce_op::min) {
      return T(acc);
    } else if constexpr (Op == reduce_op::mean) {
      // numpy: the sum wraps in T, then divides (truncating toward zero).
      T s = wrap_to<T>(acc);
      if constexpr (Count == 0)
        return T(0);
      else if constexpr (std::is_signed<T>::value)
        return T(static_cast<std::int64_t>(s) / Count);
      else
        return T(static_cast<std::uint64_t>(s) / static_cast<std::uint64_t>(Count));
    } else if constexpr (Op == reduce_op::l2) {
      // numpy: the wrapped squares summed, sqrt in double, back to T.
      using S = std::conditional_t<std::is_signed<T>::value, std::int64_t, std::uint64_t>;
      S s = static_cast<S>(acc);
      double r = s > S(0) ? std::sqrt(static_cast<double>(s)) : 0.0;
      double hi = static_cast<double>(std::numeric_limits<T>::max());
      return r >= hi ? std::numeric_limits<T>::max() : T(r);
    } else {
      return wrap_to<T>(acc);
    }
  } else if constexpr (std::is_same<T, bool>::value) {
    return acc;
  } else {
    if constexpr (Op == reduce_op::mean) {
      if constexpr (Count == 0)
        return store_as<T>(std::numeric_limits<A>::quiet_NaN());
      else
        return store_as<T>(acc / A(Count));
    } else if constexpr (Op == reduce_op::l2) {
      return store_as<T>(std::sqrt(acc));
    } else if constexpr (Op == reduce_op::log_sum) {
      return store_as<T>(std::log(acc));
    } else {
      return store_as<T>(acc);
    }
  }
}

/// Calls f(offset) for every multi-index of `shape`, offset being its dot
/// product with `strides`; the innermost dimension is a plain loop.
template <int R, typename F>
ONNXCC_INLINE void for_each_offset(const int64_t (&shape)[R], const int64_t (&strides)[R],
                                   F f) {
  int64_t outer = 1;
  for (int d = 0; d + 1 < R; ++d)
    outer *= shape[d];
  const int64_t n = shape[R - 1], s = strides[R - 1];
  int64_t idx[R] = {};
  int64_t base = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < n; ++i)
      f(base + i * s);
    for (int d = R - 2; d >= 0; --d) { // odometer over the outer dims
      base += strides[d];
      if (++idx[d] < shape[d])
        break;
      base -= shape[d] * strides[d];
      idx[d] = 0;
    }
  }
}

/// Whether Op over T has a vector form: float sums (of squares), in
/// kVecWidth lanes summed at the end (ORT and numpy reassociate alike).
template <reduce_op Op, typename T>
constexpr bool vector_sum_v =
    ONNXCC_HAS_SIMD && std::is_same<T, float>::value &&
    (Op == reduce_op::sum || Op == reduce_op::mean ||
     Op == reduce_op::sum_square || Op == reduce_op::l2);

/// The sum (of squares) of x[0, n) - c, two vector accumulators wide
/// (layer norms centre on the mean; c = 0 changes no bit).
template <reduce_op Op>
ONNXCC_INLINE float sum_contiguous(const float *ONNXCC_RESTRICT x, int64_t n,
                                   float c = 0.0f) {
#if ONNXCC_HAS_SIMD
  constexpr bool sq = Op == reduce_op::sum_square || Op == reduce_op::l2;
  const vfloat vc(c);
  vfloat a0(0.0f), a1(0.0f);
  const int64_t main = n / (2 * kVecWidth) * (2 * kVecWidth);
  for (int64_t i = 0; i < main; i += 2 * kVecWidth) {
    vfloat v0 = vfloat::load_unaligned(x + i) - vc;
    vfloat v1 = vfloat::load_unaligned(x + i + kVecWidth) - vc;
    if constexpr (sq) {
      a0 = vfma(v0, v0, a0);
      a1 = vfma(v1, v1, a1);
    } else {
      a0 += v0;
      a1 += v1;
    }
  }
  float s = xsimd::hadd(a0 + a1);
  for (int64_t i = main; i < n; ++i)
    s += sq ? (x[i] - c) * (x[i] - c) : x[i] - c;
  return s;
#else
  (void)x;
  (void)n;
  (void)c;
  return 0.0f;
#endif
}

/// reduce() of a float sum (of squares) whose kept innermost dimension is
/// contiguous (the reduced one is not): kVecWidth outputs accumulate in
/// one vector, each lane in the scalar loop's order, so the bits are the
/// same. A sequence mean ([32, 128] -> [128]) took 1.5 us element by
/// element, down the column at a 512-byte stride.
template <reduce_op Op, int64_t Count, int KR, int RR>
inline void reduce_kept_rows(const int64_t (&kept_shape)[KR],
                             const int64_t (&kept_strides)[KR],
                             const int64_t (&red_shape)[RR],
                             const int64_t (&red_strides)[RR],
                             const float *ONNXCC_RESTRICT x,
                             float *ONNXCC_RESTRICT y) {
#if ONNXCC_HAS_SIMD
  constexpr bool sq = Op == reduce_op::sum_square || Op == reduce_op::l2;
  const int64_t n = kept_shape[KR - 1], vectors = n / kVecWidth * kVecWidth;
  int64_t rows = 1;
  for (int d = 0; d + 1 < KR; ++d)
    rows *= kept_shape[d];
  int64_t idx[KR] = {}, base = 0;
  for (int64_t row = 0; row < rows; ++row, y += n) {
    for (int64_t i = 0; i < vectors; i += kVecWidth) {
      vfloat acc(0.0f);
      for_each_offset<RR>(red_shape, red_strides, [&](int64_t r) {
        vfloat v = vfloat::load_unaligned(x + base + i + r);
        acc = sq ? acc + v * v : acc + v;
      });
      alignas(64) float lanes[kVecWidth];
      acc.store_aligned(lanes); // (into y, g++ 12 warns on short outputs)
      for (int64_t l = 0; l < kVecWidth; ++l)
        y[i + l] = acc_finish<Op, Count, float>(lanes[l]);
    }
    for (int64_t i = vectors; i < n; ++i) {
      float acc = 0.0f;
      for_each_offset<RR>(red_shape, red_strides, [&](int64_t r) {
        acc = acc_step<Op, float>(acc, x[base + i + r]);
      });
      y[i] = acc_finish<Op, Count, float>(acc);
    }
    for (int d = KR - 2; d >= 0; --d) { // odometer over the outer kept dims
      base += kept_strides[d];
      if (++idx[d] < kept_shape[d])
        break;
      base -= kept_shape[d] * kept_strides[d];
      idx[d] = 0;
    }
  }
#else
  (void)kept_shape, (void)kept_strides, (void)red_shape, (void)red_strides;
  (void)x, (void)y;
#endif
}

} // namespace detail

/// y[k] = reduce over the reduced index r of x[kept_offset(k) + red_offset(r)],
/// k running over the kept dimensions in order; `Count` is the product of
/// red_shape (0 when a reduced dimension is empty: y gets the identity,
/// finished: 0 for sum, -inf for max, NaN for a float mean, ...).
template <reduce_op Op, int64_t Count, int KR, int RR, typename T>
inline void reduce(const int64_t (&kept_shape)[KR], const int64_t (&kept_strides)[KR],
                   const int64_t (&red_shape)[RR], const int64_t (&red_strides)[RR],
                   const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y) {
  using A = typename detail::acc_type<Op, T>::type;
  if constexpr (detail::vector_sum_v<Op, T>) {
    if (kept_strides[KR - 1] == 1 && kept_shape[KR - 1] >= kVecWidth &&
        !(RR == 1 && red_strides[0] == 1))
      return detail::reduce_kept_rows<Op, Count>(kept_shape, kept_strides,
                                                 red_shape, red_strides, x, y);
  }
  int64_t k = 0;
  detail::for_each_offset<KR>(kept_shape, kept_strides, [&](int64_t base) {
    const T *xb = x + base;
    A acc = detail::acc_init<Op, T>();
    if constexpr (Op == reduce_op::log_sum_exp) {
      // log(sum(exp(x - m))) + m with m the largest finite element (0 if
      // there is none), so that exp() cannot overflow.
      using C = compute_t<T>;
      C m = -std::numeric_limits<C>::infinity();
      detail::for_each_offset<RR>(red_shape, red_strides, [&](int64_t r) {
        C v = C(xb[r]);
        if (std::isfinite(v) && v > m)
          m = v;
      });
      if (!std::isfinite(m))
        m = C(0);
      detail::for_each_offset<RR>(red_shape, red_strides,
                                  [&](int64_t r) { acc += std::exp(C(xb[r]) - m); });
      y[k++] = store_as<T>(std::log(acc) + m);
    } else if (detail::vector_sum_v<Op, T> && RR == 1 && red_strides[0] == 1) {
      if constexpr (detail::vector_sum_v<Op, T>)
        acc = detail::sum_contiguous<Op>(xb, red_shape[0]);
      y[k++] = detail::acc_finish<Op, Count, T>(acc);
    } else {
      detail::for_each_offset<RR>(red_shape, red_strides, [&](int64_t r) {
        acc = detail::acc_step<Op, T>(acc, xb[r]);
      });
      y[k++] = detail::acc_finish<Op, Count, T>(acc);
    }
  });
}

/// y[o, i] = the index a along Axis of the largest (IsMax) or smallest
/// x[o, a, i]: the first such index, or the last with SelectLast. A NaN is
/// the extreme (numpy's argmax); an empty axis gives 0.
template <bool IsMax, bool SelectLast, int64_t Outer, int64_t Axis, int64_t Inner,
          typename T>
inline void arg_reduce(const T *ONNXCC_RESTRICT x, std::int64_t *ONNXCC_RESTRICT y) {
  using C = compute_t<T>;
  for (int64_t o = 0; o < Outer; ++o)
    for (int64_t i = 0; i < Inner; ++i) {
      const T *xs = x + o * Axis * Inner + i;
      std::int64_t best_at = 0;
      if constexpr (Axis > 0) {
        C best = C(xs[0]);
        for (int64_t a = 1; a < Axis; ++a) {
          C v = C(xs[a * Inner]);
          bool take;
          if constexpr (std::is_floating_point<C>::value) {
            bool nan = v != v, best_nan = best != best;
            bool beats = IsMax ? v > best : v < best;
            bool ties = v == best;
            take = SelectLast ? (nan || (!best_nan && (beats || ties)))
                              : (!best_nan && (beats || nan));
          } else {
            take = IsMax ? (SelectLast ? v >= best : v > best)
                         : (SelectLast ? v <= best : v < best);
          }
          if (take) {
            best = v;
            best_at = a;
          }
        }
      }
      y[o * Inner + i] = best_at;
    }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_REDUCE_H
