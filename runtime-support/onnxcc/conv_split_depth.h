//===- conv_split_depth.h - a 1x1 convolution split by depth --*- C++ -*-===//
//
// conv2d_pointwise_split_depth(): a pointwise convolution (1x1, stride 1,
// unpadded, one group) whose threads split its input channels, the depth
// of its product Y = W * X, instead of its outputs. The compiler picks it
// for a threaded layer with at least 3x as many input as output channels
// (kernel.conv2d's `split_depth`): a mobilenet_v2 projection
// (576 -> 96) or a squeezenet squeeze (128 -> 16). Split by outputs, each
// thread reads all of X, half of which the layer before (a depthwise one,
// split by channel) wrote on the other core, and pulling those lines
// across cost more than the second core saved: 576 -> 96 over 14x14 took
// 145 us on one thread and 120-135 us on two (78 us when X was in both
// caches clean). Split by depth, thread t multiplies only the channels it
// wrote, and what crosses is the partial outputs, C / O times smaller:
// 85-90 us.
//
// The depth is cut into D = Par::kThreads shares (split(), the cut of a
// depthwise layer's channels), share 0 summed into y and share s > 0 into
// the scratch's partial s - 1 (D - 1 partials of N x O x P floats, which
// the planner reserves); then each output channel is finished: the
// partials added in share order, the bias and the epilogue applied. The
// shares and the order of the sums do not depend on how many threads take
// part (T may be 1 while another predict() holds the pool), so neither do
// the bits; they differ from the one-thread kernel's in rounding only.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_CONV_SPLIT_DEPTH_H
#define ONNXCC_RUNTIME_CONV_SPLIT_DEPTH_H

#include "onnxcc/gemm.h"
#include "onnxcc/parallel.h"

namespace onnxcc {
namespace rt {

/// Floats of scratch conv2d_pointwise_split_depth() needs on D threads.
template <typename S> constexpr int64_t split_depth_floats(int D) {
  return (D - 1) * S::N * S::O * S::P;
}

/// Output channels [lo, hi) of all images (unit u = n * O + o): y's share-0
/// sum plus the D - 1 partials, then bias and epilogue.
template <typename S, typename Epi>
ONNXCC_INLINE void finish_split_depth(const float *bias, float *y,
                                      const float *partials, int D, int64_t lo,
                                      int64_t hi, Epi epi) {
  constexpr int64_t P = S::P, stride = S::N * S::O * S::P;
  for (int64_t u = lo; u < hi; ++u) {
    float *yu = y + u * P;
    const float *pu = D > 1 ? partials + u * P : nullptr;
    const int64_t o = u % S::O;
    // The scalar tail starts at a constant: from the vector loop's end,
    // g++ 12 warned of an out-of-range iteration of a tail that never runs
    // (-Waggressive-loop-optimizations; 48 -> 16 channels over 56x56).
    constexpr int64_t kTail = ONNXCC_HAS_SIMD ? P / kVecWidth * kVecWidth : 0;
#if ONNXCC_HAS_SIMD
    for (int64_t j = 0; j < kTail; j += kVecWidth) {
      vfloat v = vfloat::load_unaligned(yu + j);
      for (int s = 0; s + 1 < D; ++s)
        v += vfloat::load_unaligned(pu + s * stride + j);
      finish_vec<true>(v, bias, o, false, 1.0f, 1.0f, epi)
          .store_unaligned(yu + j);
    }
#endif
    for (int64_t j = kTail; j < P; ++j) {
      float v = yu[j];
      for (int s = 0; s + 1 < D; ++s)
        v += pu[s * stride + j];
      yu[j] = finish<true>(v, bias, o, 1.0f, 1.0f, epi);
    }
  }
}

template <typename S, typename Par, typename Epi>
inline void conv2d_pointwise_split_depth(Par &par, const float *x,
                                         const float *w, const float *bias,
                                         float *y, float *scratch, Epi epi) {
  static_assert(S::G == 1 && S::KH == 1 && S::KW == 1 && S::SH == 1 &&
                    S::SW == 1 && S::PT == 0 && S::PL == 0,
                "a pointwise convolution of one group");
  constexpr int D = Par::kThreads;
  par.run([&](int t, int T) {
    const part shares = split(D, t, T);
    for (int64_t s = shares.lo; s < shares.hi; ++s) {
      const part k = split(S::C, static_cast<int>(s), D);
      float *out = s == 0 ? y : scratch + (s - 1) * S::N * S::O * S::P;
      for (int64_t n = 0; n < S::N; ++n)
        gemm_depth_part<S::O, S::P, S::C>(w, x + n * S::C * S::P,
                                          out + n * S::O * S::P, k.lo, k.hi);
    }
  });
  par.run([&](int t, int T) {
    const part p = split(S::N * S::O, t, T);
    finish_split_depth<S>(bias, y, scratch, D, p.lo, p.hi, epi);
  });
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_CONV_SPLIT_DEPTH_H
