// RUN: onnxcc-opt %s --split-input-file --onnxcc-plan-memory | FileCheck %s

// Tests that a recurrent layer's scratch (ScratchOpInterface) is planned:
// (seq * batch + batch) * 4H + 4H + H + 4 * batch * H floats for an LSTM of
// seq 5, batch 1, hidden 4 = 132 floats = 528 bytes (576 aligned), beside
// Y's 80 bytes (128 aligned); the states are graph outputs.
// CHECK: kernel.workspace_bytes = 704
// CHECK-LABEL: func @main
func.func @main(%x: tensor<5x1x3xf32>, %w: tensor<1x16x3xf32>, %r: tensor<1x16x4xf32>) -> (tensor<1x1x4xf32>, tensor<1x1x4xf32>) {
  // CHECK: kernel.lstm {{.*}}kernel.buffers = array<i64: -1, 0, 1>, kernel.offsets = array<i64: 576, 0, 0>, kernel.scratch_offset = 0 : i64
  %y, %yh, %yc = kernel.lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], activation_alpha = array<f32: 0.0, 0.0, 0.0>, activation_beta = array<f32: 0.0, 0.0, 0.0>, direction = "forward", hidden_size = 4 : i64, input_forget = false, layout = 0 : i64} : (tensor<5x1x3xf32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>) -> (tensor<5x1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>)
  return %yh, %yc : tensor<1x1x4xf32>, tensor<1x1x4xf32>
}

// -----

// Tests that im2col scratch still goes through the same interface.
// CHECK-LABEL: func @main
func.func @main(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x3x3xf32>, %b: tensor<1xf32>) -> tensor<1x1x2x2xf32> {
  // CHECK: kernel.conv2d {{.*}}kernel.scratch_offset = 0 : i64
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}
