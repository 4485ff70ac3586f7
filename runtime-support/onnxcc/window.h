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

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_WINDOW_H
