//===- indexing.h - gathers, scatters, OneHot, TopK -------------*- C++ -*-===//
//
// Kernels that read indices at run time. ONNX calls an index outside
// [-n, n) an error but says nothing of what happens; generated code must
// not read or write outside its buffers, so every index goes through
// clamp_index once: negative ones count from the end, and what is still
// outside [0, n) is CLAMPED to the nearest end (never a wild access, and
// no branch per element). OneHot is the exception ONNX defines: an index
// out of range gives a row of off values.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_INDEXING_H
#define ONNXCC_RUNTIME_INDEXING_H

#include "onnxcc/config.h"
#include "onnxcc/data_movement.h"
#include "onnxcc/types.h"

#include <type_traits>

namespace onnxcc {
namespace rt {

/// An index into an axis of extent N >= 1: negative counts from the end,
/// then clamped into [0, N).
template <int64_t N, typename I> ONNXCC_INLINE int64_t clamp_index(I raw) {
  int64_t i = static_cast<int64_t>(raw);
  i = i < 0 ? i + N : i;
  return i < 0 ? 0 : (i >= N ? N - 1 : i);
}

/// Gather: for each of Outer leading positions and each of the N indices,
/// the Inner elements at data[o][index][:] (axis extent AxisDim).
template <int64_t Outer, int64_t AxisDim, int64_t Inner, int64_t N, typename T,
          typename I>
inline void gather(const T *ONNXCC_RESTRICT data, const I *ONNXCC_RESTRICT indices,
                   T *ONNXCC_RESTRICT y) {
  for (int64_t o = 0; o < Outer; ++o)
    for (int64_t j = 0; j < N; ++j) {
      const T *src = data + (o * AxisDim + clamp_index<AxisDim>(indices[j])) * Inner;
      T *dst = y + (o * N + j) * Inner;
      if constexpr (Inner == 1)
        dst[0] = src[0];
      else
        std::memcpy(dst, src, Inner * sizeof(T));
    }
}

namespace detail {
/// Visits every multi-index of Shape in row-major order, calling
/// f(linear, offset) with offset = sum over d != Axis of idx_d * Strides_d.
template <typename Shape, typename Strides, int Axis, typename F>
ONNXCC_INLINE void for_each_offset(F f) {
  constexpr int R = Shape::rank;
  int64_t idx[R] = {};
  int64_t offset = 0;
  for (int64_t linear = 0; linear < Shape::product(); ++linear) {
    f(linear, offset);
    for (int d = R - 1; d >= 0; --d) {
      int64_t step = d == Axis ? 0 : Strides::at[d];
      offset += step;
      if (++idx[d] < Shape::at[d])
        break;
      offset -= step * Shape::at[d];
      idx[d] = 0;
    }
  }
}

/// The combination of an existing element with an update (ScatterElements
/// and ScatterND's `reduction`): 0 none, 1 add, 2 mul, 3 max, 4 min.
/// Integers wrap; bools add as or, multiply as and.
template <int Reduction, typename T> ONNXCC_INLINE T combine(T old, T update) {
  if constexpr (Reduction == 0) {
    (void)old;
    return update;
  } else if constexpr (std::is_same<T, bool>::value) {
    return (Reduction == 1 || Reduction == 3) ? (old || update) : (old && update);
  } else if constexpr (std::is_integral<T>::value && (Reduction == 1 || Reduction == 2)) {
    uint64_t a = static_cast<uint64_t>(old), b = static_cast<uint64_t>(update);
    return static_cast<T>(Reduction == 1 ? a + b : a * b);
  } else {
    using C = compute_t<T>;
    C a = C(old), b = C(update);
    if constexpr (Reduction == 1)
      return store_as<T>(a + b);
    else if constexpr (Reduction == 2)
      return store_as<T>(a * b);
    else if constexpr (Reduction == 3)
      return store_as<T>(a != a || b != b ? a + b : (a > b ? a : b));
    else
      return store_as<T>(a != a || b != b ? a + b : (a < b ? a : b));
  }
}
} // namespace detail

/// GatherElements: y has the indices' Shape; element i reads data at i's
/// coordinates with the Axis one replaced by indices[i] (of AxisDim).
/// DataStrides are data's row-major strides.
template <typename Shape, typename DataStrides, int Axis, int64_t AxisDim,
          typename T, typename I>
inline void gather_elements(const T *ONNXCC_RESTRICT data,
                            const I *ONNXCC_RESTRICT indices,
                            T *ONNXCC_RESTRICT y) {
  detail::for_each_offset<Shape, DataStrides, Axis>([&](int64_t i, int64_t offset) {
    y[i] = data[offset + clamp_index<AxisDim>(indices[i]) * DataStrides::at[Axis]];
  });
}

/// ScatterElements: y = data, then for every element i of the indices'
/// Shape, y[i's coordinates with Axis from indices[i]] combines updates[i].
template <typename Shape, typename DataStrides, int Axis, int64_t AxisDim,
          int Reduction, int64_t Count, typename T, typename I>
inline void scatter_elements(const T *data, const I *ONNXCC_RESTRICT indices,
                             const T *updates, T *y) {
  if (data != y)
    std::memcpy(y, data, Count * sizeof(T));
  detail::for_each_offset<Shape, DataStrides, Axis>([&](int64_t i, int64_t offset) {
    int64_t at = offset + clamp_index<AxisDim>(indices[i]) * DataStrides::at[Axis];
    y[at] = detail::combine<Reduction>(y[at], updates[i]);
  });
}

namespace detail {
/// The data offset an index tuple of Dims::rank entries addresses (each
/// entry clamped into its dimension).
template <typename Dims, typename Strides, typename I>
ONNXCC_INLINE int64_t tuple_offset(const I *tuple) {
  int64_t offset = 0;
  for (int j = 0; j < Dims::rank; ++j) {
    int64_t i = static_cast<int64_t>(tuple[j]);
    i = i < 0 ? i + Dims::at[j] : i;
    i = i < 0 ? 0 : (i >= Dims::at[j] ? Dims::at[j] - 1 : i);
    offset += i * Strides::at[j];
  }
  return offset;
}
} // namespace detail

/// GatherND: for each of Batch batches and each of its N index tuples
/// (over the dimensions Dims, with Strides, after the batch ones), the
/// Slice contiguous elements the tuple addresses. A batch of data is
/// BatchStride elements.
template <int64_t Batch, int64_t N, int64_t BatchStride, int64_t Slice,
          typename Dims, typename Strides, typename T, typename I>
inline void gather_nd(const T *ONNXCC_RESTRICT data,
                      const I *ONNXCC_RESTRICT indices, T *ONNXCC_RESTRICT y) {
  constexpr int M = Dims::rank;
  for (int64_t b = 0; b < Batch; ++b)
    for (int64_t t = 0; t < N; ++t) {
      int64_t j = b * N + t;
      const T *src = data + b * BatchStride +
                     detail::tuple_offset<Dims, Strides>(indices + j * M);
      std::memcpy(y + j * Slice, src, Slice * sizeof(T));
    }
}

/// ScatterND: y = data, then for each of the N index tuples the Slice
/// elements it addresses combine the tuple's slice of updates, in order.
template <int64_t N, int64_t Slice, typename Dims, typename Strides,
          int Reduction, int64_t Count, typename T, typename I>
inline void scatter_nd(const T *data, const I *ONNXCC_RESTRICT indices,
                       const T *updates, T *y) {
  constexpr int M = Dims::rank;
  if (data != y)
    std::memcpy(y, data, Count * sizeof(T));
  for (int64_t t = 0; t < N; ++t) {
    T *dst = y + detail::tuple_offset<Dims, Strides>(indices + t * M);
    const T *src = updates + t * Slice;
    for (int64_t s = 0; s < Slice; ++s)
      dst[s] = detail::combine<Reduction>(dst[s], src[s]);
  }
}

/// TensorScatter: y = cache, then for each of Batch entries, each of the
/// Prefix positions before the axis, and each of the Seq update steps, the
/// Inner elements of the update go to position pos[b] + s of the MaxSeq
/// long axis (pos is 0 without indices). Circular wraps the position;
/// otherwise one outside the axis, which ONNX leaves undefined, is CLAMPED
/// into it.
template <int64_t Batch, int64_t Prefix, int64_t MaxSeq, int64_t Seq,
          int64_t Inner, bool Circular, typename T, typename I>
inline void tensor_scatter(const T *cache, const T *ONNXCC_RESTRICT update,
                           const I *positions, T *y) {
  if (cache != y)
    std::memcpy(y, cache, Batch * Prefix * MaxSeq * Inner * sizeof(T));
  // Nothing to write; also keeps `% MaxSeq` away from an empty axis (the
  // verifier allows MaxSeq == 0 only with an empty update).
  if constexpr (Batch * Prefix * Seq * Inner == 0 || MaxSeq == 0)
    return;
  else
    for (int64_t b = 0; b < Batch; ++b) {
      int64_t start = positions ? static_cast<int64_t>(positions[b]) : 0;
      if (Circular) // into [0, MaxSeq) first: no overflow adding s below
        start = ((start % MaxSeq) + MaxSeq) % MaxSeq;
      else // keeps every position that can be valid; no overflow either
        start = start < -MaxSeq ? -MaxSeq : (start > MaxSeq ? MaxSeq : start);
      for (int64_t p = 0; p < Prefix; ++p)
        for (int64_t s = 0; s < Seq; ++s) {
          int64_t at = start + s;
          if (Circular)
            at %= MaxSeq;
          else
            at = at < 0 ? 0 : (at >= MaxSeq ? MaxSeq - 1 : at);
          std::memcpy(y + ((b * Prefix + p) * MaxSeq + at) * Inner,
                      update + ((b * Prefix + p) * Seq + s) * Inner,
                      Inner * sizeof(T));
        }
    }
}

/// OneHot: y[o][d][i] = values[1] if index (o, i), counted from the end
/// when negative, equals d, else values[0]. A float index matches only
/// when it is a whole number; one outside [-Depth, Depth) matches nothing.
template <int64_t Outer, int64_t Depth, int64_t Inner, typename T, typename I>
inline void one_hot(const I *ONNXCC_RESTRICT indices, const T *values,
                    T *ONNXCC_RESTRICT y) {
  const T off = values[0], on = values[1];
  for (int64_t i = 0; i < Outer * Depth * Inner; ++i)
    y[i] = off;
  for (int64_t o = 0; o < Outer; ++o)
    for (int64_t i = 0; i < Inner; ++i) {
      int64_t d;
      if constexpr (std::is_unsigned<I>::value) {
        if (indices[o * Inner + i] >= static_cast<uint64_t>(Depth))
          continue;
        d = static_cast<int64_t>(indices[o * Inner + i]);
      } else if constexpr (std::is_integral<I>::value) {
        d = static_cast<int64_t>(indices[o * Inner + i]);
        if (d < -Depth || d >= Depth)
          continue;
      } else {
        double v = static_cast<double>(compute_t<I>(indices[o * Inner + i]));
        // Range first: only then is the conversion to int64_t defined.
        if (!(v >= -double(Depth) && v < double(Depth)) || v != double(int64_t(v)))
          continue;
        d = static_cast<int64_t>(v);
      }
      d = d < 0 ? d + Depth : d;
      y[(o * Depth + d) * Inner + i] = on;
    }
}

namespace detail {
/// Whether value a (index ia) ranks before b (index ib): by value, largest
/// or smallest first, with NaN above every number (numpy's order), and
/// the lower index first among equals.
template <bool Largest, typename C>
ONNXCC_INLINE bool ranks_before(C a, int64_t ia, C b, int64_t ib) {
  auto above = [](C p, C q) { return p > q || (p != p && q == q); };
  if (Largest ? above(a, b) : above(b, a))
    return true;
  if (Largest ? above(b, a) : above(a, b))
    return false;
  return ia < ib;
}
} // namespace detail

/// TopK along an axis of extent Axis (Inner elements after it): the K
/// best values of each slice, best first, and their indices. The K kept
/// so far are a binary heap with the worst at its root, laid out in the
/// slice's own rows of `values` and `indices` (stride Inner); each input
/// element either loses to the root or replaces it (O(Axis log K)), then
/// the heap is sorted in place.
template <int64_t Outer, int64_t Axis, int64_t Inner, int64_t K, bool Largest,
          typename T>
inline void top_k(const T *ONNXCC_RESTRICT x, T *ONNXCC_RESTRICT values,
                  int64_t *ONNXCC_RESTRICT indices) {
  using C = compute_t<T>;
  for (int64_t o = 0; o < Outer; ++o)
    for (int64_t in = 0; in < Inner; ++in) {
      const T *xs = x + o * Axis * Inner + in;
      T *vs = values + o * K * Inner + in;
      int64_t *is = indices + o * K * Inner + in;
      // Heap entry e is (vs[e * Inner], is[e * Inner]); worse ones on top.
      auto worse = [&](int64_t e, int64_t f) {
        return detail::ranks_before<Largest>(C(vs[f * Inner]), is[f * Inner],
                                             C(vs[e * Inner]), is[e * Inner]);
      };
      auto swap = [&](int64_t e, int64_t f) {
        T tv = vs[e * Inner];
        vs[e * Inner] = vs[f * Inner];
        vs[f * Inner] = tv;
        int64_t ti = is[e * Inner];
        is[e * Inner] = is[f * Inner];
        is[f * Inner] = ti;
      };
      auto sift_down = [&](int64_t e, int64_t size) {
        for (;;) {
          int64_t l = 2 * e + 1, r = l + 1, top = e;
          if (l < size && worse(l, top))
            top = l;
          if (r < size && worse(r, top))
            top = r;
          if (top == e)
            return;
          swap(e, top);
          e = top;
        }
      };
      for (int64_t a = 0; a < Axis; ++a) {
        if (a < K) { // fill, sifting the new entry up
          vs[a * Inner] = xs[a * Inner];
          is[a * Inner] = a;
          for (int64_t e = a; e > 0 && worse(e, (e - 1) / 2); e = (e - 1) / 2)
            swap(e, (e - 1) / 2);
        } else if (K > 0 && detail::ranks_before<Largest>(C(xs[a * Inner]), a,
                                                          C(vs[0]), is[0])) {
          vs[0] = xs[a * Inner];
          is[0] = a;
          sift_down(0, K);
        }
      }
      // Heap sort: the worst goes to the end each time.
      for (int64_t size = K; size > 1; --size) {
        swap(0, size - 1);
        sift_down(0, size - 1);
      }
    }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_INDEXING_H
