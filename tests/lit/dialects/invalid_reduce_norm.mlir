// RUN: onnxcc-opt %s --split-input-file --verify-diagnostics

func.func @reduce_kind(%a: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{unknown reduction kind "median"}}
  %0 = kernel.reduce %a {axes = array<i64: 1>, kind = "median"} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @reduce_axes_order(%a: tensor<2x3xf32>) -> tensor<1x1xf32> {
  // expected-error @+1 {{axes must increase inside [0, 2), got 0 after 1}}
  %0 = kernel.reduce %a {axes = array<i64: 1, 0>, kind = "sum"} : (tensor<2x3xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// -----

func.func @reduce_shape(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{result 'tensor<2xf32>' is not 'tensor<2x3xf32>' with the reduced axes set to 1}}
  %0 = kernel.reduce %a {axes = array<i64: 1>, kind = "sum"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @arg_reduce_type(%a: tensor<2x3xf32>) -> tensor<2x1xi32> {
  // expected-error @+1 {{result 'tensor<2x1xi32>' is not an i64 tensor of 2 dims with axis 1 set to 1}}
  %0 = kernel.arg_reduce %a {axis = 1 : i64, kind = "max", select_last_index = false} : (tensor<2x3xf32>) -> tensor<2x1xi32>
  return %0 : tensor<2x1xi32>
}

// -----

func.func @layer_norm_scale(%a: tensor<2x3xf32>, %s: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{scale and bias must have the row's shape or the input's, got 'tensor<2xf32>'}}
  %0 = kernel.layer_norm %a, %s {axis = 1 : i64, epsilon = 1.0e-05 : f32, rms = false} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_stats(%a: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{stats must be none or two 'tensor<2x1xf32>'}}
  %0, %m = kernel.layer_norm %a, %s {axis = 1 : i64, epsilon = 1.0e-05 : f32, rms = false} : (tensor<2x3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x1xf32>)
  return %0 : tensor<2x3xf32>
}

// -----

func.func @group_norm_groups(%a: tensor<1x6x2xf32>, %s: tensor<6xf32>) -> tensor<1x6x2xf32> {
  // expected-error @+1 {{groups 4 does not divide the 6 channels}}
  %0 = kernel.group_norm %a, %s, %s {groups = 4 : i64, epsilon = 1.0e-05 : f32} : (tensor<1x6x2xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<1x6x2xf32>
  return %0 : tensor<1x6x2xf32>
}

// -----

func.func @axis_norm_kind(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{kind must be "log_softmax" or "hardmax", got "softmax"}}
  %0 = kernel.axis_norm %a {axis = 1 : i64, kind = "softmax"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_skip_type(%x: tensor<2x4xf32>, %r: tensor<1x4xf32>, %s: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{skip type 'tensor<1x4xf32>' differs from the input's 'tensor<2x4xf32>'}}
  %0 = kernel.layer_norm %x skip %r, %s {axis = 1 : i64, epsilon = 1.0e-05 : f32, rms = false} : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
