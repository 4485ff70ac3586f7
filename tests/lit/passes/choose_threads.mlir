// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-threads="threads=2 min-macs=1000 min-conv-macs=1000" | FileCheck %s
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-threads="threads=2 min-macs=1000 min-conv-macs=1000" --onnxcc-plan-memory | FileCheck %s --check-prefix=PLAN
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-threads | FileCheck %s --check-prefix=ONE
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-threads="threads=2" | FileCheck %s --check-prefix=DEF
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-threads="threads=2" | FileCheck %s --check-prefix=MAP
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-threads="threads=2 min-map-elements=100000" | FileCheck %s --check-prefix=BIGMAP
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-threads="threads=2" | FileCheck %s --check-prefix=ATTN
// RUN: not onnxcc-opt %s --split-input-file --onnxcc-choose-threads="threads=0" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: --threads must be in [1, 256], got 0

// A product of 8 * 64 * 32 = 16384 multiply-adds splits; one of 2 * 5 * 3
// = 30 stays on the calling thread, and so does an integer product.
// CHECK-LABEL: func @main
// CHECK: kernel.gemm %arg0, %arg1 {threads = 2 : i64}
// CHECK: kernel.gemm %arg2, %arg3 :
// CHECK: kernel.gemm %arg4, %arg5 :
// ONE-LABEL: func @main
// ONE-NOT: threads
// ONE: return
// The planned size is a module attribute: each split's comes before its
// function's label.
// PLAN: kernel.workspace_bytes = 0
// PLAN-LABEL: func @main
func.func @main(%a: tensor<8x32xf32>, %b: tensor<32x64xf32>,
                    %c: tensor<2x3xf32>, %d: tensor<3x5xf32>,
                    %e: tensor<64x64xi32>, %f: tensor<64x64xi32>)
    -> (tensor<8x64xf32>, tensor<2x5xf32>, tensor<64x64xi32>) {
  %0 = kernel.gemm %a, %b : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %1 = kernel.gemm %c, %d : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  %2 = kernel.gemm %e, %f : (tensor<64x64xi32>, tensor<64x64xi32>) -> tensor<64x64xi32>
  return %0, %1, %2 : tensor<8x64xf32>, tensor<2x5xf32>, tensor<64x64xi32>
}

// -----

