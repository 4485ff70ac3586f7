//===- DataMovementOps.td - indexing, slicing, gathering ----*- tablegen -*-===//
//
// Ops whose output shape is static once their inputs' shapes and their
// shape-giving constant inputs (Slice's starts, Tile's repeats, TopK's k,
// ...) are known. Each type rule calls one function of
// DataMovementShapes.h, which also computes what the lowering needs (the
// clamped slice bounds, the strided copy of a Tile), so that the rule and
// the kernel cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_ONNX_DATA_MOVEMENT_OPS
#define ONNXCC_ONNX_DATA_MOVEMENT_OPS

include "dialects/Onnx/OnnxBase.td"

// A data movement op; `inferTypes` calls a rule of DataMovementShapes.h.
class Onnx_DataMovementOp<string mnemonic, list<Trait> traits = []>
    : Onnx_FamilyOp<mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Copies over an index domain (lowered to kernel.copy)
//===----------------------------------------------------------------------===//

def Onnx_SliceOp : Onnx_DataMovementOp<"slice", [AttrSizedOperandSegments]> {
  let summary = "numpy-style slice with constant starts, ends, axes, steps";
  let description = [{
    ONNX `Slice` (opset 10+; the opset-1 attributes become constants in the
    importer). Negative starts/ends count from the end, out-of-range ones
    clamp, steps may be negative.

    ```mlir
    %y = onnx.slice %x, %starts, %ends axes %axes : (tensor<20x10xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<20x3xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$data, AnyTensor:$starts, AnyTensor:$ends,
                   Optional<AnyTensor>:$axes, Optional<AnyTensor>:$steps);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $data `,` $starts `,` $ends (`axes` $axes^)? (`steps` $steps^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
  let inferTypes = [{
      return ::onnxcc::inferSliceTypes(loc, adaptor.getData(), adaptor.getStarts(),
                                       adaptor.getEnds(), adaptor.getAxes(),
                                       adaptor.getSteps(), types);
  }];
}

def Onnx_ExpandOp : Onnx_DataMovementOp<"expand"> {
  let summary = "broadcast to a constant shape";
  let description = [{
    ```mlir
    %y = onnx.expand %x, %shape : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$shape);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $shape attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let inferTypes = [{
      return ::onnxcc::inferExpandTypes(loc, adaptor.getInput(),
                                        adaptor.getShape(), types);
  }];
}

def Onnx_TileOp : Onnx_DataMovementOp<"tile"> {
  let summary = "repeat a tensor along each axis a constant number of times";
  let description = [{
    ```mlir
    %y = onnx.tile %x, %repeats : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$repeats);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $repeats attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let inferTypes = [{
      return ::onnxcc::inferTileTypes(loc, adaptor.getInput(),
                                      adaptor.getRepeats(), types);
  }];
}

def Onnx_SplitOp : Onnx_DataMovementOp<"split"> {
  let summary = "split into `num_outputs` parts along an axis";
  let description = [{
    The parts' sizes come from the constant `split` operand, or are equal
    (the last one smaller when the axis does not divide, as in opset 18).
    `num_outputs` is always the number of results.

    ```mlir
    %a, %b = onnx.split %x {axis = 0 : i64, num_outputs = 2 : i64} : (tensor<6xf32>) -> (tensor<3xf32>, tensor<3xf32>)
    ```
  }];
  let arguments = (ins AnyTensor:$input, Optional<AnyTensor>:$split,
                   DefaultValuedAttr<I64Attr, "0">:$axis, I64Attr:$num_outputs);
  let results = (outs Variadic<AnyTensor>:$outputs);
  let assemblyFormat = "$input (`,` $split^)? attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let inferTypes = [{
      return ::onnxcc::inferSplitTypes(loc, adaptor.getInput(), adaptor.getSplit(),
                                       (int64_t)adaptor.getAxis(),
                                       (int64_t)adaptor.getNumOutputs(), types);
  }];
}

def Onnx_DepthToSpaceOp : Onnx_DataMovementOp<"depth_to_space"> {
  let summary = "move channel blocks into spatial blocks (DCR or CRD order)";
  let description = [{
    ```mlir
    %y = onnx.depth_to_space %x {blocksize = 2 : i64, mode = "DCR"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, I64Attr:$blocksize,
                   DefaultValuedAttr<StrAttr, "\"DCR\"">:$mode);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferDepthToSpaceTypes(loc, adaptor.getInput(),
                                              (int64_t)adaptor.getBlocksize(),
                                              adaptor.getMode(), types);
  }];
}

def Onnx_SpaceToDepthOp : Onnx_DataMovementOp<"space_to_depth"> {
  let summary = "move spatial blocks into channels (DCR or CRD order)";
  let description = [{
    ```mlir
    %y = onnx.space_to_depth %x {blocksize = 2 : i64, mode = "DCR"} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, I64Attr:$blocksize,
                   DefaultValuedAttr<StrAttr, "\"DCR\"">:$mode);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferSpaceToDepthTypes(loc, adaptor.getInput(),
                                              (int64_t)adaptor.getBlocksize(),
                                              adaptor.getMode(), types);
  }];
}

def Onnx_PadOp : Onnx_DataMovementOp<"pad", [AttrSizedOperandSegments]> {
  let summary = "pad (or, with negative pads, crop) with a constant, a reflection, the edge, or a wrap";
  let description = [{
    ONNX `Pad` (opset 11+ form; the importer turns opset-2 attributes into
    constants). `pads` is [begin..., end...] over `axes` (all axes when
    absent) and must be constant; `constant_value` may be computed at run
    time.

    ```mlir
    %y = onnx.pad %x, %pads value %v {mode = "constant"} : (tensor<2x3xf32>, tensor<4xi64>, tensor<f32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$data, AnyTensor:$pads,
                   Optional<AnyTensor>:$constant_value, Optional<AnyTensor>:$axes,
                   DefaultValuedAttr<StrAttr, "\"constant\"">:$mode);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $data `,` $pads (`value` $constant_value^)? (`axes` $axes^)? attr-dict `:` functional-type(operands, results)
  }];
  let inferTypes = [{
      return ::onnxcc::inferPadTypes(loc, adaptor.getData(), adaptor.getPads(),
                                     adaptor.getAxes(), adaptor.getMode(), types);
  }];
}

def Onnx_CenterCropPadOp : Onnx_DataMovementOp<"center_crop_pad"> {
  let summary = "crop or zero-pad each of `axes` around its center to a constant size";
  let description = [{
    An odd difference crops (or pads) one element more at the end.

    ```mlir
    %y = onnx.center_crop_pad %x, %shape {axes = array<i64: 0, 1>} : (tensor<20x10xf32>, tensor<2xi64>) -> tensor<10x14xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$shape,
                   OptionalAttr<DenseI64ArrayAttr>:$axes);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $shape attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferCenterCropPadTypes(loc, adaptor.getInput(),
                                               adaptor.getShape(),
                                               adaptor.getAxes(), types);
  }];
}

//===----------------------------------------------------------------------===//
// Tensors made from a shape alone
//===----------------------------------------------------------------------===//

def Onnx_ConstantOfShapeOp : Onnx_DataMovementOp<"constant_of_shape"> {
  let summary = "a tensor of a constant shape filled with one value";
  let description = [{
    `value` is a one-element tensor whose element type is the result's.

    ```mlir
    %y = onnx.constant_of_shape %shape {value = dense<0.0> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$shape, ElementsAttr:$value);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$shape attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let inferTypes = [{
      return ::onnxcc::inferConstantOfShapeTypes(loc, adaptor.getShape(),
                                                 adaptor.getValue(), types);
  }];
}

def Onnx_RangeOp : Onnx_DataMovementOp<"range"> {
  let summary = "start, start + delta, ... up to (excluding) limit";
  let description = [{
    The three scalars must be constants: the element count depends on them.

    ```mlir
    %y = onnx.range %start, %limit, %delta : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<5xi64>
    ```
  }];
  let arguments = (ins AnyTensor:$start, AnyTensor:$limit, AnyTensor:$delta);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$start `,` $limit `,` $delta attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let inferTypes = [{
      return ::onnxcc::inferRangeTypes(loc, adaptor.getStart(), adaptor.getLimit(),
                                       adaptor.getDelta(), types);
  }];
}

def Onnx_SizeOp : Onnx_DataMovementOp<"size"> {
  let summary = "the element count of a tensor, as an i64 scalar";
  let description = [{
    ```mlir
    %n = onnx.size %x : (tensor<2x3xf32>) -> tensor<i64>
    ```
  }];
  let arguments = (ins AnyTensor:$input);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let inferTypes = [{
      types.push_back(::mlir::RankedTensorType::get({}, ::mlir::IntegerType::get(ctx, 64)));
      return ::mlir::success();
  }];
}

def Onnx_EyeLikeOp : Onnx_DataMovementOp<"eye_like"> {
  let summary = "a 2-D tensor of the input's shape with ones on diagonal k";
  let description = [{
    `dtype` is the result's element type (the importer defaults it to the
    input's).

    ```mlir
    %y = onnx.eye_like %x {dtype = f32, k = 1 : i64} : (tensor<3x4xi32>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, TypeAttr:$dtype,
                   DefaultValuedAttr<I64Attr, "0">:$k);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferEyeLikeTypes(loc, adaptor.getInput(),
                                         adaptor.getDtype(), types);
  }];
}

//===----------------------------------------------------------------------===//
// Per-element kernels that keep or reorder values
//===----------------------------------------------------------------------===//

def Onnx_TriluOp : Onnx_DataMovementOp<"trilu"> {
  let summary = "keep the upper or lower triangle of the last two dimensions";
  let description = [{
    `k` (an optional i64 scalar, computed or constant) shifts the diagonal.

    ```mlir
    %y = onnx.trilu %x, %k {upper = 1 : i64} : (tensor<4x5xf32>, tensor<i64>) -> tensor<4x5xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, Optional<AnyTensor>:$k,
                   DefaultValuedAttr<I64Attr, "1">:$upper);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input (`,` $k^)? attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferTriluTypes(loc, adaptor.getInput(), adaptor.getK(),
                                       types);
  }];
}

def Onnx_CumSumOp : Onnx_DataMovementOp<"cum_sum"> {
  let summary = "running sum along a constant axis (exclusive, reverse)";
  let description = [{
    ```mlir
    %y = onnx.cum_sum %x, %axis {exclusive = 0 : i64, reverse = 1 : i64} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$axis,
                   DefaultValuedAttr<I64Attr, "0">:$exclusive,
                   DefaultValuedAttr<I64Attr, "0">:$reverse);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $axis attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferCumSumTypes(loc, adaptor.getInput(), adaptor.getAxis(),
                                        types);
  }];
}

def Onnx_CumProdOp : Onnx_DataMovementOp<"cum_prod"> {
  let summary = "running product along a constant axis (exclusive, reverse)";
  let description = [{
    ONNX `CumProd` (opset 26): CumSum's attributes and axis, with products;
    the exclusive form starts from 1.

    ```mlir
    %y = onnx.cum_prod %x, %axis {exclusive = 1 : i64} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$axis,
                   DefaultValuedAttr<I64Attr, "0">:$exclusive,
                   DefaultValuedAttr<I64Attr, "0">:$reverse);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $axis attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferCumSumTypes(loc, adaptor.getInput(), adaptor.getAxis(),
                                        types, "CumProd");
  }];
}

def Onnx_ReverseSequenceOp : Onnx_DataMovementOp<"reverse_sequence"> {
  let summary = "reverse the first sequence_lens[b] steps of each batch entry";
  let description = [{
    ```mlir
    %y = onnx.reverse_sequence %x, %lens {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x4xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$sequence_lens,
                   DefaultValuedAttr<I64Attr, "1">:$batch_axis,
                   DefaultValuedAttr<I64Attr, "0">:$time_axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input `,` $sequence_lens attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferReverseSequenceTypes(
          loc, adaptor.getInput(), adaptor.getSequenceLens(),
          (int64_t)adaptor.getBatchAxis(), (int64_t)adaptor.getTimeAxis(), types);
  }];
}

def Onnx_TopKOp : Onnx_DataMovementOp<"top_k"> {
  let summary = "the k largest (or smallest) values along an axis and their indices";
  let description = [{
    `k` must be a constant. Equal values keep their index order; NaN ranks
    above every number (numpy's sort order).

    ```mlir
    %v, %i = onnx.top_k %x, %k {axis = -1 : i64, largest = 1 : i64, sorted = 1 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$k,
                   DefaultValuedAttr<I64Attr, "-1">:$axis,
                   DefaultValuedAttr<I64Attr, "1">:$largest,
                   DefaultValuedAttr<I64Attr, "1">:$sorted);
  let results = (outs AnyTensor:$values, AnyTensor:$indices);
  let assemblyFormat = "$input `,` $k attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferTopKTypes(loc, adaptor.getInput(), adaptor.getK(),
                                      (int64_t)adaptor.getAxis(), types);
  }];
}

