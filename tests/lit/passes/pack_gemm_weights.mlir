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


// -----

// A transposed constant B (B^T [16, 17], a Linear's weight) of one row
// becomes one group of 16 rows, [1, 17, 16]: the 16 rows' first 16 k one
// row after another (row j, k at 100 j + k), then each row's last k.
// CHECK-LABEL: func @main
// CHECK: %[[G:.*]] = kernel.weight dense<{{\[\[\[}}0.000000e+00, 1.000000e+00,{{.*}}, 1.500000e+01], [1.000000e+02,{{.*}}, 1.150000e+02],{{.*}}, [1.500000e+03,{{.*}}, 1.515000e+03], [1.600000e+01, 1.160000e+02, 2.160000e+02,{{.*}}, 1.516000e+03]]]> : tensor<1x17x16xf32>
// CHECK: kernel.gemm %arg0, %[[G]] bias %arg1 {packed_b = true, trans_b = true} : (tensor<1x17xf32>, tensor<1x17x16xf32>, tensor<16xf32>) -> tensor<1x16xf32>
func.func @main(%a: tensor<1x17xf32>, %c: tensor<16xf32>) -> tensor<1x16xf32> {
  %bt = kernel.weight dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0], [100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0], [200.0, 201.0, 202.0, 203.0, 204.0, 205.0, 206.0, 207.0, 208.0, 209.0, 210.0, 211.0, 212.0, 213.0, 214.0, 215.0, 216.0], [300.0, 301.0, 302.0, 303.0, 304.0, 305.0, 306.0, 307.0, 308.0, 309.0, 310.0, 311.0, 312.0, 313.0, 314.0, 315.0, 316.0], [400.0, 401.0, 402.0, 403.0, 404.0, 405.0, 406.0, 407.0, 408.0, 409.0, 410.0, 411.0, 412.0, 413.0, 414.0, 415.0, 416.0], [500.0, 501.0, 502.0, 503.0, 504.0, 505.0, 506.0, 507.0, 508.0, 509.0, 510.0, 511.0, 512.0, 513.0, 514.0, 515.0, 516.0], [600.0, 601.0, 602.0, 603.0, 604.0, 605.0, 606.0, 607.0, 608.0, 609.0, 610.0, 611.0, 612.0, 613.0, 614.0, 615.0, 616.0], [700.0, 701.0, 702.0, 703.0, 704.0, 705.0, 706.0, 707.0, 708.0, 709.0, 710.0, 711.0, 712.0, 713.0, 714.0, 715.0, 716.0], [800.0, 801.0, 802.0, 803.0, 804.0, 805.0, 806.0, 807.0, 808.0, 809.0, 810.0, 811.0, 812.0, 813.0, 814.0, 815.0, 816.0], [900.0, 901.0, 902.0, 903.0, 904.0, 905.0, 906.0, 907.0, 908.0, 909.0, 910.0, 911.0, 912.0, 913.0, 914.0, 915.0, 916.0], [1000.0, 1001.0, 1002.0, 1003.0, 1004.0, 1005.0, 1006.0, 1007.0, 1008.0, 1009.0, 1010.0, 1011.0, 1012.0, 1013.0, 1014.0, 1015.0, 1016.0], [1100.0, 1101.0, 1102.0, 1103.0, 1104.0, 1105.0, 1106.0, 1107.0, 1108.0, 1109.0, 1110.0, 1111.0, 1112.0, 1113.0, 1114.0, 1115.0, 1116.0], [1200.0, 1201.0, 1202.0, 1203.0, 1204.0, 1205.0, 1206.0, 1207.0, 1208.0, 1209.0, 1210.0, 1211.0, 1212.0, 1213.0, 1214.0, 1215.0, 1216.0], [1300.0, 1301.0, 1302.0, 1303.0, 1304.0, 1305.0, 1306.0, 1307.0, 1308.0, 1309.0, 1310.0, 1311.0, 1312.0, 1313.0, 1314.0, 1315.0, 1316.0], [1400.0, 1401.0, 1402.0, 1403.0, 1404.0, 1405.0, 1406.0, 1407.0, 1408.0, 1409.0, 1410.0, 1411.0, 1412.0, 1413.0, 1414.0, 1415.0, 1416.0], [1500.0, 1501.0, 1502.0, 1503.0, 1504.0, 1505.0, 1506.0, 1507.0, 1508.0, 1509.0, 1510.0, 1511.0, 1512.0, 1513.0, 1514.0, 1515.0, 1516.0]]> : tensor<16x17xf32>
  %0 = kernel.gemm %a, %bt bias %c {trans_b = true} : (tensor<1x17xf32>, tensor<16x17xf32>, tensor<16xf32>) -> tensor<1x16xf32>
  return %0 : tensor<1x16xf32>
}

// -----

// Three rows against 40 rows of B^T: three groups, the last one 8 rows
// of zeros past the 40 (a fifth more weights).
// CHECK-LABEL: func @main
// CHECK: kernel.weight {{.*}} : tensor<3x16x16xf32>
// CHECK: kernel.gemm %arg0, %{{.*}} {packed_b = true, trans_b = true} : (tensor<3x16xf32>, tensor<3x16x16xf32>) -> tensor<3x40xf32>
func.func @main(%a: tensor<3x16xf32>) -> tensor<3x40xf32> {
  %bt = kernel.weight dense<1.0> : tensor<40x16xf32>
  %0 = kernel.gemm %a, %bt {trans_b = true} : (tensor<3x16xf32>, tensor<40x16xf32>) -> tensor<3x40xf32>
  return %0 : tensor<3x40xf32>
}

// -----

// B^T stays as it is: under a whole block of depth (15), 10 rows (16
// would be 60% more weights), and 4 rows of A (the lowering transposes a
// constant B^T from 4 rows on).
// CHECK-LABEL: func @main
// CHECK-NOT: packed_b
// CHECK: return
func.func @main(%a: tensor<1x15xf32>, %a2: tensor<1x16xf32>, %a4: tensor<4x16xf32>) -> (tensor<1x16xf32>, tensor<1x10xf32>, tensor<4x16xf32>) {
  %b0 = kernel.weight dense<1.0> : tensor<16x15xf32>
  %b1 = kernel.weight dense<1.0> : tensor<10x16xf32>
  %b2 = kernel.weight dense<1.0> : tensor<16x16xf32>
  %0 = kernel.gemm %a, %b0 {trans_b = true} : (tensor<1x15xf32>, tensor<16x15xf32>) -> tensor<1x16xf32>
  %1 = kernel.gemm %a2, %b1 {trans_b = true} : (tensor<1x16xf32>, tensor<10x16xf32>) -> tensor<1x10xf32>
  %2 = kernel.gemm %a4, %b2 {trans_b = true} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  return %0, %1, %2 : tensor<1x16xf32>, tensor<1x10xf32>, tensor<4x16xf32>
}
