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

// Tests that run-time BatchNormalization parameters are not folded into
// constants: the per-channel map is computed at run time from %g, the
// constant parameters folding into their reshaped [C, 1, 1] forms.
// CHECK-LABEL: func @no_fold_runtime_params
func.func @no_fold_runtime_params(%x: tensor<1x2x4x4xf32>, %g: tensor<2xf32>) -> tensor<1x2x4x4xf32> {
  %b = onnx.constant dense<0.5> : tensor<2xf32>
  // CHECK: %[[G:.+]] = onnx.reshape %arg1
  // CHECK: onnx.div %[[G]]
  // CHECK-NOT: onnx.batch_normalization
  %y = onnx.batch_normalization %x, %g, %b, %b, %b : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// Tests that a BatchNormalization whose parameters are graph inputs becomes
// (x - mean) * (scale / sqrt(var + eps)) + bias computed at run time, each
// parameter reshaped to [C, 1, 1].
// CHECK-LABEL: func @runtime_parameters
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4x5xf32>, %[[G:.+]]: tensor<3xf32>, %[[B:.+]]: tensor<3xf32>, %[[M:.+]]: tensor<3xf32>, %[[V:.+]]: tensor<3xf32>)
// CHECK-DAG: %[[SHAPE:.+]] = onnx.constant dense<[3, 1, 1]> : tensor<3xi64>
// CHECK-DAG: %[[EPS:.+]] = onnx.constant dense<2.500000e-01> : tensor<f32>
// CHECK: %[[V3:.+]] = onnx.reshape %[[V]], %[[SHAPE]] {{.*}} -> tensor<3x1x1xf32>
// CHECK: %[[VE:.+]] = onnx.add %[[V3]], %[[EPS]]
// CHECK: %[[STD:.+]] = onnx.sqrt %[[VE]]
// CHECK: %[[G3:.+]] = onnx.reshape %[[G]], %[[SHAPE]]
// CHECK: %[[F:.+]] = onnx.div %[[G3]], %[[STD]]
// CHECK: %[[M3:.+]] = onnx.reshape %[[M]], %[[SHAPE]]
// CHECK: %[[C:.+]] = onnx.sub %[[X]], %[[M3]] : (tensor<2x3x4x5xf32>, tensor<3x1x1xf32>) -> tensor<2x3x4x5xf32>
// CHECK: %[[S:.+]] = onnx.mul %[[C]], %[[F]]
// CHECK: %[[B3:.+]] = onnx.reshape %[[B]], %[[SHAPE]]
// CHECK: onnx.add %[[S]], %[[B3]] : (tensor<2x3x4x5xf32>, tensor<3x1x1xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NOT: onnx.batch_normalization
func.func @runtime_parameters(%x: tensor<2x3x4x5xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
  %y = onnx.batch_normalization %x, %g, %b, %m, %v {epsilon = 0.25 : f32} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  return %y : tensor<2x3x4x5xf32>
}

// -----

// Tests that runtime parameters of a 2-D input [N, C] broadcast as they are.
// CHECK-LABEL: func @runtime_parameters_2d
// CHECK-NOT: onnx.reshape
// CHECK: onnx.sub %{{.*}}, %{{.*}} : (tensor<4x3xf64>, tensor<3xf64>) -> tensor<4x3xf64>
// CHECK-NOT: onnx.batch_normalization
func.func @runtime_parameters_2d(%x: tensor<4x3xf64>, %g: tensor<3xf64>, %b: tensor<3xf64>, %m: tensor<3xf64>, %v: tensor<3xf64>) -> tensor<4x3xf64> {
  %y = onnx.batch_normalization %x, %g, %b, %m, %v : (tensor<4x3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> tensor<4x3xf64>
  return %y : tensor<4x3xf64>
}

// -----

// Tests that run-time parameters of another float type than the input
// (BatchNormalization-15's T1/T2) are cast to the input's type.
// CHECK-LABEL: func @runtime_mixed_types
// CHECK-COUNT-4: onnx.cast %{{.*}} {to = f32} : (tensor<3xf16>) -> tensor<3xf32>
// CHECK: onnx.sub %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NOT: onnx.batch_normalization
func.func @runtime_mixed_types(%x: tensor<4x3xf32>, %g: tensor<3xf16>, %b: tensor<3xf16>, %m: tensor<3xf16>, %v: tensor<3xf16>) -> tensor<4x3xf32> {
  %y = onnx.batch_normalization %x, %g, %b, %m, %v : (tensor<4x3xf32>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

// Tests that integer run-time parameters stay a BatchNormalization (the
// lowering then names it as having no kernel).
// CHECK-LABEL: func @no_decompose_integer_params
// CHECK: onnx.batch_normalization
func.func @no_decompose_integer_params(%x: tensor<4x3xf32>, %g: tensor<3xi32>) -> tensor<4x3xf32> {
  %y = onnx.batch_normalization %x, %g, %g, %g, %g : (tensor<4x3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}
