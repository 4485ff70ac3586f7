//===- OnnxFolds.cpp - ONNX graph dialect folders -------------------------===//
//
// Folders for the shape arithmetic exporters emit (Shape -> Gather ->
// Concat -> Reshape chains). They only fold small tensors: folding whole
// weight tensors is left to passes that can bound their cost.
//
//===----------------------------------------------------------------------===//
#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/ConstantEval.h"
#include "dialects/Onnx/OnnxOps.h"
#include "dialects/Onnx/TensorLimits.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace onnxcc;
using namespace onnxcc::onnx;

/// Folders touch at most this many elements; larger constants are weights.
static constexpr int64_t kFoldElementLimit = 1024;

/// The static result type of `op`, or null while it is still dynamic.
static RankedTensorType staticResult(Operation *op) {
  auto t = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return t && t.hasStaticShape() && t.getNumElements() <= kFoldElementLimit
             ? t
             : RankedTensorType();
}

/// A folded operand's value, only when it is a small constant.
static ElementsAttr smallConstant(Attribute a) {
  auto e = dyn_cast_or_null<ElementsAttr>(a);
  return e && e.getNumElements() <= kFoldElementLimit ? e : ElementsAttr();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult IdentityOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

/// Folds an elementwise binary op on small constants (ConstantEval.h).
static OpFoldResult foldBinary(Operation *op, BinaryKind kind, Attribute lhs,
                               Attribute rhs) {
  RankedTensorType type = staticResult(op);
  ElementsAttr a = smallConstant(lhs), b = smallConstant(rhs);
  if (!type || !a || !b)
    return {};
  return evalBinary(kind, a, b, type);
}

OpFoldResult AddOp::fold(FoldAdaptor a) {
  return foldBinary(*this, BinaryKind::Add, a.getLhs(), a.getRhs());
}
OpFoldResult SubOp::fold(FoldAdaptor a) {
  return foldBinary(*this, BinaryKind::Sub, a.getLhs(), a.getRhs());
}
OpFoldResult MulOp::fold(FoldAdaptor a) {
  return foldBinary(*this, BinaryKind::Mul, a.getLhs(), a.getRhs());
}
OpFoldResult DivOp::fold(FoldAdaptor a) {
  return foldBinary(*this, BinaryKind::Div, a.getLhs(), a.getRhs());
}

OpFoldResult ShapeOp::fold(FoldAdaptor) {
  auto in = dyn_cast<RankedTensorType>(getInput().getType());
  auto type = dyn_cast<RankedTensorType>(getType());
  if (!in || !in.hasStaticShape() || !type || !type.hasStaticShape())
    return {};
  int64_t rank = in.getRank();
  int64_t start = (int64_t)getStart();
  start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
  SmallVector<int64_t> dims(in.getShape().begin() + start,
                            in.getShape().begin() + start + type.getDimSize(0));
  return makeElements(type, ArrayRef<int64_t>(dims));
}

/// Data movement folds copy elements as bytes, so every element type keeps
/// its exact values (an int64 above 2^53 survives a Gather).
struct ConstantBytes {
  std::vector<char> bytes;
  int64_t width = 0;
  const char *at(int64_t i) const { return bytes.data() + i * width; }
};
static std::optional<ConstantBytes> bytesOf(ElementsAttr e) {
  ConstantBytes c;
  c.width = elementBytes(e.getElementType());
  if (!c.width || !appendRawBytes(e, c.bytes))
    return std::nullopt;
  return c;
}
static OpFoldResult fromBytes(RankedTensorType type, ArrayRef<char> bytes) {
  if ((int64_t)bytes.size() != type.getNumElements() * elementBytes(type.getElementType()))
    return {};
  return DenseElementsAttr::getFromRawBuffer(type, bytes);
}

OpFoldResult GatherOp::fold(FoldAdaptor a) {
  RankedTensorType type = staticResult(*this);
  ElementsAttr data = smallConstant(a.getData());
  ElementsAttr indices = smallConstant(a.getIndices());
  if (!type || !data || !indices)
    return {};
  auto ds = cast<ShapedType>(data.getType()).getShape();
  int64_t rank = ds.size();
  int64_t axis = (int64_t)getAxis();
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return {};
  std::optional<ConstantBytes> dv = bytesOf(data);
  std::vector<int64_t> iv;
  if (!dv || !readAsInt64s(indices, iv))
    return {};
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= ds[d];
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= ds[d];
  std::vector<char> out;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t idx : iv) {
      if (idx < -ds[axis] || idx >= ds[axis])
        return {}; // out of range: shape inference reports it
      if (idx < 0)
        idx += ds[axis];
      const char *src = dv->at((o * ds[axis] + idx) * inner);
      out.insert(out.end(), src, src + inner * dv->width);
    }
  return fromBytes(type, out);
}

