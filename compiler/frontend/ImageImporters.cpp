//===- ImageImporters.cpp - builders of the resizing ONNX ops ------------===//
//
// Resize across its opsets, and the deprecated Upsample, all as onnx.resize:
// Resize-10 and Upsample scale with asymmetric coordinates and, for
// nearest, the floor of the source position (what Resize-11 spells
// coordinate_transformation_mode=asymmetric, nearest_mode=floor).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/OpImporters.h"

#include "dialects/Onnx/OnnxOps.h"
#include "llvm/ADT/StringExtras.h"
#include <cmath>

using namespace mlir;

namespace onnxcc {
namespace o = ::onnxcc::onnx;

namespace {

LogicalResult checkChoice(NodeContext &n, StringRef name, const std::string &value,
                          ArrayRef<StringRef> allowed) {
  if (llvm::is_contained(allowed, value))
    return success();
  return n.error(name + " must be one of " + llvm::join(allowed, ", ") +
                 ", got '" + value + "'");
}

LogicalResult build(NodeContext &n, Value roi, Value scales, Value sizes,
                    std::string mode, std::string coords, std::string nearest) {
  Builder &b = n.builder;
  std::string policy = n.getString("keep_aspect_ratio_policy", "stretch");
  if (failed(checkChoice(n, "mode", mode, {"nearest", "linear", "cubic"})) ||
      failed(checkChoice(n, "coordinate_transformation_mode", coords,
                         {"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel",
                          "align_corners", "asymmetric", "tf_crop_and_resize"})) ||
      failed(checkChoice(n, "nearest_mode", nearest,
                         {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"})) ||
      failed(checkChoice(n, "keep_aspect_ratio_policy", policy,
                         {"stretch", "not_larger", "not_smaller"})))
    return failure();
  int64_t antialias = n.getInt("antialias", 0);
  if (antialias && mode == "nearest")
    return n.error("antialias does not apply to mode nearest");
  float cubicA = n.getFloat("cubic_coeff_a", -0.75f);
  if (!std::isfinite(cubicA) || std::fabs(cubicA) > 1e6f)
    return n.error("cubic_coeff_a " + std::to_string(cubicA) +
                   " is not a finite number within 1e6");
  DenseI64ArrayAttr axes;
  if (n.has("axes"))
    axes = b.getDenseI64ArrayAttr(n.getInts("axes"));
  n.results.push_back(o::ResizeOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0), roi, scales,
      sizes, b.getStringAttr(mode), b.getStringAttr(coords),
      b.getStringAttr(nearest), b.getStringAttr(policy),
      b.getF32FloatAttr(cubicA),
      b.getI64IntegerAttr(n.getInt("exclude_outside", 0)),
      b.getI64IntegerAttr(antialias),
      b.getF32FloatAttr(n.getFloat("extrapolation_value", 0.0f)), axes));
  return success();
}

LogicalResult importResize(NodeContext &n) {
  std::string mode = n.getString("mode", "nearest");
  if (n.opset < 11) { // Resize-10: (X, scales)
    if (failed(n.arity(2, 2)))
      return failure();
    return build(n, Value(), n.operand(1), Value(), mode, "asymmetric", "floor");
  }
  if (failed(n.arity(1, 4)))
    return failure();
  return build(n, n.operand(1), n.operand(2), n.operand(3), mode,
               n.getString("coordinate_transformation_mode", "half_pixel"),
               n.getString("nearest_mode", "round_prefer_floor"));
}

/// GridSample: opset 16's bilinear/bicubic are opset 20's linear/cubic.
LogicalResult importGridSample(NodeContext &n) {
  if (failed(n.arity(2, 2)))
    return failure();
  std::string mode = n.getString("mode", n.opset < 20 ? "bilinear" : "linear");
  if (mode == "bilinear")
    mode = "linear";
  else if (mode == "bicubic")
    mode = "cubic";
  int64_t align = n.getInt("align_corners", 0);
  if (align != 0 && align != 1)
    return n.error("align_corners " + Twine(align) + " is not 0 or 1");
  n.results.push_back(o::GridSampleOp::create(
      n.builder, n.loc, n.unrankedLike(n.operand(0)), n.operand(0),
      n.operand(1), mode, n.getString("padding_mode", "zeros"), align));
  return success();
}

LogicalResult importUpsample(NodeContext &n) {
  std::string mode = n.getString("mode", "nearest");
  if (mode == "bilinear") // opset 7's spelling
    mode = "linear";
  Value scales;
  if (n.opset < 9) { // scales was an attribute
    if (failed(n.arity(1, 1)))
      return failure();
    const auto *a = n.typedAttr("scales", ::onnx::AttributeProto::FLOATS);
    if (!a)
      return n.error("needs a scales attribute of floats");
    SmallVector<float> s(a->floats().begin(), a->floats().end());
    auto type = RankedTensorType::get({(int64_t)s.size()}, n.builder.getF32Type());
    scales = o::ConstantOp::create(n.builder, n.loc, type,
                                   DenseElementsAttr::get(type, ArrayRef<float>(s)));
  } else {
    if (failed(n.arity(2, 2)))
      return failure();
    scales = n.operand(1);
  }
  return build(n, Value(), scales, Value(), mode, "asymmetric", "floor");
}

} // namespace

void addImageImporters(llvm::StringMap<OpImportFn> &t) {
  t["Resize"] = importResize;
  t["Upsample"] = importUpsample;
  t["GridSample"] = importGridSample;
}

} // namespace onnxcc
