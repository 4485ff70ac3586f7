//===- DataMovementShapes.cpp - rules of the data movement ops ------------===//
#include "dialects/Onnx/DataMovementShapes.h"

#include "dialects/Onnx/ConstantData.h"
#include "dialects/Onnx/InferTypes.h"
#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <cstring>

using namespace mlir;

namespace onnxcc {

namespace {

constexpr int64_t kDyn = ShapedType::kDynamic;

/// A list the way error messages show it: [1, 2, ?], at most 16 entries.
std::string str(ArrayRef<int64_t> s, bool isShape = true) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "[";
  llvm::interleaveComma(s.take_front(16), os, [&](int64_t d) {
    if (isShape && d == kDyn)
      os << "?";
    else
      os << d;
  });
  if (s.size() > 16)
    os << ", ... (" << s.size() << " in all)";
  os << "]";
  return out;
}
std::string values(ArrayRef<int64_t> s) { return str(s, /*isShape=*/false); }

Type elementOf(Value v) { return getElementTypeOrSelf(v.getType()); }

LogicalResult pushUnranked(Types &types, Type element, unsigned count = 1) {
  for (unsigned i = 0; i < count; ++i)
    types.push_back(UnrankedTensorType::get(element));
  return success();
}

LogicalResult push(Types &types, FailureOr<Shape> shape, Type element) {
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, element));
  return success();
}

/// The block argument (graph input) whose values `v` is computed from,
/// or null. Ops that read only their operands' shapes (Shape, Size,
/// EyeLike) fold once shapes are static and do not carry the dependence;
/// every other op's result is computed from its operands' values, and no
/// folder turns a value read from a graph input into a constant. The walk
/// gives up (null) after a bounded number of ops.
BlockArgument valueSource(Value v) {
  SmallVector<Value> stack{v};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!stack.empty() && seen.size() < 512) {
    Value cur = stack.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(cur))
      return arg;
    Operation *def = cur.getDefiningOp();
    if (!def || !seen.insert(def).second ||
        def->hasTrait<mlir::OpTrait::ConstantLike>())
      continue;
    StringRef name = def->getName().getStringRef();
    if (name == "onnx.shape" || name == "onnx.size" || name == "onnx.eye_like")
      continue;
    stack.append(def->operand_begin(), def->operand_end());
  }
  return BlockArgument();
}

/// The constant behind an operand whose values decide the result's shape:
/// null while it is not a constant yet (folding may still make it one),
/// an error when it is computed from a graph input's values, which no
/// folding turns into a constant.
FailureOr<ElementsAttr> shapeConstant(OptLoc loc, Value v, StringRef what) {
  if (ElementsAttr e = getConstantElements(v))
    return e;
  if (BlockArgument arg = valueSource(v)) {
    Operation *parent = arg.getOwner()->getParentOp();
    bool graph = parent && parent->getName().getStringRef() == "func.func";
    return emitOptionalError(
        loc, "data-dependent output shape: ", what,
        isa<BlockArgument>(v) ? " is " : " is computed from ",
        graph ? "graph input #" : "region argument #", arg.getArgNumber(),
        ", not a constant (onnxcc compiles static shapes only)");
  }
  return ElementsAttr();
}

/// The integers of a shape-giving operand; `out` stays empty while it is not
/// a constant yet.
LogicalResult shapeInts(OptLoc loc, Value v, StringRef what,
                        std::optional<std::vector<int64_t>> &out) {
  out.reset();
  auto e = shapeConstant(loc, v, what);
  if (failed(e))
    return failure();
  if (!*e)
    return success();
  std::vector<int64_t> ints;
  if (!readAsInt64s(*e, ints))
    return emitOptionalError(loc, what, " must hold integers, got ",
                             e->getElementType());
  out = std::move(ints);
  return success();
}

std::optional<ArrayRef<int64_t>> optRef(const std::optional<std::vector<int64_t>> &v) {
  if (!v)
    return std::nullopt;
  return ArrayRef<int64_t>(*v);
}

/// Reads the first element of a one-element float constant of any width
/// (f16 and bf16 included), or an integer one, as double.
std::optional<double> scalarAsDouble(ElementsAttr e) {
  if (e.getNumElements() != 1)
    return std::nullopt;
  std::vector<double> d;
  if (readAsDoubles(e, d))
    return d[0];
  // f16 and bf16 (which readAsDoubles does not decode): from their bits.
  auto ft = dyn_cast<FloatType>(e.getElementType());
  std::vector<char> bytes;
  if (!ft || ft.getWidth() > 64 || !appendRawBytes(e, bytes) ||
      bytes.size() * 8 != ft.getWidth())
    return std::nullopt;
  uint64_t bits = 0;
  std::memcpy(&bits, bytes.data(), bytes.size()); // little-endian host
  return APFloat(ft.getFloatSemantics(), APInt(ft.getWidth(), bits))
      .convertToDouble();
}

