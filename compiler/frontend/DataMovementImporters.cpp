//===- DataMovementImporters.cpp - builders of data movement ops ---------===//
//
// One builder per operator. Older opsets are adapted to the dialect's form
// (Slice-1's, Pad-2's and TopK-1's attributes become constant operands,
// Split's sizes an operand, Scatter is ScatterElements). Compress with a
// constant condition is a Gather of the kept positions. Operators whose
// output shape depends on the data (NonZero, Unique, Compress on a run-time
// condition, sequences, optionals, strings) are refused here, each with one
// line that says so.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

#include "compiler/frontend/TensorImport.h"
#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/DataMovementShapes.h"
#include "dialects/Onnx/OnnxOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

namespace {

IntegerAttr i64(NodeContext &n, StringRef name, int64_t dflt) {
  return n.builder.getI64IntegerAttr(n.getInt(name, dflt));
}

/// A rank-0 constant of `element` holding `v` (rounded to nearest for
/// floats, truncated toward zero for integers).
Value scalarConstant(NodeContext &n, Type element, double v) {
  auto type = RankedTensorType::get({}, element);
  Attribute value;
  if (auto ft = dyn_cast<FloatType>(element)) {
    APFloat f(v);
    bool lost;
    f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    value = DenseElementsAttr::get(type, f);
  } else if (element.isInteger(1)) {
    value = DenseElementsAttr::get(type, v != 0);
  } else {
    value = makeElements(type, ArrayRef<double>{v});
  }
  return o::ConstantOp::create(n.builder, n.loc, type, cast<ElementsAttr>(value));
}

LogicalResult importSlice(NodeContext &n) {
  if (n.opset < 10) { // starts, ends and axes were attributes
    if (failed(n.arity(1, 1)))
      return failure();
    if (!n.has("starts") || !n.has("ends"))
      return n.error("Slice-1 needs the starts and ends attributes");
    Value starts = n.i64Constant(n.getInts("starts"));
    Value ends = n.i64Constant(n.getInts("ends"));
    Value axes = n.has("axes") ? n.i64Constant(n.getInts("axes")) : Value();
    n.results.push_back(o::SliceOp::create(n.builder, n.loc,
                                           n.unrankedLike(n.operand(0)),
                                           n.operand(0), starts, ends, axes,
                                           Value()));
    return success();
  }
  if (failed(n.arity(3, 5)))
    return failure();
  n.results.push_back(o::SliceOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      n.operand(1), n.operand(2), n.operand(3), n.operand(4)));
  return success();
}

LogicalResult importExpand(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  n.results.push_back(o::ExpandOp::create(n.builder, n.loc,
                                          n.unrankedLike(n.operand(0)),
                                          n.operand(0), n.operand(1)));
  return success();
}

LogicalResult importTile(NodeContext &n) {
  if (n.opset < 6)
    return n.error("Tile-1 (tiles and axis inputs) is not supported in opset " +
                   Twine(n.opset));
  if (failed(n.arity(2, 2)))
    return failure();
  n.results.push_back(o::TileOp::create(n.builder, n.loc,
                                        n.unrankedLike(n.operand(0)),
                                        n.operand(0), n.operand(1)));
  return success();
}

LogicalResult importSplit(NodeContext &n) {
  int64_t outputs = n.node.output_size();
  Value split = n.operand(1);
  if (n.opset < 13) { // sizes were the `split` attribute
    if (failed(n.arity(1, 2)))
      return failure();
    if (n.has("split"))
      split = n.i64Constant(n.getInts("split"));
  } else if (failed(n.arity(1, 2))) {
    return failure();
  }
  if (n.has("num_outputs")) {
    int64_t declared = n.getInt("num_outputs", 0);
    if (declared != outputs)
      return n.error("num_outputs " + Twine(declared) + " differs from the " +
                     Twine(outputs) + " outputs of the node");
    if (split)
      return n.error("Split takes either num_outputs or split, not both");
  }
  SmallVector<Type> types(outputs, n.unrankedLike(n.operand(0)));
  auto op = o::SplitOp::create(n.builder, n.loc, types, n.operand(0), split,
                               n.getInt("axis", 0), outputs);
  n.results.append(op.getResults().begin(), op.getResults().end());
  return success();
}

