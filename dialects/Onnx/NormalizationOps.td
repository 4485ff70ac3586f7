//===- NormalizationOps.td - normalisations and softmax kin -*- tablegen -*-===//
//
// LayerNormalization, RMSNormalization, InstanceNormalization,
// GroupNormalization, LRN, LogSoftmax and Hardmax. Softmax and
// BatchNormalization are in OnnxOps.td; MeanVarianceNormalization,
// LpNormalization, GlobalMaxPool and GlobalLpPool are decomposed by the
// importer into reductions and elementwise ops.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_ONNX_NORMALIZATION_OPS
#define ONNXCC_ONNX_NORMALIZATION_OPS

include "dialects/Onnx/OnnxBase.td"

def Onnx_LayerNormalizationOp : Onnx_FamilyOp<"layer_normalization"> {
  let summary = "normalise over the dimensions from `axis` on, then scale and shift";
  let description = [{
    ONNX `LayerNormalization` (opset 17). `mean` and `inv_std_dev` (ONNX's
    optional outputs) have the input's shape with the normalised dimensions
    set to 1 and the element type of `stash_type` (f32); they are computed
    only when used.

    ```mlir
    %y, %m, %r = onnx.layer_normalization %x, %s, %b {axis = -1 : i64, epsilon = 1.0e-05 : f32} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$scale,
                   Optional<AnyTensor>:$bias,
                   DefaultValuedAttr<I64Attr, "-1">:$axis,
                   DefaultValuedAttr<F32Attr, "1.0e-05">:$epsilon,
                   DefaultValuedAttr<I64Attr, "1">:$stash_type);
  let results = (outs AnyTensor:$output, AnyTensor:$mean, AnyTensor:$inv_std_dev);
  let assemblyFormat = "$input `,` $scale (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferLayerNormTypes(
          loc, adaptor.getInput(), {adaptor.getScale(), adaptor.getBias()},
          adaptor.getAxis(), adaptor.getStashType(), /*withStats=*/true, types);
  }];
}

def Onnx_RMSNormalizationOp : Onnx_FamilyOp<"rms_normalization"> {
  let summary = "divide by the root mean square over the dimensions from `axis` on, then scale";
  let description = [{
    ONNX `RMSNormalization` (opset 23).

    ```mlir
    %y = onnx.rms_normalization %x, %s {axis = -1 : i64, epsilon = 1.0e-05 : f32} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$scale,
                   DefaultValuedAttr<I64Attr, "-1">:$axis,
                   DefaultValuedAttr<F32Attr, "1.0e-05">:$epsilon,
                   DefaultValuedAttr<I64Attr, "1">:$stash_type);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $scale attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferLayerNormTypes(
          loc, adaptor.getInput(), {adaptor.getScale()}, adaptor.getAxis(),
          adaptor.getStashType(), /*withStats=*/false, types);
  }];
}

// Normalisation over groups of channels of an [N, C, D1, ...] input:
// InstanceNormalization is one channel per group.
def Onnx_InstanceNormalizationOp : Onnx_FamilyOp<"instance_normalization"> {
  let summary = "normalise each channel of each instance, then scale and shift per channel";
  let description = [{
    ```mlir
    %y = onnx.instance_normalization %x, %s, %b {epsilon = 1.0e-05 : f32} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$scale, AnyTensor:$bias,
                   DefaultValuedAttr<F32Attr, "1.0e-05">:$epsilon);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $scale `,` $bias attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferGroupNormTypes(loc, adaptor.getInput(),
                                           adaptor.getScale(), adaptor.getBias(),
                                           /*numGroups=*/std::nullopt, types);
  }];
}

def Onnx_GroupNormalizationOp : Onnx_FamilyOp<"group_normalization"> {
  let summary = "normalise each group of channels of each instance, then scale and shift";
  let description = [{
    ONNX `GroupNormalization`: `scale` and `bias` hold one value per group
    (opset 18) or per channel (opset 21); their size says which.

    ```mlir
    %y = onnx.group_normalization %x, %s, %b {num_groups = 2 : i64, epsilon = 1.0e-05 : f32} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$scale, AnyTensor:$bias,
                   I64Attr:$num_groups,
                   DefaultValuedAttr<F32Attr, "1.0e-05">:$epsilon,
                   DefaultValuedAttr<I64Attr, "1">:$stash_type);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $scale `,` $bias attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferGroupNormTypes(loc, adaptor.getInput(),
                                           adaptor.getScale(), adaptor.getBias(),
                                           adaptor.getNumGroups(), types);
  }];
}

def Onnx_LRNOp : Onnx_FamilyOp<"lrn"> {
  let summary = "local response normalisation across channels";
  let description = [{
    ```mlir
    %y = onnx.lrn %x {size = 3 : i64, alpha = 1.0e-04 : f32, beta = 0.75 : f32, bias = 1.0 : f32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, I64Attr:$size,
                   DefaultValuedAttr<F32Attr, "1.0e-04">:$alpha,
                   DefaultValuedAttr<F32Attr, "0.75">:$beta,
                   DefaultValuedAttr<F32Attr, "1.0">:$bias);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferLRNTypes(loc, adaptor.getInput(), adaptor.getSize(),
                                     types);
  }];
}

// y = f(x) along one axis, y shaped like x (opset-13 semantics; the
// importer flattens for older opsets).
class Onnx_AxisOp<string mnemonic, string onnxName>
    : Onnx_FamilyOp<mnemonic> {
  let summary = onnxName # " along one axis";
  let description = [{
    ```mlir
    %y = onnx.}] # mnemonic # [{ %x {axis = -1 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferAxisOpTypes(loc, adaptor.getInput(),
                                        adaptor.getAxis(), types);
  }];
}

def Onnx_LogSoftmaxOp : Onnx_AxisOp<"log_softmax", "LogSoftmax">;
def Onnx_HardmaxOp : Onnx_AxisOp<"hardmax", "Hardmax">;

#endif // ONNXCC_ONNX_NORMALIZATION_OPS