// A depthwise 3x3 over 8 channels of 16x16 (18432 multiply-adds) splits by
// channel: each thread im2cols into its own copy of the 9 x 256-float
// scratch, so the arena holds two (2 * 9216 bytes).
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d {{.*}}threads = 2 : i64
// PLAN: kernel.workspace_bytes = 18432
// PLAN-LABEL: func @main
// ONE-LABEL: func @main
// ONE-NOT: threads
// ONE: return
func.func @main(%x: tensor<1x8x16x16xf32>, %w: tensor<8x1x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x16x16xf32> {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 8 : i64} : (tensor<1x8x16x16xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
  return %0 : tensor<1x8x16x16xf32>
}

// -----

// An ungrouped convolution shares one im2col scratch (9 * 2 x 64 floats):
// its threads split the copy by channel, then the product by tile.
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d {{.*}}threads = 2 : i64
// PLAN: kernel.workspace_bytes = 4608
// PLAN-LABEL: func @main
func.func @main(%x: tensor<1x2x8x8xf32>, %w: tensor<16x2x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x8x8xf32> {
  %0 = kernel.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x8x8xf32>, tensor<16x2x3x3xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
}

// -----

// 1x1 convolutions over 16x16 with threads: 96 -> 16 channels (at least 3x
// as many in as out) splits its input channels, and its scratch is the
// second thread's partial output (16 x 256 floats); 32 -> 16 (2x) splits
// its outputs and needs none.
// CHECK-LABEL: func @main
// CHECK: kernel.conv2d %arg0, {{.*}}algorithm = "pointwise"{{.*}}split_depth = true, {{.*}}threads = 2 : i64
// CHECK: kernel.conv2d %arg3,
// CHECK-NOT: split_depth
// CHECK: return
// PLAN: kernel.workspace_bytes = 16384
// PLAN-LABEL: func @main
func.func @main(%x: tensor<1x96x16x16xf32>, %w: tensor<16x96x1x1xf32>, %b: tensor<16xf32>,
                %x2: tensor<1x32x16x16xf32>, %w2: tensor<16x32x1x1xf32>)
    -> (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>) {
  %0 = kernel.conv2d %x, %w, %b {algorithm = "pointwise", pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x96x16x16xf32>, tensor<16x96x1x1xf32>, tensor<16xf32>) -> tensor<1x16x16x16xf32>
  %1 = kernel.conv2d %x2, %w2, %b {algorithm = "pointwise", pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x32x16x16xf32>, tensor<16x32x1x1xf32>, tensor<16xf32>) -> tensor<1x16x16x16xf32>
  return %0, %1 : tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>
}

// -----

// Under the default thresholds a depthwise 3x3 over 32 channels of 28x28
// (225792 multiply-adds) splits, while a dense convolution of about as many
// (32 -> 4 channels, 3x3 over 14x14: 225792) stays on the calling thread.
// DEF-LABEL: func @main
// DEF: kernel.conv2d {{.*}}algorithm = "depthwise"{{.*}}threads = 2 : i64
// DEF: kernel.conv2d
// DEF-NOT: threads
// DEF: return
func.func @main(%x: tensor<1x32x28x28xf32>, %w: tensor<32x1x3x3xf32>, %b: tensor<32xf32>,
                %x2: tensor<1x32x14x14xf32>, %w2: tensor<4x32x3x3xf32>, %b2: tensor<4xf32>)
    -> (tensor<1x32x28x28xf32>, tensor<1x4x14x14xf32>) {
  %0 = kernel.conv2d %x, %w, %b {algorithm = "depthwise", pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 32 : i64} : (tensor<1x32x28x28xf32>, tensor<32x1x3x3xf32>, tensor<32xf32>) -> tensor<1x32x28x28xf32>
  %1 = kernel.conv2d %x2, %w2, %b2 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x32x14x14xf32>, tensor<4x32x3x3xf32>, tensor<4xf32>) -> tensor<1x4x14x14xf32>
  return %0, %1 : tensor<1x32x28x28xf32>, tensor<1x4x14x14xf32>
}

// -----

// A max pool reading 64 x 27 x 27 x 9 = 419904 taps splits by channel
// under the default thresholds; one of 6 x 14 x 14 x 4 = 4704 taps, and
// one that also returns indices, stay on the calling thread.
// (No label here: the depthwise split's checks above span several splits.)
// DEF: kernel.pool %arg0 {{.*}}threads = 2 : i64
// DEF: kernel.pool %arg1
// DEF-NOT: threads
// DEF: return
func.func @main(%x: tensor<1x64x55x55xf32>, %x2: tensor<1x6x28x28xf32>)
    -> (tensor<1x64x27x27xf32>, tensor<1x6x14x14xf32>, tensor<1x64x27x27xf32>, tensor<1x64x27x27xi64>) {
  %0 = kernel.pool %x {kind = "max", kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>} : (tensor<1x64x55x55xf32>) -> tensor<1x64x27x27xf32>
  %1 = kernel.pool %x2 {kind = "max", kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>} : (tensor<1x6x28x28xf32>) -> tensor<1x6x14x14xf32>
  %2, %3 = kernel.pool %x {kind = "max", kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>} : (tensor<1x64x55x55xf32>) -> (tensor<1x64x27x27xf32>, tensor<1x64x27x27xi64>)
  return %0, %1, %2, %3 : tensor<1x64x27x27xf32>, tensor<1x6x14x14xf32>, tensor<1x64x27x27xf32>, tensor<1x64x27x27xi64>
}

// -----

// Under the default 8192 elements, a 128x64 float map with a one-element
// input splits; a 64x64 one, a map with a broadcast row, an integer map
// and one whose body has no vector form (exp2) stay on the
// calling thread. --min-map-elements above them keeps all on it.
// MAP: kernel.elementwise %arg0, %arg2 {threads = 2 : i64}
// MAP: kernel.elementwise %arg1, %arg1 :
// MAP: kernel.elementwise %arg3, %arg0 :
// MAP: kernel.elementwise %arg4 :
// MAP: kernel.elementwise %arg0 :
// BIGMAP: kernel.elementwise %arg0, %arg2 :
// BIGMAP-NOT: threads
// BIGMAP: return
func.func @main(%a: tensor<128x64xf32>, %b: tensor<64x64xf32>, %s: tensor<1xf32>,
                %row: tensor<64xf32>, %i: tensor<128x64xi32>)
    -> (tensor<128x64xf32>, tensor<64x64xf32>, tensor<128x64xf32>, tensor<128x64xi32>, tensor<128x64xf32>) {
  %0 = kernel.elementwise %a, %s : (tensor<128x64xf32>, tensor<1xf32>) -> tensor<128x64xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    kernel.yield %r : f32
  }
  %1 = kernel.elementwise %b, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.mulf %x, %y : f32
    kernel.yield %r : f32
  }
  %2 = kernel.elementwise %row, %a : (tensor<64xf32>, tensor<128x64xf32>) -> tensor<128x64xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    kernel.yield %r : f32
  }
  %3 = kernel.elementwise %i : (tensor<128x64xi32>) -> tensor<128x64xi32> {
  ^bb0(%x: i32):
    %r = arith.addi %x, %x : i32
    kernel.yield %r : i32
  }
  %4 = kernel.elementwise %a : (tensor<128x64xf32>) -> tensor<128x64xf32> {
  ^bb0(%x: f32):
    %r = math.exp2 %x : f32
    kernel.yield %r : f32
  }
  return %0, %1, %2, %3, %4 : tensor<128x64xf32>, tensor<64x64xf32>, tensor<128x64xf32>, tensor<128x64xi32>, tensor<128x64xf32>
}

