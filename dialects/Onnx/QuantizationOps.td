//===- QuantizationOps.td - linear quantisation ops --------*- tablegen -*-===//
//
// ONNX's linear quantisation: y = saturate(round(x / scale) + zero_point)
// and back, per tensor, per axis or per block, and the integer products
// (MatMulInteger, ConvInteger) with their requantising forms (QLinear*).
// The type rules are in QuantizationShapes.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_ONNX_QUANTIZATION_OPS
#define ONNXCC_ONNX_QUANTIZATION_OPS

include "dialects/Onnx/OnnxBase.td"

// QuantizeLinear and DequantizeLinear: `output_type` is the element type the
// importer resolved (the zero point's, output_dtype, or the default).
class Onnx_LinearQuantOp<string mnemonic, bit isQuantize>
    : Onnx_FamilyOp<mnemonic> {
  let arguments = (ins AnyTensor:$x, AnyTensor:$scale,
                       Optional<AnyTensor>:$zero_point,
                       DefaultValuedAttr<I64Attr, "1">:$axis,
                       DefaultValuedAttr<I64Attr, "0">:$block_size,
                       TypeAttr:$output_type,
                       // Float8 outputs of quantize_linear: clamp to the
                       // largest finite value (else Inf/NaN).
                       DefaultValuedAttr<BoolAttr, "true">:$saturate);
  let results = (outs AnyTensor:$y);
  let assemblyFormat = [{
    $x `,` $scale (`,` $zero_point^)? attr-dict `:` functional-type(operands, results)
  }];
  let inferTypes = !strconcat([{
      return ::onnxcc::inferLinearQuantTypes(
          loc, /*isQuantize=*/}], !if(isQuantize, "true", "false"), [{,
          adaptor.getX(), adaptor.getScale(), adaptor.getZeroPoint(),
          (int64_t)adaptor.getAxis(), (int64_t)adaptor.getBlockSize(),
          adaptor.getOutputType(), types);
  }]);
}

def Onnx_QuantizeLinearOp
    : Onnx_LinearQuantOp<"quantize_linear", 1> {
  let summary = "y = saturate(round_half_even(x / scale) + zero_point)";
  let description = [{
    `scale` and `zero_point` are scalars (per tensor), 1-D along `axis`
    (per axis), or, with `block_size` > 0, x's shape with
    ceil(x.shape[axis] / block_size) along `axis` (blocked). To a float8
    type, y = x / scale rounded to nearest even (the zero point must be 0),
    clamped to the largest finite value when `saturate`; to float4,
    y = x / scale + zero_point rounded (float4 always saturates).

    ```mlir
    %y = onnx.quantize_linear %x, %s, %z {output_type = ui8} : (tensor<6xf32>, tensor<f32>, tensor<ui8>) -> tensor<6xui8>
    ```
  }];
}

def Onnx_DequantizeLinearOp
    : Onnx_LinearQuantOp<"dequantize_linear", 0> {
  let summary = "y = (x - zero_point) * scale";
  let description = [{
    The same scale layouts as `onnx.quantize_linear`.

    ```mlir
    %y = onnx.dequantize_linear %x, %s, %z {output_type = f32} : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
    ```
  }];
}

def Onnx_DynamicQuantizeLinearOp : Onnx_FamilyOp<"dynamic_quantize_linear"> {
  let summary = "uint8 quantisation with scale and zero point from min/max";
  let description = [{
    scale = (max(0, max(x)) - min(0, min(x))) / 255 (1 when that is 0),
    zero_point = saturate(round(-min / scale)), y as QuantizeLinear.

    ```mlir
    %y, %s, %z = onnx.dynamic_quantize_linear %x : (tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>)
    ```
  }];
  let arguments = (ins AnyTensor:$x);
  let results = (outs AnyTensor:$y, AnyTensor:$y_scale, AnyTensor:$y_zero_point);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferDynamicQuantizeTypes(loc, adaptor.getX(), types);
  }];
}

