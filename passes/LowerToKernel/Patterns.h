//===- Patterns.h - onnx-to-kernel lowering patterns ------------*- C++ -*-===//
//
// The lowering of each op family lives in its own file and contributes its
// patterns through a populate function. Adding an operator touches its
// ODS definition, its importer entry and one entry here (a body builder
// for elementwise ops, a pattern otherwise).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_PASSES_LOWERTOKERNEL_PATTERNS_H
#define ONNXCC_PASSES_LOWERTOKERNEL_PATTERNS_H

#include "dialects/Kernel/KernelOps.h"
#include "dialects/Onnx/OnnxOps.h"
#include "passes/LowerToKernel/ScalarBuilder.h"
#include "mlir/IR/PatternMatch.h"

namespace onnxcc {

/// The scalar body of an elementwise op: the result from the arguments
/// (one per input, in compute types). `elements` are the inputs' tensor
/// element types (for signedness), `result` the output's.
using ScalarBodyFn = std::function<mlir::Value(
    ScalarBuilder &s, mlir::ValueRange args, mlir::TypeRange elements,
    mlir::Type result)>;

/// Builds `kernel.elementwise` over `inputs` producing `resultType`.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Type resultType, mlir::ValueRange inputs,
                             const ScalarBodyFn &body);

/// Fails (with a match-failure reason naming the type) unless every
/// operand of `op` has f32 elements: the kernels that are f32 only.
mlir::LogicalResult requireF32(mlir::Operation *op, mlir::PatternRewriter &rewriter);

using kernel::kFewDotColumns;
using kernel::kGemmPanelRows;

/// The constant `v` ([..., R, C]) as a kernel.weight with its last two dims
/// swapped ([..., C, R]): a compile-time layout for a kernel that streams
/// the transposed form. Null unless `v` is a constant of rank >= 2 whose
/// elements read exactly as doubles (float types and integers below 2^53).
mlir::Value transposedWeight(mlir::PatternRewriter &rewriter,
                             mlir::Location loc, mlir::Value v);

void populateElementwisePatterns(mlir::RewritePatternSet &patterns);
/// `layoutRows`: the LowerToKernel option of that name.
void populateLinalgPatterns(mlir::RewritePatternSet &patterns, int64_t layoutRows);
void populateConvPoolPatterns(mlir::RewritePatternSet &patterns);
void populateDataMovementPatterns(mlir::RewritePatternSet &patterns);
void populateNormalizationPatterns(mlir::RewritePatternSet &patterns);
void populateRecurrentPatterns(mlir::RewritePatternSet &patterns,
                               int64_t layoutRows);
void populateQuantizationPatterns(mlir::RewritePatternSet &patterns);
void populateReductionPatterns(mlir::RewritePatternSet &patterns);
void populateImagePatterns(mlir::RewritePatternSet &patterns);
void populateAttentionPatterns(mlir::RewritePatternSet &patterns);
void populateRotaryPatterns(mlir::RewritePatternSet &patterns);
void populateMlPatterns(mlir::RewritePatternSet &patterns);

} // namespace onnxcc

#endif // ONNXCC_PASSES_LOWERTOKERNEL_PATTERNS_H
