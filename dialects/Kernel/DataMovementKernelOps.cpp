//===- DataMovementKernelOps.cpp - verifiers of the data movement kernels -===//
//
// The runtime kernels do no bounds tests on the reads whose addresses are
// known at compile time; these verifiers are where that is made safe: a
// copy's every read lies inside its input, shapes agree, and an axis that
// run-time indices are clamped into is not empty.
//
//===----------------------------------------------------------------------===//
#include "dialects/Kernel/KernelOps.h"

using namespace mlir;
using namespace onnxcc::kernel;

namespace {

ArrayRef<int64_t> shapeOf(Value v) { return cast<ShapedType>(v.getType()).getShape(); }
Type elementOf(Value v) { return cast<ShapedType>(v.getType()).getElementType(); }
int64_t countOf(Value v) { return cast<ShapedType>(v.getType()).getNumElements(); }

LogicalResult sameElements(Operation *op, Value a, Value b, StringRef what) {
  if (elementOf(a) != elementOf(b))
    return op->emitOpError() << what << " element type " << elementOf(b)
                             << " differs from " << elementOf(a);
  return success();
}

LogicalResult checkAxis(Operation *op, int64_t axis, int64_t rank) {
  if (axis < 0 || axis >= rank)
    return op->emitOpError() << "axis " << axis << " is outside [0, " << rank << ")";
  return success();
}

bool isIndexType(Type t) { return isa<IntegerType>(t) && !t.isInteger(1); }

LogicalResult checkIndices(Operation *op, Value indices) {
  if (!isIndexType(elementOf(indices)))
    return op->emitOpError() << "indices must be integers, got " << elementOf(indices);
  return success();
}

LogicalResult checkReduction(Operation *op, StringRef r) {
  if (r != "none" && r != "add" && r != "mul" && r != "max" && r != "min")
    return op->emitOpError() << "unknown reduction '" << r << "'";
  return success();
}

} // namespace

LogicalResult CopyOp::verify() {
  ArrayRef<int64_t> shape = getShape(), strides = getStrides();
  if (shape.empty() || shape.size() != strides.size())
    return emitOpError() << "needs one stride per dimension of a non-empty shape, "
                         << "got " << shape.size() << " and " << strides.size();
  if (failed(sameElements(*this, getInput(), getOutput(), "result")))
    return failure();
  for (int64_t extent : shape)
    if (extent < 0)
      return emitOpError() << "negative extent " << extent;
  int64_t outCount = countOf(getOutput());
  if (llvm::is_contained(shape, 0)) {
    if (outCount != 0)
      return emitOpError() << "copies no elements into a " << outCount
                           << "-element result";
    return success();
  }
  // In 128 bits: the extents and strides come from the IR. Every extent is
  // >= 1 here, so the running product only grows.
  __int128 count = 1, lo = getOffset(), hi = getOffset();
  for (auto [extent, stride] : llvm::zip(shape, strides)) {
    count *= extent;
    if (count > outCount)
      return emitOpError() << "copies more elements than its " << outCount
                           << "-element result holds";
    __int128 reach = (__int128)(extent - 1) * stride;
    (reach < 0 ? lo : hi) += reach;
  }
  if (count != outCount)
    return emitOpError() << "copies fewer elements than its " << outCount
                         << "-element result holds";
  if (lo < 0 || hi >= countOf(getInput()))
    return emitOpError() << "reads outside its " << countOf(getInput())
                         << "-element input";
  return success();
}

/// Digits of `v` in the mixed radix `shape` (row-major), or nothing when v
/// lies outside [0, product of shape).
static std::optional<SmallVector<int64_t>> digitsOf(int64_t v,
                                                    ArrayRef<int64_t> shape) {
  if (v < 0)
    return std::nullopt;
  SmallVector<int64_t> digits(shape.size());
  for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
    digits[d] = v % shape[d];
    v /= shape[d];
  }
  if (v != 0)
    return std::nullopt;
  return digits;
}

