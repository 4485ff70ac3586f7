//===- Compare.h - outputs against references, any element type -*- C++ -*-===//
#ifndef ONNXCC_COMPILER_COMPARE_H
#define ONNXCC_COMPILER_COMPARE_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>

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

} // namespace onnxcc

#endif // ONNXCC_COMPILER_COMPARE_H
