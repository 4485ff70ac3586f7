//===- PlanReport.cpp - memory budget and plan report ---------------------===//
//
// Every model string printed here (node names, op types) goes through
// messageText(): control and non-ASCII bytes become `\xNN`, long names are
// cut. The SVG then XML-escapes the result, so a name holding `<`, `&`,
// `"` or `]]>` stays text inside its <title>.
//
//===----------------------------------------------------------------------===//
#include "compiler/PlanReport.h"

#include "dialects/Kernel/KernelOps.h"
#include "dialects/Onnx/InertText.h"
#include "dialects/Onnx/NodeLocation.h"
#include "dialects/Onnx/TensorLimits.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <map>
#include <tuple>

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {

std::optional<int64_t> parseByteCount(StringRef s) {
  StringRef digits = s.take_while(llvm::isDigit);
  StringRef suffix = s.drop_front(digits.size());
  int64_t scale = 1;
  if (suffix == "K" || suffix == "KiB")
    scale = int64_t(1) << 10;
  else if (suffix == "M" || suffix == "MiB")
    scale = int64_t(1) << 20;
  else if (suffix == "G" || suffix == "GiB")
    scale = int64_t(1) << 30;
  else if (!suffix.empty())
    return std::nullopt;
  uint64_t count;
  // getAsInteger rejects an empty string and values beyond 64 bits.
  if (digits.getAsInteger(10, count) || count > uint64_t(INT64_MAX / scale))
    return std::nullopt;
  return int64_t(count) * scale;
}

/// The ops of @main in program order: position i is ops[i].
static SmallVector<Operation *> programOps(ModuleOp module) {
  SmallVector<Operation *> ops;
  if (auto func = module.lookupSymbol<func::FuncOp>("main"))
    for (Operation &op : func.getBody().front())
      ops.push_back(&op);
  return ops;
}

/// "'conv1' (Conv)", the nodes of a fused op joined by " + ", or the
/// kernel op's name for an op the compiler made.
static std::string nodeText(Operation *op) {
  SmallVector<std::string> names;
  for (const ModelPosition &p : modelPositions(op->getLoc())) {
    if (p.name.empty())
      continue;
    std::string s = "'" + messageText(p.name) + "'";
    if (!p.opType.empty())
      s += " (" + messageText(p.opType) + ")";
    names.push_back(s);
  }
  if (names.empty())
    return op->getName().getStringRef().str();
  std::string text = llvm::join(names, " + ");
  if (int64_t more = omittedPositions(op->getLoc()))
    text += " (+" + std::to_string(more) + " more nodes)";
  return text;
}

/// The tensor a buffer holds: its producer, the result number for ops
/// with several, and how many tensors share it in place.
static std::string bufferText(const ArenaBuffer &b) {
  if (b.result < 0)
    return "scratch of " + nodeText(b.op);
  std::string text = nodeText(b.op);
  if (b.op->getNumResults() > 1)
    text += " result " + std::to_string(b.result);
  if (b.hosted)
    text += " (+" + std::to_string(b.hosted) + " in place)";
  return text;
}

/// The buffers live at `position`, largest first (ties in plan order).
static std::vector<const ArenaBuffer *> liveAt(const ArenaLayout &layout,
                                               int64_t position) {
  std::vector<const ArenaBuffer *> live;
  for (const ArenaBuffer &b : layout.buffers)
    if (b.firstUse <= position && position <= b.lastUse)
      live.push_back(&b);
  llvm::stable_sort(live, [](const ArenaBuffer *a, const ArenaBuffer *b) {
    return a->bytes > b->bytes;
  });
  return live;
}

/// How a list of the largest ends: " (N largest of M)" when some are left
/// out, nothing when it is complete.
static std::string shownOf(size_t shown, size_t all) {
  if (shown == all)
    return "";
  return " (" + std::to_string(shown) + " largest of " + std::to_string(all) +
         ")";
}

/// Bytes of the model path kept in the reports' headings.
constexpr size_t kMaxPathBytes = 1024;

/// Buffers (or weights) named in a budget error at most.
constexpr size_t kNamedInError = 3;

static void checkArena(ModuleOp module, const ArenaLayout &layout,
                       int64_t maxArena) {
  std::string msg;
  llvm::raw_string_ostream os(msg);
  os << "the memory plan needs an arena of " << layout.arenaBytes
     << " bytes, over --max-arena " << maxArena;
  SmallVector<Operation *> ops = programOps(module);
  int64_t p = layout.peakPosition;
  if (p >= 0 && p < (int64_t)ops.size()) {
    std::vector<const ArenaBuffer *> live = liveAt(layout, p);
    size_t shown = std::min(live.size(), kNamedInError);
    os << "; live at the peak (op #" << p << ", " << nodeText(ops[p]) << "): ";
    for (size_t i = 0; i < shown; ++i)
      os << (i ? ", " : "") << bufferText(*live[i]) << " " << live[i]->bytes
         << " bytes";
    os << shownOf(shown, live.size());
  }
  emitError(module.getLoc()) << msg;
}

static void checkWeights(ModuleOp module, int64_t blobBytes,
                         int64_t maxWeights) {
  // Weights that share contents share a place in the blob: count each
  // place once, named by the first weight there.
  std::map<int64_t, std::pair<int64_t, Operation *>> places;
  for (Operation *op : programOps(module)) {
    auto w = dyn_cast<k::WeightOp>(op);
    auto offset = w ? w->getAttrOfType<IntegerAttr>(
                          k::KernelDialect::kBlobOffsetAttr)
                    : nullptr;
    if (offset)
      places.try_emplace(
          offset.getInt(),
          checkedTensorBytes(cast<ShapedType>(w.getType())).value_or(0), op);
  }
  std::vector<std::pair<int64_t, Operation *>> largest;
  for (auto &[offset, place] : places)
    largest.push_back(place);
  llvm::stable_sort(largest, [](auto &a, auto &b) { return a.first > b.first; });
  size_t shown = std::min(largest.size(), kNamedInError);
  std::string msg;
  llvm::raw_string_ostream os(msg);
  os << "the weights need a blob of " << blobBytes << " bytes, over --max-weights "
     << maxWeights << "; largest: ";
  for (size_t i = 0; i < shown; ++i)
    os << (i ? ", " : "") << nodeText(largest[i].second) << " "
       << largest[i].first << " bytes";
  os << shownOf(shown, largest.size());
  emitError(module.getLoc()) << msg;
}

LogicalResult checkMemoryBudget(ModuleOp module, const ArenaLayout &layout,
                                const MemoryBudget &budget) {
  bool over = false;
  if (budget.maxArena && layout.arenaBytes > *budget.maxArena) {
    checkArena(module, layout, *budget.maxArena);
    over = true;
  }
  auto blob = module->getAttrOfType<IntegerAttr>(k::KernelDialect::kBlobBytesAttr);
  if (budget.maxWeights && blob && blob.getInt() > *budget.maxWeights) {
    checkWeights(module, blob.getInt(), *budget.maxWeights);
    over = true;
  }
  return failure(over);
}

/// One line saying what the plan amounts to, for both reports' headings.
static std::string summary(ModuleOp module, const ArenaLayout &layout) {
  std::string s = "arena " + std::to_string(layout.arenaBytes) +
                  " bytes; peak live " + std::to_string(layout.peakLiveBytes) +
                  " bytes at op #" + std::to_string(layout.peakPosition);
  SmallVector<Operation *> ops = programOps(module);
  if (!layout.buffers.empty() && layout.peakPosition < (int64_t)ops.size())
    s += " (" + nodeText(ops[layout.peakPosition]) + ")";
  s += "; " + std::to_string(layout.buffers.size()) + " buffers over " +
       std::to_string(layout.positions) + " program positions";
  if (layout.callStateOffset >= 0)
    s += "; call state at offset " + std::to_string(layout.callStateOffset);
  return s;
}

/// The buffers in program order (first use, then offset).
static std::vector<const ArenaBuffer *> byPosition(const ArenaLayout &layout) {
  std::vector<const ArenaBuffer *> rows;
  for (const ArenaBuffer &b : layout.buffers)
    rows.push_back(&b);
  llvm::stable_sort(rows, [](const ArenaBuffer *a, const ArenaBuffer *b) {
    return std::tie(a->firstUse, a->offset) < std::tie(b->firstUse, b->offset);
  });
  return rows;
}

std::string planTable(ModuleOp module, const ArenaLayout &layout,
                      StringRef model) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "# memory plan of " << messageText(model, kMaxPathBytes) << "\n# "
     << summary(module, layout) << "\n"
     << llvm::format("# %5s %6s %12s %12s  %-20s %s\n", "first", "last",
                     "offset", "bytes", "op", "tensor");
  for (const ArenaBuffer *b : byPosition(layout))
    os << llvm::format("%7lld %6lld %12lld %12lld  %-20s ",
                       (long long)b->firstUse, (long long)b->lastUse,
                       (long long)b->offset, (long long)b->bytes,
                       b->op->getName().getStringRef().str().c_str())
       << bufferText(*b) << "\n";
  return s;
}

