//===- Verify.h - `onnxcc verify`: compile, build, run, compare -*- C++ -*-===//
#ifndef ONNXCC_COMPILER_VERIFY_H
#define ONNXCC_COMPILER_VERIFY_H

#include <map>
#include <string>

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
};

/// Returns the process exit code: 0 when every data set matches.
int runVerify(const VerifyRequest &request);

} // namespace onnxcc

#endif // ONNXCC_COMPILER_VERIFY_H
