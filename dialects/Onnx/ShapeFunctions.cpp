//===- ShapeFunctions.cpp - ONNX shape rules ------------------------------===//
#include "dialects/Onnx/ShapeFunctions.h"

#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace onnxcc {

static constexpr int64_t kDyn = ShapedType::kDynamic;

/// Elements of a list an error message shows; a model's attribute can hold
/// a million, and the message must stay one short line.
static constexpr size_t kMaxListedElements = 16;

/// Prints a list the way error messages show it, [1, 3, 224], with
/// [1, 2, ..., (1000000 in all)] for long lists; dimensions of a shape
/// print dynamic ones as `?`.
static std::string list(ArrayRef<int64_t> s, bool isShape) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "[";
  llvm::interleaveComma(s.take_front(kMaxListedElements), os, [&](int64_t d) {
    if (isShape && d == kDyn)
      os << "?";
    else
      os << d;
  });
  if (s.size() > kMaxListedElements)
    os << ", ... (" << s.size() << " in all)";
  os << "]";
  return out;
}
/// A shape: [1, 3, ?, 224].
static std::string str(ArrayRef<int64_t> s) { return list(s, /*isShape=*/true); }
/// Attribute or constant values (INT64_MIN is a value here, not `?`).
static std::string values(ArrayRef<int64_t> s) { return list(s, /*isShape=*/false); }

std::string formatShape(ArrayRef<int64_t> shape) { return str(shape); }
std::string formatValues(ArrayRef<int64_t> v) { return values(v); }

FailureOr<int64_t> normalizeAxis(OptLoc loc, int64_t axis, int64_t rank,
                                 StringRef what) {
  if (axis < -rank || axis >= rank)
    return emitOptionalError(loc, what, " ", axis, " is out of range for rank ",
                             rank);
  return axis < 0 ? axis + rank : axis;
}

FailureOr<Shape> inferBroadcastShape(OptLoc loc, ArrayRef<int64_t> a,
                                     ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == kDyn || db == kDyn)
      out[i] = (da == 1) ? db : (db == 1 ? da : kDyn);
    else if (da == db || db == 1)
      out[i] = da;
    else if (da == 1)
      out[i] = db;
    else
      return emitOptionalError(loc, "shapes ", str(a), " and ", str(b),
                               " cannot be broadcast");
  }
  return out;
}

/// Whether two dims can be equal (either is dynamic, or they match).
static bool compatible(int64_t a, int64_t b) {
  return a == kDyn || b == kDyn || a == b;
}

FailureOr<Shape> inferConcatShape(OptLoc loc, ArrayRef<ArrayRef<int64_t>> in,
                                  int64_t axis) {
  if (in.empty())
    return emitOptionalError(loc, "expects at least one input");
  int64_t rank = in[0].size();
  auto ax = normalizeAxis(loc, axis, rank);
  if (failed(ax))
    return failure();
  Shape out(in[0].begin(), in[0].end());
  out[*ax] = 0;
  for (ArrayRef<int64_t> s : in) {
    if (static_cast<int64_t>(s.size()) != rank)
      return emitOptionalError(loc, "inputs differ in rank: ", str(in[0]),
                               " and ", str(s));
    for (int64_t d = 0; d < rank; ++d) {
      if (d == *ax)
        continue;
      if (!compatible(s[d], out[d]))
        return emitOptionalError(loc, "inputs ", str(in[0]), " and ", str(s),
                                 " differ outside axis ", *ax);
      if (out[d] == kDyn)
        out[d] = s[d];
    }
    if (out[*ax] == kDyn || s[*ax] == kDyn) {
      out[*ax] = kDyn;
      continue;
    }
    CheckedInt sum = CheckedInt(out[*ax]) + s[*ax];
    if (sum.overflowed() || *sum > kMaxDim)
      return emitOptionalError(loc, "concatenated axis ", *ax,
                               " grows beyond ", kMaxDim);
    out[*ax] = *sum;
  }
  return out;
}

/// The element count of `shape`, kDyn if any dimension is, or failure when
/// the product overflows.
static FailureOr<int64_t> elementCount(OptLoc loc, ArrayRef<int64_t> shape) {
  CheckedInt n = 1;
  for (int64_t d : shape) {
    if (d == kDyn)
      return kDyn;
    n = n * d;
  }
  if (n.overflowed())
    return emitOptionalError(loc, "shape ", str(shape),
                             " has more elements than fit in 64 bits");
  return *n;
}

