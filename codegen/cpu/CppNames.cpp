//===- CppNames.cpp - identifiers in generated C++ ------------------------===//
#include "codegen/cpu/CppNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace onnxcc {

/// Bytes of a model name kept in a mangled identifier.
static constexpr size_t kMaxMangledBytes = 32;

bool isValidCppName(llvm::StringRef name) {
  // C++20 keywords, alternative tokens, and macros g++ predefines in GNU
  // modes, plus the names the generated code itself lives beside.
  static const llvm::StringSet<> reserved = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand",
      "bitor", "bool", "break", "case", "catch", "char", "char8_t",
      "char16_t", "char32_t", "class", "co_await", "co_return", "co_yield",
      "compl", "concept", "const", "consteval", "constexpr", "constinit",
      "const_cast", "continue", "decltype", "default", "delete", "do",
      "double", "dynamic_cast", "else", "enum", "explicit", "export",
      "extern", "false", "float", "for", "friend", "goto", "if", "inline",
      "int", "long", "mutable", "namespace", "new", "noexcept", "not",
      "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected",
      "public", "register", "reinterpret_cast", "requires", "return",
      "short", "signed", "sizeof", "static", "static_assert", "static_cast",
      "struct", "switch", "template", "this", "thread_local", "throw",
      "true", "try", "typedef", "typeid", "typename", "union", "unsigned",
      "using", "virtual", "void", "volatile", "wchar_t", "while", "xor",
      "xor_eq", "linux", "unix", "i386", "std", "onnxcc", "xsimd"};
  if (name.empty() || llvm::isDigit(name[0]) || name[0] == '_' ||
      name.contains("__") || reserved.contains(name))
    return false;
  return llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

std::string ScopeNames::unique(llvm::StringRef prefix, llvm::StringRef modelName) {
  std::string base = prefix.str();
  for (char c : modelName.take_front(kMaxMangledBytes))
    base += llvm::isAlnum(c) ? c : '_';
  std::string name = base;
  for (int k = 2; !used.insert(name).second; ++k)
    name = base + "_" + std::to_string(k);
  return name;
}

} // namespace onnxcc
