//===- KernelOps.cpp - kernel-level dialect -------------------------------===//
#include "dialects/Kernel/KernelOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace onnxcc::kernel;

#include "dialects/Kernel/KernelDialect.cpp.inc"
#include "dialects/Kernel/KernelInterfaces.cpp.inc"

void KernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Kernel/KernelOps.cpp.inc"
      >();
}

/// A scalar body: one block whose arguments are `numArgs` scalars of the
/// element type and whose terminator yields one of that type. An empty
/// region (no epilogue) is accepted when `allowEmpty`.
static LogicalResult verifyScalarBody(Operation *op, Region &region,
                                      unsigned numArgs, Type element,
                                      bool allowEmpty) {
  if (region.empty())
    return allowEmpty ? success()
                      : op->emitOpError() << "expects a body block";
  if (!region.hasOneBlock())
    return op->emitOpError() << "expects a single-block body, got "
                             << region.getBlocks().size() << " blocks";
  Block &block = region.front();
  if (block.getNumArguments() != numArgs)
    return op->emitOpError() << "body takes " << block.getNumArguments()
                             << " arguments, expected " << numArgs;
  for (BlockArgument arg : block.getArguments())
    if (arg.getType() != element)
      return op->emitOpError() << "body argument type " << arg.getType()
                               << " differs from element type " << element;
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return op->emitOpError() << "body must end in kernel.yield";
  if (yield.getValue().getType() != element)
    return op->emitOpError() << "body yields " << yield.getValue().getType()
                             << ", expected " << element;
  return success();
}

Type onnxcc::kernel::computeType(Type element) {
  // The 16-, 8- and 4-bit floats compute in f32.
  if (isa<FloatType>(element) && element.getIntOrFloatBitWidth() <= 16)
    return Float32Type::get(element.getContext());
  if (auto it = dyn_cast<IntegerType>(element)) {
    // 4- and 2-bit integers compute in 8 bits (their storage wraps).
    if (it.getWidth() > 1 && it.getWidth() < 8)
      return IntegerType::get(element.getContext(), 8);
    if (!it.isSignless())
      return IntegerType::get(element.getContext(), it.getWidth());
  }
  return element;
}

LogicalResult onnxcc::kernel::verifyThreadCount(Operation *op) {
  const int64_t threads = cast<ThreadedOpInterface>(op).getThreadCount();
  if (threads < 1 || threads > KernelDialect::kMaxThreads)
    return op->emitOpError() << "threads must be in [1, "
                             << KernelDialect::kMaxThreads << "], got "
                             << threads;
  if (threads > 1 &&
      !getElementTypeOrSelf(op->getResult(0).getType()).isF32())
    return op->emitOpError() << "splits only f32 work across threads";
  return success();
}

/// The compute type of a tensor value's elements.
static Type elementOf(Value v) {
  return computeType(cast<ShapedType>(v.getType()).getElementType());
}

OpFoldResult WeightOp::fold(FoldAdaptor) { return getValue(); }

bool onnxcc::kernel::isVectorizableBody(Block &body) {
  auto f32OrMask = [](Type t) { return t.isF32() || t.isInteger(1); };
  if (!llvm::all_of(body.getArgumentTypes(), [](Type t) { return t.isF32(); }))
    return false;
  for (Operation &op : body) {
    if (isa<YieldOp>(op))
      return op.getOperand(0).getType().isF32();
    bool known = isa<arith::ConstantOp, arith::AddFOp, arith::SubFOp,
                     arith::MulFOp, arith::DivFOp, arith::NegFOp,
                     arith::RemFOp, arith::MaximumFOp, arith::MinimumFOp,
                     arith::CmpFOp, arith::SelectOp, math::ExpOp, math::LogOp,
                     math::Log1pOp, math::TanhOp, math::SqrtOp, math::AbsFOp,
                     math::SinOp, math::CosOp, math::TanOp, math::AsinOp,
                     math::AcosOp, math::AtanOp, math::SinhOp, math::CoshOp,
                     math::AsinhOp, math::AcoshOp, math::AtanhOp, math::ErfOp,
                     math::FloorOp, math::CeilOp, math::TruncOp,
                     math::RoundEvenOp, math::PowFOp, math::CopySignOp>(op);
    if (!known || !llvm::all_of(op.getResultTypes(), f32OrMask))
      return false;
    // A constant mask cannot be a batch: only f32 constants.
    if (isa<arith::ConstantOp>(op) && !op.getResult(0).getType().isF32())
      return false;
  }
  return false;
}