/// Checks that indices are an integer tensor (ONNX's tensor(int32|int64)).
LogicalResult checkIndexType(OptLoc loc, Value indices, StringRef op) {
  Type t = elementOf(indices);
  if (!isa<IntegerType>(t) || t.isInteger(1))
    return emitOptionalError(loc, op, " indices must be integers, got ", t);
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Shared resolution of the ops' parameters
//===----------------------------------------------------------------------===//

FailureOr<SliceBounds> resolveSlice(OptLoc loc, ArrayRef<int64_t> in,
                                    ArrayRef<int64_t> starts,
                                    ArrayRef<int64_t> ends,
                                    std::optional<ArrayRef<int64_t>> axes,
                                    std::optional<ArrayRef<int64_t>> steps) {
  int64_t rank = in.size(), n = starts.size();
  if ((int64_t)ends.size() != n || (axes && (int64_t)axes->size() != n) ||
      (steps && (int64_t)steps->size() != n))
    return emitOptionalError(loc, "starts ", values(starts), ", ends ",
                             values(ends), ", axes ",
                             axes ? values(*axes) : std::string("(none)"),
                             " and steps ",
                             steps ? values(*steps) : std::string("(none)"),
                             " differ in length");
  if (!axes && n > rank)
    return emitOptionalError(loc, "starts ", values(starts),
                             " has more entries than the rank ", rank);
  SliceBounds b;
  b.starts.assign(rank, 0);
  b.steps.assign(rank, 1);
  b.sizes.assign(in.begin(), in.end());
  SmallVector<bool> seen(rank, false);
  for (int64_t i = 0; i < n; ++i) {
    auto axis = normalizeAxis(loc, axes ? (*axes)[i] : i, rank, "slice axis");
    if (failed(axis))
      return failure();
    if (seen[*axis])
      return emitOptionalError(loc, "axes ", values(*axes), " repeat axis ",
                               *axis);
    seen[*axis] = true;
    int64_t step = steps ? (*steps)[i] : 1;
    if (step == 0)
      return emitOptionalError(loc, "steps ", values(*steps),
                               " contain 0 (axis ", *axis, ")");
    int64_t dim = in[*axis];
    if (dim == kDyn) {
      b.sizes[*axis] = kDyn;
      continue;
    }
    int64_t s = starts[i], e = ends[i], size = 0;
    // dim >= 0, so adding it to a negative value cannot overflow.
    if (s < 0)
      s += dim;
    if (e < 0)
      e += dim;
    // |step| as unsigned: -INT64_MIN does not fit in int64_t.
    uint64_t mag = step > 0 ? uint64_t(step) : 0 - uint64_t(step);
    if (dim == 0) {
      size = 0;
    } else if (step > 0) {
      s = std::clamp<int64_t>(s, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      size = e > s ? int64_t(uint64_t(e - s - 1) / mag + 1) : 0;
    } else {
      s = std::clamp<int64_t>(s, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      size = s > e ? int64_t(uint64_t(s - e - 1) / mag + 1) : 0;
    }
    b.sizes[*axis] = size;
    // A step only matters between two elements, and then |step| < dim: the
    // strides derived from it stay within the tensor's extent.
    b.starts[*axis] = size ? s : 0;
    b.steps[*axis] = size > 1 ? step : 1;
  }
  return b;
}

FailureOr<Shape> resolveSplit(OptLoc loc, ArrayRef<int64_t> in, int64_t axis,
                              std::optional<ArrayRef<int64_t>> split,
                              int64_t numOutputs) {
  if (numOutputs < 1)
    return emitOptionalError(loc, "Split needs at least one output, got ",
                             numOutputs);
  int64_t dim = in[axis];
  if (split) {
    if ((int64_t)split->size() != numOutputs)
      return emitOptionalError(loc, "split ", values(*split), " has ",
                               split->size(), " entries for ", numOutputs,
                               " outputs");
    CheckedInt sum = 0;
    for (int64_t s : *split) {
      if (s < 0 || s > kMaxDim)
        return emitOptionalError(loc, "split ", values(*split),
                                 " has a size outside [0, ", kMaxDim, "]");
      sum = sum + s;
    }
    if (dim != kDyn && (sum.overflowed() || *sum != dim))
      return emitOptionalError(loc, "split ", values(*split), " does not sum to ",
                               "the extent ", dim, " of axis ", axis);
    return Shape(split->begin(), split->end());
  }
  if (dim == kDyn)
    return Shape(numOutputs, kDyn);
  int64_t chunk = (dim + numOutputs - 1) / numOutputs;
  Shape sizes;
  for (int64_t i = 0; i < numOutputs; ++i) {
    // i * chunk <= dim + numOutputs stays far from overflow.
    int64_t rest = dim - std::min(dim, i * chunk);
    sizes.push_back(std::min(chunk, rest));
  }
  return sizes;
}

FailureOr<Shape> resolvePads(OptLoc loc, int64_t rank, ArrayRef<int64_t> pads,
                             std::optional<ArrayRef<int64_t>> axes) {
  SmallVector<int64_t> ax;
  if (axes) {
    SmallVector<bool> seen(rank, false);
    for (int64_t a : *axes) {
      auto n = normalizeAxis(loc, a, rank, "pad axis");
      if (failed(n))
        return failure();
      if (seen[*n])
        return emitOptionalError(loc, "axes ", values(*axes), " repeat axis ", *n);
      seen[*n] = true;
      ax.push_back(*n);
    }
  } else {
    for (int64_t d = 0; d < rank; ++d)
      ax.push_back(d);
  }
  if (pads.size() != 2 * ax.size())
    return emitOptionalError(loc, "pads ", values(pads), " must have 2 x ",
                             ax.size(), " entries (begin and end per axis)");
  Shape out(2 * rank, 0);
  for (auto [i, a] : llvm::enumerate(ax)) {
    int64_t begin = pads[i], end = pads[ax.size() + i];
    if (begin < -kMaxDim || begin > kMaxDim || end < -kMaxDim || end > kMaxDim)
      return emitOptionalError(loc, "pads ", values(pads), " must be in [-",
                               kMaxDim, ", ", kMaxDim, "]");
    out[a] = begin;
    out[rank + a] = end;
  }
  return out;
}

FailureOr<Shape> resolveCenterCropPad(OptLoc loc, ArrayRef<int64_t> in,
                                      ArrayRef<int64_t> target,
                                      std::optional<ArrayRef<int64_t>> axes) {
  int64_t rank = in.size();
  SmallVector<int64_t> ax;
  if (axes) {
    SmallVector<bool> seen(rank, false);
    for (int64_t a : *axes) {
      auto n = normalizeAxis(loc, a, rank);
      if (failed(n))
        return failure();
      if (seen[*n])
        return emitOptionalError(loc, "axes ", values(*axes), " repeat axis ", *n);
      seen[*n] = true;
      ax.push_back(*n);
    }
  } else {
    for (int64_t d = 0; d < rank; ++d)
      ax.push_back(d);
  }
  if (target.size() != ax.size())
    return emitOptionalError(loc, "shape ", values(target), " must have one entry ",
                             "per axis (", ax.size(), ")");
  Shape pads(2 * rank, 0);
  for (auto [a, want] : llvm::zip(ax, target)) {
    if (want < 0 || want > kMaxDim)
      return emitOptionalError(loc, "shape ", values(target), " has size ", want,
                               ", outside [0, ", kMaxDim, "]");
    if (in[a] == kDyn)
      continue;
    int64_t diff = want - in[a]; // > 0 pads, < 0 crops
    int64_t front = diff >= 0 ? diff / 2 : -((-diff) / 2);
    pads[a] = front;
    pads[rank + a] = diff - front;
  }
  return pads;
}

int64_t padSourceIndex(StringRef mode, int64_t i, int64_t begin, int64_t kept) {
  int64_t j = i - std::max<int64_t>(begin, 0);
  if (mode == "edge")
    return std::clamp<int64_t>(j, 0, kept - 1);
  if (mode == "wrap")
    return ((j % kept) + kept) % kept;
  if (kept == 1) // reflect of one element
    return 0;
  int64_t period = 2 * (kept - 1), r = ((j % period) + period) % period;
  return r < kept ? r : period - r;
}

//===----------------------------------------------------------------------===//
// Strided copies
//===----------------------------------------------------------------------===//

Shape rowMajorStrides(ArrayRef<int64_t> shape) {
  Shape s(shape.size(), 1);
  for (int64_t d = (int64_t)shape.size() - 2; d >= 0; --d)
    s[d] = s[d + 1] * shape[d + 1];
  return s;
}

void StridedCopy::coalesce() {
  if (llvm::is_contained(shape, 0)) {
    shape = {0};
    strides = {0};
    offset = 0;
    return;
  }
  Shape s, st;
  for (auto [extent, stride] : llvm::zip(shape, strides)) {
    if (extent == 1)
      continue;
    if (!s.empty() && st.back() == extent * stride) {
      s.back() *= extent;
      st.back() = stride;
      continue;
    }
    s.push_back(extent);
    st.push_back(stride);
  }
  if (s.empty()) {
    s.push_back(1);
    st.push_back(1);
  }
  shape = std::move(s);
  strides = std::move(st);
}

StridedCopy sliceCopy(ArrayRef<int64_t> in, const SliceBounds &b) {
  Shape inStrides = rowMajorStrides(in);
  StridedCopy c;
  c.shape = b.sizes;
  for (size_t d = 0; d < in.size(); ++d) {
    c.strides.push_back(b.steps[d] * inStrides[d]);
    c.offset += b.starts[d] * inStrides[d];
  }
  return c;
}

StridedCopy expandCopy(ArrayRef<int64_t> in, ArrayRef<int64_t> out) {
  Shape inStrides = rowMajorStrides(in);
  StridedCopy c;
  c.shape.assign(out.begin(), out.end());
  int64_t lead = out.size() - in.size();
  for (int64_t d = 0; d < (int64_t)out.size(); ++d) {
    int64_t di = d - lead;
    c.strides.push_back(di >= 0 && in[di] != 1 ? inStrides[di] : 0);
  }
  return c;
}

StridedCopy tileCopy(ArrayRef<int64_t> in, ArrayRef<int64_t> repeats) {
  Shape inStrides = rowMajorStrides(in);
  StridedCopy c;
  for (size_t d = 0; d < in.size(); ++d) {
    c.shape.append({repeats[d], in[d]});
    c.strides.append({0, inStrides[d]});
  }
  return c;
}

StridedCopy transposeCopy(ArrayRef<int64_t> in, ArrayRef<int64_t> perm) {
  Shape inStrides = rowMajorStrides(in);
  StridedCopy c;
  for (size_t d = 0; d < in.size(); ++d) {
    int64_t p = perm.empty() ? in.size() - 1 - d : perm[d];
    c.shape.push_back(in[p]);
    c.strides.push_back(inStrides[p]);
  }
  return c;
}

StridedCopy depthToSpaceCopy(ArrayRef<int64_t> in, int64_t b, bool crd) {
  int64_t n = in[0], ch = in[1] / (b * b), h = in[2], w = in[3];
  int64_t hw = h * w;
  // Strides of the 6-D view of the input, then the permutation to
  // [N, C', H, b, W, b] (the output's row-major order).
  int64_t sN = in[1] * hw, sC, sB1, sB2;
  if (crd) { // [N, C', b, b, H, W]
    sC = b * b * hw;
    sB1 = b * hw;
    sB2 = hw;
  } else { // DCR: [N, b, b, C', H, W]
    sB1 = b * ch * hw;
    sB2 = ch * hw;
    sC = hw;
  }
  StridedCopy c;
  c.shape = {n, ch, h, b, w, b};
  c.strides = {sN, sC, w, sB1, 1, sB2};
  return c;
}

StridedCopy spaceToDepthCopy(ArrayRef<int64_t> in, int64_t b, bool crd) {
  int64_t n = in[0], ch = in[1], h = in[2] / b, w = in[3] / b;
  int64_t sN = ch * in[2] * in[3], sC = in[2] * in[3];
  // View [N, C, H', b, W', b]; output order [N, b, b, C, H', W'] (DCR) or
  // [N, C, b, b, H', W'] (CRD).
  StridedCopy c;
  if (crd) {
    c.shape = {n, ch, b, b, h, w};
    c.strides = {sN, sC, in[3], 1, b * in[3], b};
  } else {
    c.shape = {n, b, b, ch, h, w};
    c.strides = {sN, in[3], 1, sC, b * in[3], b};
  }
  return c;
}

StridedCopy axisRangeCopy(ArrayRef<int64_t> in, int64_t axis, int64_t begin,
                          int64_t size) {
  Shape inStrides = rowMajorStrides(in);
  StridedCopy c;
  c.shape.assign(in.begin(), in.end());
  c.shape[axis] = size;
  c.strides = inStrides;
  c.offset = size ? begin * inStrides[axis] : 0;
  return c;
}

std::optional<std::vector<int64_t>> truePositions(ElementsAttr condition) {
  std::vector<double> v;
  if (!readAsDoubles(condition, v))
    return std::nullopt;
  std::vector<int64_t> out;
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] != 0)
      out.push_back(i);
  return out;
}

//===----------------------------------------------------------------------===//
// Type rules
//===----------------------------------------------------------------------===//

LogicalResult inferSliceTypes(OptLoc loc, Value data, Value starts, Value ends,
                              Value axes, Value steps, Types &types) {
  Type et = elementOf(data);
  std::optional<std::vector<int64_t>> s, e, a, st;
  if (failed(shapeInts(loc, starts, "Slice's starts", s)) ||
      failed(shapeInts(loc, ends, "Slice's ends", e)) ||
      (axes && failed(shapeInts(loc, axes, "Slice's axes", a))) ||
      (steps && failed(shapeInts(loc, steps, "Slice's steps", st))))
    return failure();
  auto x = shapeOf(data);
  if (!x || !s || !e || (axes && !a) || (steps && !st))
    return pushUnranked(types, et);
  auto b = resolveSlice(loc, *x, *s, *e, optRef(a), optRef(st));
  if (failed(b))
    return failure();
  return push(types, b->sizes, et);
}

LogicalResult inferExpandTypes(OptLoc loc, Value input, Value shape,
                               Types &types) {
  Type et = elementOf(input);
  std::optional<std::vector<int64_t>> s;
  if (failed(shapeInts(loc, shape, "Expand's shape", s)))
    return failure();
  auto x = shapeOf(input);
  if (!x || !s)
    return pushUnranked(types, et);
  if ((int64_t)s->size() > kMaxRank)
    return emitOptionalError(loc, "Expand's shape has ", s->size(),
                             " dimensions, more than the limit of ", kMaxRank);
  for (int64_t d : *s)
    if (d < 0 || d > kMaxDim)
      return emitOptionalError(loc, "Expand's shape ", values(*s),
                               " has dimension ", d, ", outside [0, ", kMaxDim,
                               "]");
  return push(types, inferBroadcastShape(loc, *x, *s), et);
}

LogicalResult inferTileTypes(OptLoc loc, Value input, Value repeats,
                             Types &types) {
  Type et = elementOf(input);
  std::optional<std::vector<int64_t>> r;
  if (failed(shapeInts(loc, repeats, "Tile's repeats", r)))
    return failure();
  auto x = shapeOf(input);
  if (!x || !r)
    return pushUnranked(types, et);
  if (r->size() != x->size())
    return emitOptionalError(loc, "repeats ", values(*r), " must have one entry ",
                             "per dimension of ", str(*x));
  Shape out;
  for (auto [d, rep] : llvm::zip(*x, *r)) {
    if (rep < 0 || rep > kMaxDim)
      return emitOptionalError(loc, "repeats ", values(*r),
                               " must be in [0, ", kMaxDim, "]");
    if (d == kDyn) {
      out.push_back(kDyn);
      continue;
    }
    CheckedInt n = CheckedInt(d) * rep;
    if (n.overflowed() || *n > kMaxDim)
      return emitOptionalError(loc, "Tile of ", str(*x), " by ", values(*r),
                               " has a dimension above ", kMaxDim);
    out.push_back(*n);
  }
  return push(types, out, et);
}

LogicalResult inferSplitTypes(OptLoc loc, Value input, Value split, int64_t axis,
                              int64_t numOutputs, Types &types) {
  Type et = elementOf(input);
  if (numOutputs < 1)
    return emitOptionalError(loc, "Split needs at least one output, got ",
                             numOutputs);
  std::optional<std::vector<int64_t>> s;
  if (split && failed(shapeInts(loc, split, "Split's split", s)))
    return failure();
  auto x = shapeOf(input);
  if (!x || (split && !s))
    return pushUnranked(types, et, numOutputs);
  auto ax = normalizeAxis(loc, axis, x->size());
  if (failed(ax))
    return failure();
  auto sizes = resolveSplit(loc, *x, *ax, optRef(s), numOutputs);
  if (failed(sizes))
    return failure();
  for (int64_t size : *sizes) {
    Shape out(x->begin(), x->end());
    out[*ax] = size;
    types.push_back(RankedTensorType::get(out, et));
  }
  return success();
}

/// Checks a blocksize and a 4-D input shared by DepthToSpace and SpaceToDepth.
static LogicalResult checkBlocks(OptLoc loc, ArrayRef<int64_t> x, int64_t b) {
  if (x.size() != 4)
    return emitOptionalError(loc, "expects a 4-D input (N, C, H, W), got ",
                             str(x));
  if (b < 1 || b > 65536)
    return emitOptionalError(loc, "blocksize ", b, " must be in [1, 65536]");
  return success();
}

LogicalResult inferDepthToSpaceTypes(OptLoc loc, Value input, int64_t b,
                                     StringRef mode, Types &types) {
  Type et = elementOf(input);
  if (mode != "DCR" && mode != "CRD")
    return emitOptionalError(loc, "mode must be DCR or CRD, got '", mode, "'");
  auto x = shapeOf(input);
  if (!x)
    return pushUnranked(types, et);
  if (failed(checkBlocks(loc, *x, b)))
    return failure();
  Shape out{(*x)[0], kDyn, kDyn, kDyn};
  if ((*x)[1] != kDyn) {
    if ((*x)[1] % (b * b) != 0)
      return emitOptionalError(loc, "channels ", (*x)[1],
                               " are not divisible by blocksize^2 = ", b * b);
    out[1] = (*x)[1] / (b * b);
  }
  for (int d = 2; d < 4; ++d)
    if ((*x)[d] != kDyn) {
      CheckedInt n = CheckedInt((*x)[d]) * b;
      if (n.overflowed() || *n > kMaxDim)
        return emitOptionalError(loc, "output dimension ", d, " exceeds ",
                                 kMaxDim);
      out[d] = *n;
    }
  return push(types, out, et);
}

LogicalResult inferSpaceToDepthTypes(OptLoc loc, Value input, int64_t b,
                                     StringRef mode, Types &types) {
  Type et = elementOf(input);
  if (mode != "DCR" && mode != "CRD")
    return emitOptionalError(loc, "mode must be DCR or CRD, got '", mode, "'");
  auto x = shapeOf(input);
  if (!x)
    return pushUnranked(types, et);
  if (failed(checkBlocks(loc, *x, b)))
    return failure();
  Shape out{(*x)[0], kDyn, kDyn, kDyn};
  if ((*x)[1] != kDyn) {
    CheckedInt n = CheckedInt((*x)[1]) * b * b;
    if (n.overflowed() || *n > kMaxDim)
      return emitOptionalError(loc, "output channels exceed ", kMaxDim);
    out[1] = *n;
  }
  for (int d = 2; d < 4; ++d)
    if ((*x)[d] != kDyn) {
      if ((*x)[d] % b != 0)
        return emitOptionalError(loc, "spatial dimensions of ", str(*x),
                                 " are not divisible by blocksize ", b);
      out[d] = (*x)[d] / b;
    }
  return push(types, out, et);
}

LogicalResult inferPadTypes(OptLoc loc, Value data, Value pads, Value axes,
                            StringRef mode, Types &types) {
  Type et = elementOf(data);
  if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
    return emitOptionalError(loc, "mode must be constant, reflect, edge or wrap, ",
                             "got '", mode, "'");
  std::optional<std::vector<int64_t>> p, a;
  if (failed(shapeInts(loc, pads, "Pad's pads", p)) ||
      (axes && failed(shapeInts(loc, axes, "Pad's axes", a))))
    return failure();
  auto x = shapeOf(data);
  if (!x || !p || (axes && !a))
    return pushUnranked(types, et);
  int64_t rank = x->size();
  auto all = resolvePads(loc, rank, *p, optRef(a));
  if (failed(all))
    return failure();
  Shape out;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t in = (*x)[d], begin = (*all)[d], end = (*all)[rank + d];
    if (in == kDyn) {
      out.push_back(kDyn);
      continue;
    }
    int64_t n = in + begin + end; // each term is within +-2^32
    if (n < 0 || n > kMaxDim)
      return emitOptionalError(loc, "pads ", values(*p), " make dimension ", d,
                               " of ", str(*x), " ", n, " long");
    // Cropping first, the kept part must have elements to repeat.
    int64_t kept = in + std::min<int64_t>(begin, 0) + std::min<int64_t>(end, 0);
    if (mode != "constant" && kept <= 0 && n > 0)
      return emitOptionalError(loc, "mode ", mode, " cannot pad dimension ", d,
                               " of ", str(*x), ": no elements are left after ",
                               "cropping by pads ", values(*p));
    out.push_back(n);
  }
  return push(types, out, et);
}