LogicalResult importPad(NodeContext &n) {
  std::string mode = n.getString("mode", "constant");
  Value data = n.operand(0), pads = n.operand(1), value = n.operand(2),
        axes = n.operand(3);
  if (n.opset < 11) { // pads ("paddings" in Pad-1) and value were attributes
    if (failed(n.arity(1, 1)))
      return failure();
    const char *name = n.opset < 2 ? "paddings" : "pads";
    if (!n.has(name))
      return n.error("Pad-" + Twine(n.opset < 2 ? 1 : 2) + " needs the " +
                     name + " attribute");
    pads = n.i64Constant(n.getInts(name));
    value = scalarConstant(n, getElementTypeOrSelf(data.getType()),
                           n.getFloat("value", 0.0f));
  } else if (failed(n.arity(2, n.opset < 18 ? 3 : 4))) {
    return failure();
  }
  n.results.push_back(o::PadOp::create(n.builder, n.loc, n.unrankedLike(data),
                                       data, pads, value, axes,
                                       n.builder.getStringAttr(mode)));
  return success();
}

LogicalResult importCenterCropPad(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  DenseI64ArrayAttr axes; // an empty list means every axis, as no axes does
  if (SmallVector<int64_t> a = n.getInts("axes"); !a.empty())
    axes = n.builder.getDenseI64ArrayAttr(a);
  n.results.push_back(o::CenterCropPadOp::create(n.builder, n.loc,
                                                 n.unrankedLike(n.operand(0)),
                                                 n.operand(0), n.operand(1), axes));
  return success();
}

LogicalResult importTensorScatter(NodeContext &n) {
  if (failed(n.arity(2, 3)))
    return failure();
  n.results.push_back(o::TensorScatterOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0), n.operand(1),
      n.operand(2), i64(n, "axis", -2),
      n.builder.getStringAttr(n.getString("mode", "linear"))));
  return success();
}

LogicalResult importConstantOfShape(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  ElementsAttr value;
  if (const auto *a = n.typedAttr("value", ::onnx::AttributeProto::TENSOR)) {
    std::string err;
    value = importTensor(n.builder.getContext(), a->t(), n.external, err);
    if (!value)
      return n.error(err);
  } else {
    auto type = RankedTensorType::get({1}, n.builder.getF32Type());
    value = DenseElementsAttr::get(type, 0.0f);
  }
  n.results.push_back(o::ConstantOfShapeOp::create(
      n.builder, n.loc, n.unranked(value.getElementType()), n.operand(0), value));
  return success();
}

LogicalResult importRange(NodeContext &n) {
  if (failed(n.arity(3, 3)))
    return failure();
  // Range-27's stash_type picks float or double for the 16-bit floats'
  // arithmetic; the kernel computes every float type in double, which is
  // at least as exact as either.
  int64_t stash = n.getInt("stash_type", 1);
  if (stash != 1 && stash != 11)
    return n.error("stash_type must be FLOAT (1) or DOUBLE (11), got " + Twine(stash));
  n.results.push_back(o::RangeOp::create(n.builder, n.loc,
                                         n.unrankedLike(n.operand(0)),
                                         n.operand(0), n.operand(1), n.operand(2)));
  return success();
}

LogicalResult importSize(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  n.results.push_back(o::SizeOp::create(n.builder, n.loc,
                                        n.unranked(n.builder.getI64Type()),
                                        n.operand(0)));
  return success();
}

LogicalResult importEyeLike(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  Type et = getElementTypeOrSelf(n.operand(0).getType());
  if (n.has("dtype")) {
    int64_t dtype = n.getInt("dtype", 0);
    et = elementTypeFor(n.builder.getContext(), dtype);
    if (!et)
      return n.error("EyeLike cannot make elements of type " + onnxTypeName(dtype));
  }
  n.results.push_back(o::EyeLikeOp::create(n.builder, n.loc, n.unranked(et),
                                           n.operand(0), TypeAttr::get(et),
                                           i64(n, "k", 0)));
  return success();
}

LogicalResult importTrilu(NodeContext &n) {
  if (failed(n.arity(1, 2)))
    return failure();
  n.results.push_back(o::TriluOp::create(n.builder, n.loc,
                                         n.unrankedLike(n.operand(0)),
                                         n.operand(0), n.operand(1),
                                         i64(n, "upper", 1)));
  return success();
}

