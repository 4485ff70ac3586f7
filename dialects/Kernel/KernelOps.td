//===- KernelOps.td - kernel-level dialect operations ------*- tablegen -*-===//
#ifndef ONNXCC_KERNEL_OPS
#define ONNXCC_KERNEL_OPS

include "dialects/Kernel/KernelDialect.td"
include "dialects/Kernel/KernelInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

class Kernel_Op<string mnemonic, list<Trait> traits = []>
    : Op<Kernel_Dialect, mnemonic, traits>;

def StaticTensor : Type<And<[AnyRankedTensor.predicate,
                             CPred<"::llvm::cast<::mlir::ShapedType>($_self).hasStaticShape()">]>,
                        "statically shaped tensor">;

def Kernel_WeightOp : Kernel_Op<"weight",
    [ConstantLike, Pure, AllTypesMatch<["value", "output"]>]> {
  let summary = "a constant tensor stored in the weight blob";
  let description = [{
    The kernel level's own constant, so that emitters read only this
    dialect. The memory planner gives it `kernel.blob_offset`, its place in
    the weight blob (identical contents share one place).

    ```mlir
    %w = kernel.weight dense_resource<w> : tensor<256x784xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def Kernel_YieldOp : Kernel_Op<"yield", [Pure, Terminator, ReturnLike]> {
  let summary = "yields the scalar result of an epilogue or elementwise body";
  let description = [{
    ```mlir
    kernel.yield %r : f32
    ```
  }];
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def Kernel_GemmOp : Kernel_Op<"gemm", [Pure, IsolatedFromAbove,
    Kernel_ThreadedOpInterface]> {
  let summary = "Y = epilogue(alpha * A' * B' + beta * C)";
  let description = [{
    Row-major GEMM. `c` broadcasts from [N], [1, N], [M, 1] or [M, N]. The
    `epilogue` region maps each output element (its block argument) to the
    stored value.

    ```mlir
    %y = kernel.gemm %a, %b bias %c {trans_b = true} : (tensor<1x784xf32>, tensor<256x784xf32>, tensor<256xf32>) -> tensor<1x256xf32> epilogue {
    ^bb0(%v: f32):
      %zero = arith.constant 0.0 : f32
      %r = arith.maximumf %v, %zero : f32
      kernel.yield %r : f32
    }
    ```

    `threads` is how many threads split the product, set by
    onnxcc-choose-threads (f32 only; 1: the calling thread alone).

    `packed_b`: B is a constant laid out in panels of 32 columns, as
    [ceil(N / 32), K, 32] zero-padded (element (k, j) at panel j / 32,
    row k, column j % 32), written by onnxcc-pack-gemm-weights so that the
    runtime reads it as one stream (f32, neither operand transposed).
    With trans_b, B^T (N rows of K) is a constant in groups of 16 rows, as
    [ceil(N / 16), K, 16]: group g holds, for each whole block of 16 k,
    rows 16g to 16g + 15's 16 floats one row after another, then those
    rows' last K % 16 floats row by row; rows past N are zeros (f32, A not
    transposed; gemm_packed_dots.h).
  }];
  let arguments = (ins StaticTensor:$a, StaticTensor:$b,
                   Optional<StaticTensor>:$c,
                   DefaultValuedAttr<F32Attr, "1.0">:$alpha,
                   DefaultValuedAttr<F32Attr, "1.0">:$beta,
                   DefaultValuedAttr<BoolAttr, "false">:$trans_a,
                   DefaultValuedAttr<BoolAttr, "false">:$trans_b,
                   DefaultValuedAttr<I64Attr, "1">:$threads,
                   DefaultValuedAttr<BoolAttr, "false">:$packed_b);
  let results = (outs StaticTensor:$output);
  let regions = (region AnyRegion:$epilogue);
  let assemblyFormat = [{
    $a `,` $b (`bias` $c^)? attr-dict `:` functional-type(operands, results)
    (`epilogue` $epilogue^)?
  }];
  let hasVerifier = 1;
}

def Kernel_Conv2dOp : Kernel_Op<"conv2d", [Pure, IsolatedFromAbove,
    DeclareOpInterfaceMethods<Kernel_ScratchOpInterface>,
    Kernel_ThreadedOpInterface]> {
  let summary = "grouped, dilated 2-D convolution (NCHW) with epilogue";
  let description = [{
    ```mlir
    %y = kernel.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```

    `algorithm` is the kernel the emitter calls, chosen by
    onnxcc-choose-conv-algorithm: `im2col` (columns into planned scratch,
    then GEMM; any convolution), `pointwise` (a 1x1, stride-1, unpadded
    convolution multiplies its input directly; no scratch), `depthwise`
    (one input and one output channel per group: each output sums its
    taps in registers; no scratch), `implicit_gemm` (one group: the GEMM
    reads its columns straight from zero-padded copies of the input
    channels, each row split into its stride's column phases, the
    scratch) or `winograd` (3x3, stride 1, one
    group: Winograd F(2,3), 16 GEMMs in the transformed domain; the weight
    is then U = G g G^T as [16, O, C], which the pass choosing it writes,
    and the scratch holds the transformed input and the products),
    `pointwise_lanes` (a `pointwise` f32 one of one group with the output
    channels in the vector lanes; the weight is then W^T in panels of 32
    output channels, [ceil(O / 32), C, 32], zero past O, which the pass
    choosing it writes; no scratch) or `im2col_lanes` (any f32 one of one
    group the same way over im2col's rows: the weight is [ceil(O / 32), C,
    KH, KW, 32], and the scratch holds the C * KH * KW rows of OH * OW
    positions of one image, row-major).

    `threads` is how many threads split it, set by onnxcc-choose-threads.
    A grouped `im2col` convolution gives each thread its own scratch, so
    its scratch is `threads` copies. `split_depth` (a `pointwise` one of
    one group on several threads, also set by onnxcc-choose-threads) has
    the threads split its input channels instead of its outputs, each
    summing its share into a partial output: its scratch holds the
    `threads - 1` partials besides the output's own.
  }];
  let arguments = (ins StaticTensor:$input, StaticTensor:$weight,
                   StaticTensor:$bias,
                   DenseI64ArrayAttr:$pads, DenseI64ArrayAttr:$strides,
                   DenseI64ArrayAttr:$dilations, I64Attr:$group,
                   DefaultValuedStrAttr<StrAttr, "im2col">:$algorithm,
                   DefaultValuedAttr<I64Attr, "1">:$threads,
                   DefaultValuedAttr<BoolAttr, "false">:$split_depth);
  let results = (outs StaticTensor:$output);
  let regions = (region AnyRegion:$epilogue);
  let assemblyFormat = [{
    $input `,` $weight `,` $bias attr-dict `:` functional-type(operands, results)
    (`epilogue` $epilogue^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Floats of scratch the algorithm needs (im2col columns, Winograd
    /// operands, implicit GEMM planes, split_depth's partial outputs; 0
    /// for the others).
    int64_t getScratchElements();
    /// Whether `algorithm` may be used for this convolution's shape.
    bool canUse(llvm::StringRef algorithm);
    /// Whether the weight is in its algorithm's own layout (`winograd`,
    /// `pointwise_lanes`, `im2col_lanes`), no longer OIHW: the op may then
    /// run that algorithm only.
    bool hasLaidOutWeight();
    /// The window (KH, KW), whatever the weight's layout.
    std::array<int64_t, 2> getWindow();
    /// Multiply-adds of the direct convolution (the threading threshold).
    int64_t getMacs();
  }];
}

def Kernel_ElementwiseOp : Kernel_Op<"elementwise", [Pure, IsolatedFromAbove,
    Kernel_ThreadedOpInterface]> {
  let summary = "one loop applying a scalar body to broadcast inputs";
  let description = [{
    The body takes one scalar per input (inputs broadcast to the result
    shape) and yields the output element. Fusion grows the body instead of
    adding loops.

    `threads`, set by onnxcc-choose-threads, is how many threads split the
    loop: only a float loop whose inputs each have the result's shape or
    one element, with a body that has vector forms (map()'s case).

    ```mlir
    %y = kernel.elementwise %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%x: f32, %z: f32):
      %s = arith.addf %x, %z : f32
      kernel.yield %s : f32
    }
    ```
  }];
  let arguments = (ins Variadic<StaticTensor>:$inputs,
                   DefaultValuedAttr<I64Attr, "1">:$threads);
  let results = (outs StaticTensor:$output);
  let regions = (region SizedRegion<1>:$body);
  let extraClassDeclaration = [{
    /// map()'s case: float throughout, every input of the result's shape
    /// or one element, and a body with vector forms.
    bool isDenseFloatMap();
  }];
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results) $body";
  let hasVerifier = 1;
}

def Kernel_ConcatOp : Kernel_Op<"concat", [Pure]> {
  let summary = "concatenate along an axis (a no-op when planned in place)";
  let description = [{
    ```mlir
    %y = kernel.concat %a, %b {axis = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x5x4x4xf32>
    ```
  }];
  let arguments = (ins Variadic<StaticTensor>:$inputs, I64Attr:$axis);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
}

def Kernel_ViewOp : Kernel_Op<"view", [Pure]> {
  let summary = "reinterpret a contiguous buffer with another shape";
  let description = [{
    Reshape, Flatten, Squeeze and Unsqueeze: the result aliases the input's
    buffer, so no code is emitted.

    ```mlir
    %y = kernel.view %x : (tensor<1x4x2x2xf32>) -> tensor<1x16xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_TransposeOp : Kernel_Op<"transpose", [Pure]> {
  let summary = "permute dimensions into a new buffer";
  let description = [{
    ```mlir
    %y = kernel.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Kernel_SoftmaxOp : Kernel_Op<"softmax", [Pure, Kernel_ThreadedOpInterface]> {
  let summary = "softmax over the last dimension after moving `axis` there";
  let description = [{
    `threads` (onnxcc-choose-threads) splits the rows of an f32 softmax
    over its last axis.

    ```mlir
    %y = kernel.softmax %x {axis = 1 : i64} : (tensor<1x10xf32>) -> tensor<1x10xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, I64Attr:$axis,
                   DefaultValuedAttr<I64Attr, "1">:$threads);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

include "dialects/Kernel/LinalgKernelOps.td"
include "dialects/Kernel/ConvPoolKernelOps.td"
include "dialects/Kernel/RecurrentKernelOps.td"
include "dialects/Kernel/QuantizationKernelOps.td"
include "dialects/Kernel/DataMovementKernelOps.td"
include "dialects/Kernel/NormalizationKernelOps.td"
include "dialects/Kernel/ReductionKernelOps.td"
include "dialects/Kernel/ImageOps.td"
include "dialects/Kernel/AttentionKernelOps.td"
include "dialects/Kernel/RotaryKernelOps.td"
include "dialects/Kernel/MlKernelOps.td"
include "dialects/Kernel/MlStringKernelOps.td"

#endif // ONNXCC_KERNEL_OPS
