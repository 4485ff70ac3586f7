// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-conv-algorithm | FileCheck %s
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-conv-algorithm --onnxcc-plan-memory | FileCheck %s --check-prefix=PLAN
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-conv-algorithm=min-winograd-channels=1 | FileCheck %s --check-prefix=WINO
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-conv-algorithm=min-winograd-channels=1 --onnxcc-plan-memory | FileCheck %s --check-prefix=WINOPLAN
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-conv-algorithm=min-winograd-channels=33 | FileCheck %s --check-prefix=NOWINO
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-conv-algorithm=threads=2 | FileCheck %s --check-prefix=THREADS

// A 3x3 stride-1 convolution over several channels, too shallow for
// Winograd: an implicit GEMM, whose scratch is one padded plane per input
// channel and 32 floats of slack: 2 * (2 + 2) * (2 + 2) + 32 floats.
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d {{.*}}algorithm = "implicit_gemm"
// PLAN: kernel.workspace_bytes = 256
// PLAN-LABEL: func @main
// PLAN: kernel.conv2d {{.*}}kernel.scratch_offset
func.func @main(%x: tensor<1x2x4x4xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

// Dilated and padded: the planes hold the padded rows and columns the
// dilated window reaches, 3 * (4 + 2*2) * (3 + 1*2) + 32 = 152 floats
// (608 bytes, 640 aligned). (The planned size is a module attribute, so
// each split's comes before its function's label.)
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d {{.*}}algorithm = "implicit_gemm"
// PLAN: kernel.workspace_bytes = 640
// PLAN-LABEL: func @main
func.func @main(%x: tensor<1x3x6x5xf32>, %w: tensor<2x3x3x2xf32>, %b: tensor<2xf32>) -> tensor<1x2x4x3xf32> {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 1, 0, 1, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 2, 2>, group = 1 : i64} : (tensor<1x3x6x5xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>) -> tensor<1x2x4x3xf32>
  return %0 : tensor<1x2x4x3xf32>
}

// -----

// A stride of 2 over 5 input channels (more than a stem's 4), or two
// groups: im2col into scratch (the default, which the printer elides).
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d
// CHECK-NOT: algorithm
// CHECK: kernel.conv2d
// CHECK-NOT: algorithm
// CHECK: return
// PLAN-LABEL: func @main
// PLAN: kernel.conv2d {{.*}}kernel.scratch_offset
// PLAN: kernel.conv2d {{.*}}kernel.scratch_offset
func.func @main(%x5: tensor<1x5x5x5xf32>, %w: tensor<4x5x3x3xf32>, %x: tensor<1x2x5x5xf32>, %g: tensor<4x1x3x3xf32>, %b: tensor<4xf32>) -> (tensor<1x4x2x2xf32>, tensor<1x4x3x3xf32>) {
  %0 = kernel.conv2d %x5, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x5x5x5xf32>, tensor<4x5x3x3xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  %1 = kernel.conv2d %x, %g, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 2 : i64} : (tensor<1x2x5x5xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  return %0, %1 : tensor<1x4x2x2xf32>, tensor<1x4x3x3xf32>
}

// -----

// A stride-2 stem over 3 channels: an implicit GEMM. Its planes hold the
// 7 x 7 padded rows and columns the windows reach, each row as two phase
// rows of 4: 3 * 7 * 2 * 4 + 32 = 200 floats (800 bytes, 832 aligned).
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d {{.*}}algorithm = "implicit_gemm"
// PLAN: kernel.workspace_bytes = 832
// PLAN-LABEL: func @main
func.func @main(%x: tensor<1x3x5x5xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x3x3xf32> {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

// 1x1, stride 1, no padding: the input is the GEMM's B, no scratch.
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"
// PLAN-LABEL: func @main
// PLAN-NOT: kernel.scratch_offset
// PLAN: return
func.func @main(%x: tensor<1x3x4x4xf32>, %w: tensor<5x3x1x1xf32>, %b: tensor<5xf32>) -> tensor<1x5x4x4xf32> {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x3x4x4xf32>, tensor<5x3x1x1xf32>, tensor<5xf32>) -> tensor<1x5x4x4xf32>
  return %0 : tensor<1x5x4x4xf32>
}

// -----

// 1x1 with 96 output channels over a 13x13 map (169 columns, 7 of padding
// to 176, under a twentieth): the input is packed, im2col's 3 x 192
// floats of scratch (2304 bytes). One channel fewer, or a 14x14 map (196
// columns, 12 of padding to 208): pointwise.
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d
// CHECK-NOT: algorithm
// CHECK-SAME: -> tensor<1x96x13x13xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}} -> tensor<1x95x13x13xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}} -> tensor<1x96x14x14xf32>
// PLAN: kernel.workspace_bytes = 2304
// PLAN-LABEL: func @main
// PLAN: kernel.conv2d {{.*}}kernel.scratch_offset
// PLAN-NOT: kernel.scratch_offset
// PLAN: return
func.func @main(%x: tensor<1x3x13x13xf32>, %x14: tensor<1x3x14x14xf32>, %w: tensor<96x3x1x1xf32>, %b: tensor<96xf32>, %w95: tensor<95x3x1x1xf32>, %b95: tensor<95xf32>) -> (tensor<1x96x13x13xf32>, tensor<1x95x13x13xf32>, tensor<1x96x14x14xf32>) {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x3x13x13xf32>, tensor<96x3x1x1xf32>, tensor<96xf32>) -> tensor<1x96x13x13xf32>
  %1 = kernel.conv2d %x, %w95, %b95 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x3x13x13xf32>, tensor<95x3x1x1xf32>, tensor<95xf32>) -> tensor<1x95x13x13xf32>
  %2 = kernel.conv2d %x14, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x3x14x14xf32>, tensor<96x3x1x1xf32>, tensor<96xf32>) -> tensor<1x96x14x14xf32>
  return %0, %1, %2 : tensor<1x96x13x13xf32>, tensor<1x95x13x13xf32>, tensor<1x96x14x14xf32>
}