bool onnxcc::kernel::alternatesSweep(Operation *op) {
  auto gemm = dyn_cast<GemmOp>(op);
  return gemm && gemm.getPackedB() && gemm.getTransB();
}

/// Checks a `packed_b` GEMM's B: f32, A not transposed, and either B in
/// panels, [ceil(N / 32), K, 32] (kPanelPad in gemm_packed.h), or with
/// trans_b, B^T in dot groups, [ceil(N / 16), K, 16] (gemm_packed_dots.h).
static LogicalResult verifyPackedB(GemmOp op, ArrayRef<int64_t> a,
                                   ArrayRef<int64_t> b, ArrayRef<int64_t> y) {
  if (op.getTransA() || !elementOf(op.getA()).isF32() ||
      !elementOf(op.getB()).isF32() || !elementOf(op.getOutput()).isF32())
    return op.emitOpError()
           << "packs B only for an f32 product of an untransposed A";
  if (a.size() != 2 || y.size() != 2 || a[0] != y[0])
    return op.emitOpError() << "expects 2-D A and result with equal rows";
  int64_t width = op.getTransB() ? kPackedDotRows : kPackedPanel;
  int64_t panels = (y[1] + width - 1) / width;
  if (b.size() != 3 || b[0] != panels || b[1] != a[1] || b[2] != width)
    return op.emitOpError() << "expects packed B [" << panels << ", " << a[1]
                            << ", " << width << "]";
  return success();
}

LogicalResult GemmOp::verify() {
  auto a = cast<ShapedType>(getA().getType()).getShape();
  auto b = cast<ShapedType>(getB().getType()).getShape();
  auto y = cast<ShapedType>(getType()).getShape();
  if (getPackedB() && failed(verifyPackedB(*this, a, b, y)))
    return failure();
  if (a.size() != 2 || (!getPackedB() && b.size() != 2) || y.size() != 2)
    return emitOpError() << "expects 2-D operands and result";
  int64_t m = getTransA() ? a[1] : a[0], k = getTransA() ? a[0] : a[1];
  int64_t kb = getPackedB() ? k : getTransB() ? b[1] : b[0];
  int64_t n = getPackedB() ? y[1] : getTransB() ? b[0] : b[1];
  if (k != kb || y[0] != m || y[1] != n)
    return emitOpError() << "shapes do not form a product: A' is " << m << "x"
                         << k << ", B' is " << kb << "x" << n << ", result is "
                         << y[0] << "x" << y[1];
  if (getC()) {
    auto c = cast<ShapedType>(getC().getType()).getShape();
    bool ok = (c.size() == 1 && (c[0] == n || c[0] == 1)) ||
              (c.size() == 2 && (c[0] == m || c[0] == 1) &&
               (c[1] == n || c[1] == 1)) ||
              c.empty();
    if (!ok)
      return emitOpError() << "bias of rank " << c.size()
                           << " does not broadcast to " << m << "x" << n;
  }
  return verifyScalarBody(*this, getEpilogue(), 1, elementOf(getOutput()),
                          /*allowEmpty=*/true);
}

/// Whether the weight is Winograd F(2,3)'s transformed [16, O, C] (see
/// Kernel_Conv2dOp), not OIHW.
static bool hasWinogradWeight(Conv2dOp op) {
  return op.getAlgorithm() == "winograd";
}

