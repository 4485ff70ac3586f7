// RUN: onnxcc-opt %s --onnxcc-plan-memory | FileCheck %s

// Tests that a string element is planned as a pointer (8 bytes): the 10
// strings of the intermediate label tensor take 80 bytes, 128 in 64-byte
// blocks (4-byte elements would fit in 64), and the lookup writes the graph
// output directly.
// CHECK: module attributes {{{.*}}kernel.unplanned_bytes = 128 : i64, kernel.workspace_bytes = 128 : i64}
// CHECK-LABEL: func @main
func.func @main(%i: tensor<10xi64>) -> tensor<10xi64> {
  // CHECK: kernel.ml_string_table {{.*}}kernel.buffers = array<i64: -1>, kernel.offsets = array<i64: 0>
  %l = kernel.ml_string_table %i {labels = ["a", "b"]} : (tensor<10xi64>) -> tensor<10x!onnx.string>
  // CHECK: kernel.ml_string_lookup {{.*}}kernel.buffers = array<i64: 0>, kernel.offsets = array<i64: 0>
  %j = kernel.ml_string_lookup %l {keys = ["b"]} : (tensor<10x!onnx.string>) -> tensor<10xi64>
  return %j : tensor<10xi64>
}
