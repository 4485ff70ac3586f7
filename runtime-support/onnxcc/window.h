//===- window.h - the taps of a window inside an image -----------*- C++ -*-===//
//
// Convolution and pooling never test bounds per tap: they compute, once per
// window (or per row of windows), the range of taps or outputs that lies
// inside the image and loop over exactly that. Besides saving the tests,
// this avoids the loop shape g++ 12 miscompiles at -O3 with AVX (a
// per-element bounds test if-converted into a group of masked loads that
// the vectorizer gives a single mask; see conv.h).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_WINDOW_H
#define ONNXCC_RUNTIME_WINDOW_H

#include "onnxcc/config.h"

namespace onnxcc {
namespace rt {

/// A half-open index range [lo, hi); empty when lo == hi.
struct index_range {
  int64_t lo, hi;
};

/// The i in [0, N) with 0 <= Base + i*Step < Len, for Step > 0: the taps of
/// a window inside the image, or the outputs whose tap is.
constexpr index_range in_bounds(int64_t Base, int64_t Step, int64_t Len,
                                int64_t N) {
  int64_t lo = Base >= 0 ? 0 : (Step - 1 - Base) / Step;
  int64_t hi = Base >= Len ? 0 : (Len - Base + Step - 1) / Step;
  lo = lo < N ? lo : N;
  hi = hi < N ? hi : N;
  return {lo, hi > lo ? hi : lo};
}

/// Calls f(o, taps) for each output o in [0, Out) along one axis, taps being
/// the k in [0, K) whose input o*S - P + k*D is inside [0, In). Between the
/// edges that is every k, passed as the constant [0, K) so that the loops
/// over it unroll and vectorize across outputs; that needs f inlined into
/// all three loops, hence ONNXCC_INLINE_LAMBDA on the callers' lambdas.
template <int64_t In, int64_t Out, int64_t K, int64_t S, int64_t P, int64_t D,
          typename F>
ONNXCC_INLINE void for_each_window(F f) {
  constexpr index_range whole = in_bounds(-P, S, In - (K - 1) * D, Out);
  for (int64_t o = 0; o < whole.lo; ++o)
    f(o, in_bounds(o * S - P, D, In, K));
  for (int64_t o = whole.lo; o < whole.hi; ++o)
    f(o, index_range{0, K});
  for (int64_t o = whole.hi; o < Out; ++o)
    f(o, in_bounds(o * S - P, D, In, K));
}

/// One spatial axis of a window, all compile-time: In input extent, Out
/// output extent, K taps, S stride, P padding before the input (negative
/// in a transposed convolution whose output reaches past its taps), Pe
/// padding after it, D dilation. Output o's tap k reads input
/// o*S - P + k*D (for the scatters, input i's tap k writes output
/// i*S - P + k*D).
template <int64_t In_, int64_t Out_, int64_t K_, int64_t S_, int64_t P_,
          int64_t Pe_, int64_t D_>
struct axis {
  static constexpr int64_t In = In_, Out = Out_, K = K_, S = S_, P = P_,
                           Pe = Pe_, D = D_;
};
/// The axes a window of lower rank lacks (1-D and 2-D run as 3-D).
using unit_axis = axis<1, 1, 1, 1, 0, 0, 1>;

/// for_each_window over three axes: f(od, oh, ow, rd, rh, rw) with the tap
/// ranges of each axis.
template <typename AD, typename AH, typename AW, typename F>
ONNXCC_INLINE void for_each_window3(F f) {
  for_each_window<AD::In, AD::Out, AD::K, AD::S, AD::P, AD::D>(
      [&](int64_t od, index_range rd) ONNXCC_INLINE_LAMBDA {
        for_each_window<AH::In, AH::Out, AH::K, AH::S, AH::P, AH::D>(
            [&](int64_t oh, index_range rh) ONNXCC_INLINE_LAMBDA {
              for_each_window<AW::In, AW::Out, AW::K, AW::S, AW::P, AW::D>(
                  [&](int64_t ow, index_range rw) ONNXCC_INLINE_LAMBDA {
                    f(od, oh, ow, rd, rh, rw);
                  });
            });
      });
}

/// The inputs i in [0, A::In) whose tap k lands on an output in
/// [0, A::Out): the rows a scatter (transposed convolution, col2im) adds.
template <typename A> constexpr index_range scatter_range(int64_t k) {
  return in_bounds(k * A::D - A::P, A::S, A::Out, A::In);
}

#if ONNXCC_HAS_SIMD
/// vec(i) for vectors of Width lanes covering [0, Len): the last one
/// overlaps the one before where Len is not a multiple of the width, so
/// that a row's tail costs one vector, not up to Width - 1 scalars. vec
/// must give the same result for an element computed twice. Rows narrower
/// than a vector take scalar(i) for each element.
template <int64_t Len, int64_t Width = kVecWidth, typename Vec, typename Scalar>
ONNXCC_INLINE void for_vectors(Vec vec, Scalar scalar) {
  if constexpr (Len < Width) {
    for (int64_t i = 0; i < Len; ++i)
      scalar(i);
  } else {
    int64_t i = 0;
    for (; i + Width <= Len; i += Width)
      vec(i);
    if (i < Len)
      vec(Len - Width);
  }
}

/// The outputs of a stride-2 row whose windows lie wholly inside it.
template <typename AW> constexpr index_range stride2_interior() {
  return in_bounds(-AW::P, 2, AW::In - (AW::K - 1) * AW::D, AW::Out);
}

/// vec(o) for vectors of Width outputs over the interior (the last
/// overlapping, as in for_vectors), scalar(o) for the outputs at the
/// edges and for an interior narrower than a vector.
template <typename AW, int64_t Width, typename Vec, typename Scalar>
ONNXCC_INLINE void for_stride2_outputs(Vec vec, Scalar scalar) {
  constexpr index_range in = stride2_interior<AW>();
  for (int64_t o = 0; o < in.lo; ++o)
    scalar(o);
  for_vectors<in.hi - in.lo, Width>(
      [&](int64_t i) ONNXCC_INLINE_LAMBDA { vec(in.lo + i); },
      [&](int64_t i) ONNXCC_INLINE_LAMBDA { scalar(in.lo + i); });
  for (int64_t o = in.hi; o < AW::Out; ++o)
    scalar(o);
}
#endif

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_WINDOW_H
