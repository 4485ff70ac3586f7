// RUN: onnxcc-opt %s --split-input-file --onnxcc-fold-batchnorm | FileCheck %s

// Tests that BatchNormalization after Conv becomes new Conv weights and bias:
// s = 2 / sqrt(3 + 1) = 1, so W' = W * 1 and b' = (0 - 1) * 1 + 0.5.
// CHECK-LABEL: func @fold_into_conv
func.func @fold_into_conv(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %w = onnx.constant dense<2.0> : tensor<1x1x1x1xf32>
  %g = onnx.constant dense<2.0> : tensor<1xf32>
  %b = onnx.constant dense<0.5> : tensor<1xf32>
  %m = onnx.constant dense<1.0> : tensor<1xf32>
  %v = onnx.constant dense<3.0> : tensor<1xf32>
  // CHECK-DAG: %[[W:.+]] = onnx.constant dense<2.000000e+00> : tensor<1x1x1x1xf32>
  // CHECK-DAG: %[[B:.+]] = onnx.constant dense<-5.000000e-01> : tensor<1xf32>
  // CHECK: onnx.conv %{{.*}}, %[[W]], %[[B]]
  // CHECK-NOT: onnx.batch_normalization
  %c = onnx.conv %x, %w {kernel_shape = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x4x4xf32>
  %y = onnx.batch_normalization %c, %g, %b, %m, %v {epsilon = 1.0 : f32} : (tensor<1x1x4x4xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}

// -----

// Tests that a BatchNormalization without a Conv becomes a per-channel
// scale and shift of shape [C, 1, 1].
// CHECK-LABEL: func @decompose
func.func @decompose(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %g = onnx.constant dense<2.0> : tensor<2xf32>
  %b = onnx.constant dense<0.5> : tensor<2xf32>
  %m = onnx.constant dense<1.0> : tensor<2xf32>
  %v = onnx.constant dense<3.0> : tensor<2xf32>
  // CHECK: %[[MUL:.+]] = onnx.mul %{{.*}}, %{{.*}} : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>)
  // CHECK: onnx.add %[[MUL]], %{{.*}} : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>)
  %y = onnx.batch_normalization %x, %g, %b, %m, %v {epsilon = 1.0 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// Tests that run-time BatchNormalization parameters are not folded.
// CHECK-LABEL: func @no_fold_runtime_params
func.func @no_fold_runtime_params(%x: tensor<1x2x4x4xf32>, %g: tensor<2xf32>) -> tensor<1x2x4x4xf32> {
  %b = onnx.constant dense<0.5> : tensor<2xf32>
  // CHECK: onnx.batch_normalization
  %y = onnx.batch_normalization %x, %g, %b, %b, %b : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
