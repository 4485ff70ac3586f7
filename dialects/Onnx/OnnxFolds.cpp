//===- OnnxFolds.cpp - ONNX graph dialect folders -------------------------===//
//
// Folders for the shape arithmetic exporters emit (Shape -> Gather ->
// Concat -> Reshape chains). They only fold small tensors: folding whole
// weight tensors is left to passes that can bound their cost.
//
//===----------------------------------------------------------------------===//
#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/OnnxOps.h"

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

/// Row-major strides of `shape`.
static SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int64_t i = (int64_t)shape.size() - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

/// Index into a broadcast operand of shape `in` for output index `flat`.
static int64_t broadcastIndex(int64_t flat, ArrayRef<int64_t> out,
                              ArrayRef<int64_t> in) {
  auto outStrides = stridesOf(out), inStrides = stridesOf(in);
  int64_t offset = out.size() - in.size(), idx = 0;
  for (size_t d = 0; d < out.size(); ++d) {
    int64_t coord = (flat / outStrides[d]) % out[d];
    if (d >= (size_t)offset && in[d - offset] != 1)
      idx += coord * inStrides[d - offset];
  }
  return idx;
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult IdentityOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

/// Folds an elementwise binary op on small constants with broadcasting.
template <typename Fn>
static OpFoldResult foldBinary(Operation *op, Attribute lhs, Attribute rhs,
                               Fn fn) {
  RankedTensorType type = staticResult(op);
  ElementsAttr a = smallConstant(lhs), b = smallConstant(rhs);
  if (!type || !a || !b)
    return {};
  bool isFloat = isa<FloatType>(type.getElementType());
  auto as = cast<ShapedType>(a.getType()).getShape();
  auto bs = cast<ShapedType>(b.getType()).getShape();
  std::vector<double> av, bv;
  if (!readAsDoubles(a, av) || !readAsDoubles(b, bv))
    return {};
  std::vector<double> out(type.getNumElements());
  for (int64_t i = 0; i < (int64_t)out.size(); ++i) {
    double x = av[broadcastIndex(i, type.getShape(), as)];
    double y = bv[broadcastIndex(i, type.getShape(), bs)];
    std::optional<double> r = fn(x, y, isFloat);
    if (!r)
      return {};
    out[i] = *r;
  }
  return makeElements(type, ArrayRef<double>(out));
}

OpFoldResult AddOp::fold(FoldAdaptor a) {
  return foldBinary(*this, a.getLhs(), a.getRhs(),
                    [](double x, double y, bool) { return std::optional(x + y); });
}
OpFoldResult SubOp::fold(FoldAdaptor a) {
  return foldBinary(*this, a.getLhs(), a.getRhs(),
                    [](double x, double y, bool) { return std::optional(x - y); });
}
OpFoldResult MulOp::fold(FoldAdaptor a) {
  return foldBinary(*this, a.getLhs(), a.getRhs(),
                    [](double x, double y, bool) { return std::optional(x * y); });
}
OpFoldResult DivOp::fold(FoldAdaptor a) {
  return foldBinary(*this, a.getLhs(), a.getRhs(),
                    [](double x, double y, bool isFloat) -> std::optional<double> {
                      if (isFloat)
                        return x / y;
                      if (y == 0) // leave integer division by zero to run time
                        return std::nullopt;
                      // ONNX integer Div truncates toward zero, like C++.
                      return double((int64_t)x / (int64_t)y);
                    });
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
  std::vector<double> dv;
  std::vector<int64_t> iv;
  if (!readAsDoubles(data, dv) || !readAsInt64s(indices, iv))
    return {};
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= ds[d];
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= ds[d];
  std::vector<double> out;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t idx : iv) {
      if (idx < -ds[axis] || idx >= ds[axis])
        return {}; // out of range: the verifier of the kernel reports it
      if (idx < 0)
        idx += ds[axis];
      for (int64_t i = 0; i < inner; ++i)
        out.push_back(dv[(o * ds[axis] + idx) * inner + i]);
    }
  if ((int64_t)out.size() != type.getNumElements())
    return {};
  return makeElements(type, ArrayRef<double>(out));
}

OpFoldResult ConcatOp::fold(FoldAdaptor a) {
  RankedTensorType type = staticResult(*this);
  if (!type)
    return {};
  int64_t rank = type.getRank(), axis = (int64_t)getAxis();
  if (axis < 0)
    axis += rank;
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= type.getDimSize(d);
  std::vector<std::vector<double>> parts;
  std::vector<int64_t> chunk; // elements per outer index for each input
  for (Attribute attr : a.getInputs()) {
    ElementsAttr e = smallConstant(attr);
    std::vector<double> v;
    if (!e || !readAsDoubles(e, v))
      return {};
    chunk.push_back(outer ? (int64_t)v.size() / outer : 0);
    parts.push_back(std::move(v));
  }
  std::vector<double> out;
  for (int64_t o = 0; o < outer; ++o)
    for (size_t p = 0; p < parts.size(); ++p)
      out.insert(out.end(), parts[p].begin() + o * chunk[p],
                 parts[p].begin() + (o + 1) * chunk[p]);
  if ((int64_t)out.size() != type.getNumElements())
    return {};
  return makeElements(type, ArrayRef<double>(out));
}

/// Reshape-like ops: a no-op when types agree, a re-typed constant otherwise.
static OpFoldResult foldReshapeLike(Operation *op, Value input, Attribute data) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape())
    return {};
  if (input.getType() == type)
    return input;
  ElementsAttr e = smallConstant(data);
  std::vector<double> v;
  if (!e || !readAsDoubles(e, v) || (int64_t)v.size() != type.getNumElements())
    return {};
  return makeElements(type, ArrayRef<double>(v));
}

OpFoldResult ReshapeOp::fold(FoldAdaptor a) {
  return foldReshapeLike(*this, getData(), a.getData());
}
OpFoldResult UnsqueezeOp::fold(FoldAdaptor a) {
  return foldReshapeLike(*this, getData(), a.getData());
}

OpFoldResult CastOp::fold(FoldAdaptor a) {
  if (getInput().getType() == getType())
    return getInput();
  RankedTensorType type = staticResult(*this);
  ElementsAttr e = smallConstant(a.getInput());
  std::vector<double> v;
  if (!type || !e || !readAsDoubles(e, v))
    return {};
  return makeElements(type, ArrayRef<double>(v));
}
