//===- OnnxOps.td - ONNX graph dialect operations ----------*- tablegen -*-===//
//
// Op families share base classes (OnnxBase.td) so that adding an operator
// is a few lines here or in a family file (ElementwiseOps.td) plus a shape
// rule in ShapeFunctions.cpp where the family has none.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_ONNX_OPS
#define ONNXCC_ONNX_OPS

include "dialects/Onnx/OnnxBase.td"
include "dialects/Onnx/OnnxTypes.td"
include "dialects/Onnx/ElementwiseOps.td"
include "dialects/Onnx/LinalgOps.td"
include "dialects/Onnx/ConvPoolOps.td"
include "dialects/Onnx/RecurrentOps.td"
include "dialects/Onnx/QuantizationOps.td"
include "dialects/Onnx/DataMovementOps.td"
include "dialects/Onnx/NormalizationOps.td"
include "dialects/Onnx/ReductionOps.td"
include "dialects/Onnx/ImageOps.td"
include "dialects/Onnx/AttentionOps.td"
include "dialects/Onnx/RotaryOps.td"
include "dialects/Onnx/MlOps.td"
include "dialects/Onnx/MlStringOps.td"

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Onnx_ConstantOp : Onnx_Op<"constant", [ConstantLike, AllTypesMatch<["value", "output"]>]> {
  let summary = "constant tensor (initializer or Constant node)";
  let description = [{
    Weights imported from initializers hold a `dense_resource` blob that
    points into the parsed model, so they are not copied.

    ```mlir
    %w = onnx.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

def Onnx_BatchNormalizationOp : Onnx_InferredOp<"batch_normalization"> {
  let summary = "inference-mode batch normalisation";
  let description = [{
    ```mlir
    %y = onnx.batch_normalization %x, %s, %b, %m, %v {epsilon = 1.0e-05 : f32} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$scale, AnyTensor:$bias,
                   AnyTensor:$mean, AnyTensor:$variance,
                   DefaultValuedAttr<F32Attr, "1.0e-05">:$epsilon);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias `,` $mean `,` $variance attr-dict `:` functional-type(operands, results)
  }];
}

def Onnx_SoftmaxOp : Onnx_InferredOp<"softmax"> {
  let summary = "softmax along one axis";
  let description = [{
    ```mlir
    %y = onnx.softmax %x {axis = -1 : i64} : (tensor<1x10xf32>) -> tensor<1x10xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Shape manipulation (the ops exporters build shape arithmetic from)
//===----------------------------------------------------------------------===//

def Onnx_ShapeOp : Onnx_InferredOp<"shape"> {
  let summary = "the shape of a tensor as a 1-D i64 tensor";
  let description = [{
    Folds to a constant once the input shape is static.

    ```mlir
    %s = onnx.shape %x : (tensor<2x3xf32>) -> tensor<2xi64>
    ```
  }];
  let arguments = (ins AnyTensor:$input,
                   DefaultValuedAttr<I64Attr, "0">:$start,
                   OptionalAttr<I64Attr>:$end);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Onnx_GatherOp : Onnx_InferredOp<"gather"> {
  let summary = "gather slices along an axis";
  let description = [{
    ```mlir
    %y = onnx.gather %data, %idx {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
    ```
  }];
  let arguments = (ins AnyTensor:$data, AnyTensor:$indices,
                   DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Onnx_ConcatOp : Onnx_InferredOp<"concat"> {
  let summary = "concatenate tensors along an axis";
  let description = [{
    ```mlir
    %y = onnx.concat %a, %b {axis = 1 : i64} : (tensor<1x2xf32>, tensor<1x3xf32>) -> tensor<1x5xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyTensor>:$inputs, I64Attr:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Onnx_ReshapeOp : Onnx_InferredOp<"reshape"> {
  let summary = "reshape (0 copies a dimension, -1 infers one)";
  let description = [{
    The shape operand must become a constant by the time shapes are static.

    ```mlir
    %y = onnx.reshape %x, %shape : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<6xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$data, AnyTensor:$shape,
                   DefaultValuedAttr<I64Attr, "0">:$allowzero);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$data `,` $shape attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Onnx_FlattenOp : Onnx_InferredOp<"flatten"> {
  let summary = "flatten to 2-D around an axis";
  let description = [{
    ```mlir
    %y = onnx.flatten %x {axis = 1 : i64} : (tensor<1x4x2x2xf32>) -> tensor<1x16xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, DefaultValuedAttr<I64Attr, "1">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Onnx_UnsqueezeOp : Onnx_InferredOp<"unsqueeze"> {
  let summary = "insert size-1 dimensions (axes given as a constant operand)";
  let description = [{
    ```mlir
    %y = onnx.unsqueeze %x, %axes : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
    ```
  }];
  let arguments = (ins AnyTensor:$data, AnyTensor:$axes);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$data `,` $axes attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Onnx_SqueezeOp : Onnx_InferredOp<"squeeze"> {
  let summary = "remove size-1 dimensions (axes given as an optional constant operand)";
  let description = [{
    ```mlir
    %y = onnx.squeeze %x, %axes : (tensor<1x4xf32>, tensor<1xi64>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$data, Optional<AnyTensor>:$axes);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$data (`,` $axes^)? attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Onnx_TransposeOp : Onnx_InferredOp<"transpose"> {
  let summary = "permute dimensions";
  let description = [{
    ```mlir
    %y = onnx.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif // ONNXCC_ONNX_OPS
