//===- MlStringKernelOps.td - string tables ----------------*- tablegen -*-===//
//
// Included at the end of KernelOps.td. The kernel twins of
// onnx.ml_string_table / onnx.ml_string_lookup (dialects/Onnx/MlStringOps.td):
// the strings stay attributes, which the printer
// (codegen/cpu/MlStringPrinters.cpp) turns into constant tables of escaped
// literals; runtime in runtime-support/onnxcc/ml_strings.h.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_KERNEL_ML_STRING_OPS
#define ONNXCC_KERNEL_ML_STRING_OPS

def Kernel_MlStringTableOp : Kernel_Op<"ml_string_table", [Pure]> {
  let summary = "strings by index from a constant table";
  let description = [{
    `output[i] = labels[clamp(indices[i], 0, size - 1)]`: a pointer into a
    constant table of the generated code.

    ```mlir
    %l = kernel.ml_string_table %i {labels = ["cat", "dog"]} : (tensor<3xi64>) -> tensor<3x!onnx.string>
    ```
  }];
  let arguments = (ins StaticTensor:$indices, StrArrayAttr:$labels);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$indices attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_MlStringLookupOp : Kernel_Op<"ml_string_lookup", [Pure]> {
  let summary = "positions of strings in a constant table";
  let description = [{
    `output[i]` is the position of `input[i]` in `keys`, or the number of
    keys for a string that is none of them (or a null pointer): a binary
    search with strcmp over the keys sorted at compile time.

    ```mlir
    %i = kernel.ml_string_lookup %x {keys = ["a", "b"]} : (tensor<5x!onnx.string>) -> tensor<5xi64>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StrArrayAttr:$keys);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // ONNXCC_KERNEL_ML_STRING_OPS