def Onnx_OneHotOp : Onnx_DataMovementOp<"one_hot"> {
  let summary = "one-hot encoding with a constant depth";
  let description = [{
    `values` is [off, on]; the result has its element type and a new axis
    of size depth at `axis`. Indices outside [-depth, depth) give a row of
    off values.

    ```mlir
    %y = onnx.one_hot %idx, %depth, %values {axis = -1 : i64} : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<3x10xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$indices, AnyTensor:$depth, AnyTensor:$values,
                   DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$indices `,` $depth `,` $values attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferOneHotTypes(loc, adaptor.getIndices(), adaptor.getDepth(),
                                        adaptor.getValues(), (int64_t)adaptor.getAxis(),
                                        types);
  }];
}

//===----------------------------------------------------------------------===//
// Gathers and scatters with run-time indices
//===----------------------------------------------------------------------===//

def Onnx_GatherElementsOp : Onnx_DataMovementOp<"gather_elements"> {
  let summary = "out[i] = data[i with the axis coordinate replaced by indices[i]]";
  let description = [{
    ```mlir
    %y = onnx.gather_elements %data, %idx {axis = 1 : i64} : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$data, AnyTensor:$indices,
                   DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferGatherElementsTypes(loc, adaptor.getData(),
                                                adaptor.getIndices(),
                                                (int64_t)adaptor.getAxis(), types);
  }];
}