/// `pointwise_lanes` reads W^T in panels of kPackedPanel output channels,
/// [ceil(O / kPackedPanel), C, kPackedPanel], and `im2col_lanes` the same
/// with the window kept, [ceil(O / kPackedPanel), C, KH, KW, kPackedPanel]
/// (conv_lanes.h).
static bool hasLanesWeight(Conv2dOp op) {
  return op.getAlgorithm() == "pointwise_lanes" ||
         op.getAlgorithm() == "im2col_lanes";
}

bool Conv2dOp::hasLaidOutWeight() {
  return hasWinogradWeight(*this) || hasLanesWeight(*this);
}

LogicalResult Conv2dOp::verify() {
  auto w = cast<ShapedType>(getWeight().getType()).getShape();
  auto b = cast<ShapedType>(getBias().getType()).getShape();
  if (hasWinogradWeight(*this)) {
    auto x = cast<ShapedType>(getInput().getType()).getShape();
    if (w.size() != 3 || w[0] != 16 || b.size() != 1 || b[0] != w[1] ||
        x.size() != 4 || w[2] != x[1])
      return emitOpError() << "expects Winograd weight [16, O, C] and [O] bias";
  } else if (hasLanesWeight(*this)) {
    auto x = cast<ShapedType>(getInput().getType()).getShape();
    auto y = cast<ShapedType>(getType()).getShape();
    constexpr int64_t panel = kPackedPanel;
    const bool windowed = getAlgorithm() == "im2col_lanes";
    const size_t rank = windowed ? 5 : 3;
    if (w.size() != rank || w.back() != panel || x.size() != 4 ||
        y.size() != 4 || w[1] != x[1] || w[0] != (y[1] + panel - 1) / panel ||
        b.size() != 1 || b[0] != y[1])
      return emitOpError() << "expects " << getAlgorithm()
                           << " weight [ceil(O / " << panel << "), C, "
                           << (windowed ? "KH, KW, " : "") << panel
                           << "] and [O] bias";
  } else if (w.size() != 4 || b.size() != 1 || b[0] != w[0]) {
    return emitOpError() << "expects OIHW weight and [O] bias, got ranks "
                         << w.size() << " and " << b.size();
  }
  if (!canUse(getAlgorithm()))
    return emitOpError() << "cannot use algorithm '" << getAlgorithm()
                         << "' for this convolution";
  if (getSplitDepth() && (getAlgorithm() != "pointwise" || getGroup() != 1 ||
                          getThreads() < 2))
    return emitOpError() << "splits its depth only as a pointwise "
                            "convolution of one group on several threads";
  return verifyScalarBody(*this, getEpilogue(), 1, elementOf(getOutput()),
                          /*allowEmpty=*/true);
}

std::array<int64_t, 2> Conv2dOp::getWindow() {
  if (hasWinogradWeight(*this))
    return {3, 3};
  if (getAlgorithm() == "pointwise_lanes")
    return {1, 1};
  auto w = cast<ShapedType>(getWeight().getType()).getShape();
  return {w[2], w[3]}; // OIHW, or im2col_lanes' [O / 32, C, KH, KW, 32]
}

int64_t Conv2dOp::getMacs() {
  auto x = cast<ShapedType>(getInput().getType()).getShape();
  auto [kh, kw] = getWindow();
  return cast<ShapedType>(getType()).getNumElements() * (x[1] / getGroup()) *
         kh * kw;
}