// -----

// One channel per group (MobileNet's 3x3 layers): depthwise, no scratch.
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d {{.*}}algorithm = "depthwise"
// PLAN-LABEL: func @main
// PLAN-NOT: kernel.scratch_offset
// PLAN: return
func.func @main(%x: tensor<1x3x4x4xf32>, %w: tensor<3x1x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x3x2x2xf32> {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 3 : i64} : (tensor<1x3x4x4xf32>, tensor<3x1x3x3xf32>, tensor<3xf32>) -> tensor<1x3x2x2xf32>
  return %0 : tensor<1x3x2x2xf32>
}

// -----

// Two output channels per group (a depth multiplier of 2): im2col.
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d
// CHECK-NOT: algorithm
// CHECK: return
func.func @main(%x: tensor<1x2x4x4xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

// A 1x1 depthwise convolution (a per-channel scale) is depthwise too, not
// a one-row GEMM per channel.
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d {{.*}}algorithm = "depthwise"
func.func @main(%x: tensor<1x4x3x3xf32>, %w: tensor<4x1x1x1xf32>, %b: tensor<4xf32>) -> tensor<1x4x3x3xf32> {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 4 : i64} : (tensor<1x4x3x3xf32>, tensor<4x1x1x1xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

// A 3x3 stride-1 convolution with constant weights: Winograd, with the
// weight replaced by U = G g G^T as [16, O, C] (for g = 1..9 row by row,
// U's rows are 1 3 1 3 / 6 11.25 3.75 9 / 2 3.75 1.25 3 / 7 12 4 9; the
// second channel's kernel is 0) and scratch for the transformed input and
// the products. By default because its 5x5 map is 9 2x2 tiles and it has
// 2 input channels (see the next case); with min-winograd-channels=1
// because it has at least one input and output channel.
// CHECK-LABEL: func @main(%arg0: tensor<1x2x5x5xf32>, %arg1: tensor<1xf32>)
// CHECK: kernel.conv2d {{.*}}algorithm = "winograd"{{.*}} -> tensor<1x1x5x5xf32>
// CHECK: return
// WINO-LABEL: func @main(%arg0: tensor<1x2x5x5xf32>, %arg1: tensor<1xf32>)
// WINO: %[[U:.*]] = kernel.weight dense<{{\[\[\[}}1.000000e+00, 0.000000e+00]], {{\[\[}}3.000000e+00, 0.000000e+00]], {{\[\[}}1.000000e+00, 0.000000e+00]], {{\[\[}}3.000000e+00, 0.000000e+00]], {{\[\[}}6.000000e+00, 0.000000e+00]], {{\[\[}}1.125000e+01, 0.000000e+00]], {{\[\[}}3.750000e+00, 0.000000e+00]], {{\[\[}}9.000000e+00, 0.000000e+00]], {{\[\[}}2.000000e+00, 0.000000e+00]], {{\[\[}}3.750000e+00, 0.000000e+00]], {{\[\[}}1.250000e+00, 0.000000e+00]], {{\[\[}}3.000000e+00, 0.000000e+00]], {{\[\[}}7.000000e+00, 0.000000e+00]], {{\[\[}}1.200000e+01, 0.000000e+00]], {{\[\[}}4.000000e+00, 0.000000e+00]], {{\[\[}}9.000000e+00, 0.000000e+00]]]> : tensor<16x1x2xf32>
// WINO: kernel.conv2d %{{.*}}, %[[U]], %{{.*}} {algorithm = "winograd"{{.*}} : (tensor<1x2x5x5xf32>, tensor<16x1x2xf32>, tensor<1xf32>) -> tensor<1x1x5x5xf32>
// WINOPLAN-LABEL: func @main(%arg0: tensor<1x2x5x5xf32>, %arg1: tensor<1xf32>)
// WINOPLAN: kernel.conv2d {{.*}}algorithm = "winograd"{{.*}}kernel.scratch_offset
func.func @main(%x: tensor<1x2x5x5xf32>, %b: tensor<1xf32>) -> tensor<1x1x5x5xf32> {
  %w = kernel.weight dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]]> : tensor<1x2x3x3xf32>
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<1x2x3x3xf32>, tensor<1xf32>) -> tensor<1x1x5x5xf32>
  return %0 : tensor<1x1x5x5xf32>
}

