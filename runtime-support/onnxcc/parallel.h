//===- parallel.h - how kernels split work across threads -------*- C++ -*-===//
//
// A kernel that may run on several threads takes a context `Par` first:
// `par.run(fn)` calls fn(t, T) once for each t in [0, T), possibly at the
// same time, and returns when all are done. T is the number of threads
// taking part in this call: Par::kThreads, or 1 when the pool is busy with
// another predict(). Each kernel cuts its own work by (t, T) into disjoint
// parts (split()), so its outputs do not depend on T, or, where its
// pieces cost alike, hands them out with run_units() or run_runs() (below).
//
// serial, here, is the context of a single-threaded build: it needs no
// header and inlines to a plain call. thread_pool.h has the pool; only
// code compiled with --threads N > 1 includes it.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_PARALLEL_H
#define ONNXCC_RUNTIME_PARALLEL_H

#include "onnxcc/config.h"

#include <atomic>
#include <cstdint>

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

/// Units [0, units) of a kernel whose units cost alike, on par's threads,
/// each unit once: f(u) for every u. Thread t starts on its own share,
/// split(units, t, Par::kThreads), front to back, then takes units from the
/// back of the other shares that are still left. A share is one atomic
/// word (its next and end unit) in a line of its own, so a thread claims its
/// own units without a line crossing cores; a unit moves only when its
/// owner is late. The two vCPUs of a shared host often run at different
/// speeds at the same moment (a GEMM at 169 GFLOP/s on one, 117 on the
/// other), and a static cut then waits for the slower one. Which thread
/// runs a unit does not change what it computes: the same bits. Units
/// fewer than 2^32 (a share's two halves); kernels pass a few hundred.
template <typename Par, typename F>
inline void run_units(Par &par, int64_t units, F f) {
  constexpr int D = Par::kThreads;
  if constexpr (D == 1) {
    par.run([&](int, int) {
      for (int64_t u = 0; u < units; ++u)
        f(u);
    });
  } else {
    struct alignas(64) share {
      std::atomic<uint64_t> range; // next unit (low half), end (high half)
    };
    share shares[D];
    for (int s = 0; s < D; ++s) {
      const part p = split(units, s, D);
      shares[s].range.store(static_cast<uint64_t>(p.lo) |
                                static_cast<uint64_t>(p.hi) << 32,
                            std::memory_order_relaxed);
    }
    par.run([&](int t, int T) {
      // Part t of T runs shares t, t + T, ... first (all of them when the
      // pool was busy and T is 1), then steals from the others.
      auto take = [&](int s, bool front) {
        std::atomic<uint64_t> &r = shares[s].range;
        uint64_t v = r.load(std::memory_order_relaxed);
        for (;;) {
          const uint64_t lo = v & 0xffffffffu, hi = v >> 32;
          if (lo >= hi)
            return int64_t{-1};
          const uint64_t next = front ? (lo + 1) | hi << 32 : lo | (hi - 1) << 32;
          if (r.compare_exchange_weak(v, next, std::memory_order_relaxed))
            return static_cast<int64_t>(front ? lo : hi - 1);
        }
      };
      for (int s = t; s < D; s += T)
        for (int64_t u; (u = take(s, true)) >= 0;)
          f(u);
      for (int k = 1; k < D; ++k) {
        const int s = (t + k) % D;
        for (int64_t u; (u = take(s, false)) >= 0;)
          f(u);
      }
    });
  }
}

/// Units [0, units) in runs of about a quarter of a thread's share, handed
/// out by run_units: f(lo, hi) for each run. A run keeps what its units
/// share (a row tile's A, a panel's B) in cache; four a thread still let a
/// thread that finishes early take a late one's last runs.
template <typename Par, typename F>
inline void run_runs(Par &par, int64_t units, F f) {
  constexpr int64_t kRunsPerThread = 4;
  constexpr int64_t runs = kRunsPerThread * Par::kThreads;
  const int64_t run = units > runs ? (units + runs - 1) / runs : 1;
  run_units(par, (units + run - 1) / run, [&](int64_t u) {
    const int64_t lo = u * run;
    f(lo, lo + run < units ? lo + run : units);
  });
}

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_PARALLEL_H
