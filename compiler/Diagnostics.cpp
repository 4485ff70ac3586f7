//===- Diagnostics.cpp - one-line errors naming model and node ------------===//
#include "compiler/Diagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace onnxcc {

std::string describeLocation(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    std::string s;
    for (Location l : fused.getLocations()) {
      std::string part = describeLocation(l);
      if (s.empty())
        s = part;
      else if (auto pos = part.find(':'); pos != std::string::npos)
        s += " + " + part.substr(pos + 1); // same model: list the nodes
    }
    return s;
  }
  if (auto name = dyn_cast<NameLoc>(loc)) {
    Location child = name.getChildLoc();
    std::string node = name.getName().str();
    if (auto op = dyn_cast<NameLoc>(child))
      return describeLocation(op.getChildLoc()) + ":" + node + " (" +
             op.getName().str() + ")";
    return describeLocation(child) + ":" + node;
  }
  if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    if (file.getLine() == 0)
      return file.getFilename().str();
    return file.getFilename().str() + ":" + std::to_string(file.getLine()) +
           ":" + std::to_string(file.getColumn());
  }
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
        llvm::errs() << "onnxcc: error: " << describeLocation(diag.getLocation())
                     << ": " << msg << "\n";
        return success();
      }) {}

} // namespace onnxcc