// -----

// The default rule's edges. Winograd at 32 input and output channels (a
// 9x9 map: 25 tiles), not at 31 inputs or 31 outputs; at any depth from 2
// input channels over a map of 9 to 16 tiles (an 8x8 map; a 7x7 one with
// one output channel; the 5x5 case above), not over 4 or 25 tiles, nor
// from 1 input channel.
// min-winograd-channels=33 replaces the rule: none of them.
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d {{.*}}algorithm = "winograd"{{.*}} -> tensor<1x32x9x9xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "implicit_gemm"{{.*}} -> tensor<1x32x9x9xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "implicit_gemm"{{.*}} -> tensor<1x31x9x9xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "winograd"{{.*}} -> tensor<1x4x8x8xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "winograd"{{.*}} -> tensor<1x1x7x7xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "implicit_gemm"{{.*}} -> tensor<1x4x4x4xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "implicit_gemm"{{.*}} -> tensor<1x4x9x9xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "implicit_gemm"{{.*}} -> tensor<1x4x8x8xf32>
// NOWINO-LABEL: func @main(%arg0: tensor<1x32x9x9xf32>
// NOWINO-NOT: winograd
// NOWINO: return
func.func @main(%x32: tensor<1x32x9x9xf32>, %x31: tensor<1x31x9x9xf32>, %x2: tensor<1x2x8x8xf32>, %x1: tensor<1x1x8x8xf32>, %y2: tensor<1x2x9x9xf32>, %z2: tensor<1x2x4x4xf32>, %b32: tensor<32xf32>, %b31: tensor<31xf32>, %b4: tensor<4xf32>, %b1: tensor<1xf32>) -> (tensor<1x32x9x9xf32>, tensor<1x32x9x9xf32>, tensor<1x31x9x9xf32>, tensor<1x4x8x8xf32>, tensor<1x1x7x7xf32>, tensor<1x4x4x4xf32>, tensor<1x4x9x9xf32>, tensor<1x4x8x8xf32>) {
  %w32 = kernel.weight dense<1.0> : tensor<32x32x3x3xf32>
  %w3231 = kernel.weight dense<1.0> : tensor<32x31x3x3xf32>
  %w3132 = kernel.weight dense<1.0> : tensor<31x32x3x3xf32>
  %w42 = kernel.weight dense<1.0> : tensor<4x2x3x3xf32>
  %w12 = kernel.weight dense<1.0> : tensor<1x2x3x3xf32>
  %w41 = kernel.weight dense<1.0> : tensor<4x1x3x3xf32>
  %0 = kernel.conv2d %x32, %w32, %b32 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x32x9x9xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>) -> tensor<1x32x9x9xf32>
  %1 = kernel.conv2d %x31, %w3231, %b32 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x31x9x9xf32>, tensor<32x31x3x3xf32>, tensor<32xf32>) -> tensor<1x32x9x9xf32>
  %2 = kernel.conv2d %x32, %w3132, %b31 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x32x9x9xf32>, tensor<31x32x3x3xf32>, tensor<31xf32>) -> tensor<1x31x9x9xf32>
  %3 = kernel.conv2d %x2, %w42, %b4 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %4 = kernel.conv2d %y2, %w12, %b1 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x9x9xf32>, tensor<1x2x3x3xf32>, tensor<1xf32>) -> tensor<1x1x7x7xf32>
  %5 = kernel.conv2d %z2, %w42, %b4 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %6 = kernel.conv2d %y2, %w42, %b4 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x9x9xf32>
  %7 = kernel.conv2d %x1, %w41, %b4 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x8x8xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<1x32x9x9xf32>, tensor<1x32x9x9xf32>, tensor<1x31x9x9xf32>, tensor<1x4x8x8xf32>, tensor<1x1x7x7xf32>, tensor<1x4x4x4xf32>, tensor<1x4x9x9xf32>, tensor<1x4x8x8xf32>
}

// -----

// Weights that are not constants: an implicit GEMM; a stride of 2: not
// Winograd, but, over two channels, a stem's strided implicit GEMM.
// WINO-LABEL: func @main(%arg0: tensor<1x2x5x5xf32>, %arg1: tensor<1x2x3x3xf32>
// WINO: kernel.conv2d {{.*}}algorithm = "implicit_gemm"{{.*}}strides = array<i64: 1, 1>
// WINO: kernel.conv2d {{.*}}algorithm = "implicit_gemm"{{.*}}strides = array<i64: 2, 2>
// WINO: return
func.func @main(%x: tensor<1x2x5x5xf32>, %w: tensor<1x2x3x3xf32>, %b: tensor<1xf32>) -> (tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>) {
  %c = kernel.weight dense<1.0> : tensor<1x2x3x3xf32>
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<1x2x3x3xf32>, tensor<1xf32>) -> tensor<1x1x5x5xf32>
  %1 = kernel.conv2d %x, %c, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<1x2x3x3xf32>, tensor<1xf32>) -> tensor<1x1x3x3xf32>
  return %0, %1 : tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>
}

