//===- ConvPoolOps.td - convolution and pooling ONNX operators -*- tablegen -*-===//
//
// Conv, ConvTranspose, the windowed and global pools, MaxUnpool and Col2Im
// over any number of spatial axes (the kernels take 1 to 3). Window lists
// follow ONNX: `pads` is [begin_0, ..., begin_n-1, end_0, ..., end_n-1];
// empty lists mean ONNX's defaults, filled in by the shape rules
// (ConvPoolShapes.cpp), which also resolve auto_pad. The type hooks are in
// ConvPoolOps.cpp, the lowering in passes/LowerToKernel/ConvPoolPatterns.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_ONNX_CONVPOOL_OPS
#define ONNXCC_ONNX_CONVPOOL_OPS

include "dialects/Onnx/OnnxBase.td"

def Onnx_ConvOp : Onnx_InferredOp<"conv"> {
  let summary = "N-d convolution (N, C, spatial...), grouped and dilated";
  let description = [{
    ```mlir
    %y = onnx.conv %x, %w, %b {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$weight,
                   Optional<AnyTensor>:$bias,
                   DenseI64ArrayAttr:$kernel_shape, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                   DefaultValuedAttr<I64Attr, "1">:$group,
                   DefaultValuedAttr<StrAttr, "\"NOTSET\"">:$auto_pad);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Onnx_ConvTransposeOp : Onnx_InferredOp<"conv_transpose"> {
  let summary = "N-d transposed convolution (the gradient of Conv)";
  let description = [{
    Weight is [C, M/group, k...]. `output_shape` (empty when absent) fixes
    the output's spatial extents, and then the pads follow from it.

    ```mlir
    %y = onnx.conv_transpose %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, output_shape = array<i64>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x8x8xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$weight,
                   Optional<AnyTensor>:$bias,
                   DenseI64ArrayAttr:$kernel_shape, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                   DenseI64ArrayAttr:$output_padding,
                   DenseI64ArrayAttr:$output_shape,
                   DefaultValuedAttr<I64Attr, "1">:$group,
                   DefaultValuedAttr<StrAttr, "\"NOTSET\"">:$auto_pad);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Onnx_DeformConvOp : Onnx_InferredOp<"deform_conv", [AttrSizedOperandSegments]> {
  let summary = "deformable convolution: Conv whose taps move by learned offsets";
  let description = [{
    Tap (i, j) of output (y, x) samples the input bilinearly (zero outside)
    at (y*s - p + i*d + offset_h, x*s - p + j*d + offset_w), scaled by
    `mask` when given. offset is [N, offset_group * kH*kW * 2, oH, oW] and
    mask [N, offset_group * kH*kW, oH, oW].

    ```mlir
    %y = onnx.deform_conv %x, %w, %off {kernel_shape = array<i64: 2, 2>, pads = array<i64>, strides = array<i64>, dilations = array<i64>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1x8x2x2xf32>) -> tensor<1x1x2x2xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$weight, AnyTensor:$offset,
                   Optional<AnyTensor>:$bias, Optional<AnyTensor>:$mask,
                   DenseI64ArrayAttr:$kernel_shape, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                   DefaultValuedAttr<I64Attr, "1">:$group,
                   DefaultValuedAttr<I64Attr, "1">:$offset_group);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $weight `,` $offset (`bias` $bias^)? (`mask` $mask^)? attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Windowed pools
//===----------------------------------------------------------------------===//

// A pool over a window; `extra` adds the op's own attributes and `outs`
// its results.
class Onnx_PoolOp<string mnemonic, string onnxName, dag extra = (ins),
                  dag outs = (outs AnyTensor:$output)>
    : Onnx_InferredOp<mnemonic> {
  let summary = "N-d " # onnxName;
  let description = [{
    ONNX `}] # onnxName # [{` on (N, C, spatial...) input; `ceil_mode`
    rounds the output size up.

    ```mlir
    %y = onnx.}] # mnemonic # [{ %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
    ```
  }];
  let arguments = !con((ins AnyTensor:$input,
                        DenseI64ArrayAttr:$kernel_shape, DenseI64ArrayAttr:$pads,
                        DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                        DefaultValuedAttr<I64Attr, "0">:$ceil_mode,
                        DefaultValuedAttr<StrAttr, "\"NOTSET\"">:$auto_pad),
                       extra);
  let results = outs;
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

// The second result is ONNX's optional Indices output: the flat index of
// each maximum in the input (spatial dims in row-major order, or
// column-major with storage_order = 1). Lowering computes it only when it
// is used.
def Onnx_MaxPoolOp : Onnx_PoolOp<"max_pool", "MaxPool",
    (ins DefaultValuedAttr<I64Attr, "0">:$storage_order),
    (outs AnyTensor:$output, AnyTensor:$indices)>;
def Onnx_AveragePoolOp : Onnx_PoolOp<"average_pool", "AveragePool",
    (ins DefaultValuedAttr<I64Attr, "0">:$count_include_pad)>;
def Onnx_LpPoolOp : Onnx_PoolOp<"lp_pool", "LpPool",
    (ins DefaultValuedAttr<I64Attr, "2">:$p)>;

//===----------------------------------------------------------------------===//
// Global pools (GlobalMaxPool and GlobalLpPool are reductions: ReductionOps.td)
//===----------------------------------------------------------------------===//

def Onnx_GlobalAveragePoolOp : Onnx_InferredOp<"global_average_pool"> {
  let summary = "mean over all spatial positions";
  let description = [{
    ```mlir
    %y = onnx.global_average_pool %x : (tensor<1x4x7x7xf32>) -> tensor<1x4x1x1xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Scatters back into images
//===----------------------------------------------------------------------===//

def Onnx_MaxUnpoolOp : Onnx_InferredOp<"max_unpool"> {
  let summary = "scatter pooled values back to their indices, zeros elsewhere";
  let description = [{
    The indices address the tensor of the unpooled shape,
    (in - 1) * stride - pads + kernel per axis; an `output_shape` operand
    (a constant) may enlarge it, the extra elements being zeros.

    ```mlir
    %y = onnx.max_unpool %x, %i {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$indices,
                   Optional<AnyTensor>:$output_shape,
                   DenseI64ArrayAttr:$kernel_shape, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$strides);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $indices (`,` $output_shape^)? attr-dict `:` functional-type(operands, results)";
}

def Onnx_Col2ImOp : Onnx_InferredOp<"col2im"> {
  let summary = "sum column blocks back into an image (the inverse of im2col)";
  let description = [{
    `image_shape` and `block_shape` are constant operands.

    ```mlir
    %y = onnx.col2im %x, %image, %block {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x5x25xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x5x5xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$image_shape,
                   AnyTensor:$block_shape, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $image_shape `,` $block_shape attr-dict `:` functional-type(operands, results)";
}

#endif // ONNXCC_ONNX_CONVPOOL_OPS
