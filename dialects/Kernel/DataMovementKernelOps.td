//===- DataMovementKernelOps.td - copies, gathers, scatters -*- tablegen -*-===//
//
// The kernels of the data movement family. Most ONNX ops of the family are
// one `kernel.copy`, a strided copy over an index domain; the rest read
// run-time indices (gathers, scatters, ReverseSequence, OneHot) or keep a
// per-slice state (TopK, CumSum). Verifiers check that every read a copy
// can make is inside its input, so the kernels need no bounds tests.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXCC_KERNEL_DATA_MOVEMENT_OPS
#define ONNXCC_KERNEL_DATA_MOVEMENT_OPS

def Kernel_CopyOp : Kernel_Op<"copy", [Pure]> {
  let summary = "out (contiguous over `shape`) = in[offset + sum_d idx_d * strides_d]";
  let description = [{
    Transpose, Slice (negative steps too), Expand (stride 0), Tile,
    DepthToSpace, SpaceToDepth and each part of a Split. The lowering
    merges dimensions contiguous on both sides, so `shape` is as short as
    it can be; the output's element count is the product of `shape`. A copy
    of a copy folds into one read of the first input where that read is
    affine, and a copy that reads its input whole and in order folds away.

    ```mlir
    %y = kernel.copy %x {shape = array<i64: 3, 2>, strides = array<i64: 1, 3>, offset = 0 : i64} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, DenseI64ArrayAttr:$shape,
                   DenseI64ArrayAttr:$strides, I64Attr:$offset);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Kernel_PadOp : Kernel_Op<"pad", [Pure]> {
  let summary = "pad or crop: constant fill, reflect, edge or wrap";
  let description = [{
    `pads` is [begin_0.., end_0..] for every dimension; negative entries
    crop. `value` (one element, constant mode) defaults to zero. The
    reflect, edge and wrap modes repeat the input left after cropping.

    ```mlir
    %y = kernel.pad %x, %v {mode = "constant", pads = array<i64: 1, 0, 1, 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, Optional<StaticTensor>:$value,
                   DenseI64ArrayAttr:$pads, StrAttr:$mode);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input (`,` $value^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_FillOp : Kernel_Op<"fill", [Pure]> {
  let summary = "every element = the one element of `value` (ConstantOfShape)";
  let description = [{
    ```mlir
    %y = kernel.fill %v : (tensor<1xf32>) -> tensor<64x64xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$value);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$value attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_RangeOp : Kernel_Op<"range", [Pure]> {
  let summary = "out[i] = start + i * delta";
  let description = [{
    Integers wrap like the ONNX definition's loop; floats compute in
    double and round once.

    ```mlir
    %y = kernel.range %start, %delta : (tensor<f32>, tensor<f32>) -> tensor<2000xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$start, StaticTensor:$delta);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$start `,` $delta attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_EyeOp : Kernel_Op<"eye", [Pure]> {
  let summary = "a 2-D tensor with ones on diagonal k, zeros elsewhere";
  let description = [{
    ```mlir
    %y = kernel.eye {k = 1 : i64} : () -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins I64Attr:$k);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_TriluOp : Kernel_Op<"trilu", [Pure]> {
  let summary = "keep the upper or lower triangle (diagonal shifted by k) of each matrix";
  let description = [{
    `k` is an optional one-element integer tensor read at run time (0 when
    absent).

    ```mlir
    %y = kernel.trilu %x, %k {upper = true} : (tensor<4x5xf32>, tensor<i64>) -> tensor<4x5xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, Optional<StaticTensor>:$k,
                   BoolAttr:$upper);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input (`,` $k^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_CumSumOp : Kernel_Op<"cumsum", [Pure]> {
  let summary = "running sum (or product) along an axis";
  let description = [{
    The axis is the `axis` attribute when it was a constant, else the
    one-element `axis_input` read at run time (normalised, then clamped
    into [0, rank)). With `product` it is CumProd: a running product whose
    exclusive form starts from 1.

    ```mlir
    %y = kernel.cumsum %x {axis = 1 : i64, exclusive = false, reverse = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %z = kernel.cumsum %x axis %a {exclusive = false, reverse = false} : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
    %p = kernel.cumsum %x {axis = 0 : i64, exclusive = true, product, reverse = false} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, Optional<StaticTensor>:$axis_input,
                   OptionalAttr<I64Attr>:$axis, BoolAttr:$exclusive,
                   BoolAttr:$reverse, UnitAttr:$product);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input (`axis` $axis_input^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_ReverseSequenceOp : Kernel_Op<"reverse_sequence", [Pure]> {
  let summary = "reverse the first lens[b] time steps of each batch entry";
  let description = [{
    Lengths outside [0, T] are clamped to it.

    ```mlir
    %y = kernel.reverse_sequence %x, %lens {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x4xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$input, StaticTensor:$lens,
                   I64Attr:$batch_axis, I64Attr:$time_axis);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$input `,` $lens attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_TopKOp : Kernel_Op<"top_k", [Pure]> {
  let summary = "the k best values along an axis, best first, with their indices";
  let description = [{
    k is the results' extent along `axis`. Ties keep the lower index; NaN
    ranks above every number.

    ```mlir
    %v, %i = kernel.top_k %x {axis = 1 : i64, largest = true} : (tensor<3x4xf32>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
    ```
  }];
  let arguments = (ins StaticTensor:$input, I64Attr:$axis, BoolAttr:$largest);
  let results = (outs StaticTensor:$values, StaticTensor:$indices);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_OneHotOp : Kernel_Op<"one_hot", [Pure]> {
  let summary = "values[1] where the axis coordinate equals the index, else values[0]";
  let description = [{
    The depth is the result's extent along `axis`.

    ```mlir
    %y = kernel.one_hot %idx, %values {axis = 1 : i64} : (tensor<3xi64>, tensor<2xf32>) -> tensor<3x10xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$indices, StaticTensor:$values, I64Attr:$axis);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$indices `,` $values attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_GatherOp : Kernel_Op<"gather", [Pure]> {
  let summary = "slices of data along an axis at run-time indices";
  let description = [{
    Indices are read at run time; one outside [-n, n) is clamped to it.

    ```mlir
    %y = kernel.gather %table, %ids {axis = 0 : i64} : (tensor<1000x128xf32>, tensor<1x32xi64>) -> tensor<1x32x128xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$data, StaticTensor:$indices, I64Attr:$axis);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_GatherElementsOp : Kernel_Op<"gather_elements", [Pure]> {
  let summary = "out[i] = data[i with its axis coordinate from indices[i]]";
  let description = [{
    ```mlir
    %y = kernel.gather_elements %data, %idx {axis = 1 : i64} : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$data, StaticTensor:$indices, I64Attr:$axis);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_GatherNDOp : Kernel_Op<"gather_nd", [Pure]> {
  let summary = "slices of data at index tuples, per batch";
  let description = [{
    ```mlir
    %y = kernel.gather_nd %data, %idx {batch_dims = 0 : i64} : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$data, StaticTensor:$indices, I64Attr:$batch_dims);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_ScatterElementsOp : Kernel_Op<"scatter_elements", [Pure]> {
  let summary = "a copy of data with updates stored or reduced at element indices";
  let description = [{
    `reduction` is none, add, mul, max or min; updates apply in order.

    ```mlir
    %y = kernel.scatter_elements %data, %idx, %upd {axis = 1 : i64, reduction = "none"} : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<1x5xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$data, StaticTensor:$indices,
                   StaticTensor:$updates, I64Attr:$axis, StrAttr:$reduction);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_ScatterNDOp : Kernel_Op<"scatter_nd", [Pure]> {
  let summary = "a copy of data with update slices stored or reduced at index tuples";
  let description = [{
    ```mlir
    %y = kernel.scatter_nd %data, %idx, %upd {reduction = "add"} : (tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>) -> tensor<8xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$data, StaticTensor:$indices,
                   StaticTensor:$updates, StrAttr:$reduction);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_TensorScatterOp : Kernel_Op<"tensor_scatter", [Pure]> {
  let summary = "a copy of the cache with the update written at per-batch positions";
  let description = [{
    Positions come from the optional one-per-batch `indices` (0 when
    absent); circular mode wraps them, linear mode clamps a position past
    the cache to its end.

    ```mlir
    %y = kernel.tensor_scatter %cache, %upd, %pos {axis = 2 : i64, circular = false} : (tensor<2x3x8x4xf32>, tensor<2x3x1x4xf32>, tensor<2xi64>) -> tensor<2x3x8x4xf32>
    ```
  }];
  let arguments = (ins StaticTensor:$cache, StaticTensor:$update,
                   Optional<StaticTensor>:$indices, I64Attr:$axis,
                   BoolAttr:$circular);
  let results = (outs StaticTensor:$output);
  let assemblyFormat = "$cache `,` $update (`,` $indices^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // ONNXCC_KERNEL_DATA_MOVEMENT_OPS
