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
include "dialects/Onnx/ElementwiseOps.td"
include "dialects/Onnx/RecurrentOps.td"
include "dialects/Onnx/QuantizationOps.td"
include "dialects/Onnx/DataMovementOps.td"
include "dialects/Onnx/NormalizationOps.td"
include "dialects/Onnx/ReductionOps.td"
include "dialects/Onnx/ImageOps.td"
include "dialects/Onnx/AttentionOps.td"

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
// Linear algebra
//===----------------------------------------------------------------------===//

def Onnx_GemmOp : Onnx_InferredOp<"gemm"> {
  let summary = "general matrix multiply: alpha * A' * B' + beta * C";
  let description = [{
    ```mlir
    %y = onnx.gemm %a, %b, %c {trans_b = 1 : i64} : (tensor<1x784xf32>, tensor<256x784xf32>, tensor<256xf32>) -> tensor<1x256xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$a, AnyTensor:$b, Optional<AnyTensor>:$c,
                   DefaultValuedAttr<F32Attr, "1.0">:$alpha,
                   DefaultValuedAttr<F32Attr, "1.0">:$beta,
                   DefaultValuedAttr<I64Attr, "0">:$trans_a,
                   DefaultValuedAttr<I64Attr, "0">:$trans_b);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$a `,` $b (`,` $c^)? attr-dict `:` functional-type(operands, results)";
}

def Onnx_MatMulOp : Onnx_InferredOp<"matmul"> {
  let summary = "numpy matmul (2-D and batched)";
  let description = [{
    ```mlir
    %y = onnx.matmul %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$a, AnyTensor:$b);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$a `,` $b attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Convolution and normalisation
//===----------------------------------------------------------------------===//

def Onnx_ConvOp : Onnx_InferredOp<"conv"> {
  let summary = "2-D convolution (NCHW), grouped and dilated";
  let description = [{
    `pads` is [top, left, bottom, right]; `auto_pad` is resolved to explicit
    pads by the importer.

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
// Pooling family
//===----------------------------------------------------------------------===//

class Onnx_PoolOp<string mnemonic, string onnxName> : Onnx_InferredOp<mnemonic> {
  let summary = "2-D " # onnxName;
  let description = [{
    ONNX `}] # onnxName # [{` on NCHW input. `pads` is [top, left, bottom,
    right]; `ceil_mode` rounds the output size up.

    ```mlir
    %y = onnx.}] # mnemonic # [{ %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input,
                   DenseI64ArrayAttr:$kernel_shape, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                   DefaultValuedAttr<I64Attr, "0">:$ceil_mode,
                   DefaultValuedAttr<I64Attr, "0">:$count_include_pad,
                   DefaultValuedAttr<StrAttr, "\"NOTSET\"">:$auto_pad);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Onnx_MaxPoolOp : Onnx_PoolOp<"max_pool", "MaxPool">;
def Onnx_AveragePoolOp : Onnx_PoolOp<"average_pool", "AveragePool">;

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
