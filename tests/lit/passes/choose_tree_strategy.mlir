// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-tree-strategy | FileCheck %s --check-prefix=AUTO
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-tree-strategy="nested-max-nodes=2" | FileCheck %s --check-prefix=SMALL
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-tree-strategy="strategy=nested" | FileCheck %s --check-prefix=NESTED
// RUN: onnxcc-opt %s --split-input-file --onnxcc-choose-tree-strategy="strategy=array" | FileCheck %s --check-prefix=ARRAY
// RUN: not onnxcc-opt %s --split-input-file --onnxcc-choose-tree-strategy="strategy=bushy" 2>&1 | FileCheck %s --check-prefix=BAD

// Tests that `auto` nests a small ensemble run on one row, that a smaller
// node budget keeps it an array walk, and that the forced strategies win.
// AUTO-LABEL: func @one_row
// AUTO: kernel.ml_tree_ensemble {{.*}}nested = true
// SMALL-LABEL: func @one_row
// SMALL-NOT: nested = true
// NESTED-LABEL: func @one_row
// NESTED: kernel.ml_tree_ensemble {{.*}}nested = true
// ARRAY-LABEL: func @one_row
// ARRAY-NOT: nested = true
// BAD: unknown tree strategy 'bushy' (expected auto, nested or array)
func.func @one_row(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %nodes = kernel.weight dense<[[0, 1, 1, 2, 0, 0], [0, 0, 1, 1, 0, 1], [0, 0, 2, 2, 1, 2]]> : tensor<3x6xi32>
  %thr = kernel.weight dense<[0.5, 0.0, 0.0]> : tensor<3xf32>
  %mem = kernel.weight dense<0.0> : tensor<1xf32>
  %roots = kernel.weight dense<0> : tensor<1xi32>
  %tgt = kernel.weight dense<[0, 1]> : tensor<2xi32>
  %w = kernel.weight dense<[1.0, 2.0]> : tensor<2xf32>
  %base = kernel.weight dense<[0.0, 0.5]> : tensor<2xf32>
  %s = kernel.ml_tree_ensemble %x, %nodes, %thr, %mem, %roots, %tgt, %w, %base {aggregate = 0 : i64, binary = false, depth = 1 : i64, max_feature = 0 : i64, n_targets = 2 : i64, post_transform = 0 : i64} : (tensor<1x2xf32>, tensor<3x6xi32>, tensor<3xf32>, tensor<1xf32>, tensor<1xi32>, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  return %s : tensor<1x2xf32>
}

// -----

// Tests that `auto` keeps the array walk for many rows (mispredicted
// branches cost more than its masked selects there), which `nested` forces.
// AUTO-LABEL: func @many_rows
// AUTO-NOT: nested = true
// NESTED-LABEL: func @many_rows
// NESTED: kernel.ml_tree_ensemble {{.*}}nested = true
func.func @many_rows(%x: tensor<64x2xf32>) -> tensor<64x2xf32> {
  %nodes = kernel.weight dense<[[0, 1, 1, 2, 0, 0], [0, 0, 1, 1, 0, 1], [0, 0, 2, 2, 1, 2]]> : tensor<3x6xi32>
  %thr = kernel.weight dense<[0.5, 0.0, 0.0]> : tensor<3xf32>
  %mem = kernel.weight dense<0.0> : tensor<1xf32>
  %roots = kernel.weight dense<0> : tensor<1xi32>
  %tgt = kernel.weight dense<[0, 1]> : tensor<2xi32>
  %w = kernel.weight dense<[1.0, 2.0]> : tensor<2xf32>
  %base = kernel.weight dense<[0.0, 0.5]> : tensor<2xf32>
  %s = kernel.ml_tree_ensemble %x, %nodes, %thr, %mem, %roots, %tgt, %w, %base {aggregate = 0 : i64, binary = false, depth = 1 : i64, max_feature = 0 : i64, n_targets = 2 : i64, post_transform = 0 : i64} : (tensor<64x2xf32>, tensor<3x6xi32>, tensor<3xf32>, tensor<1xf32>, tensor<1xi32>, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>) -> tensor<64x2xf32>
  return %s : tensor<64x2xf32>
}

// -----

// Tests that even a forced `nested` keeps trees deeper than 64 levels (their
// braces would pass compilers' nesting limits) and integer rows as arrays.
// NESTED-LABEL: func @too_deep
// NESTED-NOT: nested = true
// NESTED-LABEL: func @int_rows
// NESTED-NOT: nested = true
func.func @too_deep(%x: tensor<1x2xf32>, %n: tensor<1x6xi32>, %t: tensor<1xf32>, %r: tensor<1xi32>) -> tensor<1x1xf32> {
  %s = kernel.ml_tree_ensemble %x, %n, %t, %t, %r, %r, %t, %t {aggregate = 0 : i64, binary = false, depth = 65 : i64, max_feature = 0 : i64, n_targets = 1 : i64, post_transform = 0 : i64} : (tensor<1x2xf32>, tensor<1x6xi32>, tensor<1xf32>, tensor<1xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1xf32>
  return %s : tensor<1x1xf32>
}
func.func @int_rows(%x: tensor<1x2xi64>) -> tensor<1x1xf32> {
  %n = kernel.weight dense<[[0, 0, 0, 0, 0, 1]]> : tensor<1x6xi32>
  %t = kernel.weight dense<0.0> : tensor<1xf32>
  %r = kernel.weight dense<0> : tensor<1xi32>
  %s = kernel.ml_tree_ensemble %x, %n, %t, %t, %r, %r, %t, %t {aggregate = 0 : i64, binary = false, depth = 0 : i64, max_feature = 0 : i64, n_targets = 1 : i64, post_transform = 0 : i64} : (tensor<1x2xi64>, tensor<1x6xi32>, tensor<1xf32>, tensor<1xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1xf32>
  return %s : tensor<1x1xf32>
}
