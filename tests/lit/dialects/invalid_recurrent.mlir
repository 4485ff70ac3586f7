// RUN: onnxcc-opt %s --split-input-file --verify-diagnostics

// The kernel ops' verifiers: the runtime trusts these shapes.

func.func @lstm_y_shape(%x: tensor<5x2x3xf32>, %w: tensor<1x16x3xf32>, %r: tensor<1x16x4xf32>) -> tensor<1x2x4xf32> {
  // expected-error @+1 {{Y has shape [5, 1, 2, 3], expected [5, 1, 2, 4]}}
  %y, %yh, %yc = kernel.lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], activation_alpha = array<f32: 0.0, 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0, 0.0>, direction = "forward", hidden_size = 4 : i64, input_forget = false, layout = 0 : i64} : (tensor<5x2x3xf32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>) -> (tensor<5x1x2x3xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>)
  return %yh : tensor<1x2x4xf32>
}

// -----

func.func @gru_bias_columns(%x: tensor<5x2x3xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>, %b: tensor<1x12xf32>) -> tensor<1x2x4xf32> {
  // expected-error @+1 {{B has shape [1, 12], expected [1, 24]}}
  %y, %yh = kernel.gru %x, %w, %r bias %b {activations = ["Sigmoid", "Tanh"], activation_alpha = array<f32: 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0>, direction = "forward", hidden_size = 4 : i64, layout = 0 : i64, linear_before_reset = false} : (tensor<5x2x3xf32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>, tensor<1x12xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %yh : tensor<1x2x4xf32>
}

// -----

func.func @rnn_activation(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x2x4xf32> {
  // expected-error @+1 {{unknown activation "Gelu"}}
  %y, %yh = kernel.rnn %x, %w, %r {activations = ["Gelu"], activation_alpha = array<f32: 0.0>, activation_beta = array<f32: 0.0>, direction = "forward", hidden_size = 4 : i64, layout = 0 : i64} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %yh : tensor<1x2x4xf32>
}

// -----

func.func @rnn_lens_type(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>, %l: tensor<2xi64>) -> tensor<1x2x4xf32> {
  // expected-error @+1 {{sequence_lens has elements of type 'i64', expected i32}}
  %y, %yh = kernel.rnn %x, %w, %r sequence_lens %l {activations = ["Tanh"], activation_alpha = array<f32: 0.0>, activation_beta = array<f32: 0.0>, direction = "forward", hidden_size = 4 : i64, layout = 0 : i64} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<2xi64>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %yh : tensor<1x2x4xf32>
}

// -----

func.func @rnn_hidden(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x2x4xf32> {
  // expected-error @+1 {{hidden_size must be in [1, 4294967296], got 0}}
  %y, %yh = kernel.rnn %x, %w, %r {activations = ["Tanh"], activation_alpha = array<f32: 0.0>, activation_beta = array<f32: 0.0>, direction = "forward", hidden_size = 0 : i64, layout = 0 : i64} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %yh : tensor<1x2x4xf32>
}

// -----

func.func @lstm_r_transposed_shape(%x: tensor<5x1x3xf32>, %w: tensor<1x16x3xf32>, %r: tensor<1x16x4xf32>) -> tensor<1x1x4xf32> {
  // expected-error @+1 {{R has shape [1, 16, 4], expected [1, 4, 16]}}
  %y, %yh, %yc = kernel.lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], activation_alpha = array<f32: 0.0, 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0, 0.0>, direction = "forward", hidden_size = 4 : i64, input_forget = false, layout = 0 : i64, r_transposed = true} : (tensor<5x1x3xf32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>) -> (tensor<5x1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>)
  return %yh : tensor<1x1x4xf32>
}

// -----

func.func @rnn_r_transposed_f64(%x: tensor<5x1x3xf64>, %w: tensor<1x4x3xf64>, %r: tensor<1x4x4xf64>) -> tensor<1x1x4xf64> {
  // expected-error @+1 {{lays R out transposed only for f32, got 'f64'}}
  %y, %yh = kernel.rnn %x, %w, %r {activations = ["Tanh"], activation_alpha = array<f32: 0.0>, activation_beta = array<f32: 0.0>, direction = "forward", hidden_size = 4 : i64, layout = 0 : i64, r_transposed = true} : (tensor<5x1x3xf64>, tensor<1x4x3xf64>, tensor<1x4x4xf64>) -> (tensor<5x1x1x4xf64>, tensor<1x1x4xf64>)
  return %yh : tensor<1x1x4xf64>
}