/// `s` as XML character data or attribute value.
static std::string xmlText(StringRef s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&apos;"; break;
    default: out += c;
    }
  }
  return out;
}

std::string planSvg(ModuleOp module, const ArenaLayout &layout,
                    StringRef model) {
  // A fixed pixel frame around a nested <svg> whose viewBox is the plan
  // itself (positions by bytes): every rectangle is written in exact
  // integers and the renderer does the scaling.
  constexpr int kLeft = 70, kTop = 60, kWidth = 900, kHeight = 480;
  int64_t cols = std::max<int64_t>(layout.positions, 1);
  int64_t rows = std::max<int64_t>(layout.arenaBytes, 1);
  std::string title =
      xmlText("memory plan of " + messageText(model, kMaxPathBytes));
  std::string heading = xmlText(summary(module, layout));
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kLeft + kWidth + 30
     << "\" height=\"" << kTop + kHeight + 50 << "\" font-family=\"sans-serif\""
     << " font-size=\"12\">\n"
     << "<title>" << title << "</title>\n"
     << "<text x=\"" << kLeft << "\" y=\"20\" font-weight=\"bold\">" << title
     << "</text>\n"
     << "<text x=\"" << kLeft << "\" y=\"40\">" << heading << "</text>\n"
     << "<svg x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << kWidth
     << "\" height=\"" << kHeight << "\" viewBox=\"0 0 " << cols << " " << rows
     << "\" preserveAspectRatio=\"none\">\n"
     << "<path d=\"M0 0H" << cols << "V" << rows << "H0Z\" fill=\"#f4f4f4\"/>\n";
  for (auto [i, b] : llvm::enumerate(layout.buffers)) {
    std::string fill = b.result < 0
                           ? std::string("#b0b0b0")
                           : "hsl(" + std::to_string(i * 137 % 360) + ",55%,62%)";
    std::string tip = bufferText(b) + ": " + std::to_string(b.bytes) +
                      " bytes at offset " + std::to_string(b.offset) +
                      ", ops #" + std::to_string(b.firstUse) + " to #" +
                      std::to_string(b.lastUse) + ", " +
                      b.op->getName().getStringRef().str();
    os << "<rect x=\"" << b.firstUse << "\" y=\"" << b.offset << "\" width=\""
       << b.lastUse - b.firstUse + 1 << "\" height=\""
       << std::max<int64_t>(b.bytes, 1) << "\" fill=\"" << fill
       << "\" stroke=\"#ffffff\" stroke-width=\"0.5\""
       << " vector-effect=\"non-scaling-stroke\"><title>" << xmlText(tip)
       << "</title></rect>\n";
  }
  // The peak: a line through the middle of its column.
  os << "<path d=\"M" << layout.peakPosition << ".5 0V" << rows
     << "\" stroke=\"#d00000\" stroke-width=\"1\""
     << " vector-effect=\"non-scaling-stroke\"/>\n</svg>\n";
  int bottom = kTop + kHeight;
  os << "<text x=\"" << kLeft << "\" y=\"" << bottom + 16 << "\">op #0</text>\n"
     << "<text x=\"" << kLeft + kWidth << "\" y=\"" << bottom + 16
     << "\" text-anchor=\"end\">op #" << cols - 1 << "</text>\n"
     << "<text x=\"" << kLeft + kWidth / 2 << "\" y=\"" << bottom + 32
     << "\" text-anchor=\"middle\">program position</text>\n"
     << "<text x=\"" << kLeft - 6 << "\" y=\"" << kTop + 10
     << "\" text-anchor=\"end\">0</text>\n"
     << "<text x=\"" << kLeft - 6 << "\" y=\"" << bottom
     << "\" text-anchor=\"end\">" << layout.arenaBytes << "</text>\n"
     << "<text transform=\"translate(" << kLeft - 40 << " " << kTop + kHeight / 2
     << ") rotate(-90)\" text-anchor=\"middle\">arena offset (bytes)</text>\n"
     << "</svg>\n";
  return s;
}

} // namespace onnxcc
