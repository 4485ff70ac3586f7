//===- KernelOps.h - kernel-level dialect -----------------------*- C++ -*-===//
#ifndef ONNXCC_DIALECTS_KERNEL_KERNELOPS_H
#define ONNXCC_DIALECTS_KERNEL_KERNELOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <array>

#include "dialects/Kernel/KernelDialect.h.inc"

namespace onnxcc::kernel {
/// Columns per panel of a `packed_b` GEMM's B: the runtime's kPanelPad
/// (gemm_packed.h), which every ISA's register panel divides.
constexpr int64_t kPackedPanel = 32;
/// Rows of A from which the runtime's GEMM streams a B [K, N] faster than
/// it takes dot products with B^T [N, K] (its register panels are 4 rows):
/// the lowering transposes a constant B^T from there, and below it
/// onnxcc-pack-gemm-weights packs B^T for the dot products.
constexpr int64_t kGemmPanelRows = 4;
/// Columns of C below which a product with a constant B runs as dot
/// products with B^T's rows at any row count: the runtime's kFewColumnsMax
/// (gemm.h). Fewer columns than a 16-lane vector leave a register tile's
/// lanes empty; the lowering gives such a B as B^T.
constexpr int64_t kFewDotColumns = 16;
/// Rows per group and k per block of a `packed_b` GEMM's transposed B: the
/// runtime's kDotRows and kDotDepth (gemm_packed_dots.h), which every
/// ISA's dot group and vector divide.
constexpr int64_t kPackedDotRows = 16;
constexpr int64_t kPackedDotDepth = 16;

/// ThreadedOpInterface's verifier: threads in [1, kMaxThreads], more than
/// one only for an f32 result.
mlir::LogicalResult verifyThreadCount(mlir::Operation *op);
} // namespace onnxcc::kernel

#include "dialects/Kernel/KernelInterfaces.h.inc"

#define GET_OP_CLASSES
#include "dialects/Kernel/KernelOps.h.inc"

namespace onnxcc::kernel {
/// The scalar type a fused body computes in for tensor elements of type
/// `element`: f16 and bf16 compute in f32; integers are signless (an
/// unsigned tensor's ops say how they read the bits); others are as is.
mlir::Type computeType(mlir::Type element);

/// Whether a scalar body runs on SIMD batches of f32 as well as on scalars:
/// every argument and value is f32 (or the i1 of a float comparison) and
/// every op has a batch form in runtime-support (scalar_ops.h). GEMM and
/// convolution epilogues must be; elementwise loops use SIMD when they are.
bool isVectorizableBody(mlir::Block &body);

/// Whether `op` reads its weight first to last and last to first on
/// alternate calls (runtime-support/onnxcc/sweep.h): a `packed_b` GEMM
/// with trans_b, a Linear layer's weight at a few rows, which one call
/// reads once and the next reads again. The planner reserves the
/// direction's byte for it and the emitter passes the direction.
bool alternatesSweep(mlir::Operation *op);
} // namespace onnxcc::kernel

#endif // ONNXCC_DIALECTS_KERNEL_KERNELOPS_H
