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

#endif // ONNXCC_ONNX_IMAGE_OPS
