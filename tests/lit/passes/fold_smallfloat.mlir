// RUN: onnxcc-opt %s --split-input-file --onnxcc-fold-constants | FileCheck %s

// Tests that Cast of constants to float8 folds through APFloat: round to
// nearest even (464 is a tie, to 448), saturate=1 clamps 1e6 to 448 and
// keeps NaN, saturate=0 overflows to NaN (E4M3FN) and drops the sign of
// zero in a FNUZ format.
// CHECK-LABEL: func @fold_cast_to_float8
func.func @fold_cast_to_float8() -> (tensor<6xf8E4M3FN>, tensor<6xf8E4M3FN>, tensor<6xf8E5M2FNUZ>) {
  // CHECK-NOT: onnx.cast
  // CHECK-DAG: dense<[1.000000e+00, -0.000000e+00, 4.480000e+02, 4.480000e+02, 0x7F, 2.031250e-01]> : tensor<6xf8E4M3FN>
  // CHECK-DAG: dense<[1.000000e+00, -0.000000e+00, 4.480000e+02, 0x7F, 0x7F, 2.031250e-01]> : tensor<6xf8E4M3FN>
  // CHECK-DAG: dense<[1.000000e+00, 0.000000e+00, 4.480000e+02, 0x80, 0x80, 1.875000e-01]> : tensor<6xf8E5M2FNUZ>
  %a = onnx.constant dense<[1.0, -0.0, 464.0, 1.0e6, 0x7FC00000, 0.2]> : tensor<6xf32>
  %b = onnx.cast %a {to = f8E4M3FN} : (tensor<6xf32>) -> tensor<6xf8E4M3FN>
  %c = onnx.cast %a {to = f8E4M3FN, saturate = false} : (tensor<6xf32>) -> tensor<6xf8E4M3FN>
  %d = onnx.cast %a {to = f8E5M2FNUZ, saturate = false} : (tensor<6xf32>) -> tensor<6xf8E5M2FNUZ>
  return %b, %c, %d : tensor<6xf8E4M3FN>, tensor<6xf8E4M3FN>, tensor<6xf8E5M2FNUZ>
}

// -----

// Tests that float8 and int4 constants read back by value, and that float
// to int4 truncates and wraps (9.7 -> 9 -> -7).
// CHECK-LABEL: func @fold_from_small
func.func @fold_from_small() -> (tensor<3xf32>, tensor<3xsi4>, tensor<3xf32>) {
  // CHECK-DAG: dense<[4.480000e+02, -1.250000e-01, 0x7FF00000]> : tensor<3xf32>
  // CHECK-DAG: dense<[-7, 7, -8]> : tensor<3xsi4>
  // CHECK-DAG: dense<[-7.000000e+00, 7.000000e+00, -8.000000e+00]> : tensor<3xf32>
  %a = onnx.constant dense<[448.0, -0.125, 0x7F]> : tensor<3xf8E4M3FN>
  %b = onnx.cast %a {to = f32} : (tensor<3xf8E4M3FN>) -> tensor<3xf32>
  %i = onnx.constant dense<[9.7, -9.0, 8.0]> : tensor<3xf32>
  %j = onnx.cast %i {to = si4} : (tensor<3xf32>) -> tensor<3xsi4>
  %k = onnx.cast %j {to = f32} : (tensor<3xsi4>) -> tensor<3xf32>
  return %b, %j, %k : tensor<3xf32>, tensor<3xsi4>, tensor<3xf32>
}

// -----

// Tests that Cast to E8M0 or float4 is left to the runtime (no APFloat rule
// for round-up or saturation).
// CHECK-LABEL: func @no_fold_e8m0_f4
func.func @no_fold_e8m0_f4() -> (tensor<2xf8E8M0FNU>, tensor<2xf4E2M1FN>) {
  // CHECK: onnx.cast
  // CHECK: onnx.cast
  %a = onnx.constant dense<[1.5, 1.0e9]> : tensor<2xf32>
  %b = onnx.cast %a {to = f8E8M0FNU} : (tensor<2xf32>) -> tensor<2xf8E8M0FNU>
  %c = onnx.cast %a {to = f4E2M1FN} : (tensor<2xf32>) -> tensor<2xf4E2M1FN>
  return %b, %c : tensor<2xf8E8M0FNU>, tensor<2xf4E2M1FN>
}
