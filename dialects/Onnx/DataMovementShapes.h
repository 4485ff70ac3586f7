//===- DataMovementShapes.h - rules of the data movement ops ----*- C++ -*-===//
//
// The type rules of DataMovementOps.td, and what their lowering and
// folders share with them: the clamped bounds of a Slice, the sizes of a
// Split, the per-axis pads of a Pad, and the strided copy that a Slice,
// Expand, Tile, Transpose, DepthToSpace, SpaceToDepth or Split part is.
//
// A shape-giving operand (Slice's starts, Tile's repeats, TopK's k, ...)
// must be a constant. While it is not one yet the result stays unranked
// (folding may still make it one); a graph input never will, so it is an
// error there: "data-dependent output shape".
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_DATAMOVEMENTSHAPES_H
#define ONNXCC_DIALECTS_ONNX_DATAMOVEMENTSHAPES_H

#include "dialects/Onnx/ShapeFunctions.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Value.h"

namespace onnxcc {

/// Per dimension of the input: where a Slice starts, its step and its
/// extent, after ONNX's clamping (unsliced dimensions: 0, 1, the extent).
struct SliceBounds {
  Shape starts, steps, sizes;
};

/// ONNX Slice-10+: negative starts/ends count from the end, then starts
/// clamp to [0, dim] ([0, dim-1] for negative steps) and ends to [0, dim]
/// ([-1, dim-1]). `axes` defaults to 0..n-1 and `steps` to ones.
mlir::FailureOr<SliceBounds>
resolveSlice(OptLoc loc, llvm::ArrayRef<int64_t> in,
             llvm::ArrayRef<int64_t> starts, llvm::ArrayRef<int64_t> ends,
             std::optional<llvm::ArrayRef<int64_t>> axes,
             std::optional<llvm::ArrayRef<int64_t>> steps);

/// ONNX Split: the size of each of `numOutputs` parts along `axis` (already
/// normalised), from `split` or equal parts of ceil(dim / numOutputs), the
/// last ones smaller (Split-18; the reference does the same for older ones).
mlir::FailureOr<Shape> resolveSplit(OptLoc loc, llvm::ArrayRef<int64_t> in,
                                    int64_t axis,
                                    std::optional<llvm::ArrayRef<int64_t>> split,
                                    int64_t numOutputs);

/// ONNX Pad: [begin_0.., end_0..] for every dimension of a rank-`rank`
/// input from `pads` over `axes` (all dimensions when absent).
mlir::FailureOr<Shape> resolvePads(OptLoc loc, int64_t rank,
                                   llvm::ArrayRef<int64_t> pads,
                                   std::optional<llvm::ArrayRef<int64_t>> axes);

/// CenterCropPad as pads ([begin.., end..], negative ones crop) that take
/// `in` to `target` along `axes` (all when absent) around the center; an
/// odd difference goes one more to the end.
mlir::FailureOr<Shape>
resolveCenterCropPad(OptLoc loc, llvm::ArrayRef<int64_t> in,
                     llvm::ArrayRef<int64_t> target,
                     std::optional<llvm::ArrayRef<int64_t>> axes);

/// Pad's reflect, edge and wrap modes: the coordinate in [0, kept) that
/// output coordinate `i` reads, for a dimension padded by `begin` in front
/// (none when negative) whose input keeps `kept` >= 1 elements after
/// cropping. Reflect repeats with period 2 * (kept - 1), like numpy's pad.
int64_t padSourceIndex(llvm::StringRef mode, int64_t i, int64_t begin,
                       int64_t kept);

/// out = in[offset + sum_d idx_d * strides_d] for every multi-index idx of
/// `shape` in row-major order: the output is contiguous over `shape`.
/// Strides may be 0 (broadcast) or negative (reversed slices).
struct StridedCopy {
  Shape shape;
  Shape strides;
  int64_t offset = 0;