bool Conv2dOp::canUse(StringRef algorithm) {
  auto w = cast<ShapedType>(getWeight().getType()).getShape();
  if (hasWinogradWeight(*this))
    return algorithm == "winograd"; // the weight is in no other layout
  // A 1x1 window (the lanes layout has no other), no pads, stride 1.
  auto [kh, kw] = getWindow();
  const bool pointwise =
      kh == 1 && kw == 1 &&
      llvm::all_of(getPads(), [](int64_t p) { return p == 0; }) &&
      llvm::all_of(getStrides(), [](int64_t s) { return s == 1; });
  const bool ungroupedF32 = getGroup() == 1 && elementOf(getOutput()).isF32();
  const bool lanes = pointwise && ungroupedF32;
  if (hasLanesWeight(*this)) // nor are these weights in any other layout
    return algorithm == getAlgorithm() &&
           (algorithm == "im2col_lanes" ? ungroupedF32 : lanes);
  if (algorithm == "im2col")
    return true;
  if (algorithm == "implicit_gemm")
    return getGroup() == 1 &&
           llvm::all_of(getPads(), [](int64_t p) { return p >= 0; }) &&
           elementOf(getOutput()).isF32();
  if (algorithm == "winograd")
    return w[2] == 3 && w[3] == 3 && getGroup() == 1 &&
           llvm::all_of(getStrides(), [](int64_t s) { return s == 1; }) &&
           llvm::all_of(getDilations(), [](int64_t d) { return d == 1; }) &&
           elementOf(getOutput()).isF32();
  if (algorithm == "depthwise") {
    // One input and one output channel per group.
    auto x = cast<ShapedType>(getInput().getType()).getShape();
    return static_cast<int64_t>(getGroup()) == x[1] && w[0] == x[1] &&
           w[1] == 1;
  }
  if (algorithm == "pointwise")
    return pointwise;
  if (algorithm == "pointwise_lanes")
    return lanes;
  if (algorithm == "im2col_lanes")
    return ungroupedF32;
  return false;
}

int64_t Conv2dOp::getScratchElements() {
  auto x = cast<ShapedType>(getInput().getType()).getShape();
  auto w = cast<ShapedType>(getWeight().getType()).getShape();
  auto y = cast<ShapedType>(getType()).getShape();
  if (cast<ShapedType>(getType()).getNumElements() == 0)
    return 0;
  if (getAlgorithm() == "winograd") {
    // winograd_floats() (winograd.h): kScratch, 16 packed C x T inputs, 16
    // O x T products and 32 floats of slack, T the 2x2 output tiles; and
    // where threads transform their own inputs (winograd_own_inputs(): a
    // map of more than 16 tiles, at most 64 or 4C <= O, output channels a
    // multiple of the threads),
    // from the next 16-float line, each further thread's inputs and every
    // thread's staging of kStageBlock (8) channels (16 rows of T + 16 floats each).
    int64_t tiles = (y[2] + 1) / 2 * ((y[3] + 1) / 2);
    int64_t packedInputs = 16 * x[1] * ((tiles + 31) / 32 * 32);
    int64_t scratch = packedInputs + 16 * w[1] * tiles + 32;
    int64_t threads = getThreads();
    if (threads > 1 && tiles > 16 && (tiles <= 64 || 4 * x[1] <= w[1]) &&
        w[1] % threads == 0)
      scratch = (scratch + 15) / 16 * 16 + (threads - 1) * packedInputs +
                threads * 8 * 16 * (tiles + 16);
    return scratch;
  }
  if (getAlgorithm() == "implicit_gemm") {
    // implicit_shape::kScratch (conv_implicit.h): one zero-padded plane
    // per input channel of the Hp x Wp rows and columns the windows reach,
    // each row as SW phase rows of ceil(Wp / SW), and 32 floats of slack.
    auto d = getDilations(), s = getStrides();
    int64_t hp = (y[2] - 1) * s[0] + (w[2] - 1) * d[0] + 1;
    int64_t wp = (y[3] - 1) * s[1] + (w[3] - 1) * d[1] + 1;
    return x[1] * hp * s[1] * ((wp + s[1] - 1) / s[1]) + 32;
  }
  if (getAlgorithm() == "im2col_lanes") {
    // im2row() of one image (conv_lanes.h): C * KH * KW rows of OH * OW.
    auto [kh, kw] = getWindow();
    return x[1] * kh * kw * y[2] * y[3];
  }
  if (getSplitDepth()) // split_depth_floats() (conv_split_depth.h)
    return (getThreads() - 1) * cast<ShapedType>(getType()).getNumElements();
  if (getAlgorithm() != "im2col")
    return 0;
  // im2col of one group of one image: (C/group * KH * KW) x (OH * OW),
  // the columns padded to a multiple of 32 (the runtime's packed panels:
  // kPanelPad in gemm_packed.h). With an output of at least one element,
  // each factor is bounded by a tensor of at most 2^30 floats (weight,
  // output), so this cannot overflow; the thread count is at most
  // kMaxThreads.
  int64_t copies = getGroup() > 1 ? getThreads() : 1;
  int64_t columns = (y[2] * y[3] + 31) / 32 * 32;
  return (x[1] / getGroup()) * w[2] * w[3] * columns * copies;
}

