//===- Diagnostics.cpp - one-line errors naming model and node ------------===//
#include "compiler/Diagnostics.h"

#include "dialects/Onnx/NodeLocation.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace onnxcc {

std::string describeLocation(Location loc) {
  SmallVector<ModelPosition> positions = modelPositions(loc);
  if (!positions.empty()) {
    // Fused ops come from one model: name it once, then every node.
    std::string where = positions.front().model;
    SmallVector<std::string> names;
    for (const ModelPosition &p : positions)
      if (!p.name.empty())
        names.push_back(p.describe());
    if (!names.empty())
      where += ":" + llvm::join(names, " + ");
    return where;
  }
  if (isa<UnknownLoc>(loc))
    return "";
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file.getFilename().str() + ":" + std::to_string(file.getLine()) +
           ":" + std::to_string(file.getColumn());
  std::string s;
  llvm::raw_string_ostream os(s);
  os << loc;
  return s;
}

OneLineDiagnostics::OneLineDiagnostics(MLIRContext &ctx)
    : handler(&ctx, [this](Diagnostic &diag) {
        if (diag.getSeverity() != DiagnosticSeverity::Error)
          return success(); // notes and remarks are not part of the contract
        ++count;
        std::string msg = diag.str();
        for (char &c : msg)
          if (c == '\n')
            c = ' ';
        std::string where = describeLocation(diag.getLocation());
        llvm::errs() << "onnxcc: error: " << (where.empty() ? "" : where + ": ")
                     << msg << "\n";
        return success();
      }) {}

} // namespace onnxcc
