//===- parallel.h - how kernels split work across threads -------*- C++ -*-===//
//
// A kernel that may run on several threads takes a context `Par` first:
// `par.run(fn)` calls fn(t, T) once for each t in [0, T), possibly at the
// same time, and returns when all are done. T is the number of threads
// taking part in this call: Par::kThreads, or 1 when the pool is busy with
// another predict(). Each kernel cuts its own work by (t, T) into disjoint
// parts (split()), so its outputs do not depend on T.
//
// serial, here, is the context of a single-threaded build: it needs no
// header and inlines to a plain call. thread_pool.h has the pool; only
// code compiled with --threads N > 1 includes it.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_PARALLEL_H
#define ONNXCC_RUNTIME_PARALLEL_H

#include "onnxcc/config.h"

namespace onnxcc {
namespace rt {

/// Runs everything on the calling thread.
struct serial {
  static constexpr int kThreads = 1;
  template <typename F> ONNXCC_INLINE void run(F &&fn) { fn(0, 1); }
};

/// Part t of T of `units` units of work: [lo, hi), contiguous, sizes
/// differing by at most one; parts past the end are empty.
struct part {
  int64_t lo, hi;
};
ONNXCC_INLINE part split(int64_t units, int t, int T) {
  const int64_t q = units / T, r = units % T;
  const int64_t lo = t * q + (t < r ? t : r);
  return {lo, lo + q + (t < r ? 1 : 0)};
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_PARALLEL_H
