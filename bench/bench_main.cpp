//===- bench_main.cpp - onnxcc predict() against ONNX Runtime, one process -===//
//
// Built by bench/run.py once per model and batch, with `bench_glue.inc`
// (written by run.py) describing the model's ports and calling the
// generated C entry point. Both sides get the same inputs and write into
// caller-owned buffers; they run alternately in chunks after a warm-up
// until each has run for the requested time, so that frequency changes
// and other load hit both alike. Prints one JSON object.
//
//   bench_main MODEL.onnx LIBONNXRUNTIME THREADS SECONDS MODE IN_0.bin ...
//
// MODE is `both` (timings) or `onnxcc` / `ort` (run that side only, for its
// peak resident memory).
//
//===----------------------------------------------------------------------===//
#include "ort_capi.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

/// One graph input or output as the glue describes it.
struct BenchPort {
  const char *name;
  int onnxType; // TensorProto data type
  int rank;
  int64_t shape[8];
  size_t bytes;
};

} // namespace

// kInputs, kOutputs, kNumInputs, kNumOutputs, runOnnxcc(), workspaceBytes().
#include "bench_glue.inc"

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void die(const std::string &msg) {
  std::fprintf(stderr, "bench_main: %s\n", msg.c_str());
  std::exit(1);
}

std::vector<unsigned char> readFile(const char *path, size_t expected) {
  FILE *f = std::fopen(path, "rb");
  if (!f)
    die(std::string("cannot open ") + path);
  std::vector<unsigned char> data(expected);
  size_t got = std::fread(data.data(), 1, expected, f);
  std::fclose(f);
  if (got != expected)
    die(std::string(path) + ": expected " + std::to_string(expected) +
        " bytes, read " + std::to_string(got));
  return data;
}

/// Owns an ORT session with caller-owned input and output values.
class OrtRunner {
public:
  OrtRunner(const char *lib, const char *model, int threads,
            std::vector<void *> &ins, std::vector<void *> &outs) {
    void *handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      die(std::string("dlopen: ") + dlerror());
    auto getBase =
        reinterpret_cast<OrtGetApiBaseFn>(dlsym(handle, "OrtGetApiBase"));
    if (!getBase)
      die("libonnxruntime has no OrtGetApiBase");
    version_ = getBase()->GetVersionString();
    api_ = getBase()->GetApi(kOrtApiVersion);
    if (!api_)
      die("ORT refused API version " + std::to_string(kOrtApiVersion));
    check(api_->CreateEnv(kOrtLoggingWarning, "bench", &env_));
    OrtSessionOptions *options = nullptr;
    check(api_->CreateSessionOptions(&options));
    check(api_->SetIntraOpNumThreads(options, threads));
    // ORT's workers keep spinning after Run returns (for up to about a
    // second), which in this alternating run would hold the core the
    // other side's worker needs. They still spin during a Run.
    check(api_->AddSessionConfigEntry(options, "session.force_spinning_stop",
                                      "1"));
    check(api_->SetInterOpNumThreads(options, 1));
    check(api_->SetSessionGraphOptimizationLevel(options, kOrtEnableAll));
    check(api_->CreateSession(env_, model, options, &session_));
    api_->ReleaseSessionOptions(options);
    check(api_->CreateCpuMemoryInfo(kOrtArenaAllocator, kOrtMemTypeDefault,
                                    &memory_));
    bind(kInputs, kNumInputs, ins, inputs_, inputNames_);
    bind(kOutputs, kNumOutputs, outs, outputs_, outputNames_);
  }

  void run() {
    check(api_->Run(session_, nullptr, inputNames_.data(),
                    const_cast<const OrtValue *const *>(inputs_.data()),
                    inputs_.size(), outputNames_.data(), outputs_.size(),
                    outputs_.data()));
  }

  const char *version() const { return version_; }

private:
  void check(OrtStatus *status) {
    if (status)
      die(std::string("onnxruntime: ") + api_->GetErrorMessage(status));
  }

  void bind(const BenchPort *ports, int n, std::vector<void *> &buffers,
            std::vector<OrtValue *> &values, std::vector<const char *> &names) {
    for (int i = 0; i < n; ++i) {
      OrtValue *value = nullptr;
      check(api_->CreateTensorWithDataAsOrtValue(
          memory_, buffers[i], ports[i].bytes, ports[i].shape,
          static_cast<size_t>(ports[i].rank), ports[i].onnxType, &value));
      values.push_back(value);
      names.push_back(ports[i].name);
    }
  }

  const OrtApi *api_ = nullptr;
  const char *version_ = "";
  OrtEnv *env_ = nullptr;
  OrtSession *session_ = nullptr;
  OrtMemoryInfo *memory_ = nullptr;
  std::vector<OrtValue *> inputs_, outputs_;
  std::vector<const char *> inputNames_, outputNames_;
};

std::vector<unsigned char> alignedBuffer(size_t bytes) {
  return std::vector<unsigned char>(bytes + 64);
}

void *aligned(std::vector<unsigned char> &buffer) {
  auto p = reinterpret_cast<uintptr_t>(buffer.data());
  return reinterpret_cast<void *>((p + 63) & ~uintptr_t(63));
}

