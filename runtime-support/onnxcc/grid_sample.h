//===- grid_sample.h - GridSample: sampling at normalised coordinates -*- C++ -*-===//
//
// Each output point reads its k coordinates from the grid (x first, for the
// innermost axis), maps them from [-1, 1] to pixel positions, handles those
// outside the image by the padding mode, and interpolates (nearest, linear
// over 2^k pixels, cubic over 4^k). The position math follows
// onnx.reference op_grid_sample.py, in float (double for double images).
// Every pixel read is in bounds: NaN and huge coordinates land outside the
// image and take the padding, never an undefined conversion.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_GRID_SAMPLE_H
#define ONNXCC_RUNTIME_GRID_SAMPLE_H

#include "onnxcc/config.h"
#include "onnxcc/types.h"

#include <cmath>
#include <type_traits>

namespace onnxcc {
namespace rt {

enum class gs_mode { nearest, linear, cubic };
enum class gs_pad { zeros, border, reflection };

namespace detail {

/// Reflects x into [lo, hi] by the nearer border, as often as it takes.
template <typename A> ONNXCC_INLINE A gs_reflect(A x, A lo, A hi) {
  A range = hi - lo;
  if (!(range > 0))
    return lo;
  if (x < lo) {
    A dx = lo - x;
    A n = std::floor(dx / range);
    A r = dx - n * range;
    return std::fmod(n, A(2)) == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    A dx = x - hi;
    A n = std::floor(dx / range);
    A r = dx - n * range;
    return std::fmod(n, A(2)) == 0 ? hi - r : lo + r;
  }
  return x;
}

/// A position as an index: NaN and values beyond any image become an
/// index just outside it (so zeros padding reads 0), never UB.
template <typename A> ONNXCC_INLINE std::int64_t gs_index(A v) {
  if (!(v >= A(-(1 << 30))))
    return -(std::int64_t(1) << 30);
  if (v > A(1 << 30))
    return std::int64_t(1) << 30;
  return static_cast<std::int64_t>(v);
}

/// Keys' cubic convolution weights, alpha = -0.75, for offsets -1..2.
template <typename A> ONNXCC_INLINE void gs_cubic(A x, A (&w)[4]) {
  const A a = A(-0.75);
  x = std::fabs(x);
  A x1 = x + 1, x2 = 1 - x, x3 = 2 - x;
  w[0] = ((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a;
  w[1] = ((a + 2) * x - (a + 3)) * x * x + 1;
  w[2] = ((a + 2) * x2 - (a + 3)) * x2 * x2 + 1;
  w[3] = ((a * x3 - 5 * a) * x3 + 8 * a) * x3 - 4 * a;
}

} // namespace detail

/// Samples N images of C channels and K spatial dims (`spatial`, outermost
/// first) at `Points` grid points each: y[n][c][p].
template <gs_mode Mode, gs_pad Pad, bool Align, std::int64_t N, std::int64_t C,
          std::int64_t Points, std::size_t K, typename T, typename G>
void grid_sample(const std::int64_t (&spatial)[K], const T *x, const G *grid,
                 T *y) {
  using A = typename std::conditional<std::is_same<T, double>::value, double,
                                      float>::type;
  constexpr int Taps = Mode == gs_mode::cubic ? 4 : Mode == gs_mode::linear ? 2 : 1;
  std::int64_t image = 1;
  A lo[K], hi[K];
  for (std::size_t d = 0; d < K; ++d) {
    image *= spatial[d];
    lo[d] = Align ? A(0) : A(-0.5);
    hi[d] = Align ? A(spatial[d] - 1) : A(spatial[d]) - A(0.5);
  }
  // A pixel index per padding mode; false for a zeros-padded miss.
  auto fetch = [&](std::size_t d, std::int64_t i, std::int64_t &out) {
    std::int64_t size = spatial[d];
    if (Pad == gs_pad::zeros) {
      out = i;
      return i >= 0 && i < size;
    }
    if (Pad == gs_pad::reflection)
      i = detail::gs_index(detail::gs_reflect(A(i), lo[d], hi[d]));
    out = i < 0 ? 0 : i >= size ? size - 1 : i;
    return true;
  };
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t p = 0; p < Points; ++p) {
      const G *g = grid + (n * Points + p) * std::int64_t(K);
      // Per dim: the first tap's index and the taps' weights.
      std::int64_t base[K];
      A w[K][4];
      for (std::size_t d = 0; d < K; ++d) {
        A v = A(static_cast<compute_t<G>>(g[K - 1 - d]));
        A size = A(spatial[d]);
        A pos = Align ? (v + 1) / 2 * (size - 1) : ((v + 1) * size - 1) / 2;
        if (Mode == gs_mode::nearest)
          pos = std::nearbyint(pos); // ties to even, as numpy's rint
        if (pos < lo[d] || pos > hi[d]) {
          if (Pad == gs_pad::border)
            pos = pos < 0 ? A(0) : pos > size - 1 ? size - 1 : pos;
          else if (Pad == gs_pad::reflection)
            pos = detail::gs_reflect(pos, lo[d], hi[d]);
        }
        if (Mode == gs_mode::nearest) {
          base[d] = detail::gs_index(pos);
          w[d][0] = 1;
          continue;
        }
        A f = std::floor(pos);
        A t = pos - f;
        if (Mode == gs_mode::linear) {
          base[d] = detail::gs_index(f);
          w[d][0] = 1 - t;
          w[d][1] = t;
        } else {
          base[d] = detail::gs_index(f) - 1;
          detail::gs_cubic(t, w[d]);
        }
      }
      // The weighted sum over the Taps^K neighbourhood, one channel at a
      // time (the positions are shared by all channels).
      for (std::int64_t c = 0; c < C; ++c) {
        const T *img = x + (n * C + c) * image;
        A acc = 0;
        int tap[K] = {};
        for (;;) {
          A weight = 1;
          std::int64_t offset = 0;
          bool inside = true;
          for (std::size_t d = 0; d < K; ++d) {
            std::int64_t i;
            inside &= fetch(d, base[d] + tap[d], i);
            offset = offset * spatial[d] + i;
            weight *= w[d][tap[d]];
          }
          if (inside)
            acc += weight * A(static_cast<compute_t<T>>(img[offset]));
          std::size_t d = K;
          while (d > 0 && ++tap[d - 1] == Taps)
            tap[--d] = 0;
          if (d == 0)
            break;
        }
        y[(n * C + c) * Points + p] = store_as<T>(acc);
      }
    }
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_GRID_SAMPLE_H
