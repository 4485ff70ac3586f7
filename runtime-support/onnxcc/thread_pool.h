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
// - Threads claim a run's parts, the caller first: a part is computed the
//   same whichever thread takes it, and a worker still waking up when the
//   caller has taken every part finds none left. So the caller never
//   waits out a wake-up (tens of microseconds, which doubled a 60 us
//   model's call at two threads); it waits only for parts already begun.
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
  static_assert(Threads <= 256, "parts are counted in 16 bits");

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
      const std::uint64_t now =
          state_.load(std::memory_order_acquire) >> kPartBits;
      for (int t = 1; t < Threads; ++t)
        std::thread(&thread_pool::work, this, now).detach();
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
    job_ = [](void *ctx, int t) { (*static_cast<Fn *>(ctx))(t, Threads); };
    ctx_ = const_cast<void *>(static_cast<const void *>(&fn));
    done_.store(0, std::memory_order_relaxed);
    const std::uint64_t g = (state_.load(std::memory_order_relaxed) >> kPartBits) + 1;
    // Publishes job_ and ctx_ with part 0 of generation g unclaimed; the
    // sleeper check below pairs with the one in next() (both seq_cst), so
    // a worker about to sleep sees the new generation or is woken.
    state_.store(g << kPartBits, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      wake_.notify_all();
    }
    claim(g);
    while (done_.load(std::memory_order_acquire) != Threads)
      cpu_relax();
    busy_.unlock();
  }

private:
  thread_pool() = default;

  /// Bits of state_ counting a generation's claimed parts (Threads <= 256).
  static constexpr int kPartBits = 16;
  static constexpr std::uint64_t kPartMask = (std::uint64_t(1) << kPartBits) - 1;

  /// Runs parts of generation g until none is unclaimed. job_ and ctx_
  /// stay g's while a part this thread claimed is not done: run() waits
  /// for every part before it writes the next ones.
  void claim(std::uint64_t g) {
    std::uint64_t s = state_.load(std::memory_order_acquire);
    while ((s >> kPartBits) == g && (s & kPartMask) < Threads) {
      if (!state_.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel,
                                        std::memory_order_acquire))
        continue; // s was reloaded
      job_(ctx_, static_cast<int>(s & kPartMask));
      done_.fetch_add(1, std::memory_order_release);
      s = state_.load(std::memory_order_acquire);
    }
  }

  void work(std::uint64_t seen) {
    for (;;) {
      seen = next(seen);
      claim(seen);
    }
  }

  /// Waits for a generation after `seen` and returns it: spins, then
  /// sleeps.
  std::uint64_t next(std::uint64_t seen) {
    using clock = std::chrono::steady_clock;
    const auto until = clock::now() + std::chrono::microseconds(ONNXCC_POOL_SPIN_US);
    for (unsigned i = 1;; ++i) {
      const std::uint64_t g =
          state_.load(std::memory_order_acquire) >> kPartBits;
      if (g != seen)
        return g;
      cpu_relax();
      if (i % 256 == 0 && clock::now() > until)
        break;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    std::uint64_t g = seen;
    wake_.wait(lock, [&] {
      g = state_.load(std::memory_order_seq_cst) >> kPartBits;
      return g != seen;
    });
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
    return g;
  }

  std::once_flag started_;
  std::mutex busy_;  ///< held by the run() that has the workers
  std::mutex mutex_; ///< guards sleeping
  std::condition_variable wake_;
  /// The latest run's generation << kPartBits | parts claimed so far.
  std::atomic<std::uint64_t> state_{0};
  std::atomic<int> done_{0}; ///< parts of the latest run completed
  std::atomic<int> sleepers_{0};
  void (*job_)(void *, int) = nullptr;
  void *ctx_ = nullptr;
};

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_THREAD_POOL_H
