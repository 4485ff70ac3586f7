//===- InertText.h - model strings made safe to print ------------*- C++ -*-===//
//
// A model file is untrusted input, and so is every string it carries: node
// and tensor names, producer, doc strings. These helpers are the only way
// such a string reaches generated code or a one-line error message: control
// and non-ASCII bytes become `\xNN` escapes and the length is bounded, so a
// newline cannot end a comment (or a message line) and a megabyte-long name
// cannot flood the output.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_DIALECTS_ONNX_INERTTEXT_H
#define ONNXCC_DIALECTS_ONNX_INERTTEXT_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace onnxcc {

/// Bytes of a model string kept in comments and messages; longer strings
/// are cut and marked with the number of bytes left out.
constexpr size_t kMaxInertNameBytes = 128;

/// `s` for the inside of a `//` comment in generated C++: printable ASCII
/// passes except `\` (a backslash before the line end splices the next line
/// into the comment) and `?` (`??/` is a backslash where trigraphs are on);
/// every other byte becomes `\xNN`.
std::string commentText(llvm::StringRef s,
                        size_t maxBytes = kMaxInertNameBytes);

/// `s` as a C++ string literal, quotes included, that reads back to
/// exactly its bytes: printable ASCII passes except `"`, `\` and `?`
/// (escaped as `\"`, `\\`, `\?`, so no trigraph forms); every other byte
/// is a three-digit octal escape (never a hex one, whose digits would run
/// on into a following hex-digit character). Not bounded: the caller caps
/// the strings (MlStrings.h); `s` holds no NUL byte.
std::string cppStringLiteral(llvm::StringRef s);

/// `s` for one line of a message on a terminal: control bytes (including
/// newlines and escape sequences) and non-ASCII bytes become `\xNN`.
std::string messageText(llvm::StringRef s,
                        size_t maxBytes = kMaxInertNameBytes);

} // namespace onnxcc

#endif // ONNXCC_DIALECTS_ONNX_INERTTEXT_H
