//===- RecurrentOps.td - RNN, GRU and LSTM -----------------*- tablegen -*-===//
//
// The recurrent layers share their attributes and one shape rule
// (inferRecurrentTypes in RecurrentShapes.cpp). The importer normalises the
// activation attributes: `activations` always lists every function of
// every direction (ONNX's defaults filled in), and `activation_alpha` /
// `activation_beta` hold one value per entry of `activations` (the ONNX
// list is consumed in order by the functions that take a value, as
// onnxruntime does; functions without one get 0).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_ONNX_RECURRENT_OPS
#define ONNXCC_ONNX_RECURRENT_OPS

include "dialects/Onnx/OnnxBase.td"

// A recurrent layer with `gates` gate blocks in W/R and `functions`
// activation functions per direction.
class Onnx_RecurrentOp<string mnemonic, string onnxName, int gates,
                       int functions, dag extraOperands, dag extraAttrs,
                       dag extraResults, string extraFormat = "">
    : Onnx_FamilyOp<mnemonic, [AttrSizedOperandSegments]> {
  let summary = "ONNX " # onnxName # " (forward, reverse or bidirectional)";
  let arguments = !con(
      (ins AnyTensor:$x, AnyTensor:$w, AnyTensor:$r, Optional<AnyTensor>:$b,
           Optional<AnyTensor>:$sequence_lens, Optional<AnyTensor>:$initial_h),
      extraOperands,
      (ins StrArrayAttr:$activations,
           DenseF32ArrayAttr:$activation_alpha,
           DenseF32ArrayAttr:$activation_beta,
           OptionalAttr<F32Attr>:$clip,
           DefaultValuedAttr<StrAttr, "\"forward\"">:$direction,
           OptionalAttr<I64Attr>:$hidden_size,
           DefaultValuedAttr<I64Attr, "0">:$layout),
      extraAttrs);
  let results = !con((outs AnyTensor:$y, AnyTensor:$y_h), extraResults);
  let assemblyFormat = "$x `,` $w `,` $r (`bias` $b^)? "
      "(`sequence_lens` $sequence_lens^)? (`initial_h` $initial_h^)? "
      # extraFormat # " attr-dict `:` functional-type(operands, results)";
  // The LSTM's extra operands (initial_c, p); null for RNN and GRU.
  code extraInputs = "::mlir::Value(), ::mlir::Value()";
  // A 0/1 flag attribute the cell has (linear_before_reset, input_forget).
  code flag = "0";
  let inferTypes = !strconcat([{
      ::onnxcc::RecurrentSpec spec{}], gates # ", " # functions, [{,
          adaptor.getActivations(), adaptor.getActivationAlpha(),
          adaptor.getActivationBeta(), adaptor.getClip(),
          adaptor.getDirection(), adaptor.getHiddenSize(),
          (int64_t)adaptor.getLayout(), (int64_t)}], flag, [{};
      return ::onnxcc::inferRecurrentTypes(
          loc, spec, adaptor.getX(), adaptor.getW(), adaptor.getR(),
          adaptor.getB(), adaptor.getSequenceLens(), adaptor.getInitialH(),
          }], extraInputs, [{, types);
  }]);
}

def Onnx_RNNOp : Onnx_RecurrentOp<"rnn", "RNN", 1, 1, (ins), (ins), (outs)> {
  let description = [{
    Ht = f(Xt*W^T + Ht-1*R^T + Wb + Rb), f defaults to Tanh.

    ```mlir
    %y, %y_h = onnx.rnn %x, %w, %r {activations = ["Tanh"], activation_alpha = array<f32: 0.0>, activation_beta = array<f32: 0.0>, hidden_size = 4 : i64} : (tensor<5x1x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x1x4xf32>, tensor<1x1x4xf32>)
    ```
  }];
}

def Onnx_GRUOp : Onnx_RecurrentOp<"gru", "GRU", 3, 2, (ins),
    (ins DefaultValuedAttr<I64Attr, "0">:$linear_before_reset), (outs)> {
  let flag = "adaptor.getLinearBeforeReset()";
  let description = [{
    Gates in the order z, r, h; f (Sigmoid) for z and r, g (Tanh) for the
    candidate. `linear_before_reset` applies r after the recurrent product.

    ```mlir
    %y, %y_h = onnx.gru %x, %w, %r {activations = ["Sigmoid", "Tanh"], activation_alpha = array<f32: 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0>, hidden_size = 4 : i64} : (tensor<5x1x3xf32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>) -> (tensor<5x1x1x4xf32>, tensor<1x1x4xf32>)
    ```
  }];
}

def Onnx_LSTMOp : Onnx_RecurrentOp<"lstm", "LSTM", 4, 3,
    (ins Optional<AnyTensor>:$initial_c, Optional<AnyTensor>:$p),
    (ins DefaultValuedAttr<I64Attr, "0">:$input_forget),
    (outs AnyTensor:$y_c), "(`initial_c` $initial_c^)? (`peepholes` $p^)?"> {
  let description = [{
    Gates in the order i, o, f, c; f (Sigmoid) for the gates, g (Tanh) for
    the cell input, h (Tanh) for the output. `p` holds the peepholes
    (i, o, f); `input_forget` couples the forget gate to 1 - i.

    ```mlir
    %y, %y_h, %y_c = onnx.lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], activation_alpha = array<f32: 0.0, 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0, 0.0>, hidden_size = 4 : i64} : (tensor<5x1x3xf32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>) -> (tensor<5x1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>)
    ```
  }];
  let extraInputs = "adaptor.getInitialC(), adaptor.getP()";
  let flag = "adaptor.getInputForget()";
}

#endif // ONNXCC_ONNX_RECURRENT_OPS
