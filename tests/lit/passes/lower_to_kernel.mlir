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

// Tests that a Conv without bias gets a zero bias weight and explicit pads.
// CHECK-LABEL: func @conv
func.func @conv(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x3x3xf32>) -> tensor<1x2x4x4xf32> {
  // CHECK: %[[B:.+]] = kernel.weight dense<0.000000e+00> : tensor<2xf32>
  // CHECK: kernel.conv2d %{{.*}}, %{{.*}}, %[[B]] {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
  %0 = onnx.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, auto_pad = "SAME_UPPER"} : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// Tests that a constant a kernel reads becomes a kernel.weight.
// CHECK-LABEL: func @weights
func.func @weights(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[W:.+]] = kernel.weight dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
  // CHECK: kernel.elementwise %{{.*}}, %[[W]]
  // CHECK-NOT: onnx.constant
  %c = onnx.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = onnx.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that integer ops take their signedness from the element type:
// signed division and comparison for si/i, unsigned for ui.
// CHECK-LABEL: func @integers
func.func @integers(%a: tensor<4xi32>, %b: tensor<4xi32>, %c: tensor<4xui8>, %d: tensor<4xui8>) -> (tensor<4xi32>, tensor<4xi1>) {
  // CHECK: kernel.elementwise {{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK-NEXT: ^bb0(%{{.*}}: i32, %{{.*}}: i32):
  // CHECK-NEXT: arith.divsi
  %0 = onnx.div %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: kernel.elementwise {{.*}} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  // CHECK-NEXT: ^bb0(%{{.*}}: i8, %{{.*}}: i8):
  // CHECK-NEXT: arith.cmpi ult
  %1 = onnx.less %c, %d : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi32>, tensor<4xi1>
}

// -----

// Tests Cast semantics: float to signed int (fptosi), to bool (!= 0), and
// f16 storage computed in f32.
// CHECK-LABEL: func @casts
func.func @casts(%x: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<4xi8>, tensor<4xi1>, tensor<4xf16>) {
  // CHECK: arith.fptosi %{{.*}} : f32 to i8
  %0 = onnx.cast %x {to = i8} : (tensor<4xf32>) -> tensor<4xi8>
  // CHECK: arith.cmpf une
  %1 = onnx.cast %x {to = i1} : (tensor<4xf32>) -> tensor<4xi1>
  // CHECK: kernel.elementwise {{.*}} : (tensor<4xf16>) -> tensor<4xf16>
  // CHECK-NEXT: ^bb0(%{{.*}}: f32):
  // CHECK-NEXT: math.exp %{{.*}} : f32
  %2 = onnx.exp %h : (tensor<4xf16>) -> tensor<4xf16>
  return %0, %1, %2 : tensor<4xi8>, tensor<4xi1>, tensor<4xf16>
}

// -----

// Tests that an op without a kernel for its element type says so, and that
// an op reading it is not reported a second time.
func.func @no_lower_exp_of_int(%x: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{cannot compile: elements of type 'i64' are not supported here}}
  %0 = onnx.exp %x : (tensor<4xi64>) -> tensor<4xi64>
  %1 = onnx.exp %0 : (tensor<4xi64>) -> tensor<4xi64>
  return %1 : tensor<4xi64>
}

// -----

// Tests that a shape left dynamic is reported, not miscompiled.
func.func @no_lower_dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{cannot compile: shape 'tensor<?x4xf32>' is not static after shape inference}}
  %0 = onnx.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Tests that BitCast is an aliasing view with another element type of the
// same width.
// CHECK-LABEL: func @bit_cast
func.func @bit_cast(%x: tensor<4xf32>) -> tensor<4xi32> {
  // CHECK: kernel.view %{{.*}} : (tensor<4xf32>) -> tensor<4xi32>
  %0 = onnx.bit_cast %x {to = i32} : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