FailureOr<Shape> inferReshapeShape(OptLoc loc, ArrayRef<int64_t> in,
                                   ArrayRef<int64_t> target, bool allowZero) {
  Shape out;
  int64_t inferIdx = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    int64_t d = target[i];
    if (d == -1) {
      if (inferIdx >= 0)
        return emitOptionalError(loc, "shape ", values(target),
                                 " has more than one -1");
      inferIdx = i;
      out.push_back(kDyn);
      continue;
    }
    if (d == 0 && !allowZero) {
      if (i >= in.size())
        return emitOptionalError(loc, "shape ", values(target), " copies dim ", i,
                                 " of input ", str(in), " which has none");
      d = in[i];
    } else if (d < 0 || d > kMaxDim) {
      return emitOptionalError(loc, "shape ", values(target), " has dimension ",
                               d, ", outside [0, ", kMaxDim, "]");
    }
    out.push_back(d);
  }
  Shape others(out);
  if (inferIdx >= 0)
    others.erase(others.begin() + inferIdx);
  auto knownCount = elementCount(loc, others);
  auto totalCount = elementCount(loc, in);
  if (failed(knownCount) || failed(totalCount))
    return failure();
  int64_t known = *knownCount, total = *totalCount;
  if (inferIdx >= 0) {
    if (total != kDyn && known != kDyn) {
      if (known == 0 || total % known != 0)
        return emitOptionalError(loc, "cannot reshape ", str(in), " to ",
                                 values(target));
      out[inferIdx] = total / known;
    }
  } else if (total != kDyn && known != kDyn && total != known) {
    return emitOptionalError(loc, "cannot reshape ", str(in), " (", total,
                             " elements) to ", values(target), " (", known,
                             " elements)");
  }
  return out;
}

FailureOr<Shape> inferFlattenShape(OptLoc loc, ArrayRef<int64_t> in,
                                   int64_t axis) {
  int64_t rank = in.size();
  if (axis < -rank || axis > rank)
    return emitOptionalError(loc, "axis ", axis, " is out of range for rank ",
                             rank);
  if (axis < 0)
    axis += rank;
  auto outer = elementCount(loc, in.take_front(axis));
  auto inner = elementCount(loc, in.drop_front(axis));
  if (failed(outer) || failed(inner))
    return failure();
  return Shape{*outer, *inner};
}

FailureOr<Shape> inferUnsqueezeShape(OptLoc loc, ArrayRef<int64_t> in,
                                     ArrayRef<int64_t> axes) {
  int64_t rank = in.size() + axes.size();
  SmallVector<bool> inserted(rank, false);
  for (int64_t a : axes) {
    auto ax = normalizeAxis(loc, a, rank);
    if (failed(ax))
      return failure();
    if (inserted[*ax])
      return emitOptionalError(loc, "axes repeat ", *ax);
    inserted[*ax] = true;
  }
  Shape out;
  size_t next = 0;
  for (int64_t i = 0; i < rank; ++i)
    out.push_back(inserted[i] ? 1 : in[next++]);
  return out;
}

FailureOr<Shape> inferSqueezeShape(OptLoc loc, ArrayRef<int64_t> in,
                                   std::optional<ArrayRef<int64_t>> axes) {
  int64_t rank = in.size();
  SmallVector<bool> drop(rank, false);
  if (axes) {
    for (int64_t a : *axes) {
      auto ax = normalizeAxis(loc, a, rank);
      if (failed(ax))
        return failure();
      if (in[*ax] != 1 && in[*ax] != kDyn)
        return emitOptionalError(loc, "cannot squeeze axis ", *ax, " of ",
                                 str(in));
      drop[*ax] = true;
    }
  } else {
    for (int64_t i = 0; i < rank; ++i)
      drop[i] = in[i] == 1;
  }
  Shape out;
  for (int64_t i = 0; i < rank; ++i)
    if (!drop[i])
      out.push_back(in[i]);
  return out;
}

FailureOr<Shape> inferTransposeShape(OptLoc loc, ArrayRef<int64_t> in,
                                     ArrayRef<int64_t> perm) {
  if (perm.empty()) {
    Shape out(in.rbegin(), in.rend());
    return out;
  }
  if (perm.size() != in.size())
    return emitOptionalError(loc, "perm ", values(perm), " does not match rank ",
                             in.size());
  SmallVector<bool> seen(in.size(), false);
  Shape out;
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(in.size()) || seen[p])
      return emitOptionalError(loc, "perm ", values(perm),
                               " is not a permutation");
    seen[p] = true;
    out.push_back(in[p]);
  }
  return out;
}

FailureOr<Shape> inferGatherShape(OptLoc loc, ArrayRef<int64_t> data,
                                  ArrayRef<int64_t> indices, int64_t axis) {
  auto ax = normalizeAxis(loc, axis, data.size());
  if (failed(ax))
    return failure();
  Shape out(data.begin(), data.begin() + *ax);
  out.append(indices.begin(), indices.end());
  out.append(data.begin() + *ax + 1, data.end());
  return out;
}

} // namespace onnxcc
