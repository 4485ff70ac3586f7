//===- Diagnostics.cpp - one-line errors naming model and node ------------===//
#include "compiler/Diagnostics.h"

#include "dialects/Onnx/InertText.h"
#include "dialects/Onnx/NodeLocation.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace onnxcc {

std::string describeLocation(Location loc) {
  SmallVector<ModelPosition> positions = modelPositions(loc);
  if (!positions.empty()) {
    // Fused ops come from one model: name it once, then every node.
    std::string where = messageText(positions.front().model, kMaxErrorLineBytes);
    SmallVector<std::string> names;
    for (const ModelPosition &p : positions)
      if (!p.name.empty())
        names.push_back(p.describe(messageText));
    if (!names.empty())
      where += ":" + llvm::join(names, " + ");
    if (int64_t more = omittedPositions(loc))
      where += " (+" + std::to_string(more) + " more nodes)";
    return where;
  }
  if (isa<UnknownLoc>(loc))
    return "";
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return messageText(file.getFilename(), kMaxErrorLineBytes) + ":" +
           std::to_string(file.getLine()) + ":" +
           std::to_string(file.getColumn());
  std::string s;
  llvm::raw_string_ostream os(s);
  os << loc;
  return messageText(s, kMaxErrorLineBytes);
}

int failWith(StringRef where, StringRef message) {
  printErrorLine(where, message);
  return 1;
}

std::string joinPath(StringRef dir, const Twine &file) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, file);
  return std::string(path);
}

void printErrorLine(StringRef where, StringRef message) {
  std::string line = "onnxcc: error: ";
  if (!where.empty())
    line += where.str() + ": ";
  line += message.str();
  llvm::errs() << messageText(line, kMaxErrorLineBytes) << "\n";
}

/// MLIR's verifier follows the error a failed shape rule emitted with a
/// generic second one at the same op; the first already says why.
static bool isInferenceFollowUp(StringRef message) {
  return message.ends_with("op failed to infer returned types");
}

OneLineDiagnostics::OneLineDiagnostics(MLIRContext &ctx)
    : handler(&ctx, [this](Diagnostic &diag) {
        if (diag.getSeverity() != DiagnosticSeverity::Error)
          return success(); // notes and remarks are not part of the contract
        std::string where = describeLocation(diag.getLocation());
        std::string message = diag.str();
        if (count && where == lastWhere && isInferenceFollowUp(message))
          return success();
        ++count;
        lastWhere = where;
        printErrorLine(where, message);
        return success();
      }) {}

} // namespace onnxcc
