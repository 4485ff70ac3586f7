// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel --verify-diagnostics | FileCheck %s

// Tests that a Transpose is one strided copy whose input strides are the
// permuted row-major strides, and that dimensions contiguous on both sides
// merge (2x3x4 -> [3x4 merged] stays separate here: perm moves them).
// CHECK-LABEL: func @transpose
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  // CHECK: kernel.copy %{{.*}} {offset = 0 : i64, shape = array<i64: 4, 6>, strides = array<i64: 1, 4>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %0 = onnx.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// Tests that a transpose moving only a unit dimension is an aliasing view.
// CHECK-LABEL: func @transpose_unit
func.func @transpose_unit(%x: tensor<1x3x4xi8>) -> tensor<3x1x4xi8> {
  // CHECK: kernel.view %{{.*}} : (tensor<1x3x4xi8>) -> tensor<3x1x4xi8>
  // CHECK-NOT: kernel.copy
  %0 = onnx.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<1x3x4xi8>) -> tensor<3x1x4xi8>
  return %0 : tensor<3x1x4xi8>
}

// -----

// Tests Slice with a negative step and INT64_MAX / INT64_MIN bounds: start
// 2^63-1 clamps to the last row, end -2^63 clamps below the first, so rows
// 9, 7, ..., 1 are read (offset 9*5, stride -2*5); the inner axis 1..4 by 1.
// CHECK-LABEL: func @slice_negative_step
func.func @slice_negative_step(%x: tensor<10x5xf32>) -> tensor<5x3xf32> {
  %starts = onnx.constant dense<[9223372036854775807, 1]> : tensor<2xi64>
  %ends = onnx.constant dense<[-9223372036854775808, 4]> : tensor<2xi64>
  %steps = onnx.constant dense<[-2, 1]> : tensor<2xi64>
  // CHECK: kernel.copy %{{.*}} {offset = 46 : i64, shape = array<i64: 5, 3>, strides = array<i64: -10, 1>}
  %0 = onnx.slice %x, %starts, %ends steps %steps : (tensor<10x5xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

// Tests that Expand reads broadcast dimensions with stride 0 and Tile
// iterates [repeat, extent] pairs with input strides [0, stride].
// CHECK-LABEL: func @expand_tile
func.func @expand_tile(%x: tensor<3x1xf32>, %t: tensor<2x3xi64>) -> (tensor<2x3x4xf32>, tensor<4x3xi64>) {
  %shape = onnx.constant dense<[2, 3, 4]> : tensor<3xi64>
  // CHECK: kernel.copy %{{.*}} {offset = 0 : i64, shape = array<i64: 2, 3, 4>, strides = array<i64: 0, 1, 0>}
  %0 = onnx.expand %x, %shape : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  %reps = onnx.constant dense<[2, 1]> : tensor<2xi64>
  // CHECK: kernel.copy %{{.*}} {offset = 0 : i64, shape = array<i64: 2, 6>, strides = array<i64: 0, 1>} : (tensor<2x3xi64>) -> tensor<4x3xi64>
  %1 = onnx.tile %t, %reps : (tensor<2x3xi64>, tensor<2xi64>) -> tensor<4x3xi64>
  return %0, %1 : tensor<2x3x4xf32>, tensor<4x3xi64>
}

// -----

// Tests that each part of a Split is its own copy at its offset.
// CHECK-LABEL: func @split
func.func @split(%x: tensor<2x5xf16>) -> (tensor<2x2xf16>, tensor<2x3xf16>) {
  %sizes = onnx.constant dense<[2, 3]> : tensor<2xi64>
  // CHECK: kernel.copy %{{.*}} {offset = 0 : i64, shape = array<i64: 2, 2>, strides = array<i64: 5, 1>}
  // CHECK: kernel.copy %{{.*}} {offset = 2 : i64, shape = array<i64: 2, 3>, strides = array<i64: 5, 1>}
  %a, %b = onnx.split %x, %sizes {axis = 1 : i64, num_outputs = 2 : i64} : (tensor<2x5xf16>, tensor<2xi64>) -> (tensor<2x2xf16>, tensor<2x3xf16>)
  return %a, %b : tensor<2x2xf16>, tensor<2x3xf16>
}

// -----

// Tests DepthToSpace (DCR) and SpaceToDepth (CRD) as 6-D permutations.
// CHECK-LABEL: func @depth_space
func.func @depth_space(%x: tensor<1x8x2x3xf32>, %y: tensor<1x2x4x6xf32>) -> (tensor<1x2x4x6xf32>, tensor<1x8x2x3xf32>) {
  // CHECK: kernel.copy %{{.*}} {offset = 0 : i64, shape = array<i64: 4, 2, 3, 2>, strides = array<i64: 3, 24, 1, 12>}
  %0 = onnx.depth_to_space %x {blocksize = 2 : i64, mode = "DCR"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  // CHECK: kernel.copy %{{.*}} {offset = 0 : i64, shape = array<i64: 2, 2, 2, 2, 3>, strides = array<i64: 24, 6, 1, 12, 2>}
  %1 = onnx.space_to_depth %y {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
  return %0, %1 : tensor<1x2x4x6xf32>, tensor<1x8x2x3xf32>
}

// -----

// Tests that Pad resolves `axes` into begin/end pads for every dimension,
// keeps a constant value operand, and drops it for the other modes.
// CHECK-LABEL: func @pad
func.func @pad(%x: tensor<2x3xf32>, %v: tensor<f32>) -> (tensor<2x6xf32>, tensor<4x2xf32>) {
  %pads = onnx.constant dense<[1, 2]> : tensor<2xi64>
  %axes = onnx.constant dense<[-1]> : tensor<1xi64>
  // CHECK: kernel.pad %{{.*}}, %{{.*}} {mode = "constant", pads = array<i64: 0, 1, 0, 2>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x6xf32>
  %0 = onnx.pad %x, %pads value %v axes %axes {mode = "constant"} : (tensor<2x3xf32>, tensor<2xi64>, tensor<f32>, tensor<1xi64>) -> tensor<2x6xf32>
  %crop = onnx.constant dense<[1, 0, 1, -1]> : tensor<4xi64>
  // CHECK: kernel.pad %{{.*}} {mode = "reflect", pads = array<i64: 1, 0, 1, -1>} : (tensor<2x3xf32>) -> tensor<4x2xf32>
  %1 = onnx.pad %x, %crop value %v {mode = "reflect"} : (tensor<2x3xf32>, tensor<4xi64>, tensor<f32>) -> tensor<4x2xf32>
  return %0, %1 : tensor<2x6xf32>, tensor<4x2xf32>
}

// -----

// Tests that a large ConstantOfShape is a fill from a one-element weight
// (not a weight of every element), and Range a kernel over start/delta.
// CHECK-LABEL: func @fill_range
func.func @fill_range() -> (tensor<64x64xi32>, tensor<2000xf32>) {
  %shape = onnx.constant dense<[64, 64]> : tensor<2xi64>
  // CHECK: %[[V:.+]] = kernel.weight dense<7> : tensor<1xi32>
  // CHECK: kernel.fill %[[V]] : (tensor<1xi32>) -> tensor<64x64xi32>
  %0 = onnx.constant_of_shape %shape {value = dense<7> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<64x64xi32>
  %s = onnx.constant dense<0.0> : tensor<f32>
  %l = onnx.constant dense<1000.0> : tensor<f32>
  %d = onnx.constant dense<0.5> : tensor<f32>
  // CHECK: kernel.range %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<2000xf32>
  %1 = onnx.range %s, %l, %d : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2000xf32>
  return %0, %1 : tensor<64x64xi32>, tensor<2000xf32>
}

// -----

// Tests EyeLike (k clamped: a diagonal past the matrix is empty anyway),
// Trilu with a run-time k, and CumSum with a constant and a run-time axis.
// CHECK-LABEL: func @eye_trilu_cumsum
func.func @eye_trilu_cumsum(%x: tensor<3x4xf32>, %k: tensor<i64>, %a: tensor<i32>) -> (tensor<3x4xf64>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  // CHECK: kernel.eye {k = 4 : i64} : () -> tensor<3x4xf64>
  %0 = onnx.eye_like %x {dtype = f64, k = 100 : i64} : (tensor<3x4xf32>) -> tensor<3x4xf64>
  // CHECK: kernel.trilu %{{.*}}, %{{.*}} {upper = false}
  %1 = onnx.trilu %x, %k {upper = 0 : i64} : (tensor<3x4xf32>, tensor<i64>) -> tensor<3x4xf32>
  %axis = onnx.constant dense<-1> : tensor<i64>
  // CHECK: kernel.cumsum %{{.*}} {axis = 1 : i64, exclusive = true, reverse = false}
  %2 = onnx.cum_sum %x, %axis {exclusive = 1 : i64} : (tensor<3x4xf32>, tensor<i64>) -> tensor<3x4xf32>
  // CHECK: kernel.cumsum %{{.*}} axis %{{.*}} {exclusive = false, reverse = true} : (tensor<3x4xf32>, tensor<i32>) -> tensor<3x4xf32>
  %3 = onnx.cum_sum %x, %a {reverse = 1 : i64} : (tensor<3x4xf32>, tensor<i32>) -> tensor<3x4xf32>
  return %0, %1, %2, %3 : tensor<3x4xf64>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// Tests that a Gather with constant, evenly stepping indices is a copy
// (here every other row, backwards), and one with run-time indices the
// gather kernel with a normalised axis.
// CHECK-LABEL: func @gather
func.func @gather(%x: tensor<6x4xf32>, %i: tensor<2x3xi32>) -> (tensor<3x4xf32>, tensor<6x2x3xf32>) {
  %idx = onnx.constant dense<[5, 3, 1]> : tensor<3xi64>
  // CHECK: kernel.copy %{{.*}} {offset = 20 : i64, shape = array<i64: 3, 4>, strides = array<i64: -8, 1>}
  %0 = onnx.gather %x, %idx {axis = 0 : i64} : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  // CHECK: kernel.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<6x4xf32>, tensor<2x3xi32>) -> tensor<6x2x3xf32>
  %1 = onnx.gather %x, %i {axis = -1 : i64} : (tensor<6x4xf32>, tensor<2x3xi32>) -> tensor<6x2x3xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<6x2x3xf32>
}

// -----

// Tests the kernels with run-time indices and per-slice state.
// CHECK-LABEL: func @index_kernels
func.func @index_kernels(%d: tensor<2x3xf32>, %i: tensor<2x3xi64>, %nd: tensor<2x1xi64>, %u: tensor<2x3xf32>, %lens: tensor<3xi64>, %oh: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1xi64>, tensor<4x5xf32>) {
  // CHECK: kernel.gather_elements %{{.*}} {axis = 1 : i64}
  %0 = onnx.gather_elements %d, %i {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  // CHECK: kernel.gather_nd %{{.*}} {batch_dims = 0 : i64}
  %1 = onnx.gather_nd %d, %nd : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<2x3xf32>
  // CHECK: kernel.scatter_elements %{{.*}} {axis = 0 : i64, reduction = "max"}
  %2 = onnx.scatter_elements %d, %i, %u {axis = 0 : i64, reduction = "max"} : (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: kernel.scatter_nd %{{.*}} {reduction = "add"}
  %3 = onnx.scatter_nd %d, %nd, %u {reduction = "add"} : (tensor<2x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: kernel.reverse_sequence %{{.*}} {batch_axis = 1 : i64, time_axis = 0 : i64}
  %4 = onnx.reverse_sequence %d, %lens {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<2x3xf32>
  %k = onnx.constant dense<1> : tensor<1xi64>
  // CHECK: kernel.top_k %{{.*}} {axis = 1 : i64, largest = false} : (tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x1xi64>)
  %5, %6 = onnx.top_k %d, %k {axis = -1 : i64, largest = 0 : i64, sorted = 1 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x1xf32>, tensor<2x1xi64>)
  %depth = onnx.constant dense<5.7> : tensor<f32>
  %vals = onnx.constant dense<[0.0, 1.0]> : tensor<2xf32>
  // CHECK: kernel.one_hot %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<4xi32>, tensor<2xf32>) -> tensor<4x5xf32>
  %7 = onnx.one_hot %oh, %depth, %vals {axis = -1 : i64} : (tensor<4xi32>, tensor<f32>, tensor<2xf32>) -> tensor<4x5xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1xi64>, tensor<4x5xf32>
}

// -----

// Tests that Transpose and Concat take every element type: bool, f16,
// unsigned.
// CHECK-LABEL: func @typed
func.func @typed(%b: tensor<2x3xi1>, %h: tensor<2x2xf16>, %u: tensor<2x1xui64>, %v: tensor<2x2xui64>) -> (tensor<3x2xi1>, tensor<2x2xf16>, tensor<2x3xui64>) {
  // CHECK: kernel.copy {{.*}} : (tensor<2x3xi1>) -> tensor<3x2xi1>
  %0 = onnx.transpose %b {perm = array<i64: 1, 0>} : (tensor<2x3xi1>) -> tensor<3x2xi1>
  // CHECK: kernel.copy {{.*}} : (tensor<2x2xf16>) -> tensor<2x2xf16>
  %1 = onnx.transpose %h {perm = array<i64: 1, 0>} : (tensor<2x2xf16>) -> tensor<2x2xf16>
  // CHECK: kernel.concat {{.*}} : (tensor<2x1xui64>, tensor<2x2xui64>) -> tensor<2x3xui64>
  %2 = onnx.concat %u, %v {axis = 1 : i64} : (tensor<2x1xui64>, tensor<2x2xui64>) -> tensor<2x3xui64>
  return %0, %1, %2 : tensor<3x2xi1>, tensor<2x2xf16>, tensor<2x3xui64>
}

// -----

// Tests that TopK and CumSum refuse bools with the reason.
func.func @no_lower_bool_top_k(%x: tensor<4xi1>) -> tensor<2xi1> {
  %k = onnx.constant dense<2> : tensor<1xi64>
  // expected-error @+1 {{cannot compile: elements of type 'i1' are not supported here (numbers only)}}
  %v, %i = onnx.top_k %x, %k : (tensor<4xi1>, tensor<1xi64>) -> (tensor<2xi1>, tensor<2xi64>)
  return %v : tensor<2xi1>
}

// -----

// Tests that Pad's constant_value must have the data's element type.
func.func @no_lower_pad_value_type(%x: tensor<2xf32>, %v: tensor<f64>) -> tensor<4xf32> {
  %pads = onnx.constant dense<[1, 1]> : tensor<2xi64>
  // expected-error @+1 {{constant_value must be one element of the data's type 'f32', got 'tensor<f64>'}}
  %0 = onnx.pad %x, %pads value %v : (tensor<2xf32>, tensor<2xi64>, tensor<f64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that CenterCropPad is a zero-padding kernel.pad whose negative
// pads crop: 5 -> 2 crops 1 in front and 2 behind, 3 -> 6 pads 1 and 2
// (an odd difference goes to the end), and axis 1 is untouched.
// CHECK-LABEL: func @center_crop_pad
func.func @center_crop_pad(%x: tensor<5x4x3xf32>) -> tensor<2x4x6xf32> {
  %s = onnx.constant dense<[6, 2]> : tensor<2xi64>
  // CHECK: kernel.pad %{{.*}} {mode = "constant", pads = array<i64: -1, 0, 1, -2, 0, 2>} : (tensor<5x4x3xf32>) -> tensor<2x4x6xf32>
  %0 = onnx.center_crop_pad %x, %s {axes = array<i64: -1, 0>} : (tensor<5x4x3xf32>, tensor<2xi64>) -> tensor<2x4x6xf32>
  return %0 : tensor<2x4x6xf32>
}

// -----

// Tests that a CenterCropPad to the input's own shape is a view.
// CHECK-LABEL: func @center_crop_pad_identity
func.func @center_crop_pad_identity(%x: tensor<5x4xi8>) -> tensor<5x4xi8> {
  %s = onnx.constant dense<[5, 4]> : tensor<2xi32>
  // CHECK: kernel.view %{{.*}} : (tensor<5x4xi8>) -> tensor<5x4xi8>
  // CHECK-NOT: kernel.pad
  %0 = onnx.center_crop_pad %x, %s : (tensor<5x4xi8>, tensor<2xi32>) -> tensor<5x4xi8>
  return %0 : tensor<5x4xi8>
}

// -----

// Tests that TensorScatter's axis is normalised (-2 of rank 4 is 2), its
// mode becomes a flag, and write_indices stays optional.
// CHECK-LABEL: func @tensor_scatter
func.func @tensor_scatter(%c: tensor<2x3x8x4xf16>, %u: tensor<2x3x2x4xf16>, %p: tensor<2xi64>, %c3: tensor<2x5x3xi32>, %u3: tensor<2x5x3xi32>) -> (tensor<2x3x8x4xf16>, tensor<2x5x3xi32>) {
  // CHECK: kernel.tensor_scatter %{{.*}}, %{{.*}}, %{{.*}} {axis = 2 : i64, circular = true} : (tensor<2x3x8x4xf16>, tensor<2x3x2x4xf16>, tensor<2xi64>) -> tensor<2x3x8x4xf16>
  %0 = onnx.tensor_scatter %c, %u, %p {mode = "circular"} : (tensor<2x3x8x4xf16>, tensor<2x3x2x4xf16>, tensor<2xi64>) -> tensor<2x3x8x4xf16>
  // CHECK: kernel.tensor_scatter %{{[^,]*}}, %{{[^,]*}} {axis = 1 : i64, circular = false} : (tensor<2x5x3xi32>, tensor<2x5x3xi32>) -> tensor<2x5x3xi32>
  %1 = onnx.tensor_scatter %c3, %u3 {axis = 1 : i64} : (tensor<2x5x3xi32>, tensor<2x5x3xi32>) -> tensor<2x5x3xi32>
  return %0, %1 : tensor<2x3x8x4xf16>, tensor<2x5x3xi32>
}

// -----

// Tests that CumProd is kernel.cumsum with the product flag, with a
// constant axis (normalised: -2 of rank 2 is 0) and a run-time one.
// CHECK-LABEL: func @cum_prod
func.func @cum_prod(%x: tensor<3x4xi32>, %a: tensor<i64>) -> (tensor<3x4xi32>, tensor<3x4xi32>) {
  %axis = onnx.constant dense<-2> : tensor<i64>
  // CHECK: kernel.cumsum %{{.*}} {axis = 0 : i64, exclusive = true, product, reverse = false} : (tensor<3x4xi32>) -> tensor<3x4xi32>
  %0 = onnx.cum_prod %x, %axis {exclusive = 1 : i64} : (tensor<3x4xi32>, tensor<i64>) -> tensor<3x4xi32>
  // CHECK: kernel.cumsum %{{.*}} axis %{{.*}} {exclusive = false, product, reverse = true} : (tensor<3x4xi32>, tensor<i64>) -> tensor<3x4xi32>
  %1 = onnx.cum_prod %x, %a {reverse = 1 : i64} : (tensor<3x4xi32>, tensor<i64>) -> tensor<3x4xi32>
  return %0, %1 : tensor<3x4xi32>, tensor<3x4xi32>
}

// -----

// Tests that CumProd refuses bools like CumSum.
func.func @no_lower_bool_cum_prod(%x: tensor<4xi1>) -> tensor<4xi1> {
  %axis = onnx.constant dense<0> : tensor<i64>
  // expected-error @+1 {{cannot compile: elements of type 'i1' are not supported here (numbers only)}}
  %0 = onnx.cum_prod %x, %axis : (tensor<4xi1>, tensor<i64>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
