//===- CppNames.h - identifiers in generated C++ ----------------*- C++ -*-===//
//
// Model strings never become identifiers as they are. A graph input or
// output name is mangled (every byte outside [A-Za-z0-9] becomes `_`,
// bounded length) and always carries an `in_` / `out_` prefix, which no
// C++ keyword, standard macro or name the generated code uses itself
// starts with; ScopeNames then makes it unique in its scope.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_CODEGEN_CPU_CPPNAMES_H
#define ONNXCC_CODEGEN_CPU_CPPNAMES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <string>

namespace onnxcc {

/// Whether `name` can be a C++ namespace chosen by the user (--name): an
/// identifier that is not a keyword, an alternative token (`and`), a
/// predefined macro of GNU modes (`linux`) or reserved (`_X`, `a__b`).
bool isValidCppName(llvm::StringRef name);

/// The identifiers of one C++ scope of the generated code.
class ScopeNames {
public:
  /// `prefix` followed by `modelName` mangled, made unique in this scope by
  /// a `_2`, `_3`... suffix.
  std::string unique(llvm::StringRef prefix, llvm::StringRef modelName);

private:
  llvm::StringSet<> used;
};

} // namespace onnxcc

#endif // ONNXCC_CODEGEN_CPU_CPPNAMES_H
