//===- BodyPrinter.h - fused scalar bodies as C++ lambdas -------*- C++ -*-===//
//
// Prepare, then print (CIRCT's ExportVerilog): every value of the body gets
// a name (a0.. for arguments, t0.. for results) and a C++ type first, then
// each op prints as one statement on its own line. A vectorizable body
// (kernel::isVectorizableBody) prints as a generic lambda whose `auto`
// values are floats or SIMD batches; any other body names its C++ types
// and runs one element at a time.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_CODEGEN_CPU_BODYPRINTER_H
#define ONNXCC_CODEGEN_CPU_BODYPRINTER_H

#include "mlir/IR/Block.h"
#include "mlir/Support/IndentedOstream.h"
#include <string>

namespace onnxcc {

/// The C++ storage type of tensor elements of `element` ("float",
/// "std::int64_t", "onnxcc::rt::f16"), or "" if there is none.
std::string cppElementType(mlir::Type element);

/// Prints `body` (arith/math ops ending in kernel.yield) as a lambda
/// expression at the stream's indentation. Fails, with an error on the
/// offending op, for an op without a C++ spelling.
mlir::LogicalResult printBodyLambda(mlir::raw_indented_ostream &os,
                                    mlir::Block &body);

/// A float literal that reads back to exactly `v` ("0.5f", "1e-05f").
std::string formatFloat(float v);
/// A double literal that reads back to exactly `v` ("0.5", "1e-05").
std::string formatDouble(double v);

} // namespace onnxcc

#endif // ONNXCC_CODEGEN_CPU_BODYPRINTER_H
