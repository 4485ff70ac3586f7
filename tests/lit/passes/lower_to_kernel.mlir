// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel --verify-diagnostics | FileCheck %s

// Tests that Relu becomes an elementwise body and Flatten an aliasing view.
// CHECK-LABEL: func @relu_flatten
func.func @relu_flatten(%x: tensor<1x2x2xf32>) -> tensor<1x4xf32> {
  // CHECK: %[[R:.+]] = kernel.elementwise %{{.*}} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32> {
  // CHECK: arith.maximumf
  // CHECK: kernel.view %[[R]] : (tensor<1x2x2xf32>) -> tensor<1x4xf32>
  %0 = onnx.relu %x : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %1 = onnx.flatten %0 {axis = 1 : i64} : (tensor<1x2x2xf32>) -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}

// -----

// Tests that a Conv without bias gets a zero bias and explicit pads.
// CHECK-LABEL: func @conv
func.func @conv(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x3x3xf32>) -> tensor<1x2x4x4xf32> {
  // CHECK: %[[B:.+]] = onnx.constant dense<0.000000e+00> : tensor<2xf32>
  // CHECK: kernel.conv2d %{{.*}}, %{{.*}}, %[[B]] {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
  %0 = onnx.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, auto_pad = "SAME_UPPER"} : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// Tests that a shape left dynamic is reported, not miscompiled.
func.func @no_lower_dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{cannot compile: shape 'tensor<?x4xf32>' is not static after shape inference}}
  %0 = onnx.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
