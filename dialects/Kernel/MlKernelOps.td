//===- MlKernelOps.td - ai.onnx.ml kernels -----------------*- tablegen -*-===//
//
// Included at the end of KernelOps.td (Kernel_Op, StaticTensor). Verifiers
// are in MlKernelOps.cpp, printers in codegen/cpu/MlPrinters.cpp, the
// runtime in runtime-support/onnxcc/ml.h. The contents of the constant
// operands (node indices, feature ids, class ids) were checked by the
// importer, which built them.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_KERNEL_ML_OPS
#define ONNXCC_KERNEL_ML_OPS

def Kernel_MlTreeEnsembleOp : Kernel_Op<"ml_tree_ensemble", [Pure]> {
  let summary = "a tree ensemble walked as a node array";
  let description = [{
    See onnx.ml_tree_ensemble: the same operands, static. Each row walks
    every tree from its root for at most `depth` steps to a leaf, then the
    leaf weights are aggregated and post-transformed. `nested` (set by
    onnxcc-choose-tree-strategy) prints the trees as nested branches in
    the generated code instead of walking the node array.

    ```mlir
    %s = kernel.ml_tree_ensemble %x, %nodes, %thr, %mem, %roots, %tgt, %w, %base {aggregate = 0 : i64, binary = false, depth = 1 : i64, max_feature = 1 : i64, n_targets = 1 : i64, post_transform = 0 : i64} : (tensor<3x2xf32>, tensor<3x6xi32>, tensor<3xf32>, tensor<1xf32>, tensor<1xi32>, tensor<2xi32>, tensor<2xf32>, tensor<1xf32>) -> tensor<3x1xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$x, StaticTensor:$nodes,
                   StaticTensor:$thresholds, StaticTensor:$members,
                   StaticTensor:$roots, StaticTensor:$targets,
                   StaticTensor:$weights, StaticTensor:$base,
                   I64Attr:$n_targets, I64Attr:$depth, I64Attr:$aggregate,
                   I64Attr:$post_transform, BoolAttr:$binary,
                   I64Attr:$max_feature,
                   DefaultValuedAttr<I64Attr, "0">:$branch_mode,
                   DefaultValuedAttr<BoolAttr, "true">:$missing,
                   DefaultValuedAttr<BoolAttr, "false">:$dense_leaves,
                   DefaultValuedAttr<BoolAttr, "false">:$nested);
  let results = (outs StaticTensor:$scores);
  let assemblyFormat = [{
    $x `,` $nodes `,` $thresholds `,` $members `,` $roots `,` $targets `,`
    $weights `,` $base attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Kernel_MlSvmClassifierOp : Kernel_Op<"ml_svm_classifier", [Pure]> {
  let summary = "support vector classifier: labels and scores";
  let description = [{
    See onnx.ml_svm_classifier: the same operands and attributes, static,
    except that the support vectors are transposed to [F, max(vectors, 1)]
    (one row per feature), so the kernel reads them contiguously.

    ```mlir
    %l, %s = kernel.ml_svm_classifier %x, %sv, %c, %rho, %st, %pa, %pb, %lab {classes = 2 : i64, vectors = 4 : i64, coef0 = 0.0 : f32, columns = 2 : i64, degree = 0 : i64, gamma = 0.5 : f32, kernel = 2 : i64, label_mode = 0 : i64, n_scores = 1 : i64, post_transform = 0 : i64, proba = false, score_mode = 1 : i64} : (tensor<3x2xf32>, tensor<2x4xf32>, tensor<1x4xf32>, tensor<1xf32>, tensor<3xi32>, tensor<1xf32>, tensor<1xf32>, tensor<2xi64>) -> (tensor<3xi64>, tensor<3x2xf32>)
    ```
  }];
  let arguments = (ins StaticTensor:$x, StaticTensor:$support_vectors,
                   StaticTensor:$coefficients, StaticTensor:$rho,
                   StaticTensor:$starts, StaticTensor:$prob_a,
                   StaticTensor:$prob_b, StaticTensor:$labels,
                   I64Attr:$classes, I64Attr:$vectors, I64Attr:$n_scores,
                   I64Attr:$columns,
                   I64Attr:$kernel, I64Attr:$degree, F32Attr:$gamma,
                   F32Attr:$coef0, I64Attr:$post_transform, BoolAttr:$proba,
                   I64Attr:$label_mode, I64Attr:$score_mode);
  let results = (outs StaticTensor:$label, StaticTensor:$scores);
  let assemblyFormat = [{
    $x `,` $support_vectors `,` $coefficients `,` $rho `,` $starts `,`
    $prob_a `,` $prob_b `,` $labels attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // ONNXCC_KERNEL_ML_OPS
