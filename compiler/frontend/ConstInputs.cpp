//===- ConstInputs.cpp - graph inputs bound at compile time ---------------===//
#include "compiler/frontend/ConstInputs.h"

#include "compiler/frontend/TensorImport.h"
#include "dialects/Onnx/NodeLocation.h"
#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;

namespace onnxcc {

/// Reads `path` as a TensorProto; on failure returns false with `error` set.
static bool readTensorFile(const std::string &path, ::onnx::TensorProto &t,
                           std::string &error) {
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return error = "cannot read '" + path + "': " + ec.message(), false;
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return error = "'" + path + "' is not a regular file", false;
  if (status.getSize() > kMaxTensorBytes)
    return error = "'" + path + "' holds " + std::to_string(status.getSize()) +
                   " bytes, more than the limit of " +
                   std::to_string(kMaxTensorBytes),
           false;
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf)
    return error = "cannot read '" + path + "': " + buf.getError().message(),
           false;
  llvm::StringRef bytes = (*buf)->getBuffer();
  if (!t.ParseFromArray(bytes.data(), (int)bytes.size()))
    return error = "'" + path + "' is not a TensorProto", false;
  if (t.data_location() == ::onnx::TensorProto::EXTERNAL)
    return error = "'" + path + "' keeps its data in an external file; "
                   "--const-input needs it inline",
           false;
  return true;
}

/// Whether `t` fits the input's declared element type and shape.
static bool matchesInput(const ::onnx::TensorProto &t,
                         const ::onnx::ValueInfoProto &input,
                         std::string &error) {
  const auto &tt = input.type().tensor_type();
  if (t.data_type() != tt.elem_type())
    return error = "holds " + onnxTypeName(t.data_type()) + ", the input is " +
                   onnxTypeName(tt.elem_type()),
           false;
  if (!tt.has_shape())
    return true;
  auto dims = [&] {
    std::string s = "[";
    for (int i = 0; i < t.dims_size(); ++i)
      s += (i ? "," : "") + std::to_string(t.dims(i));
    return s + "]";
  };
  if (tt.shape().dim_size() != t.dims_size())
    return error = "has shape " + dims() + ", the input has rank " +
                   std::to_string(tt.shape().dim_size()),
           false;
  for (int i = 0; i < t.dims_size(); ++i) {
    const auto &d = tt.shape().dim(i);
    if (d.has_dim_value() && d.dim_value() != t.dims(i))
      return error = "has shape " + dims() + ", the input's dim " +
                     std::to_string(i) + " is " + std::to_string(d.dim_value()),
             false;
  }
  return true;
}

LogicalResult bindConstInputs(MLIRContext &ctx, LoadedModel &model,
                              const std::map<std::string, std::string> &files) {
  Location loc = modelLocation(&ctx, model.path);
  auto *graph = model.proto.mutable_graph();
  bool ok = true;
  for (const auto &[name, path] : files) {
    const ::onnx::ValueInfoProto *input = nullptr;
    for (const auto *in : graphInputs(*graph))
      if (in->name() == name)
        input = in;
    std::string error, where = "--const-input " + name + ": ";
    if (!input) {
      emitError(loc) << where << "the model has no graph input '" << name
                     << "'";
      ok = false;
      continue;
    }
    if (!input->type().has_tensor_type()) {
      emitError(loc) << where << "graph input '" << name
                     << "' is not a tensor";
      ok = false;
      continue;
    }
    ::onnx::TensorProto t;
    if (!readTensorFile(path, t, error) || !matchesInput(t, *input, error)) {
      emitError(loc) << where << error;
      ok = false;
      continue;
    }
    t.set_name(name);
    *graph->add_initializer() = std::move(t);
  }
  return success(ok);
}

} // namespace onnxcc
