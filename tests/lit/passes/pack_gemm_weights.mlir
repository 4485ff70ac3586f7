// RUN: onnxcc-opt %s --split-input-file --onnxcc-pack-gemm-weights --mlir-print-elementsattrs-with-hex-if-larger=1000 | FileCheck %s

// A constant [K = 2, N = 64] B becomes two panels of 32 columns, [2, 2, 32]:
// panel p's row k holds B's row k, columns 32p to 32p + 31.
// CHECK-LABEL: func @main
// CHECK: %[[P:.*]] = kernel.weight dense<{{\[\[\[}}0.000000e+00, 1.000000e+00,{{.*}}, 3.100000e+01], [1.000000e+02,{{.*}}, 1.310000e+02]], {{\[\[}}3.200000e+01,{{.*}}, 6.300000e+01], [1.320000e+02,{{.*}}, 1.630000e+02]]]> : tensor<2x2x32xf32>
// CHECK: kernel.gemm %arg0, %[[P]] {packed_b = true} : (tensor<4x2xf32>, tensor<2x2x32xf32>) -> tensor<4x64xf32>
func.func @main(%a: tensor<4x2xf32>) -> tensor<4x64xf32> {
  %b = kernel.weight dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0], [100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0, 140.0, 141.0, 142.0, 143.0, 144.0, 145.0, 146.0, 147.0, 148.0, 149.0, 150.0, 151.0, 152.0, 153.0, 154.0, 155.0, 156.0, 157.0, 158.0, 159.0, 160.0, 161.0, 162.0, 163.0]]> : tensor<2x64xf32>
  %0 = kernel.gemm %a, %b : (tensor<4x2xf32>, tensor<2x64xf32>) -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

// 120 columns: four panels, 8 columns of padding in the last. The bias
// and epilogue stay.
// CHECK-LABEL: func @main
// CHECK: kernel.weight {{.*}} : tensor<4x1x32xf32>
// CHECK: kernel.gemm %arg0, %{{.*}} bias %arg1 {packed_b = true} : (tensor<1x1xf32>, tensor<4x1x32xf32>, tensor<120xf32>) -> tensor<1x120xf32> epilogue
func.func @main(%a: tensor<1x1xf32>, %c: tensor<120xf32>) -> tensor<1x120xf32> {
  %b = kernel.weight dense<1.0> : tensor<1x120xf32>
  %0 = kernel.gemm %a, %b bias %c : (tensor<1x1xf32>, tensor<1x120xf32>, tensor<120xf32>) -> tensor<1x120xf32> epilogue {
  ^bb0(%v: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %v, %z : f32
    kernel.yield %r : f32
  }
  return %0 : tensor<1x120xf32>
}

// -----

// Not packed: a B computed at run time, a transposed B, a transposed A, a
// B with a second user, an integer product, and 33 columns (padded to 64).
// CHECK-LABEL: func @main
// CHECK-NOT: packed_b
// CHECK: return
func.func @main(%a: tensor<4x2xf32>, %x: tensor<2x32xf32>, %at: tensor<2x4xf32>, %ai: tensor<4x2xi32>) -> (tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32xi32>, tensor<4x33xf32>) {
  %bt = kernel.weight dense<1.0> : tensor<32x2xf32>
  %b = kernel.weight dense<1.0> : tensor<2x32xf32>
  %b2 = kernel.weight dense<2.0> : tensor<2x32xf32>
  %bi = kernel.weight dense<1> : tensor<2x32xi32>
  %b33 = kernel.weight dense<1.0> : tensor<2x33xf32>
  %0 = kernel.gemm %a, %x : (tensor<4x2xf32>, tensor<2x32xf32>) -> tensor<4x32xf32>
  %1 = kernel.gemm %a, %bt {trans_b = true} : (tensor<4x2xf32>, tensor<32x2xf32>) -> tensor<4x32xf32>
  %2 = kernel.gemm %at, %b {trans_a = true} : (tensor<2x4xf32>, tensor<2x32xf32>) -> tensor<4x32xf32>
  %3 = kernel.gemm %a, %b2 : (tensor<4x2xf32>, tensor<2x32xf32>) -> tensor<4x32xf32>
  %4 = kernel.gemm %a, %b2 : (tensor<4x2xf32>, tensor<2x32xf32>) -> tensor<4x32xf32>
  %5 = kernel.gemm %ai, %bi : (tensor<4x2xi32>, tensor<2x32xi32>) -> tensor<4x32xi32>
  %6 = kernel.gemm %a, %b33 : (tensor<4x2xf32>, tensor<2x33xf32>) -> tensor<4x33xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32xi32>, tensor<4x33xf32>
}
