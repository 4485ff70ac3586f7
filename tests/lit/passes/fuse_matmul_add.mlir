// RUN: onnxcc-opt %s --split-input-file --onnxcc-fuse-matmul-add | FileCheck %s

// Tests that MatMul + bias Add becomes one Gemm.
// CHECK-LABEL: func @fuse
func.func @fuse(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %c: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: onnx.gemm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK-NOT: onnx.add
  %m = onnx.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = onnx.add %m, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// Tests that a MatMul with a second user is kept.
// CHECK-LABEL: func @no_fuse_shared_matmul
func.func @no_fuse_shared_matmul(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %c: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: onnx.matmul
  // CHECK: onnx.add
  %m = onnx.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = onnx.add %m, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %y, %m : tensor<2x3xf32>, tensor<2x3xf32>
}
