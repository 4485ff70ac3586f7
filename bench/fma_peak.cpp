//===- fma_peak.cpp - this core's single-precision FMA peak ---------------===//
//
// Twelve independent chains of fused multiply-adds on the widest vectors
// the build's -march allows (GCC/Clang vector extensions, so the same
// source builds for AVX-512, AVX2 and NEON/SSE), long enough to hide the
// FMA latency. Prints {"isa": ..., "lanes": ..., "gflops": ...} for one
// thread: the ceiling bench/run.py reports achieved GFLOP/s against.
//
//===----------------------------------------------------------------------===//
#include <chrono>
#include <cstdio>

#if defined(__AVX512F__)
constexpr int kLanes = 16;
static const char *kIsa = "avx512";
#elif defined(__AVX__)
constexpr int kLanes = 8;
#if defined(__FMA__)
static const char *kIsa = "avx2+fma";
#else
static const char *kIsa = "avx";
#endif
#else
constexpr int kLanes = 4;
static const char *kIsa = "128-bit";
#endif

typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));

int main() {
  constexpr int kChains = 12;
  const long iterations = 20000000;
  Vec acc[kChains], mul, add;
  for (int l = 0; l < kLanes; ++l) {
    mul[l] = 0.999999f;
    add[l] = 1e-7f;
  }
  for (int c = 0; c < kChains; ++c)
    for (int l = 0; l < kLanes; ++l)
      acc[c][l] = float(c + l);
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < iterations; ++i)
      for (int c = 0; c < kChains; ++c)
        acc[c] = acc[c] * mul + add;
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double gflops = 2.0 * kLanes * kChains * double(iterations) / s / 1e9;
    best = gflops > best ? gflops : best;
  }
  float sink = 0;
  for (int c = 0; c < kChains; ++c)
    sink += acc[c][0];
  std::printf("{\"isa\": \"%s\", \"lanes\": %d, \"gflops\": %.1f, \"sink\": %g}\n", kIsa,
              kLanes, best, double(sink));
  return 0;
}
