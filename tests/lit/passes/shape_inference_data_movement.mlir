// RUN: onnxcc-opt %s --split-input-file --onnxcc-shape-inference --verify-diagnostics | FileCheck %s

// Tests that exporters' Shape -> Slice -> ConstantOfShape chains fold to
// constants, and Size and Range of constants too.
// CHECK-LABEL: func @shape_slice_chain
func.func @shape_slice_chain(%x: tensor<4x2x3xf32>) -> (tensor<*xf32>, tensor<*xi64>, tensor<*xi32>) {
  %s = onnx.shape %x : (tensor<4x2x3xf32>) -> tensor<?xi64>
  %b = onnx.constant dense<1> : tensor<1xi64>
  %e = onnx.constant dense<9223372036854775807> : tensor<1xi64>
  %tail = onnx.slice %s, %b, %e : (tensor<?xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xi64>
  // CHECK-NOT: onnx.slice
  // CHECK-NOT: onnx.constant_of_shape
  // CHECK-DAG: onnx.constant dense<1.000000e+00> : tensor<2x3xf32>
  %c = onnx.constant_of_shape %tail {value = dense<1.0> : tensor<1xf32>} : (tensor<*xi64>) -> tensor<*xf32>
  // CHECK-DAG: onnx.constant dense<24> : tensor<i64>
  %n = onnx.size %x : (tensor<4x2x3xf32>) -> tensor<*xi64>
  %r0 = onnx.constant dense<10> : tensor<i32>
  %r1 = onnx.constant dense<1> : tensor<i32>
  %r2 = onnx.constant dense<-3> : tensor<i32>
  // CHECK-DAG: onnx.constant dense<[10, 7, 4]> : tensor<3xi32>
  %r = onnx.range %r0, %r1, %r2 : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
  return %c, %n, %r : tensor<*xf32>, tensor<*xi64>, tensor<*xi32>
}

// -----

// Tests that a Slice or Expand of everything folds to its input.
// CHECK-LABEL: func @identity_folds
func.func @identity_folds(%x: tensor<4x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %b = onnx.constant dense<[0]> : tensor<1xi64>
  %e = onnx.constant dense<[100]> : tensor<1xi64>
  %0 = onnx.slice %x, %b, %e : (tensor<4x3xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xf32>
  %s = onnx.constant dense<[1, 3]> : tensor<2xi64>
  %1 = onnx.expand %x, %s : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  // CHECK: return %{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<4x3xf32>
  // CHECK-NOT: onnx.slice
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Tests Split-18's uneven parts: ceil(7/4) = 2 -> [2, 2, 2, 1], and
// ceil(5/4) = 2 -> [2, 2, 1, 0] (the last parts shrink to what is left).
// CHECK-LABEL: func @split_uneven
func.func @split_uneven(%x: tensor<7xf32>, %y: tensor<5x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // CHECK: -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<1xf32>)
  %a:4 = onnx.split %x {axis = 0 : i64, num_outputs = 4 : i64} : (tensor<7xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  // CHECK: -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<1x2xf32>, tensor<0x2xf32>)
  %b:4 = onnx.split %y {axis = 0 : i64, num_outputs = 4 : i64} : (tensor<5x2xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %a#3, %b#3 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Tests Pad's shapes: negative pads crop, axes select dimensions.
// CHECK-LABEL: func @pad_shapes
func.func @pad_shapes(%x: tensor<4x5xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %p = onnx.constant dense<[-1, 2, -2, 0]> : tensor<4xi64>
  // CHECK: -> tensor<1x7xf32>
  %0 = onnx.pad %x, %p {mode = "edge"} : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<*xf32>
  %q = onnx.constant dense<[3, 1]> : tensor<2xi64>
  %ax = onnx.constant dense<[0]> : tensor<1xi64>
  // CHECK: -> tensor<8x5xf32>
  %1 = onnx.pad %x, %q axes %ax {mode = "wrap"} : (tensor<4x5xf32>, tensor<2xi64>, tensor<1xi64>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Tests the shapes of the index ops: GatherND with batch dims, OneHot with
// a float depth (truncated), TopK.
// CHECK-LABEL: func @index_shapes
func.func @index_shapes(%d: tensor<2x3x4xf32>, %i: tensor<2x5x1xi64>, %o: tensor<3xi64>, %x: tensor<3x8xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>) {
  // CHECK: onnx.gather_nd {{.*}} -> tensor<2x5x4xf32>
  %0 = onnx.gather_nd %d, %i {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x1xi64>) -> tensor<*xf32>
  %depth = onnx.constant dense<4.9> : tensor<f32>
  %v = onnx.constant dense<[0.0, 1.0]> : tensor<2xf32>
  // CHECK: onnx.one_hot {{.*}} -> tensor<4x3xf32>
  %1 = onnx.one_hot %o, %depth, %v {axis = 0 : i64} : (tensor<3xi64>, tensor<f32>, tensor<2xf32>) -> tensor<*xf32>
  %k = onnx.constant dense<3> : tensor<1xi64>
  // CHECK: onnx.top_k {{.*}} -> (tensor<3x3xf32>, tensor<3x3xi64>)
  %2, %3 = onnx.top_k %x, %k {axis = 1 : i64} : (tensor<3x8xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi64>)
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>
}

// -----

// Tests that a shape-giving operand read from a graph input is a
// data-dependent output shape.
func.func @starts_from_graph_input(%x: tensor<4xf32>, %s: tensor<1xi64>) -> tensor<*xf32> {
  %e = onnx.constant dense<[3]> : tensor<1xi64>
  // expected-error @+2 {{data-dependent output shape: Slice's starts is graph input #1, not a constant}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.slice %x, %s, %e : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Tests that the dependence is found through arithmetic, but not through
// Shape (which reads only a shape and folds).
func.func @repeats_computed_from_input(%x: tensor<4xf32>, %r: tensor<1xi64>) -> tensor<*xf32> {
  %one = onnx.constant dense<[1]> : tensor<1xi64>
  %rep = onnx.add %r, %one : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  // expected-error @+2 {{data-dependent output shape: Tile's repeats is computed from graph input #1, not a constant}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.tile %x, %rep : (tensor<4xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @tile_negative(%x: tensor<4xf32>) -> tensor<*xf32> {
  %rep = onnx.constant dense<[-1]> : tensor<1xi64>
  // expected-error @+2 {{repeats [-1] must be in [0, 4294967296]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.tile %x, %rep : (tensor<4xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @slice_zero_step(%x: tensor<4xf32>) -> tensor<*xf32> {
  %b = onnx.constant dense<[0]> : tensor<1xi64>
  %s = onnx.constant dense<[0]> : tensor<1xi64>
  // expected-error @+2 {{steps [0] contain 0 (axis 0)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.slice %x, %b, %b steps %s : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @top_k_too_many(%x: tensor<3x4xf32>) -> tensor<*xf32> {
  %k = onnx.constant dense<5> : tensor<1xi64>
  // expected-error @+2 {{k 5 is outside [0, 4] (axis 1 of [3, 4])}}
  // expected-error @+1 {{failed to infer returned types}}
  %v, %i = onnx.top_k %x, %k : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi64>)
  return %v : tensor<*xf32>
}

// -----

func.func @range_zero_delta() -> tensor<*xi64> {
  %a = onnx.constant dense<0> : tensor<i64>
  // expected-error @+2 {{delta must not be 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.range %a, %a, %a : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// -----

func.func @range_too_long() -> tensor<*xi64> {
  %a = onnx.constant dense<-9223372036854775808> : tensor<i64>
  %b = onnx.constant dense<9223372036854775807> : tensor<i64>
  %c = onnx.constant dense<1> : tensor<i64>
  // expected-error @+2 {{Range(-9223372036854775808, 9223372036854775807, 1) has more than 4294967296 elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.range %a, %b, %c : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// -----

func.func @reflect_nothing_left(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %p = onnx.constant dense<[-2, 0, 1, 0]> : tensor<4xi64>
  // expected-error @+2 {{mode reflect cannot pad dimension 0 of [2, 3]: no elements are left after cropping by pads [-2, 0, 1, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.pad %x, %p {mode = "reflect"} : (tensor<2x3xf32>, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @split_bad_sizes(%x: tensor<6xf32>) -> tensor<*xf32> {
  %s = onnx.constant dense<[2, 2]> : tensor<2xi64>
  // expected-error @+2 {{split [2, 2] does not sum to the extent 6 of axis 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %a, %b = onnx.split %x, %s {axis = 0 : i64, num_outputs = 2 : i64} : (tensor<6xf32>, tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  return %a : tensor<*xf32>
}

// -----

func.func @gather_elements_too_wide(%d: tensor<2x3xf32>, %i: tensor<3x3xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{indices [3, 3] exceed data [2, 3] outside axis 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.gather_elements %d, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3x3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @depth_to_space_channels(%x: tensor<1x6x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{channels 6 are not divisible by blocksize^2 = 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.depth_to_space %x {blocksize = 2 : i64} : (tensor<1x6x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Tests CenterCropPad's shapes: listed axes (negative ones counted from the
// end) take the shape's sizes, the others keep theirs; TensorScatter's
// result is its cache's type.
// CHECK-LABEL: func @center_crop_pad_tensor_scatter_shapes
func.func @center_crop_pad_tensor_scatter_shapes(%x: tensor<5x4x3xf32>, %c: tensor<2x8x4xf32>, %u: tensor<2x3x4xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %s = onnx.constant dense<[7, 1]> : tensor<2xi64>
  // CHECK: onnx.center_crop_pad {{.*}} -> tensor<5x1x7xf32>
  %0 = onnx.center_crop_pad %x, %s {axes = array<i64: -1, 1>} : (tensor<5x4x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  %t = onnx.constant dense<[0, 4, 3]> : tensor<3xi64>
  // CHECK: onnx.center_crop_pad {{.*}} -> tensor<0x4x3xf32>
  %1 = onnx.center_crop_pad %x, %t : (tensor<5x4x3xf32>, tensor<3xi64>) -> tensor<*xf32>
  // CHECK: onnx.tensor_scatter {{.*}} -> tensor<2x8x4xf32>
  %2 = onnx.tensor_scatter %c, %u {axis = 1 : i64, mode = "circular"} : (tensor<2x8x4xf32>, tensor<2x3x4xf32>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

func.func @center_crop_pad_data_dependent(%x: tensor<5xf32>, %s: tensor<1xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{data-dependent output shape: CenterCropPad's shape is graph input #1, not a constant}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.center_crop_pad %x, %s : (tensor<5xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @center_crop_pad_negative_size(%x: tensor<5x2xf32>) -> tensor<*xf32> {
  %s = onnx.constant dense<[3, -1]> : tensor<2xi64>
  // expected-error @+2 {{shape [3, -1] has size -1, outside [0, 4294967296]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.center_crop_pad %x, %s : (tensor<5x2xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @center_crop_pad_count(%x: tensor<5x2xf32>) -> tensor<*xf32> {
  %s = onnx.constant dense<[3, 1]> : tensor<2xi64>
  // expected-error @+2 {{shape [3, 1] must have one entry per axis (1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.center_crop_pad %x, %s {axes = array<i64: 0>} : (tensor<5x2xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @center_crop_pad_repeated_axis(%x: tensor<5x2xf32>) -> tensor<*xf32> {
  %s = onnx.constant dense<[3, 1]> : tensor<2xi64>
  // expected-error @+2 {{axes [1, -1] repeat axis 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.center_crop_pad %x, %s {axes = array<i64: 1, -1>} : (tensor<5x2xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @tensor_scatter_batch_axis(%c: tensor<2x8xf32>, %u: tensor<2x8xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{axis -2 is the batch axis}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.tensor_scatter %c, %u : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @tensor_scatter_too_long(%c: tensor<2x4x3xf32>, %u: tensor<2x5x3xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{update [2, 5, 3] does not fit cache [2, 4, 3] along axis 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.tensor_scatter %c, %u : (tensor<2x4x3xf32>, tensor<2x5x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @tensor_scatter_indices(%c: tensor<2x4x3xf32>, %u: tensor<2x1x3xf32>, %p: tensor<3xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{write_indices [3] must have one entry per batch of [2, 4, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.tensor_scatter %c, %u, %p : (tensor<2x4x3xf32>, tensor<2x1x3xf32>, tensor<3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @tensor_scatter_mode(%c: tensor<2x4x3xf32>, %u: tensor<2x1x3xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{mode must be linear or circular, got 'ring'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.tensor_scatter %c, %u {mode = "ring"} : (tensor<2x4x3xf32>, tensor<2x1x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @cum_prod_float_axis(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %a = onnx.constant dense<1.0> : tensor<f32>
  // expected-error @+2 {{CumProd's axis must be an integer, got 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.cum_prod %x, %a : (tensor<2x3xf32>, tensor<f32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @cum_prod_axis_range(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %a = onnx.constant dense<-3> : tensor<i64>
  // expected-error @+2 {{axis -3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.cum_prod %x, %a : (tensor<2x3xf32>, tensor<i64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
