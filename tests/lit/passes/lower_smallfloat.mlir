// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel --verify-diagnostics | FileCheck %s

// Tests that a saturating Cast to float8 computes in f32 and clamps to the
// format's largest finite value (448 for E4M3FN) before the store.
// CHECK-LABEL: func @cast_to_e4m3fn_saturate
func.func @cast_to_e4m3fn_saturate(%x: tensor<4xf16>) -> tensor<4xf8E4M3FN> {
  // CHECK: kernel.elementwise %{{.*}} : (tensor<4xf16>) -> tensor<4xf8E4M3FN>
  // CHECK: ^bb0(%[[A:.+]]: f32):
  // CHECK: arith.constant -4.480000e+02 : f32
  // CHECK: arith.maximumf %[[A]]
  // CHECK: arith.constant 4.480000e+02 : f32
  // CHECK: arith.minimumf
  %y = onnx.cast %x {to = f8E4M3FN} : (tensor<4xf16>) -> tensor<4xf8E4M3FN>
  return %y : tensor<4xf8E4M3FN>
}

// -----

// Tests that saturate = false leaves overflow to the store (Inf for E5M2):
// no clamp in the body.
// CHECK-LABEL: func @cast_to_e5m2_no_saturate
func.func @cast_to_e5m2_no_saturate(%x: tensor<4xf32>) -> tensor<4xf8E5M2> {
  // CHECK: kernel.elementwise
  // CHECK-NOT: arith.maximumf
  // CHECK: kernel.yield
  %y = onnx.cast %x {to = f8E5M2, saturate = false} : (tensor<4xf32>) -> tensor<4xf8E5M2>
  return %y : tensor<4xf8E5M2>
}

// -----

// Tests that the largest finite value follows the format: 57344 for E5M2,
// 240 for E4M3FNUZ.
// CHECK-LABEL: func @cast_saturate_bounds
func.func @cast_saturate_bounds(%x: tensor<4xf32>) -> (tensor<4xf8E5M2>, tensor<4xf8E4M3FNUZ>) {
  // CHECK: arith.constant 5.734400e+04 : f32
  // CHECK: arith.constant 2.400000e+02 : f32
  %a = onnx.cast %x {to = f8E5M2} : (tensor<4xf32>) -> tensor<4xf8E5M2>
  %b = onnx.cast %x {to = f8E4M3FNUZ} : (tensor<4xf32>) -> tensor<4xf8E4M3FNUZ>
  return %a, %b : tensor<4xf8E5M2>, tensor<4xf8E4M3FNUZ>
}

// -----

// Tests that float to a 4-bit integer truncates through i32 and keeps the
// low byte (the int4 store wraps, as numpy's astype), and that int4 to
// float reads the 8-bit compute value signed.
// CHECK-LABEL: func @cast_int4
func.func @cast_int4(%x: tensor<4xf32>, %i: tensor<4xsi4>) -> (tensor<4xsi4>, tensor<4xf32>) {
  // CHECK: arith.fptosi %{{.*}} : f32 to i32
  // CHECK: arith.trunci %{{.*}} : i32 to i8
  // CHECK: ^bb0(%[[B:.+]]: i8):
  // CHECK: arith.sitofp %[[B]] : i8 to f32
  %a = onnx.cast %x {to = si4} : (tensor<4xf32>) -> tensor<4xsi4>
  %b = onnx.cast %i {to = f32} : (tensor<4xsi4>) -> tensor<4xf32>
  return %a, %b : tensor<4xsi4>, tensor<4xf32>
}

// -----

