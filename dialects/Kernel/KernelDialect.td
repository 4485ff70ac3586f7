//===- KernelDialect.td - kernel-level dialect -------------*- tablegen -*-===//
//
// The kernel-level dialect: one op per runtime-support kernel call, with
// fused epilogues and elementwise chains as regions of scalar arith/math
// ops. Tensors here always have static shapes; --onnxcc-plan-memory gives
// every value a home (an arena offset, a graph output, an alias) through
// the discardable attributes documented in docs/design.md.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_KERNEL_DIALECT
#define ONNXCC_KERNEL_DIALECT

include "mlir/IR/OpBase.td"

def Kernel_Dialect : Dialect {
  let name = "kernel";
  let summary = "fused kernels over statically planned buffers";
  let cppNamespace = "::onnxcc::kernel";
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
  let extraClassDeclaration = [{
    /// Per result: the byte offset of its buffer inside the buffer that
    /// kBuffersAttr names.
    static constexpr ::llvm::StringLiteral kOffsetsAttr = "kernel.offsets";
    /// Per result: -1 for the workspace arena, k for graph output k (the
    /// result is computed in the caller's output buffer).
    static constexpr ::llvm::StringLiteral kBuffersAttr = "kernel.buffers";
    /// On kernel.weight: byte offset in the weight blob.
    static constexpr ::llvm::StringLiteral kBlobOffsetAttr = "kernel.blob_offset";
    /// Module attribute: bytes of the weight blob.
    static constexpr ::llvm::StringLiteral kBlobBytesAttr = "kernel.blob_bytes";
    /// Byte offset of an op's temporary scratch buffer (im2col).
    static constexpr ::llvm::StringLiteral kScratchAttr = "kernel.scratch_offset";
    /// Most threads a kernel may split across (--threads).
    static constexpr int64_t kMaxThreads = 256;
    /// Set on a concat whose inputs were planned inside its result.
    static constexpr ::llvm::StringLiteral kInPlaceAttr = "kernel.in_place";
    /// Module attribute: the arena size the planner chose.
    static constexpr ::llvm::StringLiteral kWorkspaceAttr = "kernel.workspace_bytes";
    /// Module attribute: where in the arena predict() keeps what one call
    /// leaves to the next (the direction alternating kernels read their
    /// weights in, runtime-support/onnxcc/sweep.h), when one does.
    static constexpr ::llvm::StringLiteral kCallStateAttr = "kernel.call_state_offset";
    /// Module attributes reporting the plan's quality: the aligned sum of all
    /// planned buffers (no reuse), the peak live total (a lower bound) and
    /// the largest pair of buffers live together.
    static constexpr ::llvm::StringLiteral kUnplannedAttr = "kernel.unplanned_bytes";
    static constexpr ::llvm::StringLiteral kPeakLiveAttr = "kernel.peak_live_bytes";
    static constexpr ::llvm::StringLiteral kLivePairAttr = "kernel.live_pair_bytes";
  }];
}

#endif // ONNXCC_KERNEL_DIALECT