  /// Drops extent-1 dimensions and merges neighbours that are contiguous
  /// in both input and output (stride_d == extent_{d+1} * stride_{d+1}),
  /// so that kernels see the fewest dimensions and the longest rows. An
  /// empty or scalar copy keeps one dimension.
  void coalesce();
};

/// The copies of the ops that are one: all shapes static.
StridedCopy sliceCopy(llvm::ArrayRef<int64_t> in, const SliceBounds &bounds);
/// numpy broadcasting of `in` to `out` (stride 0 where `in` has 1).
StridedCopy expandCopy(llvm::ArrayRef<int64_t> in, llvm::ArrayRef<int64_t> out);
/// Iterates [r_0, a_0, r_1, a_1, ...] with input strides [0, s_0, 0, s_1, ...].
StridedCopy tileCopy(llvm::ArrayRef<int64_t> in, llvm::ArrayRef<int64_t> repeats);
StridedCopy transposeCopy(llvm::ArrayRef<int64_t> in, llvm::ArrayRef<int64_t> perm);
/// DepthToSpace as the 6-D permutation of its definition (DCR or CRD).
StridedCopy depthToSpaceCopy(llvm::ArrayRef<int64_t> in, int64_t blocksize,
                             bool crd);
/// SpaceToDepth: channels ordered [b, b, C] (DCR) or [C, b, b] (CRD).
StridedCopy spaceToDepthCopy(llvm::ArrayRef<int64_t> in, int64_t blocksize,
                             bool crd);
/// The part [begin, begin + size) of `in` along `axis`.
StridedCopy axisRangeCopy(llvm::ArrayRef<int64_t> in, int64_t axis,
                          int64_t begin, int64_t size);

/// Row-major element strides of `shape`.
Shape rowMajorStrides(llvm::ArrayRef<int64_t> shape);

/// The positions of the nonzero entries of a constant condition (Compress).
std::optional<std::vector<int64_t>> truePositions(mlir::ElementsAttr condition);

//===----------------------------------------------------------------------===//
// Type rules (one per op of DataMovementOps.td)
//===----------------------------------------------------------------------===//

using Types = llvm::SmallVectorImpl<mlir::Type>;

mlir::LogicalResult inferSliceTypes(OptLoc loc, mlir::Value data,
                                    mlir::Value starts, mlir::Value ends,
                                    mlir::Value axes, mlir::Value steps,
                                    Types &types);
mlir::LogicalResult inferExpandTypes(OptLoc loc, mlir::Value input,
                                     mlir::Value shape, Types &types);
mlir::LogicalResult inferTileTypes(OptLoc loc, mlir::Value input,
                                   mlir::Value repeats, Types &types);
mlir::LogicalResult inferSplitTypes(OptLoc loc, mlir::Value input,
                                    mlir::Value split, int64_t axis,
                                    int64_t numOutputs, Types &types);
mlir::LogicalResult inferDepthToSpaceTypes(OptLoc loc, mlir::Value input,
                                           int64_t blocksize,
                                           llvm::StringRef mode, Types &types);
mlir::LogicalResult inferSpaceToDepthTypes(OptLoc loc, mlir::Value input,
                                           int64_t blocksize,
                                           llvm::StringRef mode, Types &types);
mlir::LogicalResult inferPadTypes(OptLoc loc, mlir::Value data,
                                  mlir::Value pads, mlir::Value axes,
                                  llvm::StringRef mode, Types &types);
mlir::LogicalResult inferCenterCropPadTypes(
    OptLoc loc, mlir::Value input, mlir::Value shape,
    std::optional<llvm::ArrayRef<int64_t>> axes, Types &types);
mlir::LogicalResult inferTensorScatterTypes(OptLoc loc, mlir::Value cache,
                                            mlir::Value update,
                                            mlir::Value indices, int64_t axis,
                                            llvm::StringRef mode, Types &types);
mlir::LogicalResult inferConstantOfShapeTypes(OptLoc loc, mlir::Value shape,
                                              mlir::ElementsAttr value,
                                              Types &types);
mlir::LogicalResult inferRangeTypes(OptLoc loc, mlir::Value start,
                                    mlir::Value limit, mlir::Value delta,
                                    Types &types);
mlir::LogicalResult inferEyeLikeTypes(OptLoc loc, mlir::Value input,
                                      mlir::Type dtype, Types &types);
mlir::LogicalResult inferTriluTypes(OptLoc loc, mlir::Value input,
                                    mlir::Value k, Types &types);
/// CumSum's and CumProd's (`opName`) rule: a scalar integer axis.
mlir::LogicalResult inferCumSumTypes(OptLoc loc, mlir::Value input,
                                     mlir::Value axis, Types &types,
                                     llvm::StringRef opName = "CumSum");
mlir::LogicalResult inferReverseSequenceTypes(OptLoc loc, mlir::Value input,
                                              mlir::Value lens,
                                              int64_t batchAxis,
                                              int64_t timeAxis, Types &types);
mlir::LogicalResult inferTopKTypes(OptLoc loc, mlir::Value input, mlir::Value k,
                                   int64_t axis, Types &types);
mlir::LogicalResult inferOneHotTypes(OptLoc loc, mlir::Value indices,
                                     mlir::Value depth, mlir::Value values,
                                     int64_t axis, Types &types);
mlir::LogicalResult inferGatherElementsTypes(OptLoc loc, mlir::Value data,
                                             mlir::Value indices, int64_t axis,
                                             Types &types);
mlir::LogicalResult inferGatherNDTypes(OptLoc loc, mlir::Value data,
                                       mlir::Value indices, int64_t batchDims,
                                       Types &types);
mlir::LogicalResult inferScatterElementsTypes(OptLoc loc, mlir::Value data,
                                              mlir::Value indices,
                                              mlir::Value updates, int64_t axis,
                                              llvm::StringRef reduction,
                                              Types &types);
mlir::LogicalResult inferScatterNDTypes(OptLoc loc, mlir::Value data,
                                        mlir::Value indices, mlir::Value updates,
                                        llvm::StringRef reduction, Types &types);

//===----------------------------------------------------------------------===//
// Constant operands the lowering reads (the type rule has checked them)
//===----------------------------------------------------------------------===//

/// One integer of a constant scalar or one-element operand (TopK's k,
/// CumSum's axis), or nullopt.
std::optional<int64_t> constScalarInt(mlir::Value v);
/// OneHot's depth: an integer, or a float truncated toward zero.
std::optional<int64_t> constDepth(mlir::Value v);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_DATAMOVEMENTSHAPES_H
