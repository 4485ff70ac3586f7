//===- NormalizationKernelOps.td - normalisation kernels ---*- tablegen -*-===//
//
// Included at the end of KernelOps.td (Kernel_Op, StaticTensor).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_KERNEL_NORMALIZATION_OPS
#define ONNXCC_KERNEL_NORMALIZATION_OPS

include "dialects/Kernel/KernelOps.td"

def Kernel_LayerNormOp : Kernel_Op<"layer_norm", [Pure, AttrSizedOperandSegments]> {
  let summary = "normalise each row of [outer, inner], then scale and shift";
  let description = [{
    The input is viewed as rows of the dimensions from `axis` on. Each row
    is normalised with its mean and variance (`rms`: divided by its root
    mean square, no mean) computed in float (double for f64), then
    multiplied by `scale` and shifted by `bias`. Scale and bias have the
    row's shape (one row for all) or the input's (a row each). `stats`
    are either none or the row means and inverse standard deviations,
    shaped like the input with the row dims set to 1. With `skip` (the
    input's type; onnxcc-fuse-elementwise folds a residual Add into it)
    the row normalised is input + skip, rounded to the element type as an
    Add would store it.

    ```mlir
    %y, %m, %r = kernel.layer_norm %x, %s, %b {axis = 1 : i64, epsilon = 1.0e-05 : f32, rms = false} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
    ```
  }];
  let arguments = (ins StaticTensor:$input, Optional<StaticTensor>:$skip,
                   StaticTensor:$scale, Optional<StaticTensor>:$bias,
                   I64Attr:$axis, F32Attr:$epsilon, BoolAttr:$rms);
  let results = (outs StaticTensor:$output, Variadic<StaticTensor>:$stats);
  let assemblyFormat = [{
    $input (`skip` $skip^)? `,` $scale (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Kernel_GroupNormOp : Kernel_Op<"group_norm", [Pure]> {
  let summary = "normalise groups of channels of [N, C, spatial], scale and shift per channel";
  let description = [{
    Instance normalisation is one channel per group. `scale` and `bias`
    have one value per channel.

    ```mlir
    %y = kernel.group_norm %x, %s, %b {groups = 2 : i64, epsilon = 1.0e-05 : f32} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StaticTensor:$scale,
                   StaticTensor:$bias, I64Attr:$groups, F32Attr:$epsilon);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Kernel_LRNOp : Kernel_Op<"lrn", [Pure]> {
  let summary = "local response normalisation across the channels of [N, C, spatial]";
  let description = [{
    ```mlir
    %y = kernel.lrn %x {size = 3 : i64, alpha = 1.0e-04 : f32, beta = 0.75 : f32, bias = 1.0 : f32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, I64Attr:$size, F32Attr:$alpha,
                   F32Attr:$beta, F32Attr:$bias);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_AxisNormOp : Kernel_Op<"axis_norm", [Pure]> {
  let summary = "log_softmax or hardmax along one axis";
  let description = [{
    `kind` is "log_softmax" (x - max - log(sum(exp(x - max)))) or
    "hardmax" (1 at the first largest element, 0 elsewhere).

    ```mlir
    %y = kernel.axis_norm %x {kind = "log_softmax", axis = 1 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StrAttr:$kind, I64Attr:$axis);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // ONNXCC_KERNEL_NORMALIZATION_OPS
