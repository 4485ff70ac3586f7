//===- Compare.h - outputs against references, any element type -*- C++ -*-===//
#ifndef ONNXCC_COMPILER_COMPARE_H
#define ONNXCC_COMPILER_COMPARE_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace onnxcc {

/// How an output compares with its reference.
struct Comparison {
  size_t count = 0;     ///< elements compared
  size_t mismatches = 0;
  size_t worst = 0;     ///< index of the largest absolute error
  double maxAbs = 0, maxRel = 0;
  std::string gotWorst, wantWorst; ///< the values at `worst`, printed
};

/// Compares two little-endian buffers of `element` values: floats (f16,
/// bf16, f32, f64) pass when |got - ref| <= atol + rtol * |ref| and NaN
/// meets NaN; integers and bools must be equal.
Comparison compareTensors(mlir::Type element, llvm::ArrayRef<char> got,
                          llvm::ArrayRef<char> ref, double atol, double rtol);

/// String tensors travel between `onnxcc verify` and its harness as their
/// elements one after another, each followed by a NUL byte. Appends
/// `strings` in that form to `out`; false when one holds a NUL byte.
bool packStrings(llvm::ArrayRef<std::string> strings, std::vector<char> &out);

/// Compares packed strings `got` with `ref` byte-exactly: every element
/// that differs (or is missing) is a mismatch; maxAbs is 1 if any does.
/// The first mismatch is shown, escaped.
Comparison compareStrings(llvm::ArrayRef<char> got,
                          llvm::ArrayRef<std::string> ref);

} // namespace onnxcc

#endif // ONNXCC_COMPILER_COMPARE_H