LogicalResult inferCenterCropPadTypes(OptLoc loc, Value input, Value shape,
                                      std::optional<ArrayRef<int64_t>> axes,
                                      Types &types) {
  Type et = elementOf(input);
  std::optional<std::vector<int64_t>> s;
  if (failed(shapeInts(loc, shape, "CenterCropPad's shape", s)))
    return failure();
  auto x = shapeOf(input);
  if (!x || !s)
    return pushUnranked(types, et);
  auto pads = resolveCenterCropPad(loc, *x, *s, axes);
  if (failed(pads))
    return failure();
  int64_t rank = x->size();
  Shape out;
  for (int64_t d = 0; d < rank; ++d)
    out.push_back((*x)[d] == kDyn ? kDyn : (*x)[d] + (*pads)[d] + (*pads)[rank + d]);
  return push(types, out, et);
}

LogicalResult inferTensorScatterTypes(OptLoc loc, Value cache, Value update,
                                      Value indices, int64_t axis,
                                      StringRef mode, Types &types) {
  if (mode != "linear" && mode != "circular")
    return emitOptionalError(loc, "mode must be linear or circular, got '", mode,
                             "'");
  if (elementOf(update) != elementOf(cache))
    return emitOptionalError(loc, "update of type ", elementOf(update),
                             " differs from the cache's ", elementOf(cache));
  if (indices && failed(checkIndexType(loc, indices, "TensorScatter's write")))
    return failure();
  auto c = shapeOf(cache), u = shapeOf(update);
  if (c && u) {
    if (c->size() != u->size() || c->size() < 2)
      return emitOptionalError(loc, "cache ", str(*c), " and update ", str(*u),
                               " must have one rank >= 2");
    auto ax = normalizeAxis(loc, axis, c->size());
    if (failed(ax))
      return failure();
    if (*ax == 0)
      return emitOptionalError(loc, "axis ", axis, " is the batch axis");
    for (int64_t d = 0; d < (int64_t)c->size(); ++d) {
      int64_t cd = (*c)[d], ud = (*u)[d];
      if (cd == kDyn || ud == kDyn)
        continue;
      if (d == *ax ? ud > cd : ud != cd)
        return emitOptionalError(loc, "update ", str(*u), " does not fit cache ",
                                 str(*c), " along axis ", *ax);
    }
    if (auto i = indices ? shapeOf(indices) : std::nullopt)
      if (i->size() != 1 || ((*i)[0] != kDyn && (*c)[0] != kDyn && (*i)[0] != (*c)[0]))
        return emitOptionalError(loc, "write_indices ", str(*i),
                                 " must have one entry per batch of ", str(*c));
  }
  types.push_back(cache.getType());
  return success();
}