// -----

// Attention's core under the default thresholds: the per-head products
// (4 x 32x32x32 = 131072 multiply-adds) split by head and the [4x32x32]
// softmax (4096 elements over a last axis) by row. A single product (no
// batch index to split), one of fewer multiply-adds than min-macs, an
// integer one, a softmax over another axis and one of fewer elements than
// min-softmax-elements stay on the calling thread.
// ATTN: kernel.batch_matmul %arg0, %arg1 {threads = 2 : i64}
// ATTN: kernel.softmax %{{.*}} {axis = 3 : i64, threads = 2 : i64}
// ATTN: kernel.batch_matmul %arg2, %arg3 :
// ATTN: kernel.batch_matmul %arg4, %arg4 :
// ATTN: kernel.batch_matmul %arg5, %arg5 :
// ATTN: kernel.softmax %arg0 {axis = 2 : i64} :
// ATTN: kernel.softmax %arg6 {axis = 1 : i64} :
// ATTN-NOT: threads
// ATTN: return
func.func @main(%q: tensor<1x4x32x32xf32>, %k: tensor<1x4x32x32xf32>,
                %a1: tensor<1x64x64xf32>, %b1: tensor<1x64x64xf32>,
                %small: tensor<4x8x8xf32>, %int: tensor<4x32x32xi32>,
                %rows: tensor<16x64xf32>)
    -> (tensor<1x4x32x32xf32>, tensor<1x64x64xf32>, tensor<4x8x8xf32>, tensor<4x32x32xi32>, tensor<1x4x32x32xf32>, tensor<16x64xf32>) {
  %0 = kernel.batch_matmul %q, %k : (tensor<1x4x32x32xf32>, tensor<1x4x32x32xf32>) -> tensor<1x4x32x32xf32>
  %1 = kernel.softmax %0 {axis = 3 : i64} : (tensor<1x4x32x32xf32>) -> tensor<1x4x32x32xf32>
  %2 = kernel.batch_matmul %a1, %b1 : (tensor<1x64x64xf32>, tensor<1x64x64xf32>) -> tensor<1x64x64xf32>
  %3 = kernel.batch_matmul %small, %small : (tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %4 = kernel.batch_matmul %int, %int : (tensor<4x32x32xi32>, tensor<4x32x32xi32>) -> tensor<4x32x32xi32>
  %5 = kernel.softmax %q {axis = 2 : i64} : (tensor<1x4x32x32xf32>) -> tensor<1x4x32x32xf32>
  %6 = kernel.softmax %rows {axis = 1 : i64} : (tensor<16x64xf32>) -> tensor<16x64xf32>
  return %1, %2, %3, %4, %5, %6 : tensor<1x4x32x32xf32>, tensor<1x64x64xf32>, tensor<4x8x8xf32>, tensor<4x32x32xi32>, tensor<1x4x32x32xf32>, tensor<16x64xf32>
}