// -----

// 1x1 convolutions with constant weights and at least 32 output channels
// run with their output channels in the lanes, the weight rewritten into
// panels of W^T, [ceil(O / 32), C, 32], and no scratch: over a 7x7 map
// (49 positions pad 15 to 64) from 256 input channels; over a 5x5 map
// (at most 25 positions) from 128. Not from 255 or 127 input channels,
// with 31 output channels, over a 14x14 map (196 pad 12, under an
// eighth), over one position, or with weights that are not constants.
// (40 output channels, a partial second panel of 32, keep these layers
// out of the whole-panel rule tested further down.)
// CHECK-LABEL: func @main
// CHECK: %[[A:.*]] = kernel.weight {{.*}} : tensor<2x256x32xf32>
// CHECK: kernel.conv2d %{{.*}}, %[[A]], %{{.*}} {algorithm = "pointwise_lanes"{{.*}} -> tensor<1x40x7x7xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}}tensor<40x255x1x1xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}}tensor<31x256x1x1xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}} -> tensor<1x40x14x14xf32>
// CHECK: %[[E:.*]] = kernel.weight {{.*}} : tensor<2x128x32xf32>
// CHECK: kernel.conv2d %{{.*}}, %[[E]], %{{.*}} {algorithm = "pointwise_lanes"{{.*}} -> tensor<1x40x5x5xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}}tensor<40x127x1x1xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}} -> tensor<1x40x1x1xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}}(tensor<1x256x7x7xf32>, tensor<32x256x1x1xf32>, tensor<32xf32>)
// CHECK: return
// PLAN-LABEL: func @main(%arg0: tensor<1x256x7x7xf32>
// PLAN-NOT: kernel.scratch_offset
// PLAN: return
func.func @main(%x7: tensor<1x256x7x7xf32>, %x7n: tensor<1x255x7x7xf32>, %x14: tensor<1x256x14x14xf32>, %x5: tensor<1x128x5x5xf32>, %x5n: tensor<1x127x5x5xf32>, %x1: tensor<1x256x1x1xf32>, %wv: tensor<32x256x1x1xf32>, %b32: tensor<32xf32>, %b31: tensor<31xf32>, %b40: tensor<40xf32>) -> (tensor<1x40x7x7xf32>, tensor<1x40x7x7xf32>, tensor<1x31x7x7xf32>, tensor<1x40x14x14xf32>, tensor<1x40x5x5xf32>, tensor<1x40x5x5xf32>, tensor<1x40x1x1xf32>, tensor<1x32x7x7xf32>) {
  %w = kernel.weight dense<1.0> : tensor<40x256x1x1xf32>
  %wn = kernel.weight dense<1.0> : tensor<40x255x1x1xf32>
  %w31 = kernel.weight dense<1.0> : tensor<31x256x1x1xf32>
  %w5 = kernel.weight dense<1.0> : tensor<40x128x1x1xf32>
  %w5n = kernel.weight dense<1.0> : tensor<40x127x1x1xf32>
  %0 = kernel.conv2d %x7, %w, %b40 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x256x7x7xf32>, tensor<40x256x1x1xf32>, tensor<40xf32>) -> tensor<1x40x7x7xf32>
  %1 = kernel.conv2d %x7n, %wn, %b40 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x255x7x7xf32>, tensor<40x255x1x1xf32>, tensor<40xf32>) -> tensor<1x40x7x7xf32>
  %2 = kernel.conv2d %x7, %w31, %b31 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x256x7x7xf32>, tensor<31x256x1x1xf32>, tensor<31xf32>) -> tensor<1x31x7x7xf32>
  %3 = kernel.conv2d %x14, %w, %b40 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x256x14x14xf32>, tensor<40x256x1x1xf32>, tensor<40xf32>) -> tensor<1x40x14x14xf32>
  %4 = kernel.conv2d %x5, %w5, %b40 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x128x5x5xf32>, tensor<40x128x1x1xf32>, tensor<40xf32>) -> tensor<1x40x5x5xf32>
  %5 = kernel.conv2d %x5n, %w5n, %b40 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x127x5x5xf32>, tensor<40x127x1x1xf32>, tensor<40xf32>) -> tensor<1x40x5x5xf32>
  %6 = kernel.conv2d %x1, %w, %b40 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x256x1x1xf32>, tensor<40x256x1x1xf32>, tensor<40xf32>) -> tensor<1x40x1x1xf32>
  %7 = kernel.conv2d %x7, %wv, %b32 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x256x7x7xf32>, tensor<32x256x1x1xf32>, tensor<32xf32>) -> tensor<1x32x7x7xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<1x40x7x7xf32>, tensor<1x40x7x7xf32>, tensor<1x31x7x7xf32>, tensor<1x40x14x14xf32>, tensor<1x40x5x5xf32>, tensor<1x40x5x5xf32>, tensor<1x40x1x1xf32>, tensor<1x32x7x7xf32>
}

