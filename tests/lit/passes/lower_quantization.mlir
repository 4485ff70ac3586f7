// RUN: onnxcc-opt %s --split-input-file --onnxcc-lower-to-kernel --verify-diagnostics | FileCheck %s

// Tests that a per-axis QuantizeLinear is one elementwise loop with the
// scale and zero point viewed along the axis, rounding half to even and
// saturating to int16's range.
// CHECK-LABEL: func @quantize_per_axis_int16
func.func @quantize_per_axis_int16(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %z: tensor<3xi16>) -> tensor<2x3x4xi16> {
  // CHECK-DAG: %[[S:.+]] = kernel.view %{{.*}} : (tensor<3xf32>) -> tensor<1x3x1xf32>
  // CHECK-DAG: %[[Z:.+]] = kernel.view %{{.*}} : (tensor<3xi16>) -> tensor<1x3x1xi16>
  // CHECK: kernel.elementwise %{{.*}}, %[[S]], %[[Z]] : (tensor<2x3x4xf32>, tensor<1x3x1xf32>, tensor<1x3x1xi16>) -> tensor<2x3x4xi16>
  // CHECK: arith.divf
  // CHECK: math.roundeven
  // CHECK: arith.addf
  // CHECK: arith.constant -3.276800e+04 : f32
  // CHECK: arith.maximumf
  // CHECK: arith.constant 3.276700e+04 : f32
  // CHECK: arith.minimumf
  // CHECK: arith.fptosi %{{.*}} : f32 to i16
  %y = onnx.quantize_linear %x, %s, %z {axis = 1 : i64, output_type = i16} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xi16>) -> tensor<2x3x4xi16>
  return %y : tensor<2x3x4xi16>
}

// -----

// Tests that a blocked DequantizeLinear views x as [blocks, block, ...] and
// the scale as [blocks, 1, ...], then views the result back.
// CHECK-LABEL: func @dequantize_blocked
func.func @dequantize_blocked(%x: tensor<6x3xi8>, %s: tensor<3x3xf32>) -> tensor<6x3xf32> {
  // CHECK: %[[X:.+]] = kernel.view %{{.*}} : (tensor<6x3xi8>) -> tensor<3x2x3xi8>
  // CHECK: %[[S:.+]] = kernel.view %{{.*}} : (tensor<3x3xf32>) -> tensor<3x1x3xf32>
  // CHECK: %[[E:.+]] = kernel.elementwise %[[X]], %[[S]] : (tensor<3x2x3xi8>, tensor<3x1x3xf32>) -> tensor<3x2x3xf32>
  // CHECK: arith.sitofp %{{.*}} : i8 to f32
  // CHECK: arith.mulf
  // CHECK: kernel.view %[[E]] : (tensor<3x2x3xf32>) -> tensor<6x3xf32>
  %y = onnx.dequantize_linear %x, %s {axis = 0 : i64, block_size = 2 : i64, output_type = f32} : (tensor<6x3xi8>, tensor<3x3xf32>) -> tensor<6x3xf32>
  return %y : tensor<6x3xf32>
}

// -----

