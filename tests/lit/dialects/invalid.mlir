// RUN: onnxcc-opt %s --split-input-file --verify-diagnostics

func.func @gemm_shapes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{shapes do not form a product: A' is 2x3, B' is 4x5, result is 2x5}}
  %0 = kernel.gemm %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @gemm_packed_shape(%a: tensor<2x3xf32>, %b: tensor<1x4x32xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{expects packed B [1, 3, 32]}}
  %0 = kernel.gemm %a, %b {packed_b = true} : (tensor<2x3xf32>, tensor<1x4x32xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @gemm_packed_transposed(%a: tensor<3x2xf32>, %b: tensor<1x3x32xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{packs B only for an f32 product of an untransposed A}}
  %0 = kernel.gemm %a, %b {packed_b = true, trans_a = true} : (tensor<3x2xf32>, tensor<1x3x32xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// With trans_b, B^T in groups of 16 rows: 20 rows of 3 take [2, 3, 16].
func.func @gemm_packed_dot_groups(%a: tensor<1x3xf32>, %b: tensor<1x3x16xf32>) -> tensor<1x20xf32> {
  // expected-error @+1 {{expects packed B [2, 3, 16]}}
  %0 = kernel.gemm %a, %b {packed_b = true, trans_b = true} : (tensor<1x3xf32>, tensor<1x3x16xf32>) -> tensor<1x20xf32>
  return %0 : tensor<1x20xf32>
}

// -----

func.func @view_size(%a: tensor<2x3xf32>) -> tensor<7xf32> {
  // expected-error @+1 {{cannot view 'tensor<2x3xf32>' as 'tensor<7xf32>'}}
  %0 = kernel.view %a : (tensor<2x3xf32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

// A split map is map()'s case: a broadcast row is not.
func.func @elementwise_threads_broadcast(%a: tensor<4xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{splits across threads only a float loop over same-shape or one-element inputs with a vectorizable body}}
  %0 = kernel.elementwise %a, %b {threads = 2 : i64} : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    kernel.yield %s : f32
  }
  return %0 : tensor<2x4xf32>
}

// -----

func.func @elementwise_threads_integer(%a: tensor<2x4xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{splits only f32 work across threads}}
  %0 = kernel.elementwise %a {threads = 2 : i64} : (tensor<2x4xi32>) -> tensor<2x4xi32> {
  ^bb0(%x: i32):
    kernel.yield %x : i32
  }
  return %0 : tensor<2x4xi32>
}

// -----

func.func @elementwise_broadcast(%a: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{input dim 0 (3) does not broadcast to the result}}
  %0 = kernel.elementwise %a : (tensor<3xf32>) -> tensor<2x4xf32> {
  ^bb0(%x: f32):
    kernel.yield %x : f32
  }
  return %0 : tensor<2x4xf32>
}

// -----