LogicalResult inferConstantOfShapeTypes(OptLoc loc, Value shape,
                                        ElementsAttr value, Types &types) {
  Type et = value.getElementType();
  if (value.getNumElements() != 1)
    return emitOptionalError(loc, "value must have one element, got ",
                             value.getNumElements());
  std::optional<std::vector<int64_t>> s;
  if (failed(shapeInts(loc, shape, "ConstantOfShape's shape", s)))
    return failure();
  if (!s)
    return pushUnranked(types, et);
  if ((int64_t)s->size() > kMaxRank)
    return emitOptionalError(loc, "shape has ", s->size(),
                             " dimensions, more than the limit of ", kMaxRank);
  for (int64_t d : *s)
    if (d < 0 || d > kMaxDim)
      return emitOptionalError(loc, "shape ", values(*s), " has dimension ", d,
                               ", outside [0, ", kMaxDim, "]");
  return push(types, Shape(s->begin(), s->end()), et);
}

LogicalResult inferRangeTypes(OptLoc loc, Value start, Value limit, Value delta,
                              Types &types) {
  Type et = elementOf(start);
  if (elementOf(limit) != et || elementOf(delta) != et)
    return emitOptionalError(loc, "start, limit and delta differ in type: ", et,
                             ", ", elementOf(limit), ", ", elementOf(delta));
  FailureOr<ElementsAttr> c[3] = {shapeConstant(loc, start, "Range's start"),
                                  shapeConstant(loc, limit, "Range's limit"),
                                  shapeConstant(loc, delta, "Range's delta")};
  for (auto &e : c)
    if (failed(e))
      return failure();
  if (!*c[0] || !*c[1] || !*c[2])
    return pushUnranked(types, et);
  for (auto &e : c)
    if ((*e).getNumElements() != 1)
      return emitOptionalError(loc, "start, limit and delta must be scalars");
  int64_t count;
  if (isa<IntegerType>(et)) {
    std::vector<int64_t> s, l, d;
    if (!readAsInt64s(*c[0], s) || !readAsInt64s(*c[1], l) || !readAsInt64s(*c[2], d))
      return emitOptionalError(loc, "cannot read Range's constants of type ", et);
    if (d[0] == 0)
      return emitOptionalError(loc, "delta must not be 0");
    // ceil((limit - start) / delta) without overflow: in 128 bits.
    __int128 span = (__int128)l[0] - s[0], step = d[0];
    __int128 n = span / step + ((span % step != 0 && (span > 0) == (step > 0)) ? 1 : 0);
    if (n > kMaxDim)
      return emitOptionalError(loc, "Range(", s[0], ", ", l[0], ", ", d[0],
                               ") has more than ", kMaxDim, " elements");
    count = n < 0 ? 0 : (int64_t)n;
  } else {
    auto s = scalarAsDouble(*c[0]), l = scalarAsDouble(*c[1]),
         d = scalarAsDouble(*c[2]);
    if (!s || !l || !d)
      return emitOptionalError(loc, "cannot read Range's constants of type ", et);
    double n = std::ceil((*l - *s) / *d);
    if (std::isnan(n) || n > (double)kMaxDim)
      return emitOptionalError(loc, "Range(", *s, ", ", *l, ", ", *d,
                               ") has no finite element count up to ", kMaxDim);
    count = n < 0 ? 0 : (int64_t)n;
  }
  return push(types, Shape{count}, et);
}

