//===- data_movement.h - strided copies, pads, fills ------------*- C++ -*-===//
//
// The kernels of the data movement family whose every address is known at
// compile time: shapes and strides are template arguments (dims<...>), so
// the innermost loop of each copy is a memcpy, a fill or a fixed-stride
// loop chosen by `if constexpr`, and nothing tests bounds per element: the
// compiler's verifier (kernel.copy) has checked that every read is inside
// the input. The kernels that read run-time indices are in indexing.h.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_DATA_MOVEMENT_H
#define ONNXCC_RUNTIME_DATA_MOVEMENT_H

#include "onnxcc/config.h"
#include "onnxcc/types.h"

#include <type_traits>

namespace onnxcc {
namespace rt {

/// A compile-time list of extents or strides (at least one).
template <int64_t... V> struct dims {
  static constexpr int rank = sizeof...(V);
  static constexpr int64_t at[sizeof...(V)] = {V...};
  static constexpr int64_t product() {
    int64_t p = 1;
    for (int64_t v : at)
      p *= v;
    return p;
  }
};

namespace detail {
/// Copies one row of N elements read at stride S (memcpy for S == 1, a
/// fill for S == 0).
template <int64_t N, int64_t S, typename T>
ONNXCC_INLINE void copy_row(const T *ONNXCC_RESTRICT in, T *ONNXCC_RESTRICT out) {
  if constexpr (S == 1) {
    std::memcpy(out, in, N * sizeof(T));
  } else if constexpr (S == 0) {
    for (int64_t i = 0; i < N; ++i)
      out[i] = in[0];
  } else {
    for (int64_t i = 0; i < N; ++i)
      out[i] = in[i * S];
  }
}

/// out[i * N + j] = in[i + j * S] for an M x N block: a transpose whose
/// output rows read the input at stride S. 4 x 4 tiles go through
/// registers (two rounds of zips), so each load and store is a whole
/// 4-lane vector: attention's [32 x 128] -> [128 x 32] key transpose took
/// 1.3-2.3 us element by element, 0.3-0.5 us so.
template <int64_t M, int64_t N, int64_t S>
ONNXCC_INLINE void transpose_rows(const float *ONNXCC_RESTRICT in,
                                  float *ONNXCC_RESTRICT out) {
  constexpr int64_t kM4 = M / 4 * 4, kN4 = N / 4 * 4;
  int64_t i = 0;
#if ONNXCC_HAS_SIMD
  using v4 = vfloat_upto<4>;
  static_assert(v4::size == 4, "4 x 4 tiles");
  for (; i < kM4; i += 4) {
    for (int64_t j = 0; j < kN4; j += 4) {
      const float *p = in + i + j * S;
      v4 a = v4::load_unaligned(p), b = v4::load_unaligned(p + S);
      v4 c = v4::load_unaligned(p + 2 * S), d = v4::load_unaligned(p + 3 * S);
      v4 ac_lo = xsimd::zip_lo(a, c), ac_hi = xsimd::zip_hi(a, c);
      v4 bd_lo = xsimd::zip_lo(b, d), bd_hi = xsimd::zip_hi(b, d);
      float *q = out + i * N + j;
      xsimd::zip_lo(ac_lo, bd_lo).store_unaligned(q);
      xsimd::zip_hi(ac_lo, bd_lo).store_unaligned(q + N);
      xsimd::zip_lo(ac_hi, bd_hi).store_unaligned(q + 2 * N);
      xsimd::zip_hi(ac_hi, bd_hi).store_unaligned(q + 3 * N);
    }
    if constexpr (kN4 < N)
      for (int64_t r = i; r < i + 4; ++r)
        for (int64_t j = kN4; j < N; ++j)
          out[r * N + j] = in[r + j * S];
  }
#else
  (void)kM4;
  (void)kN4;
#endif
  for (; i < M; ++i)
    for (int64_t j = 0; j < N; ++j)
      out[i * N + j] = in[i + j * S];
}
} // namespace detail

/// y (contiguous over Shape) = x[Offset + sum_d idx_d * Strides_d]: Slice
/// (any step), Transpose, Expand, Tile, DepthToSpace, SpaceToDepth, Split.
/// The outer dimensions advance the source offset like an odometer; rows
/// of the innermost dimension go through copy_row.
template <typename Shape, typename Strides, int64_t Offset, typename T>
inline void strided_copy(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y) {
  constexpr int R = Shape::rank;
  static_assert(Strides::rank == R, "one stride per dimension");
  constexpr int64_t inner = Shape::at[R - 1];
  constexpr int64_t rows = Shape::product() / (inner ? inner : 1);
  if constexpr (Shape::product() == 0) {
    (void)x;
    (void)y;
  } else if constexpr (R == 1) {
    detail::copy_row<inner, Strides::at[0]>(x + Offset, y);
  } else if constexpr (std::is_same<T, float>::value &&
                       Strides::at[R - 2] == 1 && Strides::at[R - 1] > 1 &&
                       Shape::at[R - 2] >= 4 && inner >= 4) {
    // The last two dimensions swap (a Transpose): blocks of them, with the
    // outer dimensions advancing the source like the odometer below.
    constexpr int64_t block = Shape::at[R - 2] * inner;
    int64_t idx[R] = {}; // (one spare: rank 2 has no outer dimension)
    int64_t src = Offset;
    for (int64_t b = 0; b < Shape::product() / block; ++b) {
      detail::transpose_rows<Shape::at[R - 2], inner, Strides::at[R - 1]>(
          x + src, y + b * block);
      for (int d = R - 3; d >= 0; --d) {
        src += Strides::at[d];
        if (++idx[d] < Shape::at[d])
          break;
        src -= Strides::at[d] * Shape::at[d];
        idx[d] = 0;
      }
    }
  } else {
    int64_t idx[R - 1] = {};
    int64_t src = Offset;
    for (int64_t r = 0; r < rows; ++r) {
      detail::copy_row<inner, Strides::at[R - 1]>(x + src, y + r * inner);
      for (int d = R - 2; d >= 0; --d) { // odometer over the outer dims
        src += Strides::at[d];
        if (++idx[d] < Shape::at[d])
          break;
        src -= Strides::at[d] * Shape::at[d];
        idx[d] = 0;
      }
    }
  }
}

/// Every element of y = v[0] (ConstantOfShape).
template <int64_t N, typename T>
inline void fill(const T *ONNXCC_RESTRICT v, T *ONNXCC_RESTRICT y) {
  const T value = v[0];
  for (int64_t i = 0; i < N; ++i)
    y[i] = value;
}

/// Pad in constant mode: y = value everywhere, then the part of x left
/// after cropping (negative pads) is placed at OutOffset. `Kept` is that
/// part's extent, `InStrides`/`OutStrides` the row-major strides of x and
/// y, `InOffset` where the kept part starts in x.
template <typename Kept, typename InStrides, typename OutStrides,
          int64_t InOffset, int64_t OutOffset, int64_t OutCount, typename T>
inline void pad_constant(const T *ONNXCC_RESTRICT x, const T *value,
                         T *ONNXCC_RESTRICT y) {
  const T v = value ? value[0] : T{};
  for (int64_t i = 0; i < OutCount; ++i)
    y[i] = v;
  constexpr int R = Kept::rank;
  constexpr int64_t inner = Kept::at[R - 1];
  if constexpr (Kept::product() == 0) {
    (void)x;
  } else if constexpr (R == 1) {
    std::memcpy(y + OutOffset, x + InOffset, inner * sizeof(T));
  } else {
    constexpr int64_t rows = Kept::product() / inner;
    int64_t idx[R - 1] = {};
    int64_t src = InOffset, dst = OutOffset;
    for (int64_t r = 0; r < rows; ++r) {
      std::memcpy(y + dst, x + src, inner * sizeof(T));
      for (int d = R - 2; d >= 0; --d) {
        src += InStrides::at[d];
        dst += OutStrides::at[d];
        if (++idx[d] < Kept::at[d])
          break;
        src -= InStrides::at[d] * Kept::at[d];
        dst -= OutStrides::at[d] * Kept::at[d];
        idx[d] = 0;
      }
    }
  }
}

/// Pad in reflect, edge or wrap mode: output coordinate i of dimension d
/// reads the input at offset table[start_d + i] (its coordinate, mapped
/// by the mode, times the input stride), where start_d is the sum of the
/// output extents before d. The compiler computes the tables.
template <typename OutShape, typename T>
inline void pad_table(const T *ONNXCC_RESTRICT x, const int64_t *table,
                      T *ONNXCC_RESTRICT y) {
  constexpr int R = OutShape::rank;
  constexpr int64_t inner = OutShape::at[R - 1];
  if constexpr (OutShape::product() == 0) {
    (void)x;
    (void)table;
    (void)y;
  } else {
    constexpr int64_t rows = OutShape::product() / inner;
    int64_t first[R] = {}; // where each dimension's table starts
    for (int d = 1; d < R; ++d)
      first[d] = first[d - 1] + OutShape::at[d - 1];
    int64_t idx[R] = {};
    const int64_t *last = table + first[R - 1];
    for (int64_t r = 0; r < rows; ++r) {
      int64_t base = 0;
      for (int d = 0; d < R - 1; ++d)
        base += table[first[d] + idx[d]];
      T *out = y + r * inner;
      for (int64_t i = 0; i < inner; ++i)
        out[i] = x[base + last[i]];
      for (int d = R - 2; d >= 0; --d) {
        if (++idx[d] < OutShape::at[d])
          break;
        idx[d] = 0;
      }
    }
  }
}

/// y[i] = start + i * delta (Range). Integers wrap like the ONNX loop's
/// additions (computed unsigned); floats compute in double.
template <int64_t N, typename T>
inline void range(const T *start, const T *delta, T *ONNXCC_RESTRICT y) {
  if constexpr (std::is_integral<T>::value) {
    for (int64_t i = 0; i < N; ++i)
      y[i] = static_cast<T>(static_cast<uint64_t>(start[0]) +
                            static_cast<uint64_t>(i) * static_cast<uint64_t>(delta[0]));
  } else {
    const double s = static_cast<double>(compute_t<T>(start[0]));
    const double d = static_cast<double>(compute_t<T>(delta[0]));
    for (int64_t i = 0; i < N; ++i)
      y[i] = store_as<T>(static_cast<compute_t<T>>(s + static_cast<double>(i) * d));
  }
}

/// A Rows x Cols matrix with ones where col - row == K (EyeLike). The
/// compiler clamps K to [-Rows, Cols].
template <int64_t Rows, int64_t Cols, int64_t K, typename T>
inline void eye(T *ONNXCC_RESTRICT y) {
  for (int64_t i = 0; i < Rows * Cols; ++i)
    y[i] = store_as<T>(0);
  for (int64_t r = 0; r < Rows; ++r) {
    int64_t c = r + K;
    if (c >= 0 && c < Cols) // once per row, not per element
      y[r * Cols + c] = store_as<T>(1);
  }
}

/// Keeps the upper (col - row >= k) or lower (col - row <= k) triangle of
/// each of Batch Rows x Cols matrices; k is read at run time (0 without
/// one) and clamped to [-Rows - 1, Cols + 1], where every larger value
/// means the same. Each row is one copy and one fill.
template <int64_t Batch, int64_t Rows, int64_t Cols, bool Upper, typename T,
          typename K>
inline void trilu(const T *ONNXCC_RESTRICT x, const K *k, T *ONNXCC_RESTRICT y) {
  int64_t kk = k ? static_cast<int64_t>(k[0]) : 0;
  kk = kk < -Rows - 1 ? -Rows - 1 : (kk > Cols + 1 ? Cols + 1 : kk);
  for (int64_t b = 0; b < Batch; ++b)
    for (int64_t r = 0; r < Rows; ++r) {
      const T *in = x + (b * Rows + r) * Cols;
      T *out = y + (b * Rows + r) * Cols;
      // Columns [0, split) are one side of the diagonal, [split, Cols) the other.
      int64_t split = r + kk + (Upper ? 0 : 1);
      split = split < 0 ? 0 : (split > Cols ? Cols : split);
      int64_t zero_lo = Upper ? 0 : split, zero_hi = Upper ? split : Cols;
      int64_t keep_lo = Upper ? split : 0, keep_hi = Upper ? Cols : split;
      for (int64_t c = zero_lo; c < zero_hi; ++c)
        out[c] = store_as<T>(0);
      if (keep_hi > keep_lo)
        std::memcpy(out + keep_lo, in + keep_lo, (keep_hi - keep_lo) * sizeof(T));
    }
}

/// Running sums (products with Product) along an axis of extent Axis with
/// Inner elements after it; Exclusive starts from 0 (1), Reverse runs from
/// the end. Integers wrap (the sum or product is kept unsigned); 16-bit
/// floats compute in float.
template <bool Exclusive, bool Reverse, bool Product = false, typename T>
ONNXCC_INLINE void cumsum_run(int64_t outer, int64_t axis, int64_t inner,
                              const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y) {
  using Acc = std::conditional_t<std::is_integral<T>::value, uint64_t, compute_t<T>>;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      Acc acc = Acc(Product ? 1 : 0);
      for (int64_t s = 0; s < axis; ++s) {
        int64_t a = Reverse ? axis - 1 - s : s;
        int64_t at = (o * axis + a) * inner + i;
        Acc v = static_cast<Acc>(compute_t<T>(x[at]));
        if (Exclusive)
          y[at] = store_as<T>(static_cast<compute_t<T>>(acc));
        if (Product)
          acc = static_cast<Acc>(acc * v);
        else
          acc = static_cast<Acc>(acc + v);
        if (!Exclusive)
          y[at] = store_as<T>(static_cast<compute_t<T>>(acc));
      }
    }
}
template <int64_t Outer, int64_t Axis, int64_t Inner, bool Exclusive,
          bool Reverse, typename T>
inline void cumsum(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y) {
  cumsum_run<Exclusive, Reverse>(Outer, Axis, Inner, x, y);
}
template <int64_t Outer, int64_t Axis, int64_t Inner, bool Exclusive,
          bool Reverse, typename T>
inline void cumprod(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT y) {
  cumsum_run<Exclusive, Reverse, /*Product=*/true>(Outer, Axis, Inner, x, y);
}

/// CumSum (CumProd with Product) with the axis read at run time: negative
/// counts from the end, then clamped into [0, rank) (ONNX calls other
/// values an error).
template <typename Shape, bool Exclusive, bool Reverse, bool Product = false,
          typename T, typename A>
inline void cumsum_axis(const T *ONNXCC_RESTRICT x, const A *axis,
                        T *ONNXCC_RESTRICT y) {
  constexpr int64_t R = Shape::rank;
  int64_t a = static_cast<int64_t>(axis[0]);
  a = a < 0 ? a + R : a;
  a = a < 0 ? 0 : (a >= R ? R - 1 : a);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < R; ++d) {
    if (d < a)
      outer *= Shape::at[d];
    else if (d > a)
      inner *= Shape::at[d];
  }
  cumsum_run<Exclusive, Reverse, Product>(outer, Shape::at[a], inner, x, y);
}
template <typename Shape, bool Exclusive, bool Reverse, typename T, typename A>
inline void cumprod_axis(const T *ONNXCC_RESTRICT x, const A *axis,
                         T *ONNXCC_RESTRICT y) {
  cumsum_axis<Shape, Exclusive, Reverse, /*Product=*/true>(x, axis, y);
}

/// ReverseSequence: batch entry b keeps time steps [lens[b], T) and
/// reverses [0, lens[b]). A length outside [0, T] is clamped to it.
/// BatchMajor: the input is [B, T, Inner], otherwise [T, B, Inner].
template <int64_t B, int64_t Steps, int64_t Inner, bool BatchMajor, typename T,
          typename L>
inline void reverse_sequence(const T *ONNXCC_RESTRICT x, const L *lens,
                             T *ONNXCC_RESTRICT y) {
  for (int64_t b = 0; b < B; ++b) {
    int64_t len = static_cast<int64_t>(lens[b]);
    len = len < 0 ? 0 : (len > Steps ? Steps : len);
    for (int64_t t = 0; t < Steps; ++t) {
      int64_t from = t < len ? len - 1 - t : t;
      int64_t dst = BatchMajor ? b * Steps + t : t * B + b;
      int64_t src = BatchMajor ? b * Steps + from : from * B + b;
      std::memcpy(y + dst * Inner, x + src * Inner, Inner * sizeof(T));
    }
  }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_DATA_MOVEMENT_H
