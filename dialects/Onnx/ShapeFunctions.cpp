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

FailureOr<Shape> inferGemmShape(OptLoc loc, ArrayRef<int64_t> a,
                                ArrayRef<int64_t> b, bool transA, bool transB) {
  if (a.size() != 2 || b.size() != 2)
    return emitOptionalError(loc, "expects 2-D A and B, got ", str(a), " and ",
                             str(b));
  int64_t m = transA ? a[1] : a[0], ka = transA ? a[0] : a[1];
  int64_t kb = transB ? b[1] : b[0], n = transB ? b[0] : b[1];
  if (!compatible(ka, kb))
    return emitOptionalError(loc, "inner dimensions differ: A ", str(a),
                             " (trans_a=", transA, ") and B ", str(b),
                             " (trans_b=", transB, ")");
  return Shape{m, n};
}

FailureOr<Shape> inferMatMulShape(OptLoc loc, ArrayRef<int64_t> a,
                                  ArrayRef<int64_t> b) {
  if (a.empty() || b.empty())
    return emitOptionalError(loc, "expects operands of rank >= 1, got ", str(a),
                             " and ", str(b));
  Shape sa(a.begin(), a.end()), sb(b.begin(), b.end());
  bool promoteA = sa.size() == 1, promoteB = sb.size() == 1;
  if (promoteA)
    sa.insert(sa.begin(), 1);
  if (promoteB)
    sb.push_back(1);
  int64_t k1 = sa.back(), k2 = sb[sb.size() - 2];
  if (!compatible(k1, k2))
    return emitOptionalError(loc, "inner dimensions differ: ", str(a), " x ",
                             str(b));
  auto batch = inferBroadcastShape(
      loc, ArrayRef<int64_t>(sa).drop_back(2), ArrayRef<int64_t>(sb).drop_back(2));
  if (failed(batch))
    return failure();
  Shape out = *batch;
  if (!promoteA)
    out.push_back(sa[sa.size() - 2]);
  if (!promoteB)
    out.push_back(sb.back());
  return out;
}

/// Checks the 2-D window attributes shared by Conv and the pools. Each
/// value is bounded by kMaxDim so that the extent arithmetic below stays
/// far from overflow.
static LogicalResult checkWindow(OptLoc loc, ArrayRef<int64_t> kernel,
                                 ArrayRef<int64_t> pads,
                                 ArrayRef<int64_t> strides,
                                 ArrayRef<int64_t> dilations) {
  if (kernel.size() != 2 || pads.size() != 4 || strides.size() != 2 ||
      dilations.size() != 2)
    return emitOptionalError(loc, "expects 2-D windows (kernel_shape ",
                             values(kernel), ", pads ", values(pads), ", strides ",
                             values(strides), ", dilations ", values(dilations), ")");
  for (int i = 0; i < 2; ++i)
    if (kernel[i] < 1 || strides[i] < 1 || dilations[i] < 1 ||
        kernel[i] > kMaxDim || strides[i] > kMaxDim || dilations[i] > kMaxDim)
      return emitOptionalError(loc, "kernel_shape ", values(kernel), ", strides ",
                               values(strides), " and dilations ", values(dilations),
                               " must be in [1, ", kMaxDim, "]");
  for (int64_t p : pads)
    if (p < 0 || p > kMaxDim)
      return emitOptionalError(loc, "pads ", values(pads), " must be in [0, ",
                               kMaxDim, "]");
  return success();
}

/// Output extent of one spatial dim; fails when the window does not fit.
static FailureOr<int64_t> windowExtent(OptLoc loc, int64_t in, int64_t k,
                                       int64_t padBegin, int64_t padEnd,
                                       int64_t stride, int64_t dilation,
                                       bool ceilMode) {
  if (in == kDyn)
    return kDyn;
  CheckedInt span = CheckedInt(in) + padBegin + padEnd -
                    CheckedInt(dilation) * (k - 1) - 1;
  if (span.overflowed())
    return emitOptionalError(loc, "window ", k, " (dilation ", dilation,
                             ") with pads ", padBegin, "+", padEnd,
                             " overflows for input extent ", in);
  if (*span < 0)
    return emitOptionalError(loc, "window ", k, " (dilation ", dilation,
                             ") does not fit input extent ", in, " with pads ",
                             padBegin, "+", padEnd);
  int64_t out = (ceilMode ? (*span + stride - 1) / stride : *span / stride) + 1;
  // With ceil_mode the last window must start inside the input or left pad.
  if (ceilMode && (out - 1) * stride >= in + padBegin)
    --out;
  return out;
}

