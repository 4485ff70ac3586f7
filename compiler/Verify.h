//===- Verify.h - `onnxcc verify`: compile, build, run, compare -*- C++ -*-===//
#ifndef ONNXCC_COMPILER_VERIFY_H
#define ONNXCC_COMPILER_VERIFY_H

#include "compiler/PlanReport.h"
#include "passes/Pipelines.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace onnxcc {

struct VerifyRequest {
  std::string modelDir;
  std::map<std::string, int64_t> dims;
  /// Graph inputs bound at compile time (--const-input): the data sets'
  /// files for them are not fed.
  std::map<std::string, std::string> constInputs;
  double atol = 1e-4, rtol = 1e-4;
  std::string cxx;        ///< C++ compiler; default $CXX or c++
  std::string runtimeDir; ///< runtime-support include directory
  std::string workDir;    ///< where to build; default a temporary directory
  std::string commandLine;
  std::string cxxFlags = "-O2 -march=native"; ///< space-separated
  /// Runs the built program through this (e.g. "qemu-aarch64 -L /usr/...").
  std::string execWrapper;
  bool fuse = true; ///< --no-fuse checks the unfused pipeline
  std::string treeStrategy = "auto"; ///< --tree-strategy
  int64_t treeNestedMaxNodes = 2048; ///< --tree-nested-max-nodes
  std::string embedWeights = "incbin"; ///< --embed-weights
  int64_t threads = 1;                 ///< --threads
  int64_t minWinogradChannels = kDefaultMinWinogradChannels; ///< --min-winograd-channels
  /// Shape buckets (--dim NAME=S1,S2,...): predict(rows, ...) is run at
  /// each of `calls` rows, the data sets' rows repeated to that count.
  std::string bucketDim;
  std::vector<int64_t> bucketSizes, calls;
  MemoryBudget budget; ///< --max-arena, --max-weights, checked at every build
  /// --bisect: when outputs disagree, find the first node that diverges
  /// from onnxruntime run by this Python (which needs onnx, onnxruntime).
  bool bisect = false;
  std::string python = "python3";
  /// When set (by the bisection), per-output lines are not printed; each
  /// mismatching output's index and line are recorded here instead.
  std::vector<std::pair<size_t, std::string>> *mismatches = nullptr;
};

/// Returns the process exit code: 0 when every data set matches.
int runVerify(const VerifyRequest &request);

/// The --bisect step (Bisect.cpp): exposes every node output of the model
/// as a graph output, runs data set 0 through onnxcc and onnxruntime, and
/// names the first node, in graph order, whose output differs. Returns 1
/// when one does (or on error), 0 when all match.
int runBisect(const VerifyRequest &request);

} // namespace onnxcc

#endif // ONNXCC_COMPILER_VERIFY_H