LogicalResult inferEyeLikeTypes(OptLoc loc, Value input, Type dtype,
                                Types &types) {
  auto x = shapeOf(input);
  if (!x)
    return pushUnranked(types, dtype);
  if (x->size() != 2)
    return emitOptionalError(loc, "expects a 2-D input, got ", str(*x));
  return push(types, Shape(x->begin(), x->end()), dtype);
}

/// An optional scalar operand that must hold one integer when constant.
static LogicalResult checkScalarInt(OptLoc loc, Value v, StringRef what) {
  if (!v)
    return success();
  ElementsAttr e = getConstantElements(v);
  Type t = elementOf(v);
  if (!isa<IntegerType>(t) || t.isInteger(1))
    return emitOptionalError(loc, what, " must be an integer, got ", t);
  if (e && e.getNumElements() != 1)
    return emitOptionalError(loc, what, " must have one element, got ",
                             e.getNumElements());
  return success();
}

LogicalResult inferTriluTypes(OptLoc loc, Value input, Value k, Types &types) {
  if (failed(checkScalarInt(loc, k, "Trilu's k")))
    return failure();
  auto x = shapeOf(input);
  if (x && x->size() < 2)
    return emitOptionalError(loc, "expects rank >= 2, got ", str(*x));
  types.push_back(input.getType());
  return success();
}

