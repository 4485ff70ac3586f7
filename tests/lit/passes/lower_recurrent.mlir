// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel --verify-diagnostics | FileCheck %s

// Tests that an LSTM with every optional input becomes one kernel.lstm
// with the same operands and results, the flag as a bool and the defaults
// (direction, layout) explicit.
// CHECK-LABEL: func @lstm_all_inputs
func.func @lstm_all_inputs(%x: tensor<5x2x3xf32>, %w: tensor<1x16x3xf32>, %r: tensor<1x16x4xf32>, %b: tensor<1x32xf32>, %l: tensor<2xi32>, %h: tensor<1x2x4xf32>, %c: tensor<1x2x4xf32>, %p: tensor<1x12xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) {
  // CHECK: %[[Y:.+]], %[[YH:.+]], %[[YC:.+]] = kernel.lstm %{{.*}}, %{{.*}}, %{{.*}} bias %{{.*}} sequence_lens %{{.*}} initial_h %{{.*}} initial_c %{{.*}} peepholes %{{.*}} {
  // CHECK-SAME: activations = ["Sigmoid", "Tanh", "Tanh"], clip = 3.000000e+00 : f32, direction = "forward", hidden_size = 4 : i64, input_forget = true, layout = 0 : i64}
  // CHECK: return %[[Y]], %[[YH]], %[[YC]]
  %y, %yh, %yc = onnx.lstm %x, %w, %r bias %b sequence_lens %l initial_h %h initial_c %c peepholes %p {activations = ["Sigmoid", "Tanh", "Tanh"], activation_alpha = array<f32: 0.0, 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0, 0.0>, clip = 3.0 : f32, hidden_size = 4 : i64, input_forget = 1 : i64} : (tensor<5x2x3xf32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>, tensor<1x32xf32>, tensor<2xi32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x12xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>)
  return %y, %yh, %yc : tensor<5x1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>
}

// -----

// Tests that a GRU without hidden_size gets it from R's shape, and that
// linear_before_reset becomes a bool.
// CHECK-LABEL: func @gru_hidden_from_r
func.func @gru_hidden_from_r(%x: tensor<3x1x2xf32>, %w: tensor<1x18x2xf32>, %r: tensor<1x18x6xf32>) -> tensor<3x1x6xf32> {
  // CHECK: kernel.gru %{{.*}}, %{{.*}}, %{{.*}} {
  // CHECK-SAME: hidden_size = 6 : i64, layout = 1 : i64, linear_before_reset = true}
  // CHECK-SAME: -> (tensor<3x1x1x6xf32>, tensor<3x1x6xf32>)
  %y, %yh = onnx.gru %x, %w, %r {activations = ["Sigmoid", "Tanh"], activation_alpha = array<f32: 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0>, layout = 1 : i64, linear_before_reset = 1 : i64} : (tensor<3x1x2xf32>, tensor<1x18x2xf32>, tensor<1x18x6xf32>) -> (tensor<3x1x1x6xf32>, tensor<3x1x6xf32>)
  return %yh : tensor<3x1x6xf32>
}

// -----

// Tests that a bidirectional RNN keeps both directions' activations and
// their alpha/beta, and that f64 lowers too.
// CHECK-LABEL: func @rnn_bidirectional_f64
func.func @rnn_bidirectional_f64(%x: tensor<4x2x3xf64>, %w: tensor<2x5x3xf64>, %r: tensor<2x5x5xf64>) -> tensor<4x2x2x5xf64> {
  // CHECK: kernel.rnn
  // CHECK-SAME: activation_alpha = array<f32: 1.000000e-01, 0.000000e+00>
  // CHECK-SAME: activations = ["LeakyRelu", "Tanh"], direction = "bidirectional"
  %y, %yh = onnx.rnn %x, %w, %r {activations = ["LeakyRelu", "Tanh"], activation_alpha = array<f32: 0.1, 0.0>, activation_beta = array<f32: 0.0, 0.0>, direction = "bidirectional"} : (tensor<4x2x3xf64>, tensor<2x5x3xf64>, tensor<2x5x5xf64>) -> (tensor<4x2x2x5xf64>, tensor<2x2x5xf64>)
  return %y : tensor<4x2x2x5xf64>
}

// -----

// Tests that W's rows must be gates * hidden_size.
func.func @lstm_bad_w(%x: tensor<5x2x3xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x16x4xf32>) -> tensor<1x2x4xf32> {
  // expected-error @+2 {{gates * hidden is 16 (from R) but W gives 12}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %yh, %yc = onnx.lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], activation_alpha = array<f32: 0.0, 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0, 0.0>} : (tensor<5x2x3xf32>, tensor<1x12x3xf32>, tensor<1x16x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>)
  return %yh : tensor<1x2x4xf32>
}

// -----

