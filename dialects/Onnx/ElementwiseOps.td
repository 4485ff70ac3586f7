//===- ElementwiseOps.td - elementwise ONNX operators -------*- tablegen -*-===//
//
// One line per operator where the family says it all. The scalar meaning
// of each op lives in one place: its body builder in
// passes/LowerToKernel/ElementwisePatterns.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_ONNX_ELEMENTWISE_OPS
#define ONNXCC_ONNX_ELEMENTWISE_OPS

include "dialects/Onnx/OnnxBase.td"

//===----------------------------------------------------------------------===//
// Unary math and activations
//===----------------------------------------------------------------------===//

def Onnx_AbsOp : Onnx_UnaryOp<"abs", "Abs">;
def Onnx_AcosOp : Onnx_UnaryOp<"acos", "Acos">;
def Onnx_AcoshOp : Onnx_UnaryOp<"acosh", "Acosh">;
def Onnx_AsinOp : Onnx_UnaryOp<"asin", "Asin">;
def Onnx_AsinhOp : Onnx_UnaryOp<"asinh", "Asinh">;
def Onnx_AtanOp : Onnx_UnaryOp<"atan", "Atan">;
def Onnx_AtanhOp : Onnx_UnaryOp<"atanh", "Atanh">;
def Onnx_BitwiseNotOp : Onnx_UnaryOp<"bitwise_not", "BitwiseNot">;
def Onnx_CeilOp : Onnx_UnaryOp<"ceil", "Ceil">;
def Onnx_CosOp : Onnx_UnaryOp<"cos", "Cos">;
def Onnx_CoshOp : Onnx_UnaryOp<"cosh", "Cosh">;
def Onnx_ErfOp : Onnx_UnaryOp<"erf", "Erf">;
def Onnx_ExpOp : Onnx_UnaryOp<"exp", "Exp">;
def Onnx_FloorOp : Onnx_UnaryOp<"floor", "Floor">;
def Onnx_HardSwishOp : Onnx_UnaryOp<"hard_swish", "HardSwish">;
def Onnx_IdentityOp : Onnx_UnaryOp<"identity", "Identity"> {
  let hasFolder = 1;
}
def Onnx_LogOp : Onnx_UnaryOp<"log", "Log">;
def Onnx_MishOp : Onnx_UnaryOp<"mish", "Mish">;
def Onnx_NegOp : Onnx_UnaryOp<"neg", "Neg">;
def Onnx_NotOp : Onnx_UnaryOp<"not", "Not">;
def Onnx_ReciprocalOp : Onnx_UnaryOp<"reciprocal", "Reciprocal">;
def Onnx_ReluOp : Onnx_UnaryOp<"relu", "Relu">;
def Onnx_RoundOp : Onnx_UnaryOp<"round", "Round">;
def Onnx_SigmoidOp : Onnx_UnaryOp<"sigmoid", "Sigmoid">;
def Onnx_SignOp : Onnx_UnaryOp<"sign", "Sign">;
def Onnx_SinOp : Onnx_UnaryOp<"sin", "Sin">;
def Onnx_SinhOp : Onnx_UnaryOp<"sinh", "Sinh">;
def Onnx_SoftplusOp : Onnx_UnaryOp<"softplus", "Softplus">;
def Onnx_SoftsignOp : Onnx_UnaryOp<"softsign", "Softsign">;
def Onnx_SqrtOp : Onnx_UnaryOp<"sqrt", "Sqrt">;
def Onnx_TanOp : Onnx_UnaryOp<"tan", "Tan">;
def Onnx_TanhOp : Onnx_UnaryOp<"tanh", "Tanh">;

def Onnx_CeluOp : Onnx_UnaryOp<"celu", "Celu",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)>;
def Onnx_EluOp : Onnx_UnaryOp<"elu", "Elu",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)>;
def Onnx_GeluOp : Onnx_UnaryOp<"gelu", "Gelu",
    (ins DefaultValuedAttr<StrAttr, "\"none\"">:$approximate)>;
