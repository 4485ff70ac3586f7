// RUN: onnxcc-opt %s --split-input-file --verify-diagnostics

// The integer kernel ops' verifiers: the runtime trusts these shapes.

func.func @matmul_integer_k(%a: tensor<2x3xui8>, %b: tensor<4x2xui8>) -> tensor<2x2xi32> {
  // expected-error @+1 {{shapes do not form a product: a is 2x3, b is 4x2, result is 2x2}}
  %y = kernel.matmul_integer %a, %b : (tensor<2x3xui8>, tensor<4x2xui8>) -> tensor<2x2xi32>
  return %y : tensor<2x2xi32>
}

// -----

func.func @matmul_integer_batch(%a: tensor<3x2x3xui8>, %b: tensor<2x3x2xui8>) -> tensor<3x2x2xi32> {
  // expected-error @+1 {{b's batch dimension 0 (2) does not broadcast to 3}}
  %y = kernel.matmul_integer %a, %b : (tensor<3x2x3xui8>, tensor<2x3x2xui8>) -> tensor<3x2x2xi32>
  return %y : tensor<3x2x2xi32>
}

// -----

func.func @matmul_integer_zero_points(%a: tensor<2x3xui8>, %b: tensor<3x2xui8>, %az: tensor<3xui8>) -> tensor<2x2xi32> {
  // expected-error @+1 {{a_zero_point must hold 1 or 2 values in at most one dimension, got 'tensor<3xui8>'}}
  %y = kernel.matmul_integer %a, %b a_zero_point %az : (tensor<2x3xui8>, tensor<3x2xui8>, tensor<3xui8>) -> tensor<2x2xi32>
  return %y : tensor<2x2xi32>
}

// -----

func.func @matmul_integer_result(%a: tensor<2x3xui8>, %b: tensor<3x2xui8>) -> tensor<2x2xf32> {
  // expected-error @+1 {{result must be int32, got 'f32'}}
  %y = kernel.matmul_integer %a, %b : (tensor<2x3xui8>, tensor<3x2xui8>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// -----

func.func @conv_integer_group(%x: tensor<1x4x5x5xui8>, %w: tensor<3x2x3x3xui8>) -> tensor<1x3x3x3xi32> {
  // expected-error @+1 {{group 2 does not divide 3 output channels over 4 input channels}}
  %y = kernel.conv_integer %x, %w {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 2 : i64} : (tensor<1x4x5x5xui8>, tensor<3x2x3x3xui8>) -> tensor<1x3x3x3xi32>
  return %y : tensor<1x3x3x3xi32>
}

// -----

func.func @conv_integer_pads(%x: tensor<1x1x5x5xui8>, %w: tensor<1x1x3x3xui8>) -> tensor<1x1x3x3xi32> {
  // expected-error @+1 {{pads must be in [0, 4294967296]}}
  %y = kernel.conv_integer %x, %w {pads = array<i64: -1, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x5x5xui8>, tensor<1x1x3x3xui8>) -> tensor<1x1x3x3xi32>
  return %y : tensor<1x1x3x3xi32>
}

// -----

func.func @conv_integer_weight_zero_point(%x: tensor<1x1x5x5xui8>, %w: tensor<2x1x3x3xi8>, %wz: tensor<2xui8>) -> tensor<1x2x3x3xi32> {
  // expected-error @+1 {{w_zero_point has elements of type 'ui8', expected 'i8'}}
  %y = kernel.conv_integer %x, %w w_zero_point %wz {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x5x5xui8>, tensor<2x1x3x3xi8>, tensor<2xui8>) -> tensor<1x2x3x3xi32>
  return %y : tensor<1x2x3x3xi32>
}

// -----

func.func @dynamic_quant_params_types(%x: tensor<6xf32>) -> tensor<f32> {
  // expected-error @+1 {{expects f32 input, an f32 scalar scale and a ui8 scalar zero point}}
  %s, %z = kernel.dynamic_quant_params %x : (tensor<6xf32>) -> (tensor<f32>, tensor<i8>)
  return %s : tensor<f32>
}