def Onnx_GatherNDOp : Onnx_DataMovementOp<"gather_nd"> {
  let summary = "gather slices addressed by index tuples (after batch_dims)";
  let description = [{
    ```mlir
    %y = onnx.gather_nd %data, %idx {batch_dims = 0 : i64} : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$data, AnyTensor:$indices,
                   DefaultValuedAttr<I64Attr, "0">:$batch_dims);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferGatherNDTypes(loc, adaptor.getData(), adaptor.getIndices(),
                                          (int64_t)adaptor.getBatchDims(), types);
  }];
}

def Onnx_ScatterElementsOp : Onnx_DataMovementOp<"scatter_elements"> {
  let summary = "data with updates written (or reduced) at the positions indices give";
  let description = [{
    ONNX `ScatterElements` (and the older `Scatter`); `reduction` is none,
    add, mul, max or min.

    ```mlir
    %y = onnx.scatter_elements %data, %idx, %upd {axis = 1 : i64, reduction = "none"} : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<1x5xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$data, AnyTensor:$indices, AnyTensor:$updates,
                   DefaultValuedAttr<I64Attr, "0">:$axis,
                   DefaultValuedAttr<StrAttr, "\"none\"">:$reduction);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferScatterElementsTypes(
          loc, adaptor.getData(), adaptor.getIndices(), adaptor.getUpdates(),
          (int64_t)adaptor.getAxis(), adaptor.getReduction(), types);
  }];
}