LogicalResult inferCumSumTypes(OptLoc loc, Value input, Value axis,
                               Types &types, StringRef opName) {
  if (failed(checkScalarInt(loc, axis, (opName + "'s axis").str())))
    return failure();
  auto x = shapeOf(input);
  if (std::optional<int64_t> a = constScalarInt(axis); a && x)
    if (failed(normalizeAxis(loc, *a, x->size())))
      return failure();
  types.push_back(input.getType());
  return success();
}

LogicalResult inferReverseSequenceTypes(OptLoc loc, Value input, Value lens,
                                        int64_t batchAxis, int64_t timeAxis,
                                        Types &types) {
  if ((batchAxis != 0 && batchAxis != 1) || (timeAxis != 0 && timeAxis != 1) ||
      batchAxis == timeAxis)
    return emitOptionalError(loc, "batch_axis ", batchAxis, " and time_axis ",
                             timeAxis, " must be 0 and 1 in some order");
  if (failed(checkIndexType(loc, lens, "ReverseSequence's sequence_lens")))
    return failure();
  auto x = shapeOf(input), l = shapeOf(lens);
  if (x && x->size() < 2)
    return emitOptionalError(loc, "expects rank >= 2, got ", str(*x));
  if (x && l &&
      (l->size() != 1 || ((*l)[0] != kDyn && (*x)[batchAxis] != kDyn &&
                          (*l)[0] != (*x)[batchAxis])))
    return emitOptionalError(loc, "sequence_lens ", str(*l),
                             " must have one entry per batch of ", str(*x));
  types.push_back(input.getType());
  return success();
}

