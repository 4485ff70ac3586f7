//===- ScalarBodyEmitter.h - scalar regions as C++ lambdas ------*- C++ -*-===//
#ifndef ONNXCC_CODEGEN_CPU_SCALARBODYEMITTER_H
#define ONNXCC_CODEGEN_CPU_SCALARBODYEMITTER_H

#include "mlir/IR/Block.h"
#include <string>

namespace onnxcc {

/// Prints an elementwise body or epilogue (arith/math ops ending in
/// kernel.yield) as a generic lambda, `[](auto a0, auto a1) {...}`, that
/// runs on both float and SIMD batches. Bodies were checked by the kernel
/// verifiers; an op without a spelling prints a #error line.
std::string emitScalarLambda(mlir::Block &body);

/// A float literal that reads back to exactly `v` ("0.5f", "1e-05f").
std::string formatFloat(float v);

} // namespace onnxcc

#endif // ONNXCC_CODEGEN_CPU_SCALARBODYEMITTER_H