FailureOr<Shape> resolveAutoPad(OptLoc loc, StringRef autoPad,
                                ArrayRef<int64_t> x, ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> pads, ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> dilations) {
  if (autoPad == "NOTSET" || autoPad.empty())
    return Shape(pads.begin(), pads.end());
  if (autoPad == "VALID")
    return Shape{0, 0, 0, 0};
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
    return emitOptionalError(loc, "unknown auto_pad '", autoPad, "'");
  if (x.size() != 4 || kernel.size() != 2 || strides.size() != 2 ||
      dilations.size() != 2)
    return emitOptionalError(loc, "auto_pad ", autoPad, " needs 2-D windows");
  if (failed(checkWindow(loc, kernel, Shape(4, 0), strides, dilations)))
    return failure();
  Shape out(4, 0);
  for (int i = 0; i < 2; ++i) {
    int64_t in = x[2 + i];
    if (in == kDyn)
      return emitOptionalError(loc, "auto_pad needs a static input shape");
    int64_t o = (in + strides[i] - 1) / strides[i];
    CheckedInt need = (CheckedInt(o) - 1) * strides[i] +
                      (CheckedInt(kernel[i]) - 1) * dilations[i] + 1 - in;
    if (need.overflowed() || *need > kMaxDim)
      return emitOptionalError(loc, "auto_pad ", autoPad, " needs pads beyond ",
                               kMaxDim, " for kernel ", values(kernel),
                               ", strides ", values(strides), " and dilations ",
                               values(dilations));
    int64_t total = std::max<int64_t>(0, *need);
    int64_t small = total / 2, big = total - small;
    out[i] = autoPad == "SAME_UPPER" ? small : big;
    out[2 + i] = autoPad == "SAME_UPPER" ? big : small;
  }
  return out;
}

FailureOr<Shape> inferConvShape(OptLoc loc, ArrayRef<int64_t> x,
                                ArrayRef<int64_t> w, ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> pads, ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> dilations, int64_t group) {
  if (x.size() != 4 || w.size() != 4)
    return emitOptionalError(loc, "expects 4-D input and weight (2-D conv), got ",
                             str(x), " and ", str(w));
  if (failed(checkWindow(loc, kernel, pads, strides, dilations)))
    return failure();
  if (group < 1)
    return emitOptionalError(loc, "group ", group, " must be >= 1");
  if (w[0] != kDyn && w[0] % group != 0)
    return emitOptionalError(loc, "output channels ", w[0],
                             " not divisible by group ", group);
  if (group > kMaxDim)
    return emitOptionalError(loc, "group ", group, " is above ", kMaxDim);
  if (x[1] != kDyn && w[1] != kDyn && x[1] != w[1] * group)
    return emitOptionalError(loc, "input channels ", x[1], " != weight ",
                             str(w), " channels ", w[1], " x group ", group);
  if ((w[2] != kDyn && w[2] != kernel[0]) || (w[3] != kDyn && w[3] != kernel[1]))
    return emitOptionalError(loc, "weight ", str(w),
                             " does not match kernel_shape ", values(kernel));
  Shape out{x[0], w[0], 0, 0};
  for (int i = 0; i < 2; ++i) {
    auto e = windowExtent(loc, x[2 + i], kernel[i], pads[i], pads[2 + i],
                          strides[i], dilations[i], /*ceilMode=*/false);
    if (failed(e))
      return failure();
    out[2 + i] = *e;
  }
  return out;
}

FailureOr<Shape> inferPoolShape(OptLoc loc, ArrayRef<int64_t> x,
                                ArrayRef<int64_t> kernel, ArrayRef<int64_t> pads,
                                ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> dilations, bool ceilMode) {
  if (x.size() != 4)
    return emitOptionalError(loc, "expects 4-D input (2-D pooling), got ",
                             str(x));
  if (failed(checkWindow(loc, kernel, pads, strides, dilations)))
    return failure();
  // A pad as wide as the window makes windows that see only padding.
  for (int i = 0; i < 2; ++i)
    if (pads[i] >= kernel[i] || pads[2 + i] >= kernel[i])
      return emitOptionalError(loc, "pads ", values(pads),
                               " must be smaller than kernel_shape ",
                               values(kernel));
  Shape out{x[0], x[1], 0, 0};
  for (int i = 0; i < 2; ++i) {
    auto e = windowExtent(loc, x[2 + i], kernel[i], pads[i], pads[2 + i],
                          strides[i], dilations[i], ceilMode);
    if (failed(e))
      return failure();
    out[2 + i] = *e;
  }
  return out;
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
