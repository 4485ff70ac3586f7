//===- MlOps.td - the ai.onnx.ml family --------------------*- tablegen -*-===//
//
// Classic ML (ai.onnx.ml). The importer (compiler/frontend/MlImporters.cpp)
// builds the linear ops (Scaler, Normalizer, LinearRegressor,
// LinearClassifier, Binarizer, ArrayFeatureExtractor, ...) from core ops;
// the ops here are those with no core equivalent. Their attributes are
// already normalised into constant operands: tree node arrays, support
// vectors, label tables, so the kernels read them from the weight blob.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_ONNX_ML_OPS
#define ONNXCC_ONNX_ML_OPS

include "dialects/Onnx/OnnxBase.td"

def Onnx_MlTreeEnsembleOp : Onnx_FamilyOp<"ml_tree_ensemble"> {
  let summary = "a tree ensemble (TreeEnsemble{Classifier,Regressor}, TreeEnsemble)";
  let description = [{
    The scores of ONNX-ML tree ensembles, for rows of `x` [N, F]. `nodes`
    is [nodes, 6] i32 (feature, mode | missing_value_tracks_true << 8,
    true child, false child, range begin, range end; see
    runtime-support/onnxcc/ml.h), `thresholds` and `members` (the values
    of BRANCH_MEMBER sets) have the threshold type (f64 for f64 inputs,
    else f32), `roots` i32 has one node index per tree, `targets` i32 and
    `weights` the leaf weights, `base` [n_targets] the base values, whose element type (f32 or f64) the
    result has.
    Every walk ends at a leaf within `depth` steps. `aggregate`: 0 sum,
    1 average, 2 min, 3 max; `post_transform`: 0 none, 1 logistic,
    2 softmax, 3 softmax_zero, 4 probit. `binary`: a classifier storing
    one class, expanded to two columns. `max_feature`: the highest
    feature id a node reads. `branch_mode`: the one mode (1 to 6) every
    branch node uses, or 0 for mixed modes and set membership; `missing`:
    some node other than a NEQ one sends NaN to its true branch;
    `dense_leaves`: every leaf holds one weight per target, in target
    order. The result is [N, columns].

    ```mlir
    %s = onnx.ml_tree_ensemble %x, %nodes, %thr, %mem, %roots, %tgt, %w, %base {aggregate = 0 : i64, binary = false, depth = 1 : i64, max_feature = 1 : i64, n_targets = 1 : i64, post_transform = 0 : i64} : (tensor<3x2xf32>, tensor<3x6xi32>, tensor<3xf32>, tensor<1xf32>, tensor<1xi32>, tensor<2xi32>, tensor<2xf32>, tensor<1xf32>) -> tensor<3x1xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$x, AnyTensor:$nodes, AnyTensor:$thresholds,
                   AnyTensor:$members, AnyTensor:$roots, AnyTensor:$targets,
                   AnyTensor:$weights, AnyTensor:$base, I64Attr:$n_targets,
                   I64Attr:$depth, I64Attr:$aggregate, I64Attr:$post_transform,
                   BoolAttr:$binary, I64Attr:$max_feature,
                   DefaultValuedAttr<I64Attr, "0">:$branch_mode,
                   DefaultValuedAttr<BoolAttr, "true">:$missing,
                   DefaultValuedAttr<BoolAttr, "false">:$dense_leaves);
  let results = (outs AnyTensor:$scores);
  let assemblyFormat = [{
    $x `,` $nodes `,` $thresholds `,` $members `,` $roots `,` $targets `,`
    $weights `,` $base attr-dict `:` functional-type(operands, results)
  }];
  let inferTypes = [{
      auto x = ::llvm::dyn_cast<::mlir::RankedTensorType>(adaptor.getX().getType());
      if (x && x.getRank() == 2 && !x.isDynamicDim(1) &&
          x.getDimSize(1) <= int64_t(adaptor.getMaxFeature()))
        return ::mlir::emitOptionalError(loc, "X has ", x.getDimSize(1),
            " features, the trees read feature ",
            int64_t(adaptor.getMaxFeature()));
      int64_t cols = int64_t(adaptor.getNTargets());
      if (adaptor.getBinary() && cols < 2)
        cols = 2;
      return ::onnxcc::inferMlRowTypes(
          loc, adaptor.getX(),
          {{cols, ::mlir::getElementTypeOrSelf(adaptor.getBase().getType())}},
          types);
  }];
}

def Onnx_MlSvmClassifierOp : Onnx_FamilyOp<"ml_svm_classifier"> {
  let summary = "SVMClassifier: labels and scores of a support vector classifier";
  let description = [{
    ONNX-ML `SVMClassifier` for rows of `x` [N, F], with the support
    vectors [max(SV, 1), F] (`vectors` SV = 0: a linear classifier, whose
    `coefficients` are [classes, F]), `coefficients`,
    one `rho` per class pair, `starts` (i32 [classes + 1], each class's
    first support vector), `prob_a`/`prob_b` (used when `proba`) and the
    i64 `labels`. `kernel`: 0 linear, 1 poly, 2 rbf, 3 sigmoid;
    `label_mode`, `score_mode` and the column counts are derived by the
    importer from onnx.reference's rules (see ml.h). Results: i64 labels
    [N] and f32 scores [N, columns].

    ```mlir
    %l, %s = onnx.ml_svm_classifier %x, %sv, %c, %rho, %st, %pa, %pb, %lab {classes = 2 : i64, vectors = 4 : i64, coef0 = 0.0 : f32, columns = 2 : i64, degree = 0 : i64, gamma = 0.5 : f32, kernel = 2 : i64, label_mode = 0 : i64, n_scores = 1 : i64, post_transform = 0 : i64, proba = false, score_mode = 1 : i64} : (tensor<3x2xf32>, tensor<4x2xf32>, tensor<1x4xf32>, tensor<1xf32>, tensor<3xi32>, tensor<1xf32>, tensor<1xf32>, tensor<2xi64>) -> (tensor<3xi64>, tensor<3x2xf32>)
    ```
  }];
  let arguments = (ins AnyTensor:$x, AnyTensor:$support_vectors,
                   AnyTensor:$coefficients, AnyTensor:$rho, AnyTensor:$starts,
                   AnyTensor:$prob_a, AnyTensor:$prob_b, AnyTensor:$labels,
                   I64Attr:$classes, I64Attr:$vectors, I64Attr:$n_scores,
                   I64Attr:$columns,
                   I64Attr:$kernel, I64Attr:$degree, F32Attr:$gamma,
                   F32Attr:$coef0, I64Attr:$post_transform, BoolAttr:$proba,
                   I64Attr:$label_mode, I64Attr:$score_mode);
  let results = (outs AnyTensor:$label, AnyTensor:$scores);
  let assemblyFormat = [{
    $x `,` $support_vectors `,` $coefficients `,` $rho `,` $starts `,`
    $prob_a `,` $prob_b `,` $labels attr-dict `:` functional-type(operands, results)
  }];
  let inferTypes = [{
      auto x = ::llvm::dyn_cast<::mlir::RankedTensorType>(adaptor.getX().getType());
      auto sv = ::llvm::dyn_cast<::mlir::RankedTensorType>(
          adaptor.getSupportVectors().getType());
      if (x && sv && x.getRank() == 2 && !x.isDynamicDim(1) &&
          x.getDimSize(1) != sv.getDimSize(1))
        return ::mlir::emitOptionalError(loc, "X has ", x.getDimSize(1),
            " features, the model's vectors ", sv.getDimSize(1));
      return ::onnxcc::inferMlRowTypes(
          loc, adaptor.getX(),
          {{-1, ::mlir::IntegerType::get(ctx, 64)},
           {int64_t(adaptor.getColumns()), ::mlir::Float32Type::get(ctx)}}, types);
  }];
}

def Onnx_MlArrayFeatureExtractorOp : Onnx_FamilyOp<"ml_array_feature_extractor"> {
  let summary = "ArrayFeatureExtractor: elements of the last axis at indices";
  let description = [{
    ONNX-ML `ArrayFeatureExtractor`: `x[..., indices]` with the indices
    flattened; a 1-D `x` gives [1, K] (as ORT does). Indices outside the
    last axis are clamped to it.

    ```mlir
    %z = onnx.ml_array_feature_extractor %x, %i : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$x, AnyTensor:$indices);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x `,` $indices attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferArrayFeatureExtractorTypes(
          loc, adaptor.getX(), adaptor.getIndices(), types);
  }];
}

#endif // ONNXCC_ONNX_ML_OPS