OpFoldResult ConcatOp::fold(FoldAdaptor a) {
  RankedTensorType type = staticResult(*this);
  if (!type)
    return {};
  int64_t rank = type.getRank(), axis = (int64_t)getAxis();
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return {};
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= type.getDimSize(d);
  if (outer == 0)
    return fromBytes(type, {});
  std::vector<ConstantBytes> parts;
  for (Attribute attr : a.getInputs()) {
    ElementsAttr e = smallConstant(attr);
    std::optional<ConstantBytes> c = e ? bytesOf(e) : std::nullopt;
    if (!c)
      return {};
    parts.push_back(std::move(*c));
  }
  std::vector<char> out;
  for (int64_t o = 0; o < outer; ++o)
    for (const ConstantBytes &p : parts) {
      size_t chunk = p.bytes.size() / outer; // bytes per outer index
      out.insert(out.end(), p.bytes.begin() + o * chunk,
                 p.bytes.begin() + (o + 1) * chunk);
    }
  return fromBytes(type, out);
}

/// Reshape-like ops: a no-op when types agree, a re-typed constant otherwise.
static OpFoldResult foldReshapeLike(Operation *op, Value input, Attribute data) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape())
    return {};
  if (input.getType() == type)
    return input;
  ElementsAttr e = smallConstant(data);
  if (!e || e.getNumElements() != type.getNumElements())
    return {};
  if (auto dense = dyn_cast<DenseElementsAttr>(e))
    return dense.reshape(type);
  std::optional<ConstantBytes> c = bytesOf(e);
  return c ? fromBytes(type, c->bytes) : OpFoldResult();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor a) {
  return foldReshapeLike(*this, getData(), a.getData());
}
OpFoldResult UnsqueezeOp::fold(FoldAdaptor a) {
  return foldReshapeLike(*this, getData(), a.getData());
}
OpFoldResult SqueezeOp::fold(FoldAdaptor a) {
  return foldReshapeLike(*this, getData(), a.getData());
}

OpFoldResult CastOp::fold(FoldAdaptor a) {
  if (getInput().getType() == getType())
    return getInput();
  RankedTensorType type = staticResult(*this);
  ElementsAttr e = smallConstant(a.getInput());
  if (!type || !e)
    return {};
  Type to = type.getElementType();
  // To bool: any nonzero value (NaN included) is true, as in numpy.
  if (to.isInteger(1)) {
    std::vector<double> v;
    if (!readAsDoubles(e, v))
      return {};
    SmallVector<bool> bits;
    for (double x : v)
      bits.push_back(x != 0);
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  // Integer to integer stays in integers (truncating to the narrower type).
  if (isa<IntegerType>(to) && isa<IntegerType>(e.getElementType())) {
    std::vector<int64_t> v;
    if (!readAsInt64s(e, v))
      return {};
    return makeElements(type, ArrayRef<int64_t>(v));
  }
  std::vector<double> v;
  if (!readAsDoubles(e, v))
    return {};
  // saturate=1 to float8: clamp to the largest finite value (NaN stays).
  if (getSaturate() && isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
                           Float8E5M2FNUZType>(to)) {
    double largest = llvm::APFloat::getLargest(cast<FloatType>(to).getFloatSemantics())
                         .convertToDouble();
    for (double &x : v)
      if (!std::isnan(x))
        x = std::min(std::max(x, -largest), largest);
  }
  return makeElements(type, ArrayRef<double>(v));
}
