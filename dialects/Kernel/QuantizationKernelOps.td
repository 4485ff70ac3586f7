//===- QuantizationKernelOps.td - integer product kernels --*- tablegen -*-===//
//
// The integer products of quantised tensors, accumulated in int32. The
// requantising ONNX ops (QLinearMatMul, QLinearConv) lower to one of these
// followed by a kernel.elementwise that scales, rounds and saturates; the
// per-element (de)quantisations are kernel.elementwise bodies alone.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_KERNEL_QUANTIZATION_OPS
#define ONNXCC_KERNEL_QUANTIZATION_OPS

def Kernel_MatMulIntegerOp : Kernel_Op<"matmul_integer",
    [Pure, AttrSizedOperandSegments]> {
  let summary = "int32 (a - a_zero_point) x (b - b_zero_point), batched";
  let description = [{
    `a` is [..., M, K], `b` [..., K, N] (both of rank >= 2), the batch
    dimensions broadcast to the result's. `a_zero_point` holds 1 or M
    values (one per row), `b_zero_point` 1 or N (one per column); absent
    ones are 0. Sums wrap around in int32.

    ```mlir
    %y = kernel.matmul_integer %a, %b a_zero_point %az : (tensor<2x4xui8>, tensor<4x3xi8>, tensor<ui8>) -> tensor<2x3xi32>
    ```
  }];
  let arguments = (ins StaticTensor:$a, StaticTensor:$b,
                       Optional<StaticTensor>:$a_zero_point,
                       Optional<StaticTensor>:$b_zero_point);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = [{
    $a `,` $b (`a_zero_point` $a_zero_point^)? (`b_zero_point` $b_zero_point^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Kernel_ConvIntegerOp : Kernel_Op<"conv_integer",
    [Pure, AttrSizedOperandSegments]> {
  let summary = "int32 2-D convolution of (x - x_zero_point), (w - w_zero_point)";
  let description = [{
    NCHW, grouped and dilated like `kernel.conv2d`; `pads` is [top, left,
    bottom, right] and padding contributes nothing (it reads as the zero
    point). `x_zero_point` holds 1 value, `w_zero_point` 1 or one per
    output channel.

    ```mlir
    %y = kernel.conv_integer %x, %w {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x3x3xui8>, tensor<1x1x2x2xui8>) -> tensor<1x1x2x2xi32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StaticTensor:$weight,
                       Optional<StaticTensor>:$x_zero_point,
                       Optional<StaticTensor>:$w_zero_point,
                       DenseI64ArrayAttr:$pads, DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations, I64Attr:$group);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = [{
    $input `,` $weight (`x_zero_point` $x_zero_point^)? (`w_zero_point` $w_zero_point^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Kernel_DynamicQuantParamsOp : Kernel_Op<"dynamic_quant_params", [Pure]> {
  let summary = "uint8 scale and zero point covering [min(0, x), max(0, x)]";
  let description = [{
    scale = (max(0, max(x)) - min(0, min(x))) / 255, or 1 when that range
    is empty (as onnxruntime); zero_point = saturate(round_half_even(
    -min / scale)). NaNs are skipped.

    ```mlir
    %s, %z = kernel.dynamic_quant_params %x : (tensor<6xf32>) -> (tensor<f32>, tensor<ui8>)
    ```
  }];
  let arguments = (ins StaticTensor:$input);
  let results = (outs StaticTensor:$scale, StaticTensor:$zero_point);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // ONNXCC_KERNEL_QUANTIZATION_OPS