// -----

// A wide 1x1 layer over a small map runs with its output channels in the
// lanes: 512 -> 520 over 16x16 (256 positions; 520 is not whole panels of
// 32, so the panel rule below does not apply). Over 17x16, from 511 input
// channels or to 511 output channels it stays im2col, the default the
// printer elides (the map pads nothing to a multiple of 16, so the padding
// rule does not apply either).
// CHECK-LABEL: func @main(%arg0: tensor<1x512x16x16xf32>
// CHECK: %[[W:.*]] = kernel.weight {{.*}} : tensor<17x512x32xf32>
// CHECK: kernel.conv2d %{{.*}}, %[[W]], %{{.*}} {algorithm = "pointwise_lanes"{{.*}} -> tensor<1x520x16x16xf32>
// CHECK-NOT: algorithm
// CHECK: kernel.conv2d {{.*}} -> tensor<1x520x17x16xf32>
// CHECK-NOT: algorithm
// CHECK: kernel.conv2d {{.*}}tensor<520x511x1x1xf32>
// CHECK-NOT: algorithm
// CHECK: kernel.conv2d {{.*}} -> tensor<1x511x16x16xf32>
// CHECK-NOT: algorithm
// CHECK: return
func.func @main(%x: tensor<1x512x16x16xf32>, %xb: tensor<1x512x17x16xf32>, %xn: tensor<1x511x16x16xf32>, %b: tensor<520xf32>, %bn: tensor<511xf32>) -> (tensor<1x520x16x16xf32>, tensor<1x520x17x16xf32>, tensor<1x520x16x16xf32>, tensor<1x511x16x16xf32>) {
  %w = kernel.weight dense<1.0> : tensor<520x512x1x1xf32>
  %w2 = kernel.weight dense<1.0> : tensor<520x512x1x1xf32>
  %wn = kernel.weight dense<1.0> : tensor<520x511x1x1xf32>
  %wo = kernel.weight dense<1.0> : tensor<511x512x1x1xf32>
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x512x16x16xf32>, tensor<520x512x1x1xf32>, tensor<520xf32>) -> tensor<1x520x16x16xf32>
  %1 = kernel.conv2d %xb, %w2, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x512x17x16xf32>, tensor<520x512x1x1xf32>, tensor<520xf32>) -> tensor<1x520x17x16xf32>
  %2 = kernel.conv2d %xn, %wn, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x511x16x16xf32>, tensor<520x511x1x1xf32>, tensor<520xf32>) -> tensor<1x520x16x16xf32>
  %3 = kernel.conv2d %x, %wo, %bn {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x512x16x16xf32>, tensor<511x512x1x1xf32>, tensor<511xf32>) -> tensor<1x511x16x16xf32>
  return %0, %1, %2, %3 : tensor<1x520x16x16xf32>, tensor<1x520x17x16xf32>, tensor<1x520x16x16xf32>, tensor<1x511x16x16xf32>
}

// -----