def Onnx_HardSigmoidOp : Onnx_UnaryOp<"hard_sigmoid", "HardSigmoid",
    (ins DefaultValuedAttr<F32Attr, "0.2">:$alpha,
         DefaultValuedAttr<F32Attr, "0.5">:$beta)>;
def Onnx_LeakyReluOp : Onnx_UnaryOp<"leaky_relu", "LeakyRelu",
    (ins DefaultValuedAttr<F32Attr, "0.01">:$alpha)>;
def Onnx_SeluOp : Onnx_UnaryOp<"selu", "Selu",
    (ins DefaultValuedAttr<F32Attr, "1.67326319217681884765625">:$alpha,
         DefaultValuedAttr<F32Attr, "1.05070102214813232421875">:$gamma)>;
def Onnx_SwishOp : Onnx_UnaryOp<"swish", "Swish",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)>;
def Onnx_ShrinkOp : Onnx_UnaryOp<"shrink", "Shrink",
    (ins DefaultValuedAttr<F32Attr, "0.0">:$bias,
         DefaultValuedAttr<F32Attr, "0.5">:$lambd)>;
def Onnx_ThresholdedReluOp : Onnx_UnaryOp<"thresholded_relu", "ThresholdedRelu",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)>;

def Onnx_IsNaNOp : Onnx_UnaryPredicateOp<"is_nan", "IsNaN">;
def Onnx_IsInfOp : Onnx_UnaryPredicateOp<"is_inf", "IsInf",
    (ins DefaultValuedAttr<I64Attr, "1">:$detect_negative,
         DefaultValuedAttr<I64Attr, "1">:$detect_positive)>;

//===----------------------------------------------------------------------===//
// Binary with broadcasting
//===----------------------------------------------------------------------===//

def Onnx_AddOp : Onnx_BinaryOp<"add", "Add"> { let hasFolder = 1; }
def Onnx_SubOp : Onnx_BinaryOp<"sub", "Sub"> { let hasFolder = 1; }
def Onnx_MulOp : Onnx_BinaryOp<"mul", "Mul"> { let hasFolder = 1; }
def Onnx_DivOp : Onnx_BinaryOp<"div", "Div"> { let hasFolder = 1; }
def Onnx_ModOp : Onnx_BinaryOp<"mod", "Mod",
    (ins DefaultValuedAttr<I64Attr, "0">:$fmod)>;
def Onnx_PowOp : Onnx_BinaryOp<"pow", "Pow"> { let sameElementTypes = 0; }
def Onnx_PReluOp : Onnx_BinaryOp<"prelu", "PRelu">;
// A and B of one shape (the spec applies no broadcasting; the shape rule
// broadcasts, and an equal-shape check in the importer keeps it exact).
def Onnx_SwiGLUOp : Onnx_BinaryOp<"swiglu", "SwiGLU",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)>;
def Onnx_BitShiftOp : Onnx_BinaryOp<"bit_shift", "BitShift",
    (ins StrAttr:$direction)>;
def Onnx_BitwiseAndOp : Onnx_BinaryOp<"bitwise_and", "BitwiseAnd">;
def Onnx_BitwiseOrOp : Onnx_BinaryOp<"bitwise_or", "BitwiseOr">;
def Onnx_BitwiseXorOp : Onnx_BinaryOp<"bitwise_xor", "BitwiseXor">;
def Onnx_AndOp : Onnx_BinaryOp<"and", "And">;
def Onnx_OrOp : Onnx_BinaryOp<"or", "Or">;
def Onnx_XorOp : Onnx_BinaryOp<"xor", "Xor">;

def Onnx_EqualOp : Onnx_CompareOp<"equal", "Equal">;
def Onnx_GreaterOp : Onnx_CompareOp<"greater", "Greater">;
def Onnx_GreaterOrEqualOp : Onnx_CompareOp<"greater_or_equal", "GreaterOrEqual">;
def Onnx_LessOp : Onnx_CompareOp<"less", "Less">;
def Onnx_LessOrEqualOp : Onnx_CompareOp<"less_or_equal", "LessOrEqual">;