LogicalResult importCumSum(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  n.results.push_back(o::CumSumOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0), n.operand(1),
      i64(n, "exclusive", 0), i64(n, "reverse", 0)));
  return success();
}

LogicalResult importCumProd(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  n.results.push_back(o::CumProdOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0), n.operand(1),
      i64(n, "exclusive", 0), i64(n, "reverse", 0)));
  return success();
}

LogicalResult importDepthToSpace(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  if (!n.has("blocksize"))
    return n.error("missing required attribute 'blocksize'");
  n.results.push_back(o::DepthToSpaceOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      i64(n, "blocksize", 1), n.builder.getStringAttr(n.getString("mode", "DCR"))));
  return success();
}

LogicalResult importSpaceToDepth(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  if (!n.has("blocksize"))
    return n.error("missing required attribute 'blocksize'");
  n.results.push_back(o::SpaceToDepthOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      i64(n, "blocksize", 1), n.builder.getStringAttr(n.getString("mode", "DCR"))));
  return success();
}

LogicalResult importReverseSequence(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  n.results.push_back(o::ReverseSequenceOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0), n.operand(1),
      i64(n, "batch_axis", 1), i64(n, "time_axis", 0)));
  return success();
}

LogicalResult importTopK(NodeContext &n) {
  Value k = n.operand(1);
  if (n.opset < 10) { // k was an attribute
    if (failed(n.arity(1, 1)))
      return failure();
    if (!n.has("k"))
      return n.error("TopK-1 needs the k attribute");
    k = n.i64Constant({n.getInt("k", 0)});
  } else if (failed(n.arity(2, 2))) {
    return failure();
  }
  Type et = getElementTypeOrSelf(n.operand(0).getType());
  auto op = o::TopKOp::create(
      n.builder, n.loc,
      TypeRange{n.unranked(et), n.unranked(n.builder.getI64Type())}, n.operand(0),
      k, i64(n, "axis", -1), i64(n, "largest", 1), i64(n, "sorted", 1));
  n.results.append({op.getValues(), op.getIndices()});
  return success();
}

LogicalResult importOneHot(NodeContext &n) {
  if (failed(n.arity(3, 3)))
    return failure();
  n.results.push_back(o::OneHotOp::create(n.builder, n.loc,
                                          n.unrankedLike(n.operand(2)),
                                          n.operand(0), n.operand(1),
                                          n.operand(2), i64(n, "axis", -1)));
  return success();
}

LogicalResult importGatherElements(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  n.results.push_back(o::GatherElementsOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0), n.operand(1),
      i64(n, "axis", 0)));
  return success();
}

LogicalResult importGatherND(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  n.results.push_back(o::GatherNDOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0), n.operand(1),
      i64(n, "batch_dims", 0)));
  return success();
}

/// ScatterElements, and Scatter (opsets 9 and 10) which is the same op
/// without a reduction.
LogicalResult importScatterElements(NodeContext &n) {
  if (failed(n.arity(3, 3)))
    return failure();
  n.results.push_back(o::ScatterElementsOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0), n.operand(1),
      n.operand(2), i64(n, "axis", 0),
      n.builder.getStringAttr(n.getString("reduction", "none"))));
  return success();
}

LogicalResult importScatterND(NodeContext &n) {
  if (failed(n.arity(3, 3)))
    return failure();
  n.results.push_back(o::ScatterNDOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0), n.operand(1),
      n.operand(2), n.builder.getStringAttr(n.getString("reduction", "none"))));
  return success();
}

/// Compress keeps as many slices as its condition has true entries: with a
/// constant condition that is a Gather of their positions (of the
/// flattened input when there is no axis); otherwise the output's shape
/// depends on the data.
LogicalResult importCompress(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  ElementsAttr condition = getConstantElements(n.operand(1));
  if (!condition)
    return n.error("data-dependent output shape: Compress keeps as many "
                   "elements as its condition has true entries, and the "
                   "condition is not a constant");
  std::optional<std::vector<int64_t>> kept = truePositions(condition);
  if (!kept)
    return n.error("cannot read Compress's constant condition");
  Value data = n.operand(0);
  int64_t axis = 0;
  if (n.has("axis")) {
    axis = n.getInt("axis", 0);
  } else {
    data = o::ReshapeOp::create(n.builder, n.loc, n.unrankedLike(data), data,
                                n.i64Constant({-1}), /*allowzero=*/0);
  }
  n.results.push_back(o::GatherOp::create(n.builder, n.loc, n.unrankedLike(data),
                                          data, n.i64Constant(*kept), axis));
  return success();
}