LogicalResult inferTopKTypes(OptLoc loc, Value input, Value k, int64_t axis,
                             Types &types) {
  Type et = elementOf(input), i64 = IntegerType::get(input.getContext(), 64);
  std::optional<std::vector<int64_t>> kv;
  if (failed(shapeInts(loc, k, "TopK's k", kv)))
    return failure();
  auto x = shapeOf(input);
  if (!x || !kv) {
    types.push_back(UnrankedTensorType::get(et));
    types.push_back(UnrankedTensorType::get(i64));
    return success();
  }
  auto ax = normalizeAxis(loc, axis, x->size());
  if (failed(ax))
    return failure();
  if (kv->size() != 1)
    return emitOptionalError(loc, "k must have one element, got ", values(*kv));
  int64_t kk = (*kv)[0], dim = (*x)[*ax];
  if (kk < 0 || (dim != kDyn && kk > dim))
    return emitOptionalError(loc, "k ", kk, " is outside [0, ", dim,
                             "] (axis ", *ax, " of ", str(*x), ")");
  Shape out(x->begin(), x->end());
  out[*ax] = kk;
  types.push_back(RankedTensorType::get(out, et));
  types.push_back(RankedTensorType::get(out, i64));
  return success();
}

LogicalResult inferOneHotTypes(OptLoc loc, Value indices, Value depth,
                               Value values, int64_t axis, Types &types) {
  Type et = elementOf(values);
  auto e = shapeConstant(loc, depth, "OneHot's depth");
  if (failed(e))
    return failure();
  if (auto v = shapeOf(values); v && (v->size() != 1 || ((*v)[0] != kDyn && (*v)[0] != 2)))
    return emitOptionalError(loc, "values must be [off, on], got shape ", str(*v));
  auto x = shapeOf(indices);
  if (!x || !*e)
    return pushUnranked(types, et);
  std::optional<int64_t> d = constDepth(depth);
  if (!d)
    return emitOptionalError(loc, "depth must be one number");
  if (*d < 1 || *d > kMaxDim)
    return emitOptionalError(loc, "depth ", *d, " is outside [1, ", kMaxDim, "]");
  int64_t rank = x->size() + 1;
  if (axis < -rank || axis >= rank)
    return emitOptionalError(loc, "axis ", axis, " is out of range for rank ",
                             rank);
  Shape out(x->begin(), x->end());
  out.insert(out.begin() + (axis < 0 ? axis + rank : axis), *d);
  return push(types, out, et);
}

/// Whether `small` fits inside `big` along every dimension but `skip`
/// (dynamic dims are assumed to).
static bool fitsOutside(ArrayRef<int64_t> small, ArrayRef<int64_t> big,
                        int64_t skip) {
  for (int64_t d = 0; d < (int64_t)small.size(); ++d)
    if (d != skip && small[d] != kDyn && big[d] != kDyn && small[d] > big[d])
      return false;
  return true;
}