// Whole panels of 32 output channels over a map of 26 to 256 positions
// from at least 48 input channels run in the lanes on one thread: 48 -> 64
// and 384 -> 64 over 13x13, 64 -> 256 over 16x16. From 47 input channels,
// to 48 output channels (half a panel left empty), over 17x16 and over
// 5x5 (the small-map rule's, from 128 inputs) they stay `pointwise`. On
// two threads (THREADS) only an expansion of at least 4 panels a thread:
// 64 -> 256 (8 panels); 384 -> 64 and 48 -> 64 stay `pointwise`.
// CHECK-LABEL: func @main(%arg0: tensor<1x48x13x13xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise_lanes"{{.*}} -> tensor<1x64x13x13xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise_lanes"{{.*}}(tensor<1x384x13x13xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise_lanes"{{.*}} -> tensor<1x256x16x16xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}}(tensor<1x47x13x13xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}} -> tensor<1x48x13x13xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}} -> tensor<1x64x17x16xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}} -> tensor<1x64x5x5xf32>
// THREADS-LABEL: func @main(%arg0: tensor<1x48x13x13xf32>
// THREADS: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}} -> tensor<1x64x13x13xf32>
// THREADS: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}}(tensor<1x384x13x13xf32>
// THREADS: kernel.conv2d {{.*}}algorithm = "pointwise_lanes"{{.*}} -> tensor<1x256x16x16xf32>
// THREADS-NOT: pointwise_lanes
// THREADS: return
func.func @main(%x: tensor<1x48x13x13xf32>, %xw: tensor<1x384x13x13xf32>, %x16: tensor<1x64x16x16xf32>, %x47: tensor<1x47x13x13xf32>, %x17: tensor<1x64x17x16xf32>, %x5: tensor<1x64x5x5xf32>, %b: tensor<64xf32>, %b48: tensor<48xf32>, %b256: tensor<256xf32>) -> (tensor<1x64x13x13xf32>, tensor<1x64x13x13xf32>, tensor<1x256x16x16xf32>, tensor<1x64x13x13xf32>, tensor<1x48x13x13xf32>, tensor<1x64x17x16xf32>, tensor<1x64x5x5xf32>) {
  %w0 = kernel.weight dense<1.0> : tensor<64x48x1x1xf32>
  %w1 = kernel.weight dense<1.0> : tensor<64x384x1x1xf32>
  %w2 = kernel.weight dense<1.0> : tensor<256x64x1x1xf32>
  %w3 = kernel.weight dense<1.0> : tensor<64x47x1x1xf32>
  %w4 = kernel.weight dense<1.0> : tensor<48x48x1x1xf32>
  %w5 = kernel.weight dense<1.0> : tensor<64x64x1x1xf32>
  %w6 = kernel.weight dense<1.0> : tensor<64x64x1x1xf32>
  %0 = kernel.conv2d %x, %w0, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x48x13x13xf32>, tensor<64x48x1x1xf32>, tensor<64xf32>) -> tensor<1x64x13x13xf32>
  %1 = kernel.conv2d %xw, %w1, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x384x13x13xf32>, tensor<64x384x1x1xf32>, tensor<64xf32>) -> tensor<1x64x13x13xf32>
  %2 = kernel.conv2d %x16, %w2, %b256 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x64x16x16xf32>, tensor<256x64x1x1xf32>, tensor<256xf32>) -> tensor<1x256x16x16xf32>
  %3 = kernel.conv2d %x47, %w3, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x47x13x13xf32>, tensor<64x47x1x1xf32>, tensor<64xf32>) -> tensor<1x64x13x13xf32>
  %4 = kernel.conv2d %x, %w4, %b48 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x48x13x13xf32>, tensor<48x48x1x1xf32>, tensor<48xf32>) -> tensor<1x48x13x13xf32>
  %5 = kernel.conv2d %x17, %w5, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x64x17x16xf32>, tensor<64x64x1x1xf32>, tensor<64xf32>) -> tensor<1x64x17x16xf32>
  %6 = kernel.conv2d %x5, %w6, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x64x5x5xf32>, tensor<64x64x1x1xf32>, tensor<64xf32>) -> tensor<1x64x5x5xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<1x64x13x13xf32>, tensor<1x64x13x13xf32>, tensor<1x256x16x16xf32>, tensor<1x64x13x13xf32>, tensor<1x48x13x13xf32>, tensor<1x64x17x16xf32>, tensor<1x64x5x5xf32>
}

// -----