// Tests that a bidirectional layer needs the functions of both directions.
func.func @gru_bidirectional_one_direction_of_activations(%x: tensor<3x1x2xf32>, %w: tensor<2x18x2xf32>, %r: tensor<2x18x6xf32>) -> tensor<2x1x6xf32> {
  // expected-error @+2 {{expects 4 activations (2 per direction), got 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %yh = onnx.gru %x, %w, %r {activations = ["Sigmoid", "Tanh"], activation_alpha = array<f32: 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0>, direction = "bidirectional"} : (tensor<3x1x2xf32>, tensor<2x18x2xf32>, tensor<2x18x6xf32>) -> (tensor<3x2x1x6xf32>, tensor<2x1x6xf32>)
  return %yh : tensor<2x1x6xf32>
}

// -----

// Tests that sequence_lens must be int32 and initial_h must match the batch.
func.func @rnn_bad_lens(%x: tensor<3x2x2xf32>, %w: tensor<1x4x2xf32>, %r: tensor<1x4x4xf32>, %l: tensor<2xi64>) -> tensor<1x2x4xf32> {
  // expected-error @+2 {{sequence_lens must be int32, got 'i64'}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %yh = onnx.rnn %x, %w, %r sequence_lens %l {activations = ["Tanh"], activation_alpha = array<f32: 0.0>, activation_beta = array<f32: 0.0>} : (tensor<3x2x2xf32>, tensor<1x4x2xf32>, tensor<1x4x4xf32>, tensor<2xi64>) -> (tensor<3x1x2x4xf32>, tensor<1x2x4xf32>)
  return %yh : tensor<1x2x4xf32>
}

// -----

func.func @rnn_bad_initial_h(%x: tensor<3x2x2xf32>, %w: tensor<1x4x2xf32>, %r: tensor<1x4x4xf32>, %h: tensor<1x3x4xf32>) -> tensor<1x2x4xf32> {
  // expected-error @+2 {{the batch size is 2 (from X) but initial_h gives 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %yh = onnx.rnn %x, %w, %r initial_h %h {activations = ["Tanh"], activation_alpha = array<f32: 0.0>, activation_beta = array<f32: 0.0>} : (tensor<3x2x2xf32>, tensor<1x4x2xf32>, tensor<1x4x4xf32>, tensor<1x3x4xf32>) -> (tensor<3x1x2x4xf32>, tensor<1x2x4xf32>)
  return %yh : tensor<1x2x4xf32>
}

// -----

