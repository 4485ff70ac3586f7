//===- InertText.cpp - model strings made safe to print ------------------===//
#include "dialects/Onnx/InertText.h"

namespace onnxcc {

static std::string escape(llvm::StringRef s, size_t maxBytes,
                          bool (*passes)(unsigned char)) {
  static const char *hex = "0123456789abcdef";
  std::string out;
  llvm::StringRef kept = s.take_front(maxBytes);
  out.reserve(kept.size());
  for (unsigned char c : kept) {
    if (passes(c)) {
      out += static_cast<char>(c);
      continue;
    }
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  if (s.size() > kept.size())
    out += "...(+" + std::to_string(s.size() - kept.size()) + " bytes)";
  return out;
}

static bool printable(unsigned char c) { return c >= 0x20 && c < 0x7f; }

std::string commentText(llvm::StringRef s, size_t maxBytes) {
  return escape(s, maxBytes, [](unsigned char c) {
    return printable(c) && c != '\\' && c != '?';
  });
}

std::string cppStringLiteral(llvm::StringRef s) {
  std::string out = "\"";
  out.reserve(s.size() + 2);
  for (unsigned char c : s) {
    if (c == '"' || c == '\\' || c == '?') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (printable(c)) {
      out += static_cast<char>(c);
    } else {
      out += '\\';
      out += static_cast<char>('0' + (c >> 6));
      out += static_cast<char>('0' + ((c >> 3) & 7));
      out += static_cast<char>('0' + (c & 7));
    }
  }
  return out + "\"";
}

std::string messageText(llvm::StringRef s, size_t maxBytes) {
  return escape(s, maxBytes, printable);
}

} // namespace onnxcc