int64_t Conv2dOp::getScratchBytes() { return getScratchElements() * 4; }

LogicalResult ElementwiseOp::verify() {
  auto out = cast<ShapedType>(getType()).getShape();
  for (Value in : getInputs()) {
    auto s = cast<ShapedType>(in.getType()).getShape();
    if (s.size() > out.size())
      return emitOpError() << "input of rank " << s.size()
                           << " exceeds result rank " << out.size();
    for (size_t i = 0; i < s.size(); ++i)
      if (s[i] != 1 && s[i] != out[out.size() - s.size() + i])
        return emitOpError() << "input dim " << i << " (" << s[i]
                             << ") does not broadcast to the result";
  }
  Region &body = getBody();
  if (body.empty() || body.front().getNumArguments() != getInputs().size())
    return emitOpError() << "body must take one scalar per input ("
                         << getInputs().size() << ")";
  for (auto [arg, in] : llvm::zip(body.front().getArguments(), getInputs()))
    if (arg.getType() != elementOf(in))
      return emitOpError() << "body argument type " << arg.getType()
                           << " differs from input element type "
                           << elementOf(in);
  auto yield = dyn_cast<YieldOp>(body.front().getTerminator());
  if (!yield || yield.getValue().getType() != elementOf(getOutput()))
    return emitOpError() << "body must yield one " << elementOf(getOutput());
  if (getThreads() > 1 && !isDenseFloatMap())
    return emitOpError() << "splits across threads only a float loop over "
                            "same-shape or one-element inputs with a "
                            "vectorizable body";
  return success();
}

bool ElementwiseOp::isDenseFloatMap() {
  auto out = cast<ShapedType>(getType());
  return out.getElementType().isF32() &&
         llvm::all_of(getInputs(),
                      [&](Value v) {
                        auto t = cast<ShapedType>(v.getType());
                        return t.getElementType().isF32() &&
                               (t.getShape() == out.getShape() ||
                                t.getNumElements() == 1);
                      }) &&
         isVectorizableBody(getBody().front());
}

LogicalResult ViewOp::verify() {
  auto in = cast<ShapedType>(getInput().getType());
  auto out = cast<ShapedType>(getType());
  // The same bytes: as many elements, each as wide (a BitCast may change
  // the element type, e.g. f32 to i32).
  // A bool is a byte in memory.
  auto bits = [](Type t) {
    return t.isInteger(1) ? 8u : t.isIntOrFloat() ? t.getIntOrFloatBitWidth() : 0u;
  };
  if (in.getNumElements() != out.getNumElements() ||
      bits(in.getElementType()) != bits(out.getElementType()) ||
      (out.getElementType().isInteger(1) && !in.getElementType().isInteger(1)))
    return emitOpError() << "cannot view " << in << " as " << out;
  return success();
}

LogicalResult SoftmaxOp::verify() {
  auto x = cast<ShapedType>(getInput().getType());
  if (x != cast<ShapedType>(getType()))
    return emitOpError() << "result type " << getType()
                         << " differs from the input's " << x;
  const int64_t axis = getAxis();
  if (axis < 0 || axis >= x.getRank())
    return emitOpError() << "axis " << axis << " is outside [0, "
                         << x.getRank() << ")";
  // The threaded kernel splits whole rows of a last axis.
  if (getThreads() > 1 && axis != x.getRank() - 1)
    return emitOpError() << "splits only a last axis across threads, got axis "
                         << axis << " of rank " << x.getRank();
  return success();
}

#define GET_OP_CLASSES
#include "dialects/Kernel/KernelOps.cpp.inc"