func.func @pool_kind(%a: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{kind must be "max", "avg" or "lp", got "min"}}
  %0 = kernel.pool %a {kind = "min", kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @concat_types(%a: tensor<2xf32>, %b: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{inputs differ in element type: 'f32' and 'i64'}}
  %0 = onnx.concat %a, %b {axis = 0 : i64} : (tensor<2xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_algorithm_mismatch(%x: tensor<1x2x4x4xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  // expected-error @+1 {{cannot use algorithm 'pointwise' for this convolution}}
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, algorithm = "pointwise"} : (tensor<1x2x4x4xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

// pointwise_lanes' weight is W^T in panels of 32 output channels: 40
// outputs need 2 panels.
func.func @conv_lanes_weight(%x: tensor<1x3x2x2xf32>, %w: tensor<1x3x32xf32>, %b: tensor<40xf32>) -> tensor<1x40x2x2xf32> {
  // expected-error @+1 {{expects pointwise_lanes weight [ceil(O / 32), C, 32] and [O] bias}}
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, algorithm = "pointwise_lanes"} : (tensor<1x3x2x2xf32>, tensor<1x3x32xf32>, tensor<40xf32>) -> tensor<1x40x2x2xf32>
  return %0 : tensor<1x40x2x2xf32>
}

// -----

// A 1x1 convolution over a padded input is no pointwise one.
func.func @conv_lanes_padded(%x: tensor<1x3x2x2xf32>, %w: tensor<1x3x32xf32>, %b: tensor<32xf32>) -> tensor<1x32x4x4xf32> {
  // expected-error @+1 {{cannot use algorithm 'pointwise_lanes' for this convolution}}
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, algorithm = "pointwise_lanes"} : (tensor<1x3x2x2xf32>, tensor<1x3x32xf32>, tensor<32xf32>) -> tensor<1x32x4x4xf32>
  return %0 : tensor<1x32x4x4xf32>
}

// -----

func.func @conv_split_depth_one_thread(%x: tensor<1x6x4x4xf32>, %w: tensor<2x6x1x1xf32>, %b: tensor<2xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error @+1 {{splits its depth only as a pointwise convolution of one group on several threads}}
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, algorithm = "pointwise", split_depth = true} : (tensor<1x6x4x4xf32>, tensor<2x6x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

func.func @conv_split_depth_im2col(%x: tensor<1x6x4x4xf32>, %w: tensor<2x6x1x1xf32>, %b: tensor<2xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error @+1 {{splits its depth only as a pointwise convolution of one group on several threads}}
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, threads = 2 : i64, split_depth = true} : (tensor<1x6x4x4xf32>, tensor<2x6x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

func.func @conv_threads_zero(%x: tensor<1x2x4x4xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  // expected-error @+1 {{threads must be in [1, 256], got 0}}
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, threads = 0 : i64} : (tensor<1x2x4x4xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

func.func @gemm_threads_integer(%a: tensor<2x3xi32>, %b: tensor<3x5xi32>) -> tensor<2x5xi32> {
  // expected-error @+1 {{splits only f32 work across threads}}
  %0 = kernel.gemm %a, %b {threads = 2 : i64} : (tensor<2x3xi32>, tensor<3x5xi32>) -> tensor<2x5xi32>
  return %0 : tensor<2x5xi32>
}

// -----

func.func @pool_threads_integer(%x: tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8> {
  // expected-error @+1 {{splits only f32 work across threads}}
  %0 = kernel.pool %x {kind = "max", kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, threads = 2 : i64} : (tensor<1x2x4x4xi8>) -> tensor<1x2x2x2xi8>
  return %0 : tensor<1x2x2x2xi8>
}

// -----

func.func @pool_threads_indices(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>) {
  // expected-error @+1 {{a pool with indices runs on one thread}}
  %0, %1 = kernel.pool %x {kind = "max", kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, threads = 2 : i64} : (tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>)
  return %0, %1 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>
}

// -----

func.func @softmax_threads_inner_axis(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{splits only a last axis across threads, got axis 0 of rank 2}}
  %0 = kernel.softmax %x {axis = 0 : i64, threads = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @softmax_axis_range(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{axis 2 is outside [0, 2)}}
  %0 = kernel.softmax %x {axis = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @softmax_threads_f64(%x: tensor<4x8xf64>) -> tensor<4x8xf64> {
  // expected-error @+1 {{splits only f32 work across threads}}
  %0 = kernel.softmax %x {axis = 1 : i64, threads = 2 : i64} : (tensor<4x8xf64>) -> tensor<4x8xf64>
  return %0 : tensor<4x8xf64>
}

// -----

func.func @batch_matmul_threads_integer(%a: tensor<2x3x4xi32>, %b: tensor<2x4x5xi32>) -> tensor<2x3x5xi32> {
  // expected-error @+1 {{splits only f32 work across threads}}
  %0 = kernel.batch_matmul %a, %b {threads = 2 : i64} : (tensor<2x3x4xi32>, tensor<2x4x5xi32>) -> tensor<2x3x5xi32>
  return %0 : tensor<2x3x5xi32>
}

// -----

// im2col_lanes' weight keeps the window: [ceil(O / 32), C, KH, KW, 32].
func.func @conv_im2col_lanes_weight(%x: tensor<1x3x4x4xf32>, %w: tensor<1x27x32xf32>, %b: tensor<32xf32>) -> tensor<1x32x2x2xf32> {
  // expected-error @+1 {{expects im2col_lanes weight [ceil(O / 32), C, KH, KW, 32] and [O] bias}}
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 1 : i64, algorithm = "im2col_lanes"} : (tensor<1x3x4x4xf32>, tensor<1x27x32xf32>, tensor<32xf32>) -> tensor<1x32x2x2xf32>
  return %0 : tensor<1x32x2x2xf32>
}

// -----

// Nor may a grouped convolution run im2col_lanes.
func.func @conv_im2col_lanes_grouped(%x: tensor<1x4x4x4xf32>, %w: tensor<1x4x3x3x32xf32>, %b: tensor<32xf32>) -> tensor<1x32x2x2xf32> {
  // expected-error @+1 {{cannot use algorithm 'im2col_lanes' for this convolution}}
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 2 : i64, algorithm = "im2col_lanes"} : (tensor<1x4x4x4xf32>, tensor<1x4x3x3x32xf32>, tensor<32xf32>) -> tensor<1x32x2x2xf32>
  return %0 : tensor<1x32x2x2xf32>
}
