//===- ResizeMath.cpp - ONNX Resize, planned at compile time --------------===//
#include "dialects/Onnx/ResizeMath.h"

#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/Diagnostics.h"
#include <algorithm>
#include <cmath>

using namespace mlir;

namespace onnxcc {

FailureOr<ResizePlan> planResize(std::optional<Location> loc,
                                 ArrayRef<int64_t> in, const ResizeAttrs &attrs,
                                 std::optional<ArrayRef<double>> scales,
                                 std::optional<ArrayRef<int64_t>> sizes,
                                 std::optional<ArrayRef<double>> roi) {
  int64_t r = in.size();
  SmallVector<int64_t> axes(attrs.axes);
  SmallVector<bool> seen(r, false);
  for (int64_t &a : axes) {
    if (a < -r || a >= r)
      return emitOptionalError(loc, "axis ", a, " is out of range for rank ", r);
    a = a < 0 ? a + r : a;
    if (seen[a])
      return emitOptionalError(loc, "axis ", a, " is listed twice in axes");
    seen[a] = true;
  }
  bool allAxes = axes.empty();
  if (allAxes)
    for (int64_t a = 0; a < r; ++a)
      axes.push_back(a);
  size_t n = axes.size();
  if (!scales && !sizes)
    return emitOptionalError(loc, "needs constant scales or sizes");
  if (scales && scales->size() != n)
    return emitOptionalError(loc, "has ", scales->size(), " scales for ", n, " axes");
  if (sizes && sizes->size() != n)
    return emitOptionalError(loc, "has ", sizes->size(), " sizes for ", n, " axes");

  ResizePlan plan;
  plan.scales.assign(r, 1.0);
  plan.outShape.assign(in.begin(), in.end());
  plan.roi.assign(2 * r, 0.0);
  for (int64_t a = 0; a < r; ++a)
    plan.roi[r + a] = 1.0;
  if (roi && !roi->empty()) {
    if (roi->size() != 2 * n)
      return emitOptionalError(loc, "has a roi of ", roi->size(),
                               " values for ", n, " axes");
    for (double v : *roi) // only tf_crop_and_resize reads it
      if (attrs.coordinateMode == "tf_crop_and_resize" &&
          (!std::isfinite(v) || std::fabs(v) > 1e6))
        return emitOptionalError(loc, "roi value ", v,
                                 " is not a finite number within 1e6");
    for (size_t i = 0; i < n; ++i) {
      plan.roi[axes[i]] = (*roi)[i];
      plan.roi[r + axes[i]] = (*roi)[n + i];
    }
  }
  if (sizes) {
    for (size_t i = 0; i < n; ++i) {
      int64_t s = (*sizes)[i];
      if (s < 0 || s > kMaxDim)
        return emitOptionalError(loc, "size ", s, " is outside [0, ", kMaxDim, "]");
      if (in[axes[i]] == 0)
        return emitOptionalError(loc, "cannot resize an empty axis ", axes[i]);
      plan.outShape[axes[i]] = s;
      plan.scales[axes[i]] = double(s) / in[axes[i]];
    }
    if (attrs.aspectPolicy != "stretch") {
      double scale = attrs.aspectPolicy == "not_larger" ? INFINITY : 0.0;
      for (int64_t a : axes)
        scale = attrs.aspectPolicy == "not_larger" ? std::min(scale, plan.scales[a])
                                                   : std::max(scale, plan.scales[a]);
      for (int64_t a : axes) {
        plan.scales[a] = scale;
        double size = scale * in[a] + 0.5; // round half up
        if (!(size <= kMaxDim))
          return emitOptionalError(loc, "gives axis ", a, " a size above ", kMaxDim);
        plan.outShape[a] = int64_t(size);
      }
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      double s = (*scales)[i];
      double size = s * in[axes[i]];
      if (!(s > 0) || !(size <= kMaxDim))
        return emitOptionalError(loc, "scale ", s, " of axis ", axes[i],
                                 " must be positive and keep the axis within ",
                                 kMaxDim);
      plan.scales[axes[i]] = s;
      plan.outShape[axes[i]] = int64_t(size); // numpy's astype(int)
    }
  }
  // Antialiased downsampling reads ~2/scale (linear) or ~4/scale (cubic)
  // inputs per output: bound the tables the plan becomes.
  for (int64_t a : axes) {
    double s = plan.scales[a];
    double taps = attrs.antialias && s < 1 ? (attrs.mode == "cubic" ? 4 : 2) / s + 2 : 4;
    if (taps > 4096 || taps * plan.outShape[a] > double(int64_t(1) << 24))
      return emitOptionalError(loc, "scale ", s, " of axis ", a,
                               " needs more than 4096 taps per output or 2^24 in all");
  }
  // Axes whose scale is 1 with an unchanged size and the whole roi are the
  // identity, which onnx.reference skips (their rounding would differ).
  for (int64_t a : axes) {
    bool identity = std::fabs(plan.scales[a] - 1.0) <= 1e-9 &&
                    plan.outShape[a] == in[a] &&
                    std::fabs(plan.roi[a]) <= 1e-9 &&
                    std::fabs(plan.roi[r + a] - 1.0) <= 1e-9;
    if (!identity)
      plan.order.push_back(a);
  }
  return plan;
}

namespace {

std::vector<double> nearestCoeffs(double ratio, const std::string &mode) {
  if (ratio == std::floor(ratio))
    return {0, 1};
  if (mode == "round_prefer_floor")
    return {double(ratio <= 0.5), double(ratio > 0.5)};
  if (mode == "round_prefer_ceil")
    return {double(ratio < 0.5), double(ratio >= 0.5)};
  if (mode == "floor")
    return {1, 0};
  return {0, 1}; // ceil
}

std::vector<double> linearCoeffs(double ratio, double scale, bool antialias) {
  if (!antialias)
    return {1 - ratio, ratio};
  scale = std::min(scale, 1.0);
  int64_t start = int64_t(std::floor(-1 / scale) + 1);
  int64_t footprint = 2 - 2 * start;
  std::vector<double> c;
  double sum = 0;
  for (int64_t i = start; i < start + footprint; ++i) {
    double v = std::clamp(1 - std::fabs((i - ratio) * scale), 0.0, 1.0);
    c.push_back(v);
    sum += v;
  }
  for (double &v : c)
    v /= sum;
  return c;
}

std::vector<double> cubicCoeffs(double ratio, double scale, double A, bool antialias) {
  if (!antialias) {
    double r1 = ratio + 1, q = 1 - ratio, q1 = q + 1;
    return {((A * r1 - 5 * A) * r1 + 8 * A) * r1 - 4 * A,
            ((A + 2) * ratio - (A + 3)) * ratio * ratio + 1,
            ((A + 2) * q - (A + 3)) * q * q + 1,
            ((A * q1 - 5 * A) * q1 + 8 * A) * q1 - 4 * A};
  }
  scale = std::min(scale, 1.0);
  auto coeff = [&](double x) {
    x = std::fabs(x);
    double x2 = x * x, x3 = x * x2;
    if (x <= 1)
      return (A + 2) * x3 - (A + 3) * x2 + 1;
    if (x < 2)
      return A * x3 - 5 * A * x2 + 8 * A * x - 4 * A;
    return 0.0;
  };
  int64_t start = int64_t(std::floor(-2 / scale) + 1), end = 2 - start;
  std::vector<double> c;
  double sum = 0;
  for (int64_t i = start; i < end; ++i) {
    c.push_back(coeff(scale * (i - ratio)));
    sum += c.back();
  }
  for (double &v : c)
    v /= sum;
  return c;
}

} // namespace

AxisTaps resizeAxisTaps(const ResizeAttrs &attrs, const ResizePlan &plan,
                        ArrayRef<int64_t> in, int64_t axis) {
  int64_t r = in.size(), inWidth = in[axis], outInt = plan.outShape[axis];
  double scale = plan.scales[axis], outWidth = scale * inWidth;
  double roiStart = plan.roi[axis], roiEnd = plan.roi[r + axis];
  const std::string &mode = attrs.coordinateMode;
  AxisTaps taps;
  for (int64_t j = 0; j < outInt; ++j) {
    double y = j, x;
    bool extrapolated = false;
    if (mode == "align_corners") {
      x = outWidth == 1 ? 0.0 : y * (inWidth - 1) / (outWidth - 1);
    } else if (mode == "asymmetric") {
      x = y / scale;
    } else if (mode == "tf_crop_and_resize") {
      // In float like onnx.reference (a float32 roi) and onnxruntime: a
      // coordinate that lands on an edge in double may fall just outside
      // in float, and then it is extrapolated.
      float extent = float(roiEnd) - float(roiStart);
      float start = float(roiStart) * float(inWidth - 1);
      x = outWidth == 1 ? double(extent * float(inWidth - 1) / 2.0f)
                        : y * double(extent) * (inWidth - 1) / (outWidth - 1);
      x += double(start);
      extrapolated = x < 0 || x > inWidth - 1;
      if (extrapolated)
        x = 0; // any position inside: its taps are never read
    } else if (mode == "pytorch_half_pixel") {
      x = outWidth == 1 ? -0.5 : (y + 0.5) / scale - 0.5;
    } else if (mode == "half_pixel_symmetric") {
      double adjustment = outInt / outWidth, center = inWidth / 2.0;
      x = center * (1 - adjustment) + (y + 0.5) / scale - 0.5;
    } else { // half_pixel
      x = (y + 0.5) / scale - 0.5;
    }
    double xInt = std::floor(x);
    double ratio = x == xInt ? 1.0 : x - xInt;
    std::vector<double> c =
        attrs.mode == "nearest" ? nearestCoeffs(ratio, attrs.nearestMode)
        : attrs.mode == "linear" ? linearCoeffs(ratio, scale, attrs.antialias)
                                 : cubicCoeffs(ratio, scale, attrs.cubicCoeffA,
                                               attrs.antialias);
    int64_t n = c.size();
    taps.taps = n;
    // The n input positions nearest x, ties to the smaller (edge-padded).
    int64_t pad = (n + 1) / 2;
    double xPadded = x + pad, pPadded = std::floor(xPadded);
    double frac = xPadded - pPadded;
    int64_t offset = n % 2 == 0 ? (frac == 0 ? -(n / 2) : -(n / 2) + 1)
                                : (frac <= 0.5 ? -((n - 1) / 2) : -((n - 1) / 2) + 1);
    int64_t start = int64_t(pPadded) + offset - pad;
    if (attrs.excludeOutside) {
      double sum = 0;
      for (int64_t t = 0; t < n; ++t) {
        if (start + t < 0 || start + t >= inWidth)
          c[t] = 0;
        sum += c[t];
      }
      for (double &v : c)
        v /= sum == 0 ? 1.0 : sum;
    }
    for (int64_t t = 0; t < n; ++t) {
      int64_t idx = std::clamp<int64_t>(start + t, 0, inWidth - 1);
      taps.indices.push_back(extrapolated && t == 0 ? -1 : idx);
      taps.weights.push_back(c[t]);
    }
  }
  return taps;
}

} // namespace onnxcc
