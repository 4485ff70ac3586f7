// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel --verify-diagnostics | FileCheck %s

// Tests that a string table keeps its labels and gives !onnx.string.
// CHECK-LABEL: func @table
func.func @table(%i: tensor<3xi64>) -> tensor<3x!onnx.string> {
  // CHECK: kernel.ml_string_table %{{.*}} {labels = ["cat", "dog\0A"]} : (tensor<3xi64>) -> tensor<3x!onnx.string>
  %l = onnx.ml_string_table %i {labels = ["cat", "dog\0A"]} : (tensor<3xi64>) -> tensor<3x!onnx.string>
  return %l : tensor<3x!onnx.string>
}

// -----

// Tests that a string lookup keeps its keys in the model's order (the
// emitter sorts them).
// CHECK-LABEL: func @lookup
func.func @lookup(%x: tensor<2x2x!onnx.string>) -> tensor<2x2xi64> {
  // CHECK: kernel.ml_string_lookup %{{.*}} {keys = ["b", "a"]} : (tensor<2x2x!onnx.string>) -> tensor<2x2xi64>
  %i = onnx.ml_string_lookup %x {keys = ["b", "a"]} : (tensor<2x2x!onnx.string>) -> tensor<2x2xi64>
  return %i : tensor<2x2xi64>
}

// -----

// Tests that the string ops need static shapes.
func.func @no_lower_dynamic(%i: tensor<?xi64>) -> tensor<?x!onnx.string> {
  // expected-error @+1 {{is not static after shape inference}}
  %l = onnx.ml_string_table %i {labels = ["a"]} : (tensor<?xi64>) -> tensor<?x!onnx.string>
  return %l : tensor<?x!onnx.string>
}