def Onnx_MaxOp : Onnx_VariadicOp<"max", "Max">;
def Onnx_MeanOp : Onnx_VariadicOp<"mean", "Mean">;
def Onnx_MinOp : Onnx_VariadicOp<"min", "Min">;
def Onnx_SumOp : Onnx_VariadicOp<"sum", "Sum">;

//===----------------------------------------------------------------------===//
// Selection, clamping, conversion
//===----------------------------------------------------------------------===//

def Onnx_WhereOp : Onnx_FamilyOp<"where"> {
  let summary = "elementwise select: condition ? x : y, broadcast";
  let description = [{
    ```mlir
    %z = onnx.where %c, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$condition, AnyTensor:$x, AnyTensor:$y);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$condition `,` $x `,` $y attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferBroadcastTypes(
          loc, {adaptor.getCondition(), adaptor.getX(), adaptor.getY()},
          ::mlir::getElementTypeOrSelf(adaptor.getX().getType()),
          /*sameElementTypes=*/false, types);
  }];
}

def Onnx_ClipOp : Onnx_FamilyOp<"clip", [AttrSizedOperandSegments]> {
  let summary = "elementwise clamp to [min, max]";
  let description = [{
    ONNX `Clip` (opset 11+): the bounds are optional scalar operands.

    ```mlir
    %y = onnx.clip %x, %lo, %hi : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, Optional<AnyTensor>:$min,
                   Optional<AnyTensor>:$max);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input (`min` $min^)? (`max` $max^)? attr-dict `:` functional-type(operands, results)
  }];
  let inferTypes = [{
      types.push_back(adaptor.getInput().getType());
      return ::mlir::success();
  }];
}

def Onnx_BitCastOp : Onnx_FamilyOp<"bit_cast"> {
  let summary = "reinterpret the bits as another element type of one width";
  let description = [{
    ```mlir
    %y = onnx.bit_cast %x {to = i32} : (tensor<4xf32>) -> tensor<4xi32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, TypeAttr:$to);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      // A bool is a byte of 0 or 1: it reads as an 8-bit integer, but no
      // byte may become a bool (2 would be an invalid bool).
      ::mlir::Type from = ::mlir::getElementTypeOrSelf(adaptor.getInput().getType());
      ::mlir::Type to = adaptor.getTo();
      auto bits = [](::mlir::Type t) -> unsigned {
        return t.isInteger(1) ? 8 : t.isIntOrFloat() ? t.getIntOrFloatBitWidth() : 0;
      };
      if (!bits(from) || bits(from) != bits(to) ||
          (to.isInteger(1) && !from.isInteger(1)) ||
          (from.isInteger(1) && !to.isInteger(1) && !::llvm::isa<::mlir::IntegerType>(to)))
        return ::mlir::emitOptionalError(loc, "cannot bit-cast ", from, " to ",
                                         to, " (the widths differ, or the target is bool)");
      types.push_back(::onnxcc::withElementType(adaptor.getInput().getType(), to));
      return ::mlir::success();
  }];
}

def Onnx_CastOp : Onnx_FamilyOp<"cast"> {
  let summary = "convert element type";
  let description = [{
    Float to integer truncates toward zero and saturates (NaN gives 0); to
    bool, any nonzero value is true; to a 4- or 2-bit integer, the value
    wraps (numpy's astype). To float8 with `saturate` (the default), values
    beyond the largest finite one (Inf included) clamp to it.

    ```mlir
    %y = onnx.cast %x {to = f32} : (tensor<2xi64>) -> tensor<2xf32>
    ```
  }];
  // `saturate` (float8 targets): clamp to the largest finite value, else
  // overflow gives Inf or NaN as the format has.
  let arguments = (ins AnyTensor:$input, TypeAttr:$to,
                       DefaultValuedAttr<BoolAttr, "true">:$saturate);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let inferTypes = [{
      types.push_back(::onnxcc::withElementType(adaptor.getInput().getType(),
                                                adaptor.getTo()));
      return ::mlir::success();
  }];
}

#endif // ONNXCC_ONNX_ELEMENTWISE_OPS