/// A copy of a copy reads its elements straight from the first one's input
/// (attention's Slice then head Transpose: one pass over the data instead
/// of two). The inner copy's result is contiguous over its `shape`, so the
/// outer copy's read position g = offset + sum j_e * strides_e has digits
/// in that mixed radix. When no digit can overflow its radix for any j in
/// range (all terms non-negative, each digit's largest sum below its
/// radix), g's digits are the sums of the terms' digits, and the composed
/// read is affine (views between the two change no position): offset and
/// strides map through the inner copy's. A copy that reads its input's
/// elements in order, whole, is its input.
OpFoldResult CopyOp::fold(FoldAdaptor) {
  auto outType = cast<ShapedType>(getType());
  auto isIdentity = [&] {
    if (getInput().getType() != outType || getOffset() != 0)
      return false;
    int64_t expected = 1;
    for (int64_t d = (int64_t)getShape().size() - 1; d >= 0; --d) {
      if (getShape()[d] != 1 && getStrides()[d] != expected)
        return false;
      expected *= getShape()[d];
    }
    return true;
  };
  if (outType.getNumElements() > 0 && isIdentity())
    return getInput();

  // A view keeps the elements' order: look through views that keep their
  // type (not a BitCast's).
  Value source = getInput();
  while (auto view = source.getDefiningOp<ViewOp>()) {
    if (elementOf(view.getInput()) != elementOf(source))
      break;
    source = view.getInput();
  }
  auto inner = source.getDefiningOp<CopyOp>();
  if (!inner || llvm::is_contained(inner.getShape(), 0) ||
      outType.getNumElements() == 0)
    return {};
  ArrayRef<int64_t> radix = inner.getShape(), innerStrides = inner.getStrides();
  auto offsetDigits = digitsOf(getOffset(), radix);
  if (!offsetDigits)
    return {};
  // Each digit's largest sum, in 128 bits (extents come from the model).
  SmallVector<__int128> reach(offsetDigits->begin(), offsetDigits->end());
  SmallVector<int64_t> strides;
  for (auto [extent, stride] : llvm::zip(getShape(), getStrides())) {
    if (extent == 1) { // the index is always 0: any stride reads the same
      strides.push_back(0);
      continue;
    }
    auto digits = digitsOf(stride, radix);
    if (!digits)
      return {};
    int64_t composed = 0;
    for (size_t d = 0; d < radix.size(); ++d) {
      reach[d] += (__int128)(extent - 1) * (*digits)[d];
      if (reach[d] >= radix[d])
        return {}; // a carry: the composed read is not affine
      composed += (*digits)[d] * innerStrides[d];
    }
    strides.push_back(composed);
  }
  int64_t offset = inner.getOffset();
  for (size_t d = 0; d < radix.size(); ++d)
    offset += (*offsetDigits)[d] * innerStrides[d];
  getInputMutable().assign(inner.getInput());
  setStrides(strides);
  setOffset(offset);
  return getResult();
}

LogicalResult PadOp::verify() {
  auto in = shapeOf(getInput()), out = shapeOf(getOutput());
  ArrayRef<int64_t> pads = getPads();
  int64_t rank = in.size();
  if ((int64_t)out.size() != rank || (int64_t)pads.size() != 2 * rank)
    return emitOpError() << "needs a result of the input's rank and 2 pads per "
                         << "dimension";
  StringRef mode = getMode();
  if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
    return emitOpError() << "unknown mode '" << mode << "'";
  if (failed(sameElements(*this, getInput(), getOutput(), "result")))
    return failure();
  if (getValue() && (countOf(getValue()) != 1 ||
                     failed(sameElements(*this, getInput(), getValue(), "value"))))
    return emitOpError() << "value must be one element of the input's type";
  for (int64_t d = 0; d < rank; ++d) {
    int64_t begin = pads[d], end = pads[rank + d];
    if ((__int128)in[d] + begin + end != out[d])
      return emitOpError() << "dimension " << d << ": " << in[d] << " padded by "
                           << begin << " and " << end << " is not " << out[d];
    int64_t kept = in[d] + std::min<int64_t>(begin, 0) + std::min<int64_t>(end, 0);
    if (mode != "constant" && out[d] > 0 && kept <= 0)
      return emitOpError() << "mode " << mode << " has nothing to repeat along "
                           << "dimension " << d;
  }
  return success();
}

LogicalResult FillOp::verify() {
  if (countOf(getValue()) != 1)
    return emitOpError() << "value must have one element";
  return sameElements(*this, getValue(), getOutput(), "result");
}

LogicalResult RangeOp::verify() {
  if (countOf(getStart()) != 1 || countOf(getDelta()) != 1 ||
      shapeOf(getOutput()).size() != 1)
    return emitOpError() << "needs scalar start and delta and a 1-D result";
  if (failed(sameElements(*this, getStart(), getDelta(), "delta")))
    return failure();
  return sameElements(*this, getStart(), getOutput(), "result");
}

