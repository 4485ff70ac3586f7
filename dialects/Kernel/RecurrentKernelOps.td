//===- RecurrentKernelOps.td - RNN, GRU, LSTM kernels ------*- tablegen -*-===//
//
// One call per recurrent layer: the runtime loops over time steps with the
// gate GEMMs and the elementwise cell update, keeping the state and the
// gate buffers in planned scratch (ScratchOpInterface). Attributes are the
// onnx op's, normalised (hidden_size known, activations per direction);
// `w_transposed`: W holds each direction's input weights transposed,
// [dirs, input, gates * hidden], so the input projection streams them;
// `r_transposed` (f32 only): R likewise, [dirs, hidden, gates * hidden], so
// each step's recurrent product keeps its outputs in vector registers while
// h(k) runs (runtime-support/onnxcc/recurrent.h).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_KERNEL_RECURRENT_OPS
#define ONNXCC_KERNEL_RECURRENT_OPS

class Kernel_RecurrentOp<string mnemonic, string onnxName,
                         dag extraOperands, dag extraAttrs, dag extraResults,
                         string extraFormat = "">
    : Kernel_Op<mnemonic, [Pure, AttrSizedOperandSegments,
                           DeclareOpInterfaceMethods<Kernel_ScratchOpInterface>]> {
  let summary = "one " # onnxName # " layer over the whole sequence";
  let arguments = !con(
      (ins StaticTensor:$x, StaticTensor:$w, StaticTensor:$r,
           Optional<StaticTensor>:$b, Optional<StaticTensor>:$sequence_lens,
           Optional<StaticTensor>:$initial_h),
      extraOperands,
      (ins StrArrayAttr:$activations, DenseF32ArrayAttr:$activation_alpha,
           DenseF32ArrayAttr:$activation_beta, OptionalAttr<F32Attr>:$clip,
           StrAttr:$direction, I64Attr:$hidden_size, I64Attr:$layout,
           DefaultValuedAttr<BoolAttr, "false">:$w_transposed,
           DefaultValuedAttr<BoolAttr, "false">:$r_transposed),
      extraAttrs);
  let results = !con((outs StaticTensor:$y, StaticTensor:$y_h), extraResults);
  let assemblyFormat = "$x `,` $w `,` $r (`bias` $b^)? "
      "(`sequence_lens` $sequence_lens^)? (`initial_h` $initial_h^)? "
      # extraFormat # " attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Gate blocks in W and R (1, 3 or 4).
    int64_t getNumGates();
    /// Activation functions per direction (1, 2 or 3).
    int64_t getNumFunctions();
  }];
}

def Kernel_RNNOp : Kernel_RecurrentOp<"rnn", "RNN", (ins), (ins), (outs)> {
  let description = [{
    ```mlir
    %y, %y_h = kernel.rnn %x, %w, %r {activations = ["Tanh"], activation_alpha = array<f32: 0.0>, activation_beta = array<f32: 0.0>, direction = "forward", hidden_size = 4 : i64, layout = 0 : i64} : (tensor<5x1x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x1x4xf32>, tensor<1x1x4xf32>)
    ```
  }];
}

def Kernel_GRUOp : Kernel_RecurrentOp<"gru", "GRU", (ins),
    (ins BoolAttr:$linear_before_reset), (outs)> {
  let description = [{
    ```mlir
    %y, %y_h = kernel.gru %x, %w, %r {activations = ["Sigmoid", "Tanh"], activation_alpha = array<f32: 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0>, direction = "forward", hidden_size = 4 : i64, layout = 0 : i64, linear_before_reset = true} : (tensor<5x1x3xf32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>) -> (tensor<5x1x1x4xf32>, tensor<1x1x4xf32>)
    ```
  }];
}

def Kernel_LSTMOp : Kernel_RecurrentOp<"lstm", "LSTM",
    (ins Optional<StaticTensor>:$initial_c, Optional<StaticTensor>:$p),
    (ins BoolAttr:$input_forget), (outs StaticTensor:$y_c),
    "(`initial_c` $initial_c^)? (`peepholes` $p^)?"> {
  let description = [{
    ```mlir
    %y, %y_h, %y_c = kernel.lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], activation_alpha = array<f32: 0.0, 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0, 0.0>, direction = "forward", hidden_size = 4 : i64, input_forget = false, layout = 0 : i64} : (tensor<5x1x3xf32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>) -> (tensor<5x1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>)
    ```
  }];
}

#endif // ONNXCC_KERNEL_RECURRENT_OPS
