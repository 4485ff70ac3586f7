//===- ResizeMath.h - ONNX Resize, planned at compile time ------*- C++ -*-===//
//
// Resize is separable: each resized axis maps every output position to a
// few input positions and weights (1 tap for nearest, 2 for linear, 4 for
// cubic, more with antialias). Shapes are static, so the positions and
// weights are computed here, once, exactly as onnx.reference computes
// them (in double), and the generated code only gathers and blends.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_RESIZEMATH_H
#define ONNXCC_DIALECTS_ONNX_RESIZEMATH_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>
#include <vector>

namespace onnxcc {

/// The attributes of one Resize, as ONNX spells them.
struct ResizeAttrs {
  std::string mode = "nearest";                          // nearest|linear|cubic
  std::string coordinateMode = "half_pixel";             // coordinate_transformation_mode
  std::string nearestMode = "round_prefer_floor";
  std::string aspectPolicy = "stretch";                  // keep_aspect_ratio_policy
  double cubicCoeffA = -0.75;
  bool excludeOutside = false;
  bool antialias = false;
  double extrapolationValue = 0.0;
  llvm::SmallVector<int64_t> axes; // empty: every axis
};

/// Which axes change, how, and the output shape: from `scales` or `sizes`
/// (one per entry of attrs.axes, or per input axis) and `roi`.
struct ResizePlan {
  llvm::SmallVector<int64_t> outShape;
  llvm::SmallVector<double> scales;   ///< per input axis
  llvm::SmallVector<double> roi;      ///< [starts..., ends...] per input axis
  llvm::SmallVector<int64_t> order;   ///< the axes to resize, in ONNX's order
};

/// Plans a Resize of an input of `inShape`; errors go to `loc` naming the
/// bad values (no scales nor sizes, a scale <= 0, a size < 0, ...).
mlir::FailureOr<ResizePlan> planResize(std::optional<mlir::Location> loc,
                                       llvm::ArrayRef<int64_t> inShape,
                                       const ResizeAttrs &attrs,
                                       std::optional<llvm::ArrayRef<double>> scales,
                                       std::optional<llvm::ArrayRef<int64_t>> sizes,
                                       std::optional<llvm::ArrayRef<double>> roi);

/// The taps of one axis: output position j reads input
/// indices[j * taps + t] with weights[j * taps + t]; an output position
/// whose source lies outside the input (tf_crop_and_resize) has index -1
/// in its first tap and takes the extrapolation value.
struct AxisTaps {
  int64_t taps = 0;
  std::vector<int64_t> indices;
  std::vector<double> weights;
};

/// The taps of `axis` of the plan (onnx.reference's
/// _interpolate_1d_along_axis, coefficient for coefficient).
AxisTaps resizeAxisTaps(const ResizeAttrs &attrs, const ResizePlan &plan,
                        llvm::ArrayRef<int64_t> inShape, int64_t axis);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_RESIZEMATH_H