def Onnx_MatMulIntegerOp : Onnx_FamilyOp<"matmul_integer", [AttrSizedOperandSegments]> {
  let summary = "int32 matmul of 8-bit integers minus their zero points";
  let description = [{
    `a_zero_point` is a scalar or one per row of a ([M]); `b_zero_point` a
    scalar or one per column of b ([N]).

    ```mlir
    %y = onnx.matmul_integer %a, %b a_zero_point %az b_zero_point %bz : (tensor<4x3xui8>, tensor<3x2xui8>, tensor<ui8>, tensor<ui8>) -> tensor<4x2xi32>
    ```
  }];
  let arguments = (ins AnyTensor:$a, AnyTensor:$b,
                       Optional<AnyTensor>:$a_zero_point,
                       Optional<AnyTensor>:$b_zero_point);
  let results = (outs AnyTensor:$y);
  let assemblyFormat = [{
    $a `,` $b (`a_zero_point` $a_zero_point^)? (`b_zero_point` $b_zero_point^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let inferTypes = [{
      return ::onnxcc::inferMatMulIntegerTypes(
          loc, adaptor.getA(), adaptor.getB(), adaptor.getAZeroPoint(),
          adaptor.getBZeroPoint(), ::mlir::Value(), ::mlir::Value(),
          ::mlir::Value(), ::mlir::Value(), types);
  }];
}

def Onnx_QLinearMatMulOp : Onnx_FamilyOp<"qlinear_matmul"> {
  let summary = "quantised matmul: requantised int32 product";
  let description = [{
    y = saturate(round((a - a_zp)(b - b_zp) * a_scale * b_scale / y_scale)
    + y_zp); scales and zero points of a per row or scalar, of b per column
    or scalar, of y scalar.

    ```mlir
    %y = onnx.qlinear_matmul %a, %as, %az, %b, %bs, %bz, %ys, %yz : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<4x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
    ```
  }];
  let arguments = (ins AnyTensor:$a, AnyTensor:$a_scale, AnyTensor:$a_zero_point,
                       AnyTensor:$b, AnyTensor:$b_scale, AnyTensor:$b_zero_point,
                       AnyTensor:$y_scale, AnyTensor:$y_zero_point);
  let results = (outs AnyTensor:$y);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferMatMulIntegerTypes(
          loc, adaptor.getA(), adaptor.getB(), adaptor.getAZeroPoint(),
          adaptor.getBZeroPoint(), adaptor.getAScale(), adaptor.getBScale(),
          adaptor.getYScale(), adaptor.getYZeroPoint(), types);
  }];
}

// ConvInteger and QLinearConv: Conv's window attributes (2-D, NCHW).
class Onnx_IntegerConvOp<string mnemonic, dag operands, list<Trait> traits = []>
    : Onnx_FamilyOp<mnemonic, traits> {
  let arguments = !con(operands,
      (ins DenseI64ArrayAttr:$kernel_shape, DenseI64ArrayAttr:$pads,
           DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
           DefaultValuedAttr<I64Attr, "1">:$group,
           DefaultValuedAttr<StrAttr, "\"NOTSET\"">:$auto_pad));
  let results = (outs AnyTensor:$y);
}

def Onnx_ConvIntegerOp : Onnx_IntegerConvOp<"conv_integer",
    (ins AnyTensor:$x, AnyTensor:$w, Optional<AnyTensor>:$x_zero_point,
         Optional<AnyTensor>:$w_zero_point), [AttrSizedOperandSegments]> {
  let summary = "int32 convolution of 8-bit integers minus their zero points";
  let description = [{
    `x_zero_point` is a scalar, `w_zero_point` a scalar or one per output
    channel. Padding reads as the zero point (it contributes nothing).

    ```mlir
    %y = onnx.conv_integer %x, %w x_zero_point %xz {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x1x3x3xui8>, tensor<1x1x2x2xui8>, tensor<ui8>) -> tensor<1x1x2x2xi32>
    ```
  }];
  let assemblyFormat = [{
    $x `,` $w (`x_zero_point` $x_zero_point^)? (`w_zero_point` $w_zero_point^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let inferTypes = [{
      return ::onnxcc::inferIntegerConvTypes(
          loc, adaptor.getX(), adaptor.getW(), adaptor.getXZeroPoint(),
          adaptor.getWZeroPoint(), ::mlir::Value(), ::mlir::Value(),
          ::mlir::Value(), ::mlir::Value(), ::mlir::Value(),
          adaptor.getKernelShape(), adaptor.getPads(), adaptor.getStrides(),
          adaptor.getDilations(), (int64_t)adaptor.getGroup(),
          adaptor.getAutoPad(), types);
  }];
}

def Onnx_QLinearConvOp : Onnx_IntegerConvOp<"qlinear_conv",
    (ins AnyTensor:$x, AnyTensor:$x_scale, AnyTensor:$x_zero_point,
         AnyTensor:$w, AnyTensor:$w_scale, AnyTensor:$w_zero_point,
         AnyTensor:$y_scale, AnyTensor:$y_zero_point,
         Optional<AnyTensor>:$bias)> {
  let summary = "quantised convolution: requantised int32 convolution";
  let description = [{
    y = saturate(round((conv(x - x_zp, w - w_zp) + bias) * x_scale *
    w_scale / y_scale) + y_zp); `w_scale` and `w_zero_point` are scalars or
    one per output channel, `bias` int32 per output channel.

    ```mlir
    %y = onnx.qlinear_conv %x, %xs, %xz, %w, %ws, %wz, %ys, %yz {kernel_shape = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x1x2x2xui8>, tensor<f32>, tensor<ui8>, tensor<1x1x1x1xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x1x2x2xui8>
    ```
  }];
  let assemblyFormat = [{
    $x `,` $x_scale `,` $x_zero_point `,` $w `,` $w_scale `,` $w_zero_point `,`
    $y_scale `,` $y_zero_point (`bias` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
  let inferTypes = [{
      return ::onnxcc::inferIntegerConvTypes(
          loc, adaptor.getX(), adaptor.getW(), adaptor.getXZeroPoint(),
          adaptor.getWZeroPoint(), adaptor.getXScale(), adaptor.getWScale(),
          adaptor.getYScale(), adaptor.getYZeroPoint(), adaptor.getBias(),
          adaptor.getKernelShape(), adaptor.getPads(), adaptor.getStrides(),
          adaptor.getDilations(), (int64_t)adaptor.getGroup(),
          adaptor.getAutoPad(), types);
  }];
}

#endif // ONNXCC_ONNX_QUANTIZATION_OPS
