//===- ConvPoolShapes.cpp - shape rules of convolution and pooling --------===//
#include "dialects/Onnx/ConvPoolShapes.h"

#include "dialects/Onnx/InertText.h"
#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

namespace onnxcc {

static constexpr int64_t kDyn = ShapedType::kDynamic;

static std::string str(ArrayRef<int64_t> s) { return formatShape(s); }
static std::string values(ArrayRef<int64_t> s) { return formatValues(s); }

/// Whether two dims can be equal (either is dynamic, or they match).
static bool compatible(int64_t a, int64_t b) {
  return a == kDyn || b == kDyn || a == b;
}

FailureOr<Window> checkWindow(OptLoc loc, int64_t n, ArrayRef<int64_t> kernel,
                              ArrayRef<int64_t> pads, ArrayRef<int64_t> strides,
                              ArrayRef<int64_t> dilations,
                              ArrayRef<int64_t> kernelDefault) {
  if (n < 1 || n > kMaxRank)
    return emitOptionalError(loc, "expects 1 to ", kMaxRank,
                             " spatial axes, got ", n);
  Window w;
  if (kernel.empty()) {
    if ((int64_t)kernelDefault.size() != n ||
        llvm::is_contained(kernelDefault, kDyn))
      return emitOptionalError(loc, "kernel_shape is missing and the weight's "
                                    "spatial dims ", str(kernelDefault),
                               " do not give it");
    kernel = kernelDefault;
  }
  w.kernel.assign(kernel.begin(), kernel.end());
  w.strides.assign(strides.begin(), strides.end());
  w.dilations.assign(dilations.begin(), dilations.end());
  w.pads.assign(pads.begin(), pads.end());
  if (w.strides.empty())
    w.strides.assign(n, 1);
  if (w.dilations.empty())
    w.dilations.assign(n, 1);
  if (w.pads.empty())
    w.pads.assign(2 * n, 0);
  if ((int64_t)w.kernel.size() != n || (int64_t)w.strides.size() != n ||
      (int64_t)w.dilations.size() != n || (int64_t)w.pads.size() != 2 * n)
    return emitOptionalError(loc, "expects a ", n, "-D window for an input with ",
                             n, " spatial axes, got kernel_shape ",
                             values(w.kernel), ", pads ", values(w.pads),
                             ", strides ", values(w.strides), ", dilations ",
                             values(w.dilations));
  for (int64_t i = 0; i < n; ++i)
    if (w.kernel[i] < 1 || w.strides[i] < 1 || w.dilations[i] < 1 ||
        w.kernel[i] > kMaxDim || w.strides[i] > kMaxDim ||
        w.dilations[i] > kMaxDim)
      return emitOptionalError(loc, "kernel_shape ", values(w.kernel),
                               ", strides ", values(w.strides),
                               " and dilations ", values(w.dilations),
                               " must be in [1, ", kMaxDim, "]");
  for (int64_t p : w.pads)
    if (p < 0 || p > kMaxDim)
      return emitOptionalError(loc, "pads ", values(w.pads), " must be in [0, ",
                               kMaxDim, "]");
  return w;
}

LogicalResult resolveAutoPad(OptLoc loc, StringRef autoPad,
                             ArrayRef<int64_t> in, Window &w) {
  if (autoPad == "NOTSET" || autoPad.empty())
    return success();
  int64_t n = w.rank();
  if (autoPad == "VALID") {
    w.pads.assign(2 * n, 0);
    return success();
  }
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
    return emitOptionalError(loc, "unknown auto_pad '", messageText(autoPad), "'");
  for (int64_t i = 0; i < n; ++i) {
    int64_t extent = in[i];
    if (extent == kDyn)
      return emitOptionalError(loc, "auto_pad ", autoPad,
                               " needs a static input shape, got spatial dims ",
                               str(in));
    int64_t s = w.strides[i];
    int64_t o = (extent + s - 1) / s;
    CheckedInt need = (CheckedInt(o) - 1) * s +
                      (CheckedInt(w.kernel[i]) - 1) * w.dilations[i] + 1 - extent;
    if (need.overflowed() || *need > kMaxDim)
      return emitOptionalError(loc, "auto_pad ", autoPad, " needs pads beyond ",
                               kMaxDim, " for kernel ", values(w.kernel),
                               ", strides ", values(w.strides),
                               " and dilations ", values(w.dilations));
    int64_t total = std::max<int64_t>(0, *need);
    int64_t small = total / 2, big = total - small;
    w.pads[i] = autoPad == "SAME_UPPER" ? small : big;
    w.pads[n + i] = autoPad == "SAME_UPPER" ? big : small;
  }
  return success();
}

FailureOr<Window> resolveWindow(OptLoc loc, ArrayRef<int64_t> x,
                                StringRef autoPad, ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> pads, ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> dilations,
                                ArrayRef<int64_t> kernelDefault) {
  if (x.size() < 3)
    return emitOptionalError(loc, "expects an input of rank >= 3 (N, C, "
                                  "spatial...), got ", str(x));
  auto w = checkWindow(loc, x.size() - 2, kernel, pads, strides, dilations,
                       kernelDefault);
  if (failed(w) || failed(resolveAutoPad(loc, autoPad, x.drop_front(2), *w)))
    return failure();
  return w;
}

/// Output extent of one spatial axis; fails when the window does not fit.
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

/// The output extents of `win` over the spatial dims of `x`.
static LogicalResult windowExtents(OptLoc loc, ArrayRef<int64_t> x,
                                   const Window &win, bool ceilMode, Shape &out) {
  for (int64_t i = 0; i < win.rank(); ++i) {
    auto e = windowExtent(loc, x[2 + i], win.kernel[i], win.padBegin(i),
                          win.padEnd(i), win.strides[i], win.dilations[i],
                          ceilMode);
    if (failed(e))
      return failure();
    out.push_back(*e);
  }
  return success();
}

/// Checks `group` against kMaxDim and channels `c` against it.
static LogicalResult checkGroup(OptLoc loc, int64_t group, int64_t c,
                                StringRef what) {
  if (group < 1)
    return emitOptionalError(loc, "group ", group, " must be >= 1");
  if (group > kMaxDim)
    return emitOptionalError(loc, "group ", group, " is above ", kMaxDim);
  if (c != kDyn && c % group != 0)
    return emitOptionalError(loc, what, " ", c, " not divisible by group ",
                             group);
  return success();
}

FailureOr<Shape> inferConvShape(OptLoc loc, ArrayRef<int64_t> x,
                                ArrayRef<int64_t> w, const Window &win,
                                int64_t group) {
  int64_t n = win.rank();
  if ((int64_t)x.size() != n + 2 || (int64_t)w.size() != n + 2)
    return emitOptionalError(loc, "expects input and weight of rank ", n + 2,
                             " (", n, "-D conv), got ", str(x), " and ", str(w));
  if (failed(checkGroup(loc, group, w[0], "output channels")))
    return failure();
  if (x[1] != kDyn && w[1] != kDyn && x[1] != w[1] * group)
    return emitOptionalError(loc, "input channels ", x[1], " != weight ",
                             str(w), " channels ", w[1], " x group ", group);
  for (int64_t i = 0; i < n; ++i)
    if (!compatible(w[2 + i], win.kernel[i]))
      return emitOptionalError(loc, "weight ", str(w),
                               " does not match kernel_shape ",
                               values(win.kernel));
  Shape out{x[0], w[0]};
  if (failed(windowExtents(loc, x, win, /*ceilMode=*/false, out)))
    return failure();
  return out;
}

FailureOr<Shape> inferPoolShape(OptLoc loc, ArrayRef<int64_t> x,
                                const Window &win, bool ceilMode) {
  int64_t n = win.rank();
  if ((int64_t)x.size() != n + 2)
    return emitOptionalError(loc, "expects an input of rank ", n + 2, " (", n,
                             "-D pooling), got ", str(x));
  // A pad as wide as the window makes windows that see only padding.
  for (int64_t i = 0; i < n; ++i)
    if (win.padBegin(i) >= win.kernel[i] || win.padEnd(i) >= win.kernel[i])
      return emitOptionalError(loc, "pads ", values(win.pads),
                               " must be smaller than kernel_shape ",
                               values(win.kernel));
  Shape out{x[0], x[1]};
  if (failed(windowExtents(loc, x, win, ceilMode, out)))
    return failure();
  return out;
}

FailureOr<Shape> inferConvTransposeShape(OptLoc loc, ArrayRef<int64_t> x,
                                         ArrayRef<int64_t> weight,
                                         StringRef autoPad, Window &w,
                                         ArrayRef<int64_t> outputPadding,
                                         ArrayRef<int64_t> outputShape,
                                         int64_t group) {
  int64_t n = w.rank();
  if ((int64_t)x.size() != n + 2 || (int64_t)weight.size() != n + 2)
    return emitOptionalError(loc, "expects input and weight of rank ", n + 2,
                             " (", n, "-D conv), got ", str(x), " and ",
                             str(weight));
  if (autoPad != "NOTSET" && !autoPad.empty() && autoPad != "VALID" &&
      autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
    return emitOptionalError(loc, "unknown auto_pad '", messageText(autoPad), "'");
  if (failed(checkGroup(loc, group, x[1], "input channels")))
    return failure();
  if (!compatible(x[1], weight[0]))
    return emitOptionalError(loc, "input channels ", x[1],
                             " != weight ", str(weight), " dim 0");
  for (int64_t i = 0; i < n; ++i)
    if (!compatible(weight[2 + i], w.kernel[i]))
      return emitOptionalError(loc, "weight ", str(weight),
                               " does not match kernel_shape ",
                               values(w.kernel));
  Shape pad(outputPadding.begin(), outputPadding.end());
  if (pad.empty())
    pad.assign(n, 0);
  if ((int64_t)pad.size() != n ||
      llvm::any_of(pad, [](int64_t p) { return p < 0 || p > kMaxDim; }))
    return emitOptionalError(loc, "output_padding ", values(outputPadding),
                             " must hold ", n, " values in [0, ", kMaxDim, "]");
  ArrayRef<int64_t> wanted = outputShape;
  if ((int64_t)wanted.size() == n + 2)
    wanted = wanted.drop_front(2);
  if (!wanted.empty() &&
      ((int64_t)wanted.size() != n ||
       llvm::any_of(wanted, [](int64_t d) { return d < 0 || d > kMaxDim; })))
    return emitOptionalError(loc, "output_shape ", values(outputShape),
                             " must hold ", n, " (or ", n + 2,
                             ") values in [0, ", kMaxDim, "]");
  CheckedInt m = CheckedInt(weight[1]) * group;
  if (weight[1] != kDyn && (m.overflowed() || *m > kMaxDim))
    return emitOptionalError(loc, "output channels ", weight[1], " x group ",
                             group, " exceed ", kMaxDim);
  Shape out{x[0], weight[1] == kDyn ? kDyn : *m};
  bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  for (int64_t i = 0; i < n; ++i) {
    int64_t in = x[2 + i];
    if (in == kDyn) {
      out.push_back(wanted.empty() ? kDyn : wanted[i]);
      continue;
    }
    if (in == 0)
      return emitOptionalError(loc, "input ", str(x), " has an empty spatial axis");
    // The extent every tap reaches before any padding is removed.
    CheckedInt full = CheckedInt(w.strides[i]) * (in - 1) + pad[i] +
                      (CheckedInt(w.kernel[i]) - 1) * w.dilations[i] + 1;
    if (full.overflowed() || *full > kMaxDim)
      return emitOptionalError(loc, "output extent of axis ", i,
                               " overflows: input ", in, ", stride ",
                               w.strides[i], ", kernel ", w.kernel[i],
                               ", dilation ", w.dilations[i]);
    if (!wanted.empty() || same) {
      // The pads follow from the output shape (the spec ignores `pads`).
      int64_t target = !wanted.empty() ? wanted[i] : in * w.strides[i];
      if (target > kMaxDim)
        return emitOptionalError(loc, "output extent ", target, " exceeds ",
                                 kMaxDim);
      // An output beyond the taps' reach is padded at the end (as ONNX
      // Runtime does; the spec's formula would shift the taps by
      // floor(total / 2) instead).
      int64_t total = std::max<int64_t>(0, *full - target);
      w.pads[i] = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      w.pads[n + i] = *full - target - w.pads[i];
      out.push_back(target);
      continue;
    }
    if (autoPad == "VALID") {
      w.pads[i] = w.pads[n + i] = 0;
    }
    int64_t o = *full - w.pads[i] - w.pads[n + i];
    if (o < 0)
      return emitOptionalError(loc, "pads ", values(w.pads),
                               " remove more than the output extent ", *full,
                               " of axis ", i);
    out.push_back(o);
  }
  return out;
}

FailureOr<Shape> inferMaxUnpoolShape(OptLoc loc, ArrayRef<int64_t> x,
                                     const Window &win,
                                     std::optional<ArrayRef<int64_t>> outputShape) {
  int64_t n = win.rank();
  if ((int64_t)x.size() != n + 2)
    return emitOptionalError(loc, "expects an input of rank ", n + 2, " (", n,
                             "-D unpooling), got ", str(x));
  Shape out{x[0], x[1]};
  for (int64_t i = 0; i < n; ++i) {
    int64_t in = x[2 + i];
    if (in == kDyn) {
      out.push_back(kDyn);
      continue;
    }
    CheckedInt e = (CheckedInt(in) - 1) * win.strides[i] -
                   (CheckedInt(win.padBegin(i)) + win.padEnd(i)) + win.kernel[i];
    if (e.overflowed() || *e < 0 || *e > kMaxDim)
      return emitOptionalError(loc, "unpooled extent of axis ", i,
                               " is outside [0, ", kMaxDim, "] for input ",
                               str(x), ", kernel_shape ", values(win.kernel),
                               ", strides ", values(win.strides), " and pads ",
                               values(win.pads));
    out.push_back(*e);
  }
  if (!outputShape)
    return out;
  if (outputShape->size() != out.size())
    return emitOptionalError(loc, "output_shape ", values(*outputShape),
                             " must have rank ", out.size());
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t d = (*outputShape)[i];
    bool fits = out[i] == kDyn || (i < 2 ? d == out[i] : d >= out[i]);
    if (!fits || d < 0 || d > kMaxDim)
      return emitOptionalError(loc, "output_shape ", values(*outputShape),
                               " must keep N and C and may only enlarge the "
                               "unpooled shape ", str(out));
  }
  return Shape(outputShape->begin(), outputShape->end());
}

FailureOr<Shape> inferCol2ImShape(OptLoc loc, ArrayRef<int64_t> x,
                                  ArrayRef<int64_t> image, const Window &win) {
  int64_t n = win.rank();
  if (x.size() != 3)
    return emitOptionalError(loc, "expects an input of rank 3 (N, C x block, "
                                  "blocks), got ", str(x));
  if ((int64_t)image.size() != n ||
      llvm::any_of(image, [](int64_t d) { return d < 1 || d > kMaxDim; }))
    return emitOptionalError(loc, "image_shape ", values(image), " must hold ",
                             n, " values in [1, ", kMaxDim, "]");
  CheckedInt block = 1, blocks = 1;
  for (int64_t i = 0; i < n; ++i) {
    block = block * win.kernel[i];
    auto e = windowExtent(loc, image[i], win.kernel[i], win.padBegin(i),
                          win.padEnd(i), win.strides[i], win.dilations[i],
                          /*ceilMode=*/false);
    if (failed(e))
      return failure();
    blocks = blocks * *e;
  }
  if (block.overflowed() || blocks.overflowed() || *block > kMaxDim)
    return emitOptionalError(loc, "block_shape ", values(win.kernel),
                             " is too large");
  if (x[1] != kDyn && x[1] % *block != 0)
    return emitOptionalError(loc, "input channels ", x[1],
                             " are not a multiple of the block size ", *block,
                             " of block_shape ", values(win.kernel));
  if (x[2] != kDyn && x[2] != *blocks)
    return emitOptionalError(loc, "input ", str(x), " has ", x[2],
                             " blocks, the window slides over ", *blocks);
  Shape out{x[0], x[1] == kDyn ? kDyn : x[1] / *block};
  out.append(image.begin(), image.end());
  return out;
}

FailureOr<Shape> resolveAutoPad(OptLoc loc, StringRef autoPad,
                                ArrayRef<int64_t> x, ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> pads, ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> dilations) {
  auto w = resolveWindow(loc, x, autoPad, kernel, pads, strides, dilations);
  if (failed(w))
    return failure();
  return w->pads;
}

FailureOr<Shape> inferConvShape(OptLoc loc, ArrayRef<int64_t> x,
                                ArrayRef<int64_t> w, ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> pads, ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> dilations, int64_t group) {
  auto win = resolveWindow(loc, x, "NOTSET", kernel, pads, strides, dilations,
                           w.size() >= 2 ? w.drop_front(2) : ArrayRef<int64_t>());
  if (failed(win))
    return failure();
  return inferConvShape(loc, x, w, *win, group);
}

} // namespace onnxcc
