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
      const std::uint64_t now = generation_.load(std::memory_order_acquire);
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
    job_ = [](void *ctx, int t) { (*static_cast<Fn *>(ctx))(t, Threads); };
    ctx_ = const_cast<void *>(static_cast<const void *>(&fn));
    pending_.store(Threads - 1, std::memory_order_relaxed);
    // Publishes job_ and ctx_; the sleeper check below pairs with the one
    // in next() (both seq_cst), so a worker about to sleep sees the new
    // generation or is woken.
    generation_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      wake_.notify_all();
    }
    fn(0, Threads);
    while (pending_.load(std::memory_order_acquire) != 0)
      cpu_relax();
    busy_.unlock();
  }

private:
  thread_pool() = default;

  void work(int t, std::uint64_t seen) {
    for (;;) {
      seen = next(seen);
      job_(ctx_, t);
      pending_.fetch_sub(1, std::memory_order_release);
    }
  }

  /// Waits for a generation after `seen`: spins, then sleeps.
  std::uint64_t next(std::uint64_t seen) {
    using clock = std::chrono::steady_clock;
    const auto until = clock::now() + std::chrono::microseconds(ONNXCC_POOL_SPIN_US);
    for (unsigned i = 1;; ++i) {
      const std::uint64_t g = generation_.load(std::memory_order_acquire);
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
      g = generation_.load(std::memory_order_seq_cst);
      return g != seen;
    });
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
    return g;
  }

  std::once_flag started_;
  std::mutex busy_;  ///< held by the run() that has the workers
  std::mutex mutex_; ///< guards sleeping
  std::condition_variable wake_;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<int> pending_{0};
  std::atomic<int> sleepers_{0};
  void (*job_)(void *, int) = nullptr;
  void *ctx_ = nullptr;
};

} // namespace rt
} // namespace onnxcc

#endif // ONNXCC_RUNTIME_THREAD_POOL_H
