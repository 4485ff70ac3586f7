// RUN: onnxcc-opt %s --split-input-file --onnxcc-fuse-elementwise | FileCheck %s

// Tests that Add followed by Relu becomes one loop.
// CHECK-LABEL: func @add_relu
func.func @add_relu(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: kernel.elementwise %{{.*}}, %{{.*}} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: arith.addf
  // CHECK: arith.maximumf
  // CHECK-NOT: kernel.elementwise
  %0 = kernel.elementwise %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    kernel.yield %s : f32
  }
  %1 = kernel.elementwise %0 : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%x: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %x, %z : f32
    kernel.yield %m : f32
  }
  return %1 : tensor<8xf32>
}

// -----

// Tests that an activation after a GEMM becomes its epilogue.
// CHECK-LABEL: func @gemm_relu
func.func @gemm_relu(%a: tensor<1x4xf32>, %b: tensor<4x2xf32>) -> tensor<1x2xf32> {
  // CHECK: kernel.gemm {{.*}} epilogue {
  // CHECK: arith.maximumf
  // CHECK-NOT: kernel.elementwise
  %0 = kernel.gemm %a, %b : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %1 = kernel.elementwise %0 : (tensor<1x2xf32>) -> tensor<1x2xf32> {
  ^bb0(%x: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %x, %z : f32
    kernel.yield %m : f32
  }
  return %1 : tensor<1x2xf32>
}

// -----

// Tests that a GEMM result with two readers keeps its own activation loop.
// CHECK-LABEL: func @no_fuse_shared_gemm
func.func @no_fuse_shared_gemm(%a: tensor<1x4xf32>, %b: tensor<4x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  // CHECK: kernel.gemm
  // CHECK-NOT: epilogue
  // CHECK: kernel.elementwise
  %0 = kernel.gemm %a, %b : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %1 = kernel.elementwise %0 : (tensor<1x2xf32>) -> tensor<1x2xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    kernel.yield %n : f32
  }
  return %1, %0 : tensor<1x2xf32>, tensor<1x2xf32>
}