/// The largest difference between the two sides' outputs, for a sanity
/// check: a mis-bound ORT entry or a broken build shows up here.
double largestDifference(std::vector<void *> &a, std::vector<void *> &b) {
  double worst = 0;
  for (int o = 0; o < kNumOutputs; ++o) {
    size_t n = kOutputs[o].bytes;
    if (kOutputs[o].onnxType == 1) {
      auto *x = static_cast<const float *>(a[o]);
      auto *y = static_cast<const float *>(b[o]);
      for (size_t i = 0; i < n / 4; ++i)
        worst = std::max(worst, double(std::fabs(x[i] - y[i])) /
                                    (1.0 + std::fabs(y[i])));
    } else if (kOutputs[o].onnxType == 11) {
      auto *x = static_cast<const double *>(a[o]);
      auto *y = static_cast<const double *>(b[o]);
      for (size_t i = 0; i < n / 8; ++i)
        worst = std::max(worst, std::fabs(x[i] - y[i]) / (1.0 + std::fabs(y[i])));
    } else if (std::memcmp(a[o], b[o], n) != 0) {
      worst = std::max(worst, 1.0);
    }
  }
  return worst;
}

/// Calls `fn` `count` times and returns the mean nanoseconds per call.
template <typename Fn> double timeChunk(Fn &fn, long count) {
  auto start = Clock::now();
  for (long i = 0; i < count; ++i)
    fn();
  auto stop = Clock::now();
  return std::chrono::duration<double, std::nano>(stop - start).count() /
         double(count);
}

/// Calls per chunk so that a chunk takes about 200 microseconds.
template <typename Fn> long calibrate(Fn &fn) {
  long count = 1;
  while (count < (1L << 24)) {
    double ns = timeChunk(fn, count);
    if (ns * double(count) > 2e5)
      break;
    count *= 2;
  }
  return count;
}

struct Stats {
  double median, p90;
  size_t samples;
};

Stats summarise(std::vector<double> &ns) {
  std::sort(ns.begin(), ns.end());
  auto at = [&](double q) { return ns[std::min(ns.size() - 1, size_t(q * double(ns.size())))]; };
  return {at(0.5), at(0.9), ns.size()};
}

/// VmHWM, not getrusage(): ru_maxrss survives exec, so it would report the
/// Python process that started this one.
long peakRssKiB() {
  FILE *f = std::fopen("/proc/self/status", "r");
  if (!f)
    return -1;
  char line[256];
  long kib = -1;
  while (std::fgets(line, sizeof(line), f))
    if (std::sscanf(line, "VmHWM: %ld", &kib) == 1)
      break;
  std::fclose(f);
  return kib;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 6 + kNumInputs)
    die("usage: bench_main MODEL LIBORT THREADS SECONDS MODE INPUTS...");
  const char *model = argv[1], *lib = argv[2];
  int threads = std::atoi(argv[3]);
  double seconds = std::atof(argv[4]);
  std::string mode = argv[5];

  std::vector<std::vector<unsigned char>> storage;
  std::vector<void *> ins, outsA, outsB;
  for (int i = 0; i < kNumInputs; ++i) {
    auto data = readFile(argv[6 + i], kInputs[i].bytes);
    storage.push_back(alignedBuffer(kInputs[i].bytes));
    std::memcpy(aligned(storage.back()), data.data(), data.size());
    ins.push_back(aligned(storage.back()));
  }
  for (int o = 0; o < kNumOutputs; ++o) {
    storage.push_back(alignedBuffer(kOutputs[o].bytes));
    outsA.push_back(aligned(storage.back()));
    storage.push_back(alignedBuffer(kOutputs[o].bytes));
    outsB.push_back(aligned(storage.back()));
  }
  storage.push_back(alignedBuffer(workspaceBytes()));
  void *workspace = aligned(storage.back());

  auto onnxcc = [&] { runOnnxcc(ins.data(), outsA.data(), workspace); };
  if (mode == "onnxcc") {
    for (int i = 0; i < 10; ++i)
      onnxcc();
    std::printf("{\"peak_rss_kib\": %ld}\n", peakRssKiB());
    return 0;
  }
  OrtRunner ort(lib, model, threads, ins, outsB);
  auto runOrt = [&] { ort.run(); };
  if (mode == "ort") {
    for (int i = 0; i < 10; ++i)
      runOrt();
    std::printf("{\"peak_rss_kib\": %ld}\n", peakRssKiB());
    return 0;
  }

  // Warm-up, then the sanity check on the warm outputs.
  for (int i = 0; i < 20; ++i) {
    onnxcc();
    runOrt();
  }
  double difference = largestDifference(outsA, outsB);

  long chunkA = calibrate(onnxcc), chunkB = calibrate(runOrt);
  std::vector<double> nsA, nsB;
  double spentA = 0, spentB = 0;
  while (spentA < seconds * 1e9 || spentB < seconds * 1e9) {
    double a = timeChunk(onnxcc, chunkA);
    double b = timeChunk(runOrt, chunkB);
    nsA.push_back(a);
    nsB.push_back(b);
    spentA += a * double(chunkA);
    spentB += b * double(chunkB);
  }
  Stats a = summarise(nsA), b = summarise(nsB);
  std::printf("{\"ort_version\": \"%s\", \"threads\": %d, "
              "\"onnxcc_median_ns\": %.1f, \"onnxcc_p90_ns\": %.1f, "
              "\"onnxcc_calls_per_sample\": %ld, \"onnxcc_samples\": %zu, "
              "\"ort_median_ns\": %.1f, \"ort_p90_ns\": %.1f, "
              "\"ort_calls_per_sample\": %ld, \"ort_samples\": %zu, "
              "\"largest_relative_difference\": %.3g}\n",
              ort.version(), threads, a.median, a.p90, chunkA, a.samples,
              b.median, b.p90, chunkB, b.samples, difference);
  return 0;
}
