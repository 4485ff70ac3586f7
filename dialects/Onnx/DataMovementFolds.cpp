//===- DataMovementFolds.cpp - folders of the data movement ops -----------===//
//
// Exporters build shapes with Slice, Expand, Range, ConstantOfShape and
// Size; these fold when their inputs are small constants, and Slice,
// Expand, Tile and Split fold to their input when they copy all of it.
// Elements are copied as bytes, so every element type keeps its exact
// values, through the same StridedCopy the kernels run.
//
//===----------------------------------------------------------------------===//
#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/DataMovementShapes.h"
#include "dialects/Onnx/OnnxOps.h"
#include "dialects/Onnx/TensorLimits.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace onnxcc;
using namespace onnxcc::onnx;

namespace {

/// Folders touch at most this many elements (as OnnxFolds.cpp's do).
constexpr int64_t kFoldLimit = 1024;

RankedTensorType staticType(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.hasStaticShape() ? t : RankedTensorType();
}

/// The static result type of `v` when it is small enough to fold into.
RankedTensorType smallStatic(Value v) {
  RankedTensorType t = staticType(v);
  return t && t.getNumElements() <= kFoldLimit ? t : RankedTensorType();
}

ElementsAttr smallConstant(Attribute a) {
  auto e = dyn_cast_or_null<ElementsAttr>(a);
  return e && e.getNumElements() <= kFoldLimit ? e : ElementsAttr();
}

/// A constant of `type` from one byte per bool or the little-endian bytes
/// of each element (packed i1 is not a byte per element: built by value).
OpFoldResult fromBytes(RankedTensorType type, ArrayRef<char> bytes) {
  if (type.getElementType().isInteger(1)) {
    SmallVector<bool> bits(bytes.begin(), bytes.end());
    if ((int64_t)bits.size() != type.getNumElements())
      return {};
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  int64_t width = elementBytes(type.getElementType());
  if (!width || (int64_t)bytes.size() != type.getNumElements() * width)
    return {};
  return DenseElementsAttr::getFromRawBuffer(type, bytes);
}

/// Runs `copy` on a constant at compile time.
OpFoldResult applyCopy(RankedTensorType type, ElementsAttr input,
                       const StridedCopy &copy) {
  std::vector<char> in;
  int64_t width = elementBytes(input.getElementType());
  if (!width || !appendRawBytes(input, in))
    return {};
  int64_t n = type.getNumElements(), count = 1;
  for (int64_t e : copy.shape)
    count *= e;
  if (count != n)
    return {};
  std::vector<char> out(n * width);
  SmallVector<int64_t> idx(copy.shape.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t src = copy.offset;
    for (size_t d = 0; d < idx.size(); ++d)
      src += idx[d] * copy.strides[d];
    if (src < 0 || (src + 1) * width > (int64_t)in.size())
      return {};
    std::memcpy(out.data() + i * width, in.data() + src * width, width);
    for (int64_t d = (int64_t)idx.size() - 1; d >= 0; --d) {
      if (++idx[d] < copy.shape[d])
        break;
      idx[d] = 0;
    }
  }
  return fromBytes(type, out);
}

std::optional<ArrayRef<int64_t>> optRef(const std::optional<std::vector<int64_t>> &v) {
  if (!v)
    return std::nullopt;
  return ArrayRef<int64_t>(*v);
}

} // namespace

OpFoldResult SliceOp::fold(FoldAdaptor a) {
  RankedTensorType type = staticType(getResult()), in = staticType(getData());
  if (!type || !in)
    return {};
  auto starts = constInts(getStarts()), ends = constInts(getEnds());
  std::optional<std::vector<int64_t>> axes, steps;
  if (getAxes() && !(axes = constInts(getAxes())))
    return {};
  if (getSteps() && !(steps = constInts(getSteps())))
    return {};
  if (!starts || !ends)
    return {};
  auto bounds = resolveSlice(std::nullopt, in.getShape(), *starts, *ends,
                             optRef(axes), optRef(steps));
  if (failed(bounds))
    return {};
  // The whole input in order: no copy at all.
  if (type == in && llvm::all_of(bounds->steps, [](int64_t s) { return s == 1; }))
    return getData();
  ElementsAttr data = smallConstant(a.getData());
  if (!data || type.getNumElements() > kFoldLimit)
    return {};
  return applyCopy(type, data, sliceCopy(in.getShape(), *bounds));
}

OpFoldResult ExpandOp::fold(FoldAdaptor a) {
  RankedTensorType type = staticType(getResult()), in = staticType(getInput());
  if (!type || !in)
    return {};
  if (type == in)
    return getInput();
  ElementsAttr data = smallConstant(a.getInput());
  if (!data || !smallStatic(getResult()))
    return {};
  return applyCopy(type, data, expandCopy(in.getShape(), type.getShape()));
}

OpFoldResult TileOp::fold(FoldAdaptor a) {
  RankedTensorType type = staticType(getResult()), in = staticType(getInput());
  auto repeats = constInts(getRepeats());
  if (!type || !in || !repeats || repeats->size() != (size_t)in.getRank())
    return {};
  if (type == in)
    return getInput();
  ElementsAttr data = smallConstant(a.getInput());
  if (!data || !smallStatic(getResult()))
    return {};
  return applyCopy(type, data, tileCopy(in.getShape(), *repeats));
}

LogicalResult SplitOp::fold(FoldAdaptor a, SmallVectorImpl<OpFoldResult> &results) {
  RankedTensorType in = staticType(getInput());
  if (!in)
    return failure();
  if (getNumResults() == 1 && getResult(0).getType() == in) {
    results.push_back(getInput());
    return success();
  }
  ElementsAttr data = smallConstant(a.getInput());
  if (!data)
    return failure();
  int64_t axis = (int64_t)getAxis();
  if (axis < 0)
    axis += in.getRank();
  if (axis < 0 || axis >= in.getRank())
    return failure();
  int64_t begin = 0;
  for (Value r : getResults()) {
    RankedTensorType t = staticType(r);
    if (!t)
      return failure();
    int64_t size = t.getDimSize(axis);
    OpFoldResult part =
        applyCopy(t, data, axisRangeCopy(in.getShape(), axis, begin, size));
    if (!part)
      return failure();
    results.push_back(part);
    begin += size;
  }
  return success();
}

OpFoldResult ConstantOfShapeOp::fold(FoldAdaptor) {
  RankedTensorType type = smallStatic(getResult());
  if (!type)
    return {};
  std::vector<char> one;
  if (!appendRawBytes(getValue(), one) || one.empty())
    return {};
  size_t width = one.size();
  std::vector<char> bytes;
  bytes.reserve(type.getNumElements() * width);
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    bytes.insert(bytes.end(), one.begin(), one.begin() + width);
  return fromBytes(type, bytes);
}

OpFoldResult RangeOp::fold(FoldAdaptor a) {
  RankedTensorType type = smallStatic(getResult());
  ElementsAttr start = smallConstant(a.getStart()), delta = smallConstant(a.getDelta());
  if (!type || !start || !delta || start.getNumElements() != 1 ||
      delta.getNumElements() != 1)
    return {};
  int64_t n = type.getNumElements();
  if (isa<IntegerType>(type.getElementType())) {
    std::vector<int64_t> s, d, out;
    if (!readAsInt64s(start, s) || !readAsInt64s(delta, d))
      return {};
    // In uint64_t, where wrapping is defined: each element lies between
    // start and limit, so the wrapped sum is the exact value.
    for (int64_t i = 0; i < n; ++i)
      out.push_back(int64_t(uint64_t(s[0]) + uint64_t(i) * uint64_t(d[0])));
    return makeElements(type, ArrayRef<int64_t>(out));
  }
  std::vector<double> s, d, out;
  if (!readAsDoubles(start, s) || !readAsDoubles(delta, d))
    return {};
  for (int64_t i = 0; i < n; ++i)
    out.push_back(s[0] + double(i) * d[0]);
  return makeElements(type, ArrayRef<double>(out));
}

OpFoldResult SizeOp::fold(FoldAdaptor) {
  RankedTensorType in = staticType(getInput()), type = staticType(getResult());
  if (!in || !type)
    return {};
  return makeElements(type, ArrayRef<int64_t>{in.getNumElements()});
}
