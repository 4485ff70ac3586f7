//===- ConvPoolKernelOps.td - windowed kernels over 1 to 3 axes -*- tablegen -*-===//
//
// Convolution (beyond kernel.conv2d, the im2col + GEMM path in
// KernelOps.td), transposed convolution, pooling, unpooling and col2im,
// over 1 to 3 spatial axes (N, C, spatial...). Window lists have one value
// per spatial axis; `pads` has two ([begins..., ends...]). Verifiers are in
// ConvPoolKernelOps.cpp, printers in codegen/cpu/ConvPoolPrinters.cpp, the
// runtime in runtime-support/onnxcc/conv.h and pool.h.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_KERNEL_CONVPOOL_OPS
#define ONNXCC_KERNEL_CONVPOOL_OPS

def Kernel_ConvOp : Kernel_Op<"conv", [Pure]> {
  let summary = "direct grouped, dilated convolution over 1 to 3 axes";
  let description = [{
    Each output element sums its window's taps inside the image (computed
    per window and axis, never tested per tap). For the element types and
    ranks kernel.conv2d does not take; f16 and bf16 accumulate in f32.

    ```mlir
    %y = kernel.conv %x, %w, %b {pads = array<i64: 1, 1>, strides = array<i64: 1>, dilations = array<i64: 1>, group = 1 : i64} : (tensor<1x2x8xf64>, tensor<4x2x3xf64>, tensor<4xf64>) -> tensor<1x4x8xf64>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StaticTensor:$weight,
                   Optional<StaticTensor>:$bias,
                   DenseI64ArrayAttr:$pads, DenseI64ArrayAttr:$strides,
                   DenseI64ArrayAttr:$dilations, I64Attr:$group);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Kernel_DeformConv2dOp : Kernel_Op<"deform_conv2d", [Pure, AttrSizedOperandSegments]> {
  let summary = "2-D deformable convolution (bilinear taps, zero outside)";
  let description = [{
    ```mlir
    %y = kernel.deform_conv2d %x, %w, %off {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset_group = 1 : i64} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1x8x2x2xf32>) -> tensor<1x1x2x2xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StaticTensor:$weight,
                   StaticTensor:$offset, Optional<StaticTensor>:$bias,
                   Optional<StaticTensor>:$mask,
                   DenseI64ArrayAttr:$pads, DenseI64ArrayAttr:$strides,
                   DenseI64ArrayAttr:$dilations, I64Attr:$group,
                   I64Attr:$offset_group);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = [{
    $input `,` $weight `,` $offset (`bias` $bias^)? (`mask` $mask^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Kernel_ConvTransposeOp : Kernel_Op<"conv_transpose", [Pure]> {
  let summary = "transposed convolution over 1 to 3 axes (f32, f64)";
  let description = [{
    Weight [C, M/group, k...]. Input element i of an axis meets output
    element i * stride - pad_begin + k * dilation; `pads` may be negative
    (an output_shape past the taps' reach). The output starts as the bias
    and each input row is added into it (a scatter whose ranges are
    computed per kernel tap).

    ```mlir
    %y = kernel.conv_transpose %x, %w {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x7x7xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StaticTensor:$weight,
                   Optional<StaticTensor>:$bias,
                   DenseI64ArrayAttr:$pads, DenseI64ArrayAttr:$strides,
                   DenseI64ArrayAttr:$dilations, I64Attr:$group);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Kernel_PoolOp : Kernel_Op<"pool", [Pure, Kernel_ThreadedOpInterface]> {
  let summary = "max, average or Lp pooling over 1 to 3 axes";
  let description = [{
    `kind` is "max", "avg" or "lp". Windows are clamped to the input (a
    ceil_mode window hanging past the padding sees only real elements);
    `count_include_pad` makes "avg" divide by the taps inside the padded
    input; "lp" computes (sum |x|^p)^(1/p). A "max" pool may also return
    `indices`: each maximum's flat index in the input, its spatial part
    row-major, or column-major with storage_order = 1.

    `threads` (onnxcc-choose-threads) splits the channels; a pool with
    `indices` runs on the calling thread alone.

    ```mlir
    %y = kernel.pool %x {kind = "max", kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StrAttr:$kind,
                   DenseI64ArrayAttr:$kernel_shape, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                   DefaultValuedAttr<BoolAttr, "false">:$count_include_pad,
                   DefaultValuedAttr<I64Attr, "2">:$p,
                   DefaultValuedAttr<I64Attr, "0">:$storage_order,
                   DefaultValuedAttr<I64Attr, "1">:$threads);
  let results = (outs StaticTensor:$output, Optional<StaticTensor>:$indices);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_GlobalPoolOp : Kernel_Op<"global_pool", [Pure]> {
  let summary = "mean, maximum or Lp norm over the spatial extent of each channel";
  let description = [{
    ```mlir
    %y = kernel.global_pool %x {kind = "avg"} : (tensor<1x4x7x7xf32>) -> tensor<1x4x1x1xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StrAttr:$kind,
                   DefaultValuedAttr<I64Attr, "2">:$p);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_MaxUnpoolOp : Kernel_Op<"max_unpool", [Pure]> {
  let summary = "scatter values to flat indices of the unpooled shape";
  let description = [{
    The output is zeros except where an index of `indices` (a flat index
    into a tensor of shape `unpooled_shape`, which the output may enlarge)
    puts its input value; indices outside that tensor are skipped.

    ```mlir
    %y = kernel.max_unpool %x, %i {unpooled_shape = array<i64: 1, 1, 4, 4>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x5x5xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StaticTensor:$indices,
                   DenseI64ArrayAttr:$unpooled_shape);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input `,` $indices attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_Col2ImOp : Kernel_Op<"col2im", [Pure]> {
  let summary = "add column blocks back into images over 1 to 3 axes";
  let description = [{
    Input [N, C * prod(block), blocks], output [N, C, image...]; block
    element k of block b lands on the image element the window of block b
    puts tap k on, if that is inside the image.

    ```mlir
    %y = kernel.col2im %x {block_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x4x16xf32>) -> tensor<1x1x5x5xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, DenseI64ArrayAttr:$block_shape,
                   DenseI64ArrayAttr:$pads, DenseI64ArrayAttr:$strides,
                   DenseI64ArrayAttr:$dilations);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // ONNXCC_KERNEL_CONVPOOL_OPS