// Tests that uint2 to float reads unsigned.
// CHECK-LABEL: func @cast_uint2
func.func @cast_uint2(%x: tensor<3xui2>) -> tensor<3xf32> {
  // CHECK: arith.uitofp %{{.*}} : i8 to f32
  %y = onnx.cast %x {to = f32} : (tensor<3xui2>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

// Tests that QuantizeLinear to int4 saturates to [-8, 7] and a one-element
// zero point with a scalar scale is per tensor (viewed as a scalar).
// CHECK-LABEL: func @quantize_int4
func.func @quantize_int4(%x: tensor<2x3xf32>, %s: tensor<f32>, %z: tensor<1xsi4>) -> tensor<2x3xsi4> {
  // CHECK: %[[Z:.+]] = kernel.view %{{.*}} : (tensor<1xsi4>) -> tensor<si4>
  // CHECK: kernel.elementwise %{{.*}}, %{{.*}}, %[[Z]] : (tensor<2x3xf32>, tensor<f32>, tensor<si4>) -> tensor<2x3xsi4>
  // CHECK: math.roundeven
  // CHECK: arith.constant -8.000000e+00 : f32
  // CHECK: arith.constant 7.000000e+00 : f32
  // CHECK: arith.fptosi %{{.*}} : f32 to i32
  // CHECK: arith.trunci %{{.*}} : i32 to i8
  %y = onnx.quantize_linear %x, %s, %z {output_type = si4} : (tensor<2x3xf32>, tensor<f32>, tensor<1xsi4>) -> tensor<2x3xsi4>
  return %y : tensor<2x3xsi4>
}

// -----

// Tests that QuantizeLinear to float8 divides, drops the zero point (it
// must be 0; no unused loop input) and clamps when saturating; with
// saturate = false it does not.
// CHECK-LABEL: func @quantize_e4m3fn
func.func @quantize_e4m3fn(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f8E4M3FN>) -> (tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>) {
  // CHECK: kernel.elementwise %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf8E4M3FN>
  // CHECK: arith.divf
  // CHECK-NOT: arith.addf
  // CHECK: arith.minimumf
  // CHECK: kernel.elementwise
  // CHECK: arith.divf
  // CHECK-NOT: arith.minimumf
  // CHECK: kernel.yield
  %a = onnx.quantize_linear %x, %s, %z {output_type = f8E4M3FN} : (tensor<4xf32>, tensor<f32>, tensor<f8E4M3FN>) -> tensor<4xf8E4M3FN>
  %b = onnx.quantize_linear %x, %s, %z {output_type = f8E4M3FN, saturate = false} : (tensor<4xf32>, tensor<f32>, tensor<f8E4M3FN>) -> tensor<4xf8E4M3FN>
  return %a, %b : tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>
}

// -----

// Tests that QuantizeLinear to float4 adds the zero point, with no clamp
// (the float4 store saturates).
// CHECK-LABEL: func @quantize_float4
func.func @quantize_float4(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f4E2M1FN>) -> tensor<4xf4E2M1FN> {
  // CHECK: arith.divf
  // CHECK: arith.addf
  // CHECK-NOT: arith.minimumf
  // CHECK: kernel.yield
  %y = onnx.quantize_linear %x, %s, %z {output_type = f4E2M1FN} : (tensor<4xf32>, tensor<f32>, tensor<f4E2M1FN>) -> tensor<4xf4E2M1FN>
  return %y : tensor<4xf4E2M1FN>
}

// -----

// Tests that E8M0, a scale type, is not a quantised type.
func.func @quantize_e8m0(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf8E8M0FNU> {
  // expected-error @+2 {{cannot quantize to 'f8E8M0FNU' (2- to 16-bit integers, float8 and float4 are supported)}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = onnx.quantize_linear %x, %s {output_type = f8E8M0FNU} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf8E8M0FNU>
  return %y : tensor<4xf8E8M0FNU>
}

// -----

// Tests that DequantizeLinear from int2 with a zero point subtracts in f32.
// CHECK-LABEL: func @dequantize_int2
func.func @dequantize_int2(%x: tensor<4xsi2>, %s: tensor<f32>, %z: tensor<si2>) -> tensor<4xf32> {
  // CHECK: arith.sitofp %{{.*}} : i8 to f32
  // CHECK: arith.subf
  // CHECK: arith.mulf
  %y = onnx.dequantize_linear %x, %s, %z {output_type = f32} : (tensor<4xsi2>, tensor<f32>, tensor<si2>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
