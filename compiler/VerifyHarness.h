//===- VerifyHarness.h - the programs `onnxcc verify` builds ----*- C++ -*-===//
#ifndef ONNXCC_COMPILER_VERIFYHARNESS_H
#define ONNXCC_COMPILER_VERIFYHARNESS_H

#include <string>

namespace onnxcc {

/// main() for generated model NAME: argv holds one path per input (read),
/// then one per output (written), in port order.
std::string harnessSource(const std::string &name, int numInputs,
                          int numOutputs);

/// The same for shape buckets: argv[1] is the row count given to
/// NAME::predict(rows, ...); each file holds that many rows.
std::string bucketHarnessSource(const std::string &name, int numInputs,
                                int numOutputs);

} // namespace onnxcc

#endif // ONNXCC_COMPILER_VERIFYHARNESS_H