LogicalResult EyeOp::verify() {
  if (shapeOf(getOutput()).size() != 2)
    return emitOpError() << "needs a 2-D result";
  return success();
}

LogicalResult TriluOp::verify() {
  if (shapeOf(getInput()).size() < 2)
    return emitOpError() << "needs rank >= 2";
  if (getK() && (countOf(getK()) != 1 || !isIndexType(elementOf(getK()))))
    return emitOpError() << "k must be one integer";
  if (getInput().getType() != getOutput().getType())
    return emitOpError() << "result type differs from the input's";
  return success();
}

LogicalResult CumSumOp::verify() {
  if (getInput().getType() != getOutput().getType())
    return emitOpError() << "result type differs from the input's";
  if (getAxis().has_value() == (getAxisInput() != nullptr))
    return emitOpError() << "needs either an axis attribute or an axis input";
  if (getAxisInput())
    return countOf(getAxisInput()) == 1 && isIndexType(elementOf(getAxisInput()))
               ? success()
               : emitOpError() << "axis input must be one integer";
  return checkAxis(*this, *getAxis(), shapeOf(getInput()).size());
}

LogicalResult ReverseSequenceOp::verify() {
  auto in = shapeOf(getInput());
  int64_t b = getBatchAxis(), t = getTimeAxis();
  if (in.size() < 2 || b < 0 || b > 1 || t < 0 || t > 1 || b == t)
    return emitOpError() << "needs rank >= 2 and batch/time axes 0 and 1";
  if (shapeOf(getLens()).size() != 1 || shapeOf(getLens())[0] != in[b] ||
      !isIndexType(elementOf(getLens())))
    return emitOpError() << "lens must be one integer per batch entry";
  if (getInput().getType() != getOutput().getType())
    return emitOpError() << "result type differs from the input's";
  return success();
}

LogicalResult TopKOp::verify() {
  auto in = shapeOf(getInput()), v = shapeOf(getValues());
  int64_t axis = getAxis();
  if (failed(checkAxis(*this, axis, in.size())))
    return failure();
  if (v.size() != in.size() || shapeOf(getIndices()) != v ||
      !elementOf(getIndices()).isInteger(64))
    return emitOpError() << "needs values and i64 indices of one shape";
  for (size_t d = 0; d < in.size(); ++d)
    if ((int64_t)d != axis ? v[d] != in[d] : v[d] > in[d])
      return emitOpError() << "result dimension " << d << " (" << v[d]
                           << ") does not fit the input";
  return sameElements(*this, getInput(), getValues(), "values");
}

LogicalResult OneHotOp::verify() {
  auto idx = shapeOf(getIndices()), out = shapeOf(getOutput());
  int64_t axis = getAxis();
  if (out.size() != idx.size() + 1 || failed(checkAxis(*this, axis, out.size())))
    return emitOpError() << "needs a result of rank indices + 1";
  for (size_t d = 0, i = 0; d < out.size(); ++d)
    if ((int64_t)d != axis && out[d] != idx[i++])
      return emitOpError() << "result shape does not extend the indices' shape";
  if (countOf(getValues()) != 2)
    return emitOpError() << "values must be [off, on]";
  return sameElements(*this, getValues(), getOutput(), "result");
}

LogicalResult GatherOp::verify() {
  auto d = shapeOf(getData()), i = shapeOf(getIndices()), out = shapeOf(getOutput());
  int64_t axis = getAxis();
  if (failed(checkAxis(*this, axis, d.size())) ||
      failed(checkIndices(*this, getIndices())))
    return failure();
  SmallVector<int64_t> want(d.begin(), d.begin() + axis);
  want.append(i.begin(), i.end());
  want.append(d.begin() + axis + 1, d.end());
  if (ArrayRef<int64_t>(want) != out)
    return emitOpError() << "result shape does not match data and indices";
  // Indices are clamped into the axis: it must have an element.
  if (countOf(getOutput()) > 0 && d[axis] == 0)
    return emitOpError() << "gathers from an empty axis";
  return sameElements(*this, getData(), getOutput(), "result");
}

LogicalResult GatherElementsOp::verify() {
  auto d = shapeOf(getData()), i = shapeOf(getIndices());
  int64_t axis = getAxis();
  if (failed(checkAxis(*this, axis, d.size())) ||
      failed(checkIndices(*this, getIndices())))
    return failure();
  if (i.size() != d.size() || shapeOf(getOutput()) != i)
    return emitOpError() << "needs indices and result of one shape and data's rank";
  for (size_t k = 0; k < d.size(); ++k)
    if ((int64_t)k != axis && i[k] > d[k])
      return emitOpError() << "indices exceed data along dimension " << k;
  if (countOf(getOutput()) > 0 && d[axis] == 0)
    return emitOpError() << "gathers from an empty axis";
  return sameElements(*this, getData(), getOutput(), "result");
}