// Tests hostile attributes: a negative clip, a hidden_size beyond the cap.
func.func @rnn_bad_clip(%x: tensor<3x2x2xf32>, %w: tensor<1x4x2xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x2x4xf32> {
  // expected-error @+2 {{clip must be positive, got -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %yh = onnx.rnn %x, %w, %r {activations = ["Tanh"], activation_alpha = array<f32: 0.0>, activation_beta = array<f32: 0.0>, clip = -1.0 : f32} : (tensor<3x2x2xf32>, tensor<1x4x2xf32>, tensor<1x4x4xf32>) -> (tensor<3x1x2x4xf32>, tensor<1x2x4xf32>)
  return %yh : tensor<1x2x4xf32>
}

// -----

func.func @rnn_huge_hidden(%x: tensor<3x2x2xf32>, %w: tensor<1x4x2xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x2x4xf32> {
  // expected-error @+2 {{hidden_size must be in [1, 4294967296], got -5}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %yh = onnx.rnn %x, %w, %r {activations = ["Tanh"], activation_alpha = array<f32: 0.0>, activation_beta = array<f32: 0.0>, hidden_size = -5 : i64} : (tensor<3x2x2xf32>, tensor<1x4x2xf32>, tensor<1x4x4xf32>) -> (tensor<3x1x2x4xf32>, tensor<1x2x4xf32>)
  return %yh : tensor<1x2x4xf32>
}

// -----

// Tests that a constant f32 W of a layer over 4 or more rows (sequence x
// batch) is transposed per direction for the input projection, and that a
// shorter layer keeps ONNX's layout.
// CHECK-LABEL: func @rnn_constant_w
func.func @rnn_constant_w(%x: tensor<5x1x3xf32>, %x1: tensor<1x1x3xf32>, %r: tensor<1x2x2xf32>) -> (tensor<1x1x2xf32>, tensor<1x1x2xf32>) {
  %w = onnx.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]> : tensor<1x2x3xf32>
  // CHECK: %[[WT:.+]] = kernel.weight dense<{{\[\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]]> : tensor<1x3x2xf32>
  // CHECK: kernel.rnn %{{.*}}, %[[WT]], %{{.*}} {{{.*}}w_transposed = true{{.*}}} : (tensor<5x1x3xf32>, tensor<1x3x2xf32>, tensor<1x2x2xf32>)
  // CHECK: kernel.rnn {{.*}} : (tensor<1x1x3xf32>, tensor<1x2x3xf32>, tensor<1x2x2xf32>)
  %y, %yh = onnx.rnn %x, %w, %r {activations = ["Tanh"], activation_alpha = array<f32: 0.0>, activation_beta = array<f32: 0.0>, hidden_size = 2 : i64} : (tensor<5x1x3xf32>, tensor<1x2x3xf32>, tensor<1x2x2xf32>) -> (tensor<5x1x1x2xf32>, tensor<1x1x2xf32>)
  %y1, %yh1 = onnx.rnn %x1, %w, %r {activations = ["Tanh"], activation_alpha = array<f32: 0.0>, activation_beta = array<f32: 0.0>, hidden_size = 2 : i64} : (tensor<1x1x3xf32>, tensor<1x2x3xf32>, tensor<1x2x2xf32>) -> (tensor<1x1x1x2xf32>, tensor<1x1x2xf32>)
  return %yh, %yh1 : tensor<1x1x2xf32>, tensor<1x1x2xf32>
}

// -----

// Tests that a constant f32 R of a layer over one sequence (batch 1, in
// either layout) is transposed per direction for the k-major steps, and
// that R over two sequences, or an R that is not constant, keeps ONNX's
// layout.
// CHECK-LABEL: func @gru_constant_r
func.func @gru_constant_r(%x: tensor<4x1x2xf32>, %xb: tensor<1x4x2xf32>, %x2: tensor<4x2x2xf32>, %w: tensor<1x3x2xf32>, %rin: tensor<1x3x1xf32>) -> (tensor<1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x2x1xf32>, tensor<1x1x1xf32>) {
  %r = onnx.constant dense<[[[1.0], [2.0], [3.0]]]> : tensor<1x3x1xf32>
  // CHECK: %[[RT:.+]] = kernel.weight dense<{{\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00]]]> : tensor<1x1x3xf32>
  // CHECK: kernel.gru %{{.*}}, %{{.*}}, %[[RT]] {{{.*}}r_transposed = true{{.*}}} : (tensor<4x1x2xf32>, tensor<1x3x2xf32>, tensor<1x1x3xf32>)
  // CHECK: kernel.gru {{.*}}r_transposed = true{{.*}}} : (tensor<1x4x2xf32>, tensor<1x3x2xf32>, tensor<1x1x3xf32>)
  // CHECK: kernel.gru {{.*}} : (tensor<4x2x2xf32>, tensor<1x3x2xf32>, tensor<1x3x1xf32>)
  // CHECK-NOT: r_transposed
  // CHECK: kernel.gru {{.*}} : (tensor<4x1x2xf32>, tensor<1x3x2xf32>, tensor<1x3x1xf32>)
  %y, %yh = onnx.gru %x, %w, %r {activations = ["Sigmoid", "Tanh"], activation_alpha = array<f32: 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0>} : (tensor<4x1x2xf32>, tensor<1x3x2xf32>, tensor<1x3x1xf32>) -> (tensor<4x1x1x1xf32>, tensor<1x1x1xf32>)
  %yb, %yhb = onnx.gru %xb, %w, %r {activations = ["Sigmoid", "Tanh"], activation_alpha = array<f32: 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0>, layout = 1 : i64} : (tensor<1x4x2xf32>, tensor<1x3x2xf32>, tensor<1x3x1xf32>) -> (tensor<1x4x1x1xf32>, tensor<1x1x1xf32>)
  %y2, %yh2 = onnx.gru %x2, %w, %r {activations = ["Sigmoid", "Tanh"], activation_alpha = array<f32: 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0>} : (tensor<4x2x2xf32>, tensor<1x3x2xf32>, tensor<1x3x1xf32>) -> (tensor<4x1x2x1xf32>, tensor<1x2x1xf32>)
  %y3, %yh3 = onnx.gru %x, %w, %rin {activations = ["Sigmoid", "Tanh"], activation_alpha = array<f32: 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0>} : (tensor<4x1x2xf32>, tensor<1x3x2xf32>, tensor<1x3x1xf32>) -> (tensor<4x1x1x1xf32>, tensor<1x1x1xf32>)
  return %yh, %yhb, %yh2, %yh3 : tensor<1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x2x1xf32>, tensor<1x1x1xf32>
}

// -----

// Tests that shape buckets (layout-rows above 1) keep ONNX's R even for
// one sequence, so every bucket shares one layout and one copy of it.
// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel="layout-rows=8" --verify-diagnostics | FileCheck %s --check-prefix=BUCKETS
// BUCKETS-LABEL: func @lstm_constant_r_buckets
// BUCKETS-NOT: r_transposed
// BUCKETS: kernel.lstm {{.*}} : (tensor<3x1x2xf32>, tensor<1x4x2xf32>, tensor<1x4x1xf32>)
func.func @lstm_constant_r_buckets(%x: tensor<3x1x2xf32>, %w: tensor<1x4x2xf32>) -> tensor<1x1x1xf32> {
  %r = onnx.constant dense<[[[1.0], [2.0], [3.0], [4.0]]]> : tensor<1x4x1xf32>
  %y, %yh, %yc = onnx.lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], activation_alpha = array<f32: 0.0, 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0, 0.0>} : (tensor<3x1x2xf32>, tensor<1x4x2xf32>, tensor<1x4x1xf32>) -> (tensor<3x1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>)
  return %yh : tensor<1x1x1xf32>
}