LogicalResult inferGatherElementsTypes(OptLoc loc, Value data, Value indices,
                                       int64_t axis, Types &types) {
  Type et = elementOf(data);
  if (failed(checkIndexType(loc, indices, "GatherElements")))
    return failure();
  auto d = shapeOf(data), i = shapeOf(indices);
  if (!d || !i)
    return pushUnranked(types, et);
  if (d->size() != i->size() || d->empty())
    return emitOptionalError(loc, "data ", str(*d), " and indices ", str(*i),
                             " must have one rank >= 1");
  auto ax = normalizeAxis(loc, axis, d->size());
  if (failed(ax))
    return failure();
  if (!fitsOutside(*i, *d, *ax))
    return emitOptionalError(loc, "indices ", str(*i), " exceed data ", str(*d),
                             " outside axis ", *ax);
  return push(types, Shape(i->begin(), i->end()), et);
}

LogicalResult inferGatherNDTypes(OptLoc loc, Value data, Value indices,
                                 int64_t batchDims, Types &types) {
  Type et = elementOf(data);
  if (failed(checkIndexType(loc, indices, "GatherND")))
    return failure();
  auto d = shapeOf(data), i = shapeOf(indices);
  if (!d || !i)
    return pushUnranked(types, et);
  int64_t r = d->size(), q = i->size();
  if (r < 1 || q < 1 || batchDims < 0 || batchDims >= std::min(r, q))
    return emitOptionalError(loc, "batch_dims ", batchDims, " must be below the ",
                             "ranks of data ", str(*d), " and indices ", str(*i));
  int64_t m = i->back();
  if (m == kDyn)
    return pushUnranked(types, et);
  if (m < 1 || m > r - batchDims)
    return emitOptionalError(loc, "index tuples of length ", m, " do not fit data ",
                             str(*d), " after ", batchDims, " batch dims");
  for (int64_t b = 0; b < batchDims; ++b)
    if ((*d)[b] != kDyn && (*i)[b] != kDyn && (*d)[b] != (*i)[b])
      return emitOptionalError(loc, "batch dims of data ", str(*d),
                               " and indices ", str(*i), " differ");
  Shape out(i->begin(), i->end() - 1);
  out.append(d->begin() + batchDims + m, d->end());
  return push(types, out, et);
}

static LogicalResult checkReduction(OptLoc loc, StringRef reduction) {
  if (reduction != "none" && reduction != "add" && reduction != "mul" &&
      reduction != "max" && reduction != "min")
    return emitOptionalError(loc, "reduction must be none, add, mul, max or min, ",
                             "got '", reduction, "'");
  return success();
}

LogicalResult inferScatterElementsTypes(OptLoc loc, Value data, Value indices,
                                        Value updates, int64_t axis,
                                        StringRef reduction, Types &types) {
  if (failed(checkReduction(loc, reduction)) ||
      failed(checkIndexType(loc, indices, "ScatterElements")))
    return failure();
  if (elementOf(updates) != elementOf(data))
    return emitOptionalError(loc, "updates of type ", elementOf(updates),
                             " differ from data of type ", elementOf(data));
  auto d = shapeOf(data), i = shapeOf(indices), u = shapeOf(updates);
  if (d && i && u) {
    if (d->size() != i->size() || d->empty() ||
        failed(verifyCompatibleShape(*i, *u)))
      return emitOptionalError(loc, "data ", str(*d), ", indices ", str(*i),
                               " and updates ", str(*u),
                               " must have one rank >= 1, indices the shape of updates");
    auto ax = normalizeAxis(loc, axis, d->size());
    if (failed(ax))
      return failure();
    if (!fitsOutside(*i, *d, *ax))
      return emitOptionalError(loc, "indices ", str(*i), " exceed data ",
                               str(*d), " outside axis ", *ax);
  }
  types.push_back(data.getType());
  return success();
}

LogicalResult inferScatterNDTypes(OptLoc loc, Value data, Value indices,
                                  Value updates, StringRef reduction,
                                  Types &types) {
  if (failed(checkReduction(loc, reduction)) ||
      failed(checkIndexType(loc, indices, "ScatterND")))
    return failure();
  if (elementOf(updates) != elementOf(data))
    return emitOptionalError(loc, "updates of type ", elementOf(updates),
                             " differ from data of type ", elementOf(data));
  auto d = shapeOf(data), i = shapeOf(indices), u = shapeOf(updates);
  if (d && i && u) {
    int64_t r = d->size(), q = i->size();
    int64_t m = q ? i->back() : kDyn;
    if (r < 1 || q < 1 || (m != kDyn && (m < 1 || m > r)))
      return emitOptionalError(loc, "indices ", str(*i), " do not address data ",
                               str(*d));
    if (m != kDyn) {
      Shape want(i->begin(), i->end() - 1);
      want.append(d->begin() + m, d->end());
      if (failed(verifyCompatibleShape(want, *u)))
        return emitOptionalError(loc, "updates ", str(*u), " must have shape ",
                                 str(want));
    }
  }
  types.push_back(data.getType());
  return success();
}

std::optional<int64_t> constScalarInt(Value v) {
  auto ints = v ? constInts(v) : std::nullopt;
  if (!ints || ints->size() != 1)
    return std::nullopt;
  return (*ints)[0];
}

std::optional<int64_t> constDepth(Value v) {
  if (auto i = constScalarInt(v))
    return i;
  ElementsAttr e = getConstantElements(v);
  std::optional<double> d = e ? scalarAsDouble(e) : std::nullopt;
  if (!d || std::isnan(*d) || std::fabs(*d) > 1e18)
    return std::nullopt;
  return (int64_t)*d;
}

} // namespace onnxcc