/// NonZero of a constant is a constant: [rank, count] coordinates.
LogicalResult importNonZero(NodeContext &n) {
  if (failed(n.arity(1, 1)))
    return failure();
  ElementsAttr x = getConstantElements(n.operand(0));
  auto type = x ? dyn_cast<RankedTensorType>(x.getType()) : RankedTensorType();
  std::optional<std::vector<int64_t>> nz = x ? truePositions(x) : std::nullopt;
  if (!type || !nz)
    return n.error("data-dependent output shape: NonZero returns as many "
                   "coordinates as its input has nonzero elements, and the "
                   "input is not a constant");
  int64_t rank = std::max<int64_t>(type.getRank(), 1), count = nz->size();
  Shape strides = rowMajorStrides(type.getShape());
  std::vector<int64_t> coords(rank * count, 0);
  for (int64_t i = 0; i < count; ++i)
    for (int64_t d = 0; d < type.getRank(); ++d)
      coords[d * count + i] = (*nz)[i] / strides[d] % type.getDimSize(d);
  auto out = RankedTensorType::get({rank, count}, n.builder.getI64Type());
  n.results.push_back(o::ConstantOp::create(
      n.builder, n.loc, out, DenseElementsAttr::get(out, ArrayRef<int64_t>(coords))));
  return success();
}

LogicalResult importUnique(NodeContext &n) {
  return n.error("data-dependent output shape: Unique returns as many "
                 "elements as its input has distinct values");
}

/// Sequences, optionals and strings: no static tensor shape describes them.
LogicalResult importSequence(NodeContext &n) {
  return n.error("data-dependent output shape: " + n.node.op_type() +
                 " works on sequences, whose length and element shapes are "
                 "run-time values (onnxcc compiles static tensors only)");
}
LogicalResult importOptional(NodeContext &n) {
  return n.error("data-dependent output shape: " + n.node.op_type() +
                 " works on optional values, present or not at run time "
                 "(onnxcc compiles static tensors only)");
}
LogicalResult importString(NodeContext &n) {
  return n.error("data-dependent output shape: " + n.node.op_type() +
                 " works on strings, whose sizes are run-time values "
                 "(onnxcc compiles static tensors of numbers only)");
}

} // namespace

void addDataMovementImporters(llvm::StringMap<OpImportFn> &t) {
  t["Slice"] = importSlice;
  t["Expand"] = importExpand;
  t["Tile"] = importTile;
  t["Split"] = importSplit;
  t["Pad"] = importPad;
  t["CenterCropPad"] = importCenterCropPad;
  t["TensorScatter"] = importTensorScatter;
  t["ConstantOfShape"] = importConstantOfShape;
  t["Range"] = importRange;
  t["Size"] = importSize;
  t["EyeLike"] = importEyeLike;
  t["Trilu"] = importTrilu;
  t["CumSum"] = importCumSum;
  t["CumProd"] = importCumProd;
  t["DepthToSpace"] = importDepthToSpace;
  t["SpaceToDepth"] = importSpaceToDepth;
  t["ReverseSequence"] = importReverseSequence;
  t["TopK"] = importTopK;
  t["OneHot"] = importOneHot;
  t["GatherElements"] = importGatherElements;
  t["GatherND"] = importGatherND;
  t["ScatterElements"] = importScatterElements;
  t["Scatter"] = importScatterElements;
  t["ScatterND"] = importScatterND;
  t["Compress"] = importCompress;

  // Output shapes that depend on the data.
  t["NonZero"] = importNonZero;
  t["Unique"] = importUnique;
  for (const char *op : {"SequenceConstruct", "SequenceEmpty", "SequenceAt",
                         "SequenceInsert", "SequenceErase", "SequenceLength",
                         "SplitToSequence", "ConcatFromSequence", "SequenceMap"})
    t[op] = importSequence;
  for (const char *op : {"Optional", "OptionalHasElement", "OptionalGetElement"})
    t[op] = importOptional;
  for (const char *op : {"StringConcat", "StringSplit", "StringNormalizer",
                         "RegexFullMatch"})
    t[op] = importString;
}

} // namespace onnxcc
