//===- ImageOps.td - kernel ops of the resizing family -----*- tablegen -*-===//
#ifndef ONNXCC_KERNEL_IMAGE_OPS
#define ONNXCC_KERNEL_IMAGE_OPS

def Kernel_ResizeAxisOp : Kernel_Op<"resize_axis", [Pure]> {
  let summary = "resize one axis by a fixed table of taps";
  let description = [{
    Output position `j` of `axis` is
    `sum_t weights[j * taps + t] * input[..., indices[j * taps + t], ...]`,
    or `extrapolation_value` when `indices[j * taps]` is -1. Without
    weights the op is a gather (`taps` is 1: nearest-neighbour resizing),
    exact for every element type. With weights the sum runs in the output
    element type when that is f32 or f64 (an intermediate axis), otherwise
    in f32 for the 16-bit floats and f64 for integers, rounding half to
    even and saturating into an integer output (onnx.reference's
    saturate_cast). onnx.resize lowers to one of these per resized axis.

    ```mlir
    %y = kernel.resize_axis %x {axis = 1 : i64, taps = 2 : i64, indices = array<i64: 0, 1, 0, 1>, weights = array<f64: 1.0, 0.0, 0.5, 0.5>, extrapolation_value = 0.0 : f64} : (tensor<1x2xf32>) -> tensor<1x2xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, I64Attr:$axis, I64Attr:$taps,
                   DenseI64ArrayAttr:$indices, DenseF64ArrayAttr:$weights,
                   F64Attr:$extrapolation_value);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_GridSampleOp : Kernel_Op<"grid_sample", [Pure]> {
  let summary = "sample images at a grid of normalised coordinates";
  let description = [{
    onnx.grid_sample at static shapes: `input` [N, C, S1..Sk] sampled at
    `grid` [N, D1..Dk, k] gives [N, C, D1..Dk]. Coordinates and weights
    are computed in f32 (f64 for f64 images), as onnx.reference does.

    ```mlir
    %y = kernel.grid_sample %x, %g {mode = "linear", padding_mode = "zeros", align_corners = false} : (tensor<1x1x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StaticTensor:$grid, StrAttr:$mode,
                   StrAttr:$padding_mode, BoolAttr:$align_corners);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input `,` $grid attr-dict `:` functional-type(operands, results)";
}

#endif // ONNXCC_KERNEL_IMAGE_OPS
