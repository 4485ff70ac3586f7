// RUN: onnxcc-opt %s --split-input-file --onnxcc-fold-constants | FileCheck %s

// Tests that arithmetic on constants is evaluated at compile time.
// CHECK-LABEL: func @fold_add
func.func @fold_add() -> tensor<3xf32> {
  %a = onnx.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = onnx.constant dense<0.5> : tensor<f32>
  // CHECK: %[[C:.+]] = onnx.constant dense<[1.500000e+00, 2.500000e+00, 3.500000e+00]> : tensor<3xf32>
  // CHECK-NOT: onnx.add
  // CHECK: return %[[C]]
  %c = onnx.add %a, %b : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %c : tensor<3xf32>
}

// -----

// Tests that a Cast of a constant folds and dead constants disappear.
// CHECK-LABEL: func @fold_cast
func.func @fold_cast() -> tensor<2xf32> {
  %a = onnx.constant dense<[3, 4]> : tensor<2xi64>
  // CHECK: onnx.constant dense<[3.000000e+00, 4.000000e+00]> : tensor<2xf32>
  // CHECK-NOT: onnx.cast
  %c = onnx.cast %a {to = f32} : (tensor<2xi64>) -> tensor<2xf32>
  return %c : tensor<2xf32>
}

// -----

// Tests that ops on run-time values are left alone.
// CHECK-LABEL: func @no_fold_runtime
func.func @no_fold_runtime(%x: tensor<3xf32>) -> tensor<3xf32> {
  %b = onnx.constant dense<0.5> : tensor<f32>
  // CHECK: onnx.add %{{.*}}, %{{.*}}
  %c = onnx.add %x, %b : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %c : tensor<3xf32>
}