LogicalResult GatherNDOp::verify() {
  auto d = shapeOf(getData()), i = shapeOf(getIndices());
  int64_t b = getBatchDims();
  if (failed(checkIndices(*this, getIndices())))
    return failure();
  if (d.empty() || i.empty() || b < 0 || b >= (int64_t)std::min(d.size(), i.size()))
    return emitOpError() << "batch_dims " << b << " must be below both ranks";
  int64_t m = i.back();
  if (m < 1 || m > (int64_t)d.size() - b)
    return emitOpError() << "index tuples of length " << m << " do not fit data";
  SmallVector<int64_t> want(i.begin(), i.end() - 1);
  want.append(d.begin() + b + m, d.end());
  if (ArrayRef<int64_t>(want) != shapeOf(getOutput()) ||
      d.take_front(b) != i.take_front(b))
    return emitOpError() << "result shape does not match data and indices";
  if (countOf(getIndices()) > 0)
    for (int64_t k = b; k < b + m; ++k)
      if (d[k] == 0)
        return emitOpError() << "gathers from empty dimension " << k;
  return sameElements(*this, getData(), getOutput(), "result");
}

LogicalResult ScatterElementsOp::verify() {
  auto d = shapeOf(getData()), i = shapeOf(getIndices());
  int64_t axis = getAxis();
  if (failed(checkAxis(*this, axis, d.size())) ||
      failed(checkIndices(*this, getIndices())) ||
      failed(checkReduction(*this, getReduction())))
    return failure();
  if (i.size() != d.size() || shapeOf(getUpdates()) != i ||
      getData().getType() != getOutput().getType())
    return emitOpError() << "needs indices and updates of one shape, data's rank";
  for (size_t k = 0; k < d.size(); ++k)
    if ((int64_t)k != axis && i[k] > d[k])
      return emitOpError() << "indices exceed data along dimension " << k;
  if (countOf(getIndices()) > 0 && d[axis] == 0)
    return emitOpError() << "scatters into an empty axis";
  return sameElements(*this, getData(), getUpdates(), "updates");
}

LogicalResult TensorScatterOp::verify() {
  auto c = shapeOf(getCache()), u = shapeOf(getUpdate());
  int64_t axis = getAxis();
  if (c.size() != u.size() || c.size() < 2 || axis < 1 || axis >= (int64_t)c.size() ||
      getCache().getType() != getOutput().getType())
    return emitOpError() << "needs cache, update and result of one rank >= 2 "
                         << "and a non-batch axis";
  for (size_t d = 0; d < c.size(); ++d)
    if ((int64_t)d == axis ? u[d] > c[d] : u[d] != c[d])
      return emitOpError() << "update does not fit the cache along dimension " << d;
  if (getIndices() && (shapeOf(getIndices()) != c.take_front(1) ||
                       !isIndexType(elementOf(getIndices()))))
    return emitOpError() << "indices must be one integer per batch";
  if (countOf(getUpdate()) > 0 && c[axis] == 0)
    return emitOpError() << "writes into an empty axis";
  return sameElements(*this, getCache(), getUpdate(), "update");
}

LogicalResult ScatterNDOp::verify() {
  auto d = shapeOf(getData()), i = shapeOf(getIndices());
  if (failed(checkIndices(*this, getIndices())) ||
      failed(checkReduction(*this, getReduction())))
    return failure();
  if (d.empty() || i.empty() || getData().getType() != getOutput().getType())
    return emitOpError() << "needs data and indices of rank >= 1";
  int64_t m = i.back();
  if (m < 1 || m > (int64_t)d.size())
    return emitOpError() << "index tuples of length " << m << " do not fit data";
  SmallVector<int64_t> want(i.begin(), i.end() - 1);
  want.append(d.begin() + m, d.end());
  if (ArrayRef<int64_t>(want) != shapeOf(getUpdates()))
    return emitOpError() << "updates do not match data and indices";
  if (countOf(getIndices()) > 0)
    for (int64_t k = 0; k < m; ++k)
      if (d[k] == 0)
        return emitOpError() << "scatters into empty dimension " << k;
  return sameElements(*this, getData(), getUpdates(), "updates");
}
