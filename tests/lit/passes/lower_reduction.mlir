// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel --verify-diagnostics | FileCheck %s

// Tests that a reduction becomes kernel.reduce over sorted, normalised axes
// kept as 1, and a view drops them without keepdims.
// CHECK-LABEL: func @reduce_mean
func.func @reduce_mean(%x: tensor<2x3x4xf32>) -> tensor<2xf32> {
  // CHECK: %[[R:.+]] = kernel.reduce %{{.*}} {axes = array<i64: 1, 2>, kind = "mean"} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  // CHECK: kernel.view %[[R]] : (tensor<2x1x1xf32>) -> tensor<2xf32>
  %a = onnx.constant dense<[-1, 1]> : tensor<2xi64>
  %0 = onnx.reduce_mean %x, %a {keepdims = 0 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Tests that without axes every axis is reduced, and that keepdims needs no
// view.
// CHECK-LABEL: func @reduce_all
func.func @reduce_all(%x: tensor<2x3xi32>) -> tensor<1x1xi32> {
  // CHECK: kernel.reduce %{{.*}} {axes = array<i64: 0, 1>, kind = "sum_square"} : (tensor<2x3xi32>) -> tensor<1x1xi32>
  // CHECK-NOT: kernel.view
  %0 = onnx.reduce_sum_square %x : (tensor<2x3xi32>) -> tensor<1x1xi32>
  return %0 : tensor<1x1xi32>
}

// -----

// Tests that a sum, max or mean over one element per output (dims of 1, or
// noop_with_empty_axes) is a view, while L2 over nothing still computes |x|.
// CHECK-LABEL: func @one_element
func.func @one_element(%x: tensor<2x1x3xf32>) -> (tensor<2x3xf32>, tensor<2x1x3xf32>, tensor<2x1x3xf32>) {
  // CHECK-NOT: kind = "max"
  // CHECK: kernel.view %{{.*}} : (tensor<2x1x3xf32>) -> tensor<2x3xf32>
  %a = onnx.constant dense<[1]> : tensor<1xi64>
  %0 = onnx.reduce_max %x, %a {keepdims = 0 : i64} : (tensor<2x1x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
  %e = onnx.constant dense<> : tensor<0xi64>
  // CHECK: kernel.view %{{.*}} : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
  %1 = onnx.reduce_sum %x, %e {noop_with_empty_axes = 1 : i64} : (tensor<2x1x3xf32>, tensor<0xi64>) -> tensor<2x1x3xf32>
  // CHECK: kernel.reduce %{{.*}} {axes = array<i64>, kind = "l2"} : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
  %2 = onnx.reduce_l2 %x, %e {noop_with_empty_axes = 1 : i64} : (tensor<2x1x3xf32>, tensor<0xi64>) -> tensor<2x1x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x1x3xf32>, tensor<2x1x3xf32>
}

// -----

// Tests ArgMax/ArgMin: an i64 kernel.arg_reduce with the axis normalised,
// then a view without keepdims.
// CHECK-LABEL: func @arg_min
func.func @arg_min(%x: tensor<2x3xf16>) -> tensor<2xi64> {
  // CHECK: %[[I:.+]] = kernel.arg_reduce %{{.*}} {axis = 1 : i64, kind = "min", select_last_index = true} : (tensor<2x3xf16>) -> tensor<2x1xi64>
  // CHECK: kernel.view %[[I]] : (tensor<2x1xi64>) -> tensor<2xi64>
  %0 = onnx.arg_min %x {axis = -1 : i64, keepdims = 0 : i64, select_last_index = 1 : i64} : (tensor<2x3xf16>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// Tests that GlobalMaxPool reduces the spatial axes, and GlobalLpPool with
// p = 3 is |x|^3, a sum, and ^(1/3).
// CHECK-LABEL: func @global_pools
func.func @global_pools(%x: tensor<1x2x3x4xf32>) -> (tensor<1x2x1x1xf32>, tensor<1x2x1x1xf32>) {
  // CHECK: kernel.reduce %{{.*}} {axes = array<i64: 2, 3>, kind = "max"}
  %0 = onnx.global_max_pool %x : (tensor<1x2x3x4xf32>) -> tensor<1x2x1x1xf32>
  // CHECK: %[[P:.+]] = kernel.elementwise %{{.*}} : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  // CHECK: math.absf
  // CHECK: math.powf
  // CHECK: %[[S:.+]] = kernel.reduce %[[P]] {axes = array<i64: 2, 3>, kind = "sum"}
  // CHECK: kernel.elementwise %[[S]]
  // CHECK: math.powf
  %1 = onnx.global_lp_pool %x {p = 3 : i64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x1x1xf32>
  return %0, %1 : tensor<1x2x1x1xf32>, tensor<1x2x1x1xf32>
}

// -----

// Tests that ReduceLogSum refuses integers and ReduceSum refuses bools,
// naming the type.
func.func @no_int_log_sum(%x: tensor<2x3xi32>, %b: tensor<2x3xi1>) -> (tensor<1x1xi32>, tensor<1x1xi1>) {
  // expected-error @+1 {{cannot compile: element type 'i32' is not supported by ReduceLogSum (floats only)}}
  %0 = onnx.reduce_log_sum %x : (tensor<2x3xi32>) -> tensor<1x1xi32>
  // expected-error @+1 {{cannot compile: element type 'i1' is not supported by ReduceSum (numbers only)}}
  %1 = onnx.reduce_sum %b : (tensor<2x3xi1>) -> tensor<1x1xi1>
  return %0, %1 : tensor<1x1xi32>, tensor<1x1xi1>
}