// The padding and wide rules' cases as they stood before the panel rule
// (32 and 512 output channels, whole panels). On one thread the panel rule
// now also takes 255 -> 32 over 7x7, 256 -> 32 over 14x14 and 511 -> 512
// over 16x16 into the lanes (they ran `pointwise` and im2col before it);
// 256 -> 32 over 7x7 and 512 -> 512 over 16x16 stay in the lanes, one
// position stays `pointwise`, and 17x16 (272 positions) and 511 output
// channels stay im2col. On two threads (THREADS) the panel rule keeps
// only expansions of at least 4 panels a thread: 511 -> 512 (16 panels)
// stays in the lanes, while 255 -> 32 and 256 -> 32 get their old
// `pointwise` back.
// CHECK-LABEL: func @main(%arg0: tensor<1x256x7x7xf32>, %arg1: tensor<1x255x7x7xf32>, %arg2: tensor<1x256x14x14xf32>, %arg3: tensor<1x256x1x1xf32>
// CHECK: %[[A:.*]] = kernel.weight {{.*}} : tensor<1x256x32xf32>
// CHECK: kernel.conv2d %{{.*}}, %[[A]], %{{.*}} {algorithm = "pointwise_lanes"{{.*}} -> tensor<1x32x7x7xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise_lanes"{{.*}}(tensor<1x255x7x7xf32>, tensor<1x255x32xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise_lanes"{{.*}} -> tensor<1x32x14x14xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}} -> tensor<1x32x1x1xf32>
// CHECK: %[[W:.*]] = kernel.weight {{.*}} : tensor<16x512x32xf32>
// CHECK: kernel.conv2d %{{.*}}, %[[W]], %{{.*}} {algorithm = "pointwise_lanes"{{.*}} -> tensor<1x512x16x16xf32>
// CHECK-NOT: algorithm
// CHECK: kernel.conv2d {{.*}} -> tensor<1x512x17x16xf32>
// CHECK: kernel.conv2d {{.*}}algorithm = "pointwise_lanes"{{.*}}(tensor<1x511x16x16xf32>, tensor<16x511x32xf32>
// CHECK-NOT: algorithm
// CHECK: kernel.conv2d {{.*}} -> tensor<1x511x16x16xf32>
// CHECK-NOT: algorithm
// CHECK: return
// THREADS-LABEL: func @main(%arg0: tensor<1x256x7x7xf32>, %arg1: tensor<1x255x7x7xf32>, %arg2: tensor<1x256x14x14xf32>, %arg3: tensor<1x256x1x1xf32>
// THREADS: kernel.conv2d {{.*}}algorithm = "pointwise_lanes"{{.*}} -> tensor<1x32x7x7xf32>
// THREADS: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}}tensor<32x255x1x1xf32>
// THREADS: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}} -> tensor<1x32x14x14xf32>
// THREADS: kernel.conv2d {{.*}}algorithm = "pointwise"{{.*}} -> tensor<1x32x1x1xf32>
// THREADS: kernel.conv2d {{.*}}algorithm = "pointwise_lanes"{{.*}} -> tensor<1x512x16x16xf32>
// THREADS-NOT: algorithm
// THREADS: kernel.conv2d {{.*}} -> tensor<1x512x17x16xf32>
// THREADS: kernel.conv2d {{.*}}algorithm = "pointwise_lanes"{{.*}}(tensor<1x511x16x16xf32>, tensor<16x511x32xf32>
// THREADS-NOT: algorithm
// THREADS: kernel.conv2d {{.*}} -> tensor<1x511x16x16xf32>
// THREADS-NOT: algorithm
// THREADS: return
func.func @main(%x7: tensor<1x256x7x7xf32>, %x7n: tensor<1x255x7x7xf32>, %x14: tensor<1x256x14x14xf32>, %x1: tensor<1x256x1x1xf32>, %x: tensor<1x512x16x16xf32>, %xb: tensor<1x512x17x16xf32>, %xn: tensor<1x511x16x16xf32>, %b32: tensor<32xf32>, %b: tensor<512xf32>, %bn: tensor<511xf32>) -> (tensor<1x32x7x7xf32>, tensor<1x32x7x7xf32>, tensor<1x32x14x14xf32>, tensor<1x32x1x1xf32>, tensor<1x512x16x16xf32>, tensor<1x512x17x16xf32>, tensor<1x512x16x16xf32>, tensor<1x511x16x16xf32>) {
  %w = kernel.weight dense<1.0> : tensor<32x256x1x1xf32>
  %wn = kernel.weight dense<1.0> : tensor<32x255x1x1xf32>
  %v = kernel.weight dense<1.0> : tensor<512x512x1x1xf32>
  %v2 = kernel.weight dense<1.0> : tensor<512x512x1x1xf32>
  %vn = kernel.weight dense<1.0> : tensor<512x511x1x1xf32>
  %vo = kernel.weight dense<1.0> : tensor<511x512x1x1xf32>
  %0 = kernel.conv2d %x7, %w, %b32 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x256x7x7xf32>, tensor<32x256x1x1xf32>, tensor<32xf32>) -> tensor<1x32x7x7xf32>
  %1 = kernel.conv2d %x7n, %wn, %b32 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x255x7x7xf32>, tensor<32x255x1x1xf32>, tensor<32xf32>) -> tensor<1x32x7x7xf32>
  %2 = kernel.conv2d %x14, %w, %b32 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x256x14x14xf32>, tensor<32x256x1x1xf32>, tensor<32xf32>) -> tensor<1x32x14x14xf32>
  %3 = kernel.conv2d %x1, %w, %b32 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x256x1x1xf32>, tensor<32x256x1x1xf32>, tensor<32xf32>) -> tensor<1x32x1x1xf32>
  %4 = kernel.conv2d %x, %v, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x512x16x16xf32>, tensor<512x512x1x1xf32>, tensor<512xf32>) -> tensor<1x512x16x16xf32>
  %5 = kernel.conv2d %xb, %v2, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x512x17x16xf32>, tensor<512x512x1x1xf32>, tensor<512xf32>) -> tensor<1x512x17x16xf32>
  %6 = kernel.conv2d %xn, %vn, %b {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x511x16x16xf32>, tensor<512x511x1x1xf32>, tensor<512xf32>) -> tensor<1x512x16x16xf32>
  %7 = kernel.conv2d %x, %vo, %bn {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x512x16x16xf32>, tensor<511x512x1x1xf32>, tensor<511xf32>) -> tensor<1x511x16x16xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<1x32x7x7xf32>, tensor<1x32x7x7xf32>, tensor<1x32x14x14xf32>, tensor<1x32x1x1xf32>, tensor<1x512x16x16xf32>, tensor<1x512x17x16xf32>, tensor<1x512x16x16xf32>, tensor<1x511x16x16xf32>
}
// -----

