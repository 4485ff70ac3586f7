//===- thread_pool.h - the fork-join pool of --threads N --------*- C++ -*-===//
//
// thread_pool<N>: the caller and N - 1 workers run each kernel's parts
// (parallel.h). Only code compiled with --threads N > 1 includes this.
//
// - One pool per N in the program, shared by every model compiled with
//   that N (instance()). It lives in static storage and is never
//   destroyed, so workers may sleep through static destruction.
// - The workers start on the first run(), or earlier through the model's
//   init(). Starting them is the only allocation (std::thread's state):
//   call init() at start-up to keep every predict() heap-free.
// - Between parts the workers spin (a kernel's gaps are microseconds),
//   then sleep on a condition variable after ONNXCC_POOL_SPIN_US.
// - Part t of a run belongs to thread t (the caller is 0). Kernels that
//   follow one another split their data the same way (channels, rows), so
//   a thread reads what it wrote a kernel earlier, from its own cache.
//   Products whose pieces cost alike go through run_units() (parallel.h)
//   instead, where a thread done with its share takes a slower one's.
// - A part is computed the same whichever thread takes it. The caller,
//   done with part 0, takes every part whose worker has not claimed it
//   yet: it never waits out a wake-up (tens of microseconds, which
//   doubled a 60 us model's call at two threads), only parts begun.
// - A run moves as few cache lines between cores as it can: the caller
//   writes the job in one line that the workers only read, and each part
//   has a line of its own that only its worker writes (claimed, done) and
//   the caller reads, unless it takes the part. On a host whose two vCPUs
//   sit on different dies (170 ns from core to core instead of 25), every
//   line that crosses costs that; a shared claim counter and done counter
//   cost about twice as many crossings a run.
// - A predict() that finds the pool busy with another predict() (a
//   different workspace, another thread) runs its parts itself: concurrent
//   calls stay safe and never wait on each other.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_THREAD_POOL_H
#define ONNXCC_RUNTIME_THREAD_POOL_H

#include "onnxcc/parallel.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <new>
#include <thread>
#include <type_traits>

#ifndef ONNXCC_POOL_SPIN_US
#define ONNXCC_POOL_SPIN_US 100
#endif

namespace onnxcc {
namespace rt {

/// Tells the core this thread is spinning (and, on x86, lets the sibling
/// hyper-thread run).
ONNXCC_INLINE void cpu_relax() {
#if (defined(__x86_64__) || defined(__i386__)) && \
    (defined(__GNUC__) || defined(__clang__))
  __builtin_ia32_pause();
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
  __asm__ __volatile__("yield");
#endif
}

template <int Threads> class thread_pool {
  static_assert(Threads >= 2, "a pool has at least one worker");
  static_assert(Threads <= 256, "--threads allows at most 256");

public:
  static constexpr int kThreads = Threads;

  /// The program's pool of Threads threads.
  static thread_pool &instance() {
    alignas(thread_pool) static unsigned char storage[sizeof(thread_pool)];
    static thread_pool *const pool =
        ::new (static_cast<void *>(storage)) thread_pool();
    return *pool;
  }

  /// Starts the workers, once.
  void start() {
    std::call_once(started_, [this] {
      const std::uint64_t now = job_.generation.load(std::memory_order_acquire);
      for (int t = 1; t < Threads; ++t)
        std::thread(&thread_pool::work, this, t, now).detach();
    });
  }

  /// fn(t, T) for every t in [0, T), T = Threads, or T = 1 on this thread
  /// alone while another run() holds the workers.
  template <typename F> void run(F &&fn) {
    if (!busy_.try_lock()) {
      fn(0, 1);
      return;
    }
    start();
    using Fn = std::remove_reference_t<F>;
    job_.fn = [](void *ctx, int t) { (*static_cast<Fn *>(ctx))(t, Threads); };
    job_.ctx = const_cast<void *>(static_cast<const void *>(&fn));
    const std::uint64_t g = job_.generation.load(std::memory_order_relaxed) + 1;
    // Publishes fn and ctx with every part of generation g unclaimed; the
    // sleeper check below pairs with the one in next() (both seq_cst), so
    // a worker about to sleep sees the new generation or is woken.
    job_.generation.store(g, std::memory_order_seq_cst);
    if (sleepers_.value.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      wake_.notify_all();
    }
    // Its own part, then each worker's: taken if still unclaimed (read
    // first, so as not to pull a claimed part's line away from its worker),
    // else waited for.
    for (int p = 0; p < Threads; ++p) {
      if (parts_[p].mark.load(std::memory_order_relaxed) == done(g - 1) &&
          take(p, g))
        continue;
      while (parts_[p].mark.load(std::memory_order_acquire) != done(g))
        cpu_relax();
    }
    busy_.unlock();
  }

private:
  thread_pool() = default;

  /// A part's mark: 2g - 1 once claimed in generation g, 2g once done.
  /// Unclaimed in g, it reads done(g - 1).
  static constexpr std::uint64_t claimed(std::uint64_t g) { return 2 * g - 1; }
  static constexpr std::uint64_t done(std::uint64_t g) { return 2 * g; }

  /// Runs part p of generation g if no thread has claimed it; false if one
  /// has. A thread still on an earlier generation fails: run() moves on
  /// only once every part of a generation is done.
  bool take(int p, std::uint64_t g) {
    std::uint64_t expected = done(g - 1);
    if (!parts_[p].mark.compare_exchange_strong(expected, claimed(g),
                                                std::memory_order_acquire,
                                                std::memory_order_relaxed))
      return false;
    job_.fn(job_.ctx, p);
    parts_[p].mark.store(done(g), std::memory_order_release);
    return true;
  }

  /// Worker t: its own part of each generation, unless the caller took it.
  void work(int t, std::uint64_t seen) {
    for (;;) {
      seen = next(seen);
      take(t, seen);
    }
  }

  /// Waits for a generation after `seen` and returns it: spins, then
  /// sleeps.
  std::uint64_t next(std::uint64_t seen) {
    using clock = std::chrono::steady_clock;
    const auto until = clock::now() + std::chrono::microseconds(ONNXCC_POOL_SPIN_US);
    for (unsigned i = 1;; ++i) {
      const std::uint64_t g = job_.generation.load(std::memory_order_acquire);
      if (g != seen)
        return g;
      cpu_relax();
      if (i % 256 == 0 && clock::now() > until)
        break;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    sleepers_.value.fetch_add(1, std::memory_order_seq_cst);
    std::uint64_t g = seen;
    wake_.wait(lock, [&] {
      g = job_.generation.load(std::memory_order_seq_cst);
      return g != seen;
    });
    sleepers_.value.fetch_sub(1, std::memory_order_relaxed);
    return g;
  }

  std::once_flag started_;
  std::mutex busy_;  ///< held by the run() that has the workers
  std::mutex mutex_; ///< guards sleeping
  std::condition_variable wake_;
  /// What the caller publishes, in a line the workers only read.
  struct alignas(64) job {
    std::atomic<std::uint64_t> generation{0}; ///< the latest run's, from 1
    void (*fn)(void *, int) = nullptr;
    void *ctx = nullptr;
  };
  /// One part's state, in a line only the thread running it writes.
  struct alignas(64) part_mark {
    std::atomic<std::uint64_t> mark{0};
  };
  /// Workers asleep: read on every run, written only around a sleep.
  struct alignas(64) counter {
    std::atomic<int> value{0};
  };
  job job_;
  part_mark parts_[Threads];
  counter sleepers_;
};

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_THREAD_POOL_H
