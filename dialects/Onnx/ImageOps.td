//===- ImageOps.td - resizing ONNX operators ---------------*- tablegen -*-===//
#ifndef ONNXCC_ONNX_IMAGE_OPS
#define ONNXCC_ONNX_IMAGE_OPS

include "dialects/Onnx/OnnxBase.td"

def Onnx_ResizeOp : Onnx_FamilyOp<"resize", [AttrSizedOperandSegments]> {
  let summary = "resize by nearest, linear or cubic interpolation";
  let description = [{
    ONNX `Resize` (opset 11+; opset-10 Resize and Upsample import as its
    asymmetric, floor-nearest form). `scales` or `sizes` must be constants
    once shapes are known; the output shape and every interpolation tap are
    then fixed at compile time (ResizeMath.h).

    ```mlir
    %y = onnx.resize %x scales %s {mode = "linear"} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<1x1x4x4xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, Optional<AnyTensor>:$roi,
                   Optional<AnyTensor>:$scales, Optional<AnyTensor>:$sizes,
                   DefaultValuedAttr<StrAttr, "\"nearest\"">:$mode,
                   DefaultValuedAttr<StrAttr, "\"half_pixel\"">:$coordinate_transformation_mode,
                   DefaultValuedAttr<StrAttr, "\"round_prefer_floor\"">:$nearest_mode,
                   DefaultValuedAttr<StrAttr, "\"stretch\"">:$keep_aspect_ratio_policy,
                   DefaultValuedAttr<F32Attr, "-0.75">:$cubic_coeff_a,
                   DefaultValuedAttr<I64Attr, "0">:$exclude_outside,
                   DefaultValuedAttr<I64Attr, "0">:$antialias,
                   DefaultValuedAttr<F32Attr, "0.0">:$extrapolation_value,
                   OptionalAttr<DenseI64ArrayAttr>:$axes);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input (`roi` $roi^)? (`scales` $scales^)? (`sizes` $sizes^)? attr-dict `:` functional-type(operands, results)
  }];
  let inferTypes = [{
      return ::onnxcc::inferResizeTypes(loc, adaptor, types);
  }];
  let extraClassDeclaration = [{
    /// The attributes as ResizeMath.h takes them.
    ::onnxcc::ResizeAttrs getResizeAttrs();
    /// The plan (ResizeMath.h), once the input shape and the scales or
    /// sizes are known; failure otherwise (an invalid one with its error).
    ::mlir::FailureOr<::onnxcc::ResizePlan> getPlan();
  }];
}

def Onnx_GridSampleOp : Onnx_FamilyOp<"grid_sample"> {
  let summary = "sample an image at the grid's normalised coordinates";
  let description = [{
    ONNX `GridSample` (opset 16: 2-D with bilinear/bicubic/nearest; opset
    20+: 1-D to 3-D spatial dims with linear/cubic/nearest, which opset 16's
    names import as). `grid` is [N, D1..Dk, k] with coordinates in [-1, 1]
    (x first, for the innermost axis); the output is [N, C, D1..Dk].

    ```mlir
    %y = onnx.grid_sample %x, %g {mode = "linear", padding_mode = "zeros", align_corners = 0 : i64} : (tensor<1x1x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$grid,
                   DefaultValuedAttr<StrAttr, "\"linear\"">:$mode,
                   DefaultValuedAttr<StrAttr, "\"zeros\"">:$padding_mode,
                   DefaultValuedAttr<I64Attr, "0">:$align_corners);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $grid attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferGridSampleTypes(loc, adaptor, types);
  }];
}

#endif // ONNXCC_ONNX_IMAGE_OPS