// Tests that int32 input dequantises in f64 (exact beyond 2^24) and a
// uint8 zero point converts unsigned.
// CHECK-LABEL: func @dequantize_int32_in_f64
func.func @dequantize_int32_in_f64(%x: tensor<4xi32>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<4xf32> {
  // CHECK: arith.sitofp %{{.*}} : i32 to f64
  // CHECK: arith.subf %{{.*}} : f64
  // CHECK: arith.mulf %{{.*}} : f64
  // CHECK: arith.truncf %{{.*}} : f64 to f32
  %y = onnx.dequantize_linear %x, %s, %z {output_type = f32} : (tensor<4xi32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Tests that a scale of one element is per tensor whatever block_size says.
// CHECK-LABEL: func @quantize_one_scale_with_block_size
func.func @quantize_one_scale_with_block_size(%x: tensor<6xf32>, %s: tensor<1xf32>, %z: tensor<1xui8>) -> tensor<6xui8> {
  // CHECK: kernel.view %{{.*}} : (tensor<1xf32>) -> tensor<f32>
  // CHECK: kernel.elementwise %{{.*}}, %{{.*}}, %{{.*}} : (tensor<6xf32>, tensor<f32>, tensor<ui8>) -> tensor<6xui8>
  // CHECK: arith.uitofp %{{.*}} : i8 to f32
  // CHECK: arith.constant 2.550000e+02 : f32
  // CHECK: arith.fptoui %{{.*}} : f32 to i8
  %y = onnx.quantize_linear %x, %s, %z {axis = 0 : i64, block_size = 4 : i64, output_type = ui8} : (tensor<6xf32>, tensor<1xf32>, tensor<1xui8>) -> tensor<6xui8>
  return %y : tensor<6xui8>
}

// -----

// Tests that DynamicQuantizeLinear computes its parameters in one kernel
// and quantises with them.
// CHECK-LABEL: func @dynamic_quantize
func.func @dynamic_quantize(%x: tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>) {
  // CHECK: %[[S:.+]], %[[Z:.+]] = kernel.dynamic_quant_params %{{.*}} : (tensor<6xf32>) -> (tensor<f32>, tensor<ui8>)
  // CHECK: %[[Y:.+]] = kernel.elementwise %{{.*}}, %[[S]], %[[Z]]
  // CHECK: return %[[Y]], %[[S]], %[[Z]]
  %y, %s, %z = onnx.dynamic_quantize_linear %x : (tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>)
  return %y, %s, %z : tensor<6xui8>, tensor<f32>, tensor<ui8>
}

// -----

// Tests that MatMulInteger of a 1-D a is a [1, K] product viewed back.
// CHECK-LABEL: func @matmul_integer_vector
func.func @matmul_integer_vector(%a: tensor<5xui8>, %b: tensor<3x5x2xi8>, %bz: tensor<2xi8>) -> tensor<3x2xi32> {
  // CHECK: %[[A:.+]] = kernel.view %{{.*}} : (tensor<5xui8>) -> tensor<1x5xui8>
  // CHECK: %[[P:.+]] = kernel.matmul_integer %[[A]], %{{.*}} b_zero_point %{{.*}} : (tensor<1x5xui8>, tensor<3x5x2xi8>, tensor<2xi8>) -> tensor<3x1x2xi32>
  // CHECK: kernel.view %[[P]] : (tensor<3x1x2xi32>) -> tensor<3x2xi32>
  %y = onnx.matmul_integer %a, %b b_zero_point %bz : (tensor<5xui8>, tensor<3x5x2xi8>, tensor<2xi8>) -> tensor<3x2xi32>
  return %y : tensor<3x2xi32>
}

// -----

// Tests that QLinearMatMul requantises the [M, N] product before viewing it
// back, so that per-row a_scale ([M] as [M, 1]) lines up with rows even
// when b is 1-D.
// CHECK-LABEL: func @qlinear_matmul_per_row
func.func @qlinear_matmul_per_row(%a: tensor<3x6xi8>, %as: tensor<3xf32>, %az: tensor<3xi8>, %b: tensor<6xi8>, %bs: tensor<f32>, %bz: tensor<i8>, %ys: tensor<f32>, %yz: tensor<i8>) -> tensor<3xi8> {
  // CHECK: %[[P:.+]] = kernel.matmul_integer %{{.*}}, %{{.*}} a_zero_point %{{.*}} b_zero_point %{{.*}} : (tensor<3x6xi8>, tensor<6x1xi8>, tensor<3xi8>, tensor<i8>) -> tensor<3x1xi32>
  // CHECK: %[[AS:.+]] = kernel.view %{{.*}} : (tensor<3xf32>) -> tensor<3x1xf32>
  // CHECK: %[[R:.+]] = kernel.elementwise %[[P]], %[[AS]], %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x1xi32>, tensor<3x1xf32>, tensor<f32>, tensor<f32>, tensor<i8>) -> tensor<3x1xi8>
  // CHECK: math.roundeven
  // CHECK: arith.fptosi %{{.*}} : f32 to i8
  // CHECK: kernel.view %[[R]] : (tensor<3x1xi8>) -> tensor<3xi8>
  %y = onnx.qlinear_matmul %a, %as, %az, %b, %bs, %bz, %ys, %yz : (tensor<3x6xi8>, tensor<3xf32>, tensor<3xi8>, tensor<6xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<3xi8>
  return %y : tensor<3xi8>
}

// -----

// Tests that QLinearConv resolves auto_pad into the integer convolution and
// adds the int32 bias (wrapping) before requantising per output channel.
// CHECK-LABEL: func @qlinear_conv_bias_same_lower
func.func @qlinear_conv_bias_same_lower(%x: tensor<1x2x4x4xui8>, %xs: tensor<f32>, %xz: tensor<ui8>, %w: tensor<3x2x3x3xi8>, %ws: tensor<3xf32>, %wz: tensor<3xi8>, %ys: tensor<f32>, %yz: tensor<ui8>, %bias: tensor<3xi32>) -> tensor<1x3x4x4xui8> {
  // CHECK: %[[C:.+]] = kernel.conv_integer %{{.*}}, %{{.*}} x_zero_point %{{.*}} w_zero_point %{{.*}} {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
  // CHECK-SAME: -> tensor<1x3x4x4xi32>
  // CHECK-DAG: %[[B:.+]] = kernel.view %{{.*}} : (tensor<3xi32>) -> tensor<1x3x1x1xi32>
  // CHECK-DAG: %[[WS:.+]] = kernel.view %{{.*}} : (tensor<3xf32>) -> tensor<1x3x1x1xf32>
  // CHECK: kernel.elementwise %[[C]], %[[B]], %{{.*}}, %[[WS]], %{{.*}}, %{{.*}}
  // CHECK: arith.addi %{{.*}} : i32
  // CHECK: arith.fptoui %{{.*}} : f32 to i8
  %y = onnx.qlinear_conv %x, %xs, %xz, %w, %ws, %wz, %ys, %yz bias %bias {kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, auto_pad = "SAME_LOWER"} : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<3x2x3x3xi8>, tensor<3xf32>, tensor<3xi8>, tensor<f32>, tensor<ui8>, tensor<3xi32>) -> tensor<1x3x4x4xui8>
  return %y : tensor<1x3x4x4xui8>
}

// -----

// Tests that blocks which do not divide the axis are refused by name.
func.func @no_lower_uneven_blocks(%x: tensor<5x2xf32>, %s: tensor<3x2xf32>) -> tensor<5x2xi8> {
  // expected-error @+1 {{cannot compile: blocked quantization with block_size 2 not dividing axis 0 of size 5 is not supported}}
  %y = onnx.quantize_linear %x, %s {axis = 0 : i64, block_size = 2 : i64, output_type = i8} : (tensor<5x2xf32>, tensor<3x2xf32>) -> tensor<5x2xi8>
  return %y : tensor<5x2xi8>
}

// -----

// Tests that a per-axis scale of the wrong length is a type error.
func.func @quantize_scale_length(%x: tensor<2x3xf32>, %s: tensor<2xf32>) -> tensor<2x3xui8> {
  // expected-error @+2 {{scale has 2 elements, axis 1 of x [2, 3] has 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = onnx.quantize_linear %x, %s {output_type = ui8} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// -----

// Tests that a huge block_size is checked without overflow.
func.func @quantize_huge_block(%x: tensor<4x3xf32>, %s: tensor<2x3xf32>) -> tensor<4x3xui8> {
  // expected-error @+2 {{blocked scale [2, 3] does not fit x [4, 3] with block_size 9223372036854775807 along axis 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = onnx.quantize_linear %x, %s {axis = 0 : i64, block_size = 9223372036854775807 : i64, output_type = ui8} : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x3xui8>
  return %y : tensor<4x3xui8>
}

// -----

// Tests that the integer products take 8-bit inputs only.
func.func @matmul_integer_int16(%a: tensor<2x3xi16>, %b: tensor<3x2xi16>) -> tensor<2x2xi32> {
  // expected-error @+2 {{a must be int8 or uint8, got 'i16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = onnx.matmul_integer %a, %b : (tensor<2x3xi16>, tensor<3x2xi16>) -> tensor<2x2xi32>
  return %y : tensor<2x2xi32>
}

// -----

// Tests that a per-column b_scale must have N values.
func.func @qlinear_matmul_b_scale(%a: tensor<2x4xui8>, %as: tensor<f32>, %az: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<2xf32>, %bz: tensor<ui8>, %ys: tensor<f32>, %yz: tensor<ui8>) -> tensor<2x3xui8> {
  // expected-error @+2 {{b_scale of shape [2] must be a scalar or one per column of b ([3])}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = onnx.qlinear_matmul %a, %as, %az, %b, %bs, %bz, %ys, %yz : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<4x3xui8>, tensor<2xf32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}
