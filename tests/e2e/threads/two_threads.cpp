//===- two_threads.cpp - concurrent predict() on separate workspaces ------===//
//
// Built against a generated model named `model` with one input and one
// output. Two threads call predict() repeatedly, each with its own
// workspace, input and output; every result must equal the one a single
// thread computed first. Run under ThreadSanitizer, this proves that
// generated code shares no mutable state between calls.
//
//===----------------------------------------------------------------------===//
#include "model.h"

#include <cstdio>
#include <cstring>
#include <thread>

namespace {
constexpr std::size_t kIn = sizeof(model::Input0) / sizeof(float);
constexpr std::size_t kOut = sizeof(model::Output0) / sizeof(float);

struct Run {
  alignas(64) model::Input0 input;
  alignas(64) model::Output0 output;
  model::Workspace workspace;
};

void fill(model::Input0 &input, int seed) {
  float *p = reinterpret_cast<float *>(&input);
  for (std::size_t i = 0; i < kIn; ++i)
    p[i] = static_cast<float>((i * 7 + seed * 13) % 29) / 29.0f - 0.5f;
}

Run runs[4]; // two references, then one per thread
} // namespace

int main() {
  for (int t = 0; t < 2; ++t) {
    fill(runs[t].input, t);
    model::predict(runs[t].input, runs[t].output, runs[t].workspace);
  }
  int mismatches[2] = {0, 0};
  auto work = [&](int t) {
    Run &r = runs[2 + t];
    fill(r.input, t);
    for (int iter = 0; iter < 20; ++iter) {
      std::memset(&r.output, 0, sizeof r.output);
      model::predict(r.input, r.output, r.workspace);
      if (std::memcmp(&r.output, &runs[t].output, sizeof r.output) != 0)
        ++mismatches[t];
    }
  };
  std::thread a(work, 0), b(work, 1);
  a.join();
  b.join();
  std::printf("two threads: %d and %d mismatching results of 20 each (%zu outputs)\n",
              mismatches[0], mismatches[1], kOut);
  return mismatches[0] || mismatches[1];
}