// Convolutions left to im2col (here strided, past the stem's 4 input
// channels) with constant weights, at least 32 output channels and at
// least 256 rows of im2col (C * KH * KW) over at most 256 positions run
// with their output channels in the lanes over im2col's rows: the weight
// becomes W^T in panels with the window kept, [ceil(O / 32), C, KH, KW,
// 32], and the scratch holds one image's rows, C * KH * KW x OH * OW
// floats (next case). Not over 17x16 positions, from 28 channels (252 rows),
// with 31 output channels, or with weights that are not constants: those
// keep im2col, the default, which the printer leaves out.
// CHECK-LABEL: func @main(%arg0: tensor<1x32x32x32xf32>
// CHECK: %[[L:.*]] = kernel.weight {{.*}} : tensor<1x32x3x3x32xf32>
// CHECK: kernel.conv2d %{{.*}}, %[[L]], %{{.*}} {algorithm = "im2col_lanes"{{.*}} -> tensor<1x32x16x16xf32>
// CHECK: kernel.conv2d %{{[^{]*}} {dilations = {{.*}} -> tensor<1x32x17x16xf32>
// CHECK: kernel.conv2d %{{[^{]*}} {dilations = {{.*}}tensor<32x28x3x3xf32>
// CHECK: kernel.conv2d %{{[^{]*}} {dilations = {{.*}}tensor<31x32x3x3xf32>
// CHECK: %[[D:.*]] = kernel.weight {{.*}} : tensor<1x256x1x1x32xf32>
// CHECK: kernel.conv2d %{{.*}}, %[[D]], %{{.*}} {algorithm = "im2col_lanes"{{.*}} -> tensor<1x32x7x7xf32>
// CHECK: kernel.conv2d %{{[^{]*}} {dilations = {{.*}}(tensor<1x32x32x32xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>)
// CHECK: return
// PLAN-LABEL: func @main(%arg0: tensor<1x32x32x32xf32>
// PLAN: kernel.conv2d {{.*}}algorithm = "im2col_lanes"{{.*}}kernel.scratch_offset{{.*}} -> tensor<1x32x16x16xf32>
// PLAN: kernel.conv2d {{.*}}algorithm = "im2col_lanes"{{.*}}kernel.scratch_offset{{.*}} -> tensor<1x32x7x7xf32>
// PLAN: return
func.func @main(%x: tensor<1x32x32x32xf32>, %xt: tensor<1x32x34x32xf32>, %x28: tensor<1x28x32x32xf32>, %x14: tensor<1x256x14x14xf32>, %wv: tensor<32x32x3x3xf32>, %b32: tensor<32xf32>, %b31: tensor<31xf32>) -> (tensor<1x32x16x16xf32>, tensor<1x32x17x16xf32>, tensor<1x32x16x16xf32>, tensor<1x31x16x16xf32>, tensor<1x32x7x7xf32>, tensor<1x32x16x16xf32>) {
  %w = kernel.weight dense<1.0> : tensor<32x32x3x3xf32>
  %w28 = kernel.weight dense<1.0> : tensor<32x28x3x3xf32>
  %w31 = kernel.weight dense<1.0> : tensor<31x32x3x3xf32>
  %wd = kernel.weight dense<1.0> : tensor<32x256x1x1xf32>
  %0 = kernel.conv2d %x, %w, %b32 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x32x32x32xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>) -> tensor<1x32x16x16xf32>
  %1 = kernel.conv2d %xt, %w, %b32 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x32x34x32xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>) -> tensor<1x32x17x16xf32>
  %2 = kernel.conv2d %x28, %w28, %b32 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x28x32x32xf32>, tensor<32x28x3x3xf32>, tensor<32xf32>) -> tensor<1x32x16x16xf32>
  %3 = kernel.conv2d %x, %w31, %b31 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x32x32x32xf32>, tensor<31x32x3x3xf32>, tensor<31xf32>) -> tensor<1x31x16x16xf32>
  %4 = kernel.conv2d %x14, %wd, %b32 {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x256x14x14xf32>, tensor<32x256x1x1xf32>, tensor<32xf32>) -> tensor<1x32x7x7xf32>
  %5 = kernel.conv2d %x, %wv, %b32 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x32x32x32xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>) -> tensor<1x32x16x16xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x32x16x16xf32>, tensor<1x32x17x16xf32>, tensor<1x32x16x16xf32>, tensor<1x31x16x16xf32>, tensor<1x32x7x7xf32>, tensor<1x32x16x16xf32>
}

// -----

// im2col_lanes' scratch: 288 rows of 256 positions, 294912 bytes, the
// whole workspace (the result is the caller's output).
// PLAN: module attributes {{{.*}}kernel.workspace_bytes = 294912 : i64}
// PLAN: algorithm = "im2col_lanes"{{.*}}kernel.scratch_offset = 0
func.func @main(%x: tensor<1x32x32x32xf32>, %b: tensor<32xf32>) -> tensor<1x32x16x16xf32> {
  %w = kernel.weight dense<1.0> : tensor<32x32x3x3xf32>
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x32x32x32xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>) -> tensor<1x32x16x16xf32>
  return %0 : tensor<1x32x16x16xf32>
}