def Onnx_ScatterNDOp : Onnx_DataMovementOp<"scatter_nd"> {
  let summary = "data with update slices written (or reduced) at index tuples";
  let description = [{
    ```mlir
    %y = onnx.scatter_nd %data, %idx, %upd {reduction = "add"} : (tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>) -> tensor<8xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$data, AnyTensor:$indices, AnyTensor:$updates,
                   DefaultValuedAttr<StrAttr, "\"none\"">:$reduction);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferScatterNDTypes(loc, adaptor.getData(), adaptor.getIndices(),
                                           adaptor.getUpdates(), adaptor.getReduction(),
                                           types);
  }];
}

def Onnx_TensorScatterOp : Onnx_DataMovementOp<"tensor_scatter"> {
  let summary = "write a sequence update into a cache at per-batch positions";
  let description = [{
    ONNX `TensorScatter` (opset 24): the cache keeps its shape; `update`
    differs only along `axis` and is written from `write_indices[b]`
    (0 when absent) on, wrapping around in circular mode.

    ```mlir
    %y = onnx.tensor_scatter %cache, %upd, %pos {axis = -2 : i64, mode = "linear"} : (tensor<2x3x8x4xf32>, tensor<2x3x1x4xf32>, tensor<2xi64>) -> tensor<2x3x8x4xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$past_cache, AnyTensor:$update,
                   Optional<AnyTensor>:$write_indices,
                   DefaultValuedAttr<I64Attr, "-2">:$axis,
                   DefaultValuedAttr<StrAttr, "\"linear\"">:$mode);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$past_cache `,` $update (`,` $write_indices^)? attr-dict `:` functional-type(operands, results)";
  let inferTypes = [{
      return ::onnxcc::inferTensorScatterTypes(
          loc, adaptor.getPastCache(), adaptor.getUpdate(),
          adaptor.getWriteIndices(), (int64_t)adaptor.getAxis(),
          adaptor.getMode(), types);
  }];
}

#endif // ONNXCC_ONNX_DATA_MOVEMENT_OPS
