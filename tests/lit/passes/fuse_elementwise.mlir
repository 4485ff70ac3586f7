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

// -----

// Tests that a chain over f16 tensors fuses with f32 body arguments (16-bit
// floats compute in f32), also for an input the consumer adds.
// CHECK-LABEL: func @fuse_f16
func.func @fuse_f16(%a: tensor<4xf16>, %b: tensor<4xf16>) -> tensor<4xf16> {
  // CHECK: kernel.elementwise %{{.*}}, %{{.*}} : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16> {
  // CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
  // CHECK-NOT: kernel.elementwise
  %0 = kernel.elementwise %a : (tensor<4xf16>) -> tensor<4xf16> {
  ^bb0(%x: f32):
    %e = math.exp %x : f32
    kernel.yield %e : f32
  }
  %1 = kernel.elementwise %0, %b : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    kernel.yield %m : f32
  }
  return %1 : tensor<4xf16>
}

// -----

// Tests that an activation reached through a view (a MatMul over [1, seq, d]
// lowers to view, gemm, view) still becomes the GEMM's epilogue, and that
// its readers then read the view.
// CHECK-LABEL: func @gemm_view_relu
func.func @gemm_view_relu(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> tensor<1x2x3xf32> {
  // CHECK: %[[G:.*]] = kernel.gemm {{.*}} epilogue {
  // CHECK: arith.maximumf
  // CHECK: %[[V:.*]] = kernel.view %[[G]] : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  // CHECK-NOT: kernel.elementwise
  // CHECK: return %[[V]]
  %0 = kernel.gemm %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %1 = kernel.view %0 : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  %2 = kernel.elementwise %1 : (tensor<1x2x3xf32>) -> tensor<1x2x3xf32> {
  ^bb0(%x: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %x, %z : f32
    kernel.yield %m : f32
  }
  return %2 : tensor<1x2x3xf32>
}

// -----

// Tests that a view with a second reader keeps the activation its own loop:
// the other reader needs the product without it.
// CHECK-LABEL: func @no_fuse_shared_view
func.func @no_fuse_shared_view(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> (tensor<1x2x3xf32>, tensor<1x2x3xf32>) {
  // CHECK: kernel.gemm
  // CHECK-NOT: epilogue
  // CHECK: kernel.elementwise
  %0 = kernel.gemm %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %1 = kernel.view %0 : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  %2 = kernel.elementwise %1 : (tensor<1x2x3xf32>) -> tensor<1x2x3xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    kernel.yield %n : f32
  }
  return %2, %1 : tensor<1x2x3xf32>, tensor<1x2x3xf32>
}

// -----

// A transformer's residual Add read only by the LayerNormalization after
// it becomes the norm's skip operand: one pass over the rows.
// CHECK-LABEL: func @skip_layer_norm
// CHECK-NOT: kernel.elementwise
// CHECK: kernel.layer_norm %arg0 skip %arg1, %arg2, %arg3 {axis = 1 : i64, epsilon = 9.99999974E-6 : f32, rms = false} : (tensor<32x128xf32>, tensor<32x128xf32>, tensor<128xf32>, tensor<128xf32>) -> tensor<32x128xf32>
// CHECK-NEXT: return
func.func @skip_layer_norm(%x: tensor<32x128xf32>, %r: tensor<32x128xf32>,
                           %s: tensor<128xf32>, %b: tensor<128xf32>) -> tensor<32x128xf32> {
  %0 = kernel.elementwise %x, %r : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32> {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    kernel.yield %t : f32
  }
  %1 = kernel.layer_norm %0, %s, %b {axis = 1 : i64, epsilon = 1.0e-05 : f32, rms = false} : (tensor<32x128xf32>, tensor<128xf32>, tensor<128xf32>) -> tensor<32x128xf32>
  return %1 : tensor<32x128xf32>
}

// -----

// An Add with another user, one that broadcasts a row, a subtraction and
// an Add fused with more ops all stay loops of their own.
// CHECK-LABEL: func @no_skip_layer_norm
// CHECK-COUNT-4: kernel.elementwise
// CHECK-NOT: skip
// CHECK: return
func.func @no_skip_layer_norm(%x: tensor<4x8xf32>, %r: tensor<4x8xf32>, %row: tensor<8xf32>,
                              %s: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %shared = kernel.elementwise %x, %r : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    kernel.yield %t : f32
  }
  %n0 = kernel.layer_norm %shared, %s {axis = 1 : i64, epsilon = 1.0e-05 : f32, rms = false} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %bcast = kernel.elementwise %x, %row : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    kernel.yield %t : f32
  }
  %n1 = kernel.layer_norm %bcast, %s {axis = 1 : i64, epsilon = 1.0e-05 : f32, rms = false} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %sub = kernel.elementwise %x, %r : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%p: f32, %q: f32):
    %t = arith.subf %p, %q : f32
    kernel.yield %t : f32
  }
  %n2 = kernel.layer_norm %sub, %s {axis = 1 : i64, epsilon = 1.0e-05 : f32, rms = false} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %scaled = kernel.elementwise %x, %r : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    %u = arith.mulf %t, %t : f32
    kernel.yield %u : f32
  }
  %n3 = kernel.layer_norm %scaled, %s {axis = 1 : i64, epsilon = 1.0e-05 : f32, rms = false} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %shared, %n0, %n1, %n2, %n3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
