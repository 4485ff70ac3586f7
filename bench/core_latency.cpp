//===- core_latency.cpp - how far apart the two benchmark cores are -------===//
//
// Two threads, pinned to the first two CPUs this process may use, pass a
// counter back and forth through one cache line; half a round trip is
// the one-way core-to-core latency. On a shared VM it tells where the
// host has put the vCPUs at that moment: tens of nanoseconds when they
// share a last-level cache, several times that when they sit on
// different dies (an EPYC's CCDs), where every line one thread writes and
// the other reads crosses the die boundary, so kernels split across the
// two threads slow down, onnxcc's and ORT's both. bench/run.py measures
// it around each multi-threaded row. Prints {"ns": median, "min_ns": min}
// over five runs, or {"ns": null} where there are fewer than two CPUs or
// no affinity call (not Linux).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>

static bool pinTo(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

alignas(64) static std::atomic<long> ball{0};

int main() {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
    return std::puts("{\"ns\": null}"), 0;
  int cpus[2], found = 0;
  for (int c = 0; c < CPU_SETSIZE && found < 2; ++c)
    if (CPU_ISSET(c, &allowed))
      cpus[found++] = c;
  if (found < 2)
    return std::puts("{\"ns\": null}"), 0;
  constexpr long kTrips = 20000;
  std::vector<double> ns;
  for (int run = 0; run < 5; ++run) {
    ball.store(-1);
    std::thread other([&] {
      pinTo(cpus[1]);
      ball.store(0, std::memory_order_release); // running on its CPU
      for (long i = 0; i < kTrips; ++i) {
        while (ball.load(std::memory_order_acquire) != 2 * i + 1) {
        }
        ball.store(2 * i + 2, std::memory_order_release);
      }
    });
    pinTo(cpus[0]);
    while (ball.load(std::memory_order_acquire) != 0) {
    }
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < kTrips; ++i) {
      ball.store(2 * i + 1, std::memory_order_release);
      while (ball.load(std::memory_order_acquire) != 2 * i + 2) {
      }
    }
    const auto t1 = std::chrono::steady_clock::now();
    other.join();
    ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() /
                 (2.0 * kTrips));
  }
  std::sort(ns.begin(), ns.end());
  std::printf("{\"ns\": %.0f, \"min_ns\": %.0f, \"cpus\": [%d, %d]}\n", ns[2],
              ns[0], cpus[0], cpus[1]);
  return 0;
}
#else
int main() { return std::puts("{\"ns\": null}"), 0; }
#endif
