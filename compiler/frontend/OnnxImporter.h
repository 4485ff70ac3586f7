//===- OnnxImporter.h - ONNX model to the onnx dialect ----------*- C++ -*-===//
#ifndef ONNXCC_COMPILER_FRONTEND_ONNXIMPORTER_H
#define ONNXCC_COMPILER_FRONTEND_ONNXIMPORTER_H

#include "compiler/frontend/TensorImport.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "onnx/onnx_pb.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace onnxcc {

/// The newest ai.onnx opset the importer knows (that of onnx 1.23, the
/// pinned test package); every op builder handles the versions up to it.
constexpr int64_t kMaxOpset = 28;
/// The newest ai.onnx.ml opset (that of onnx 1.23).
constexpr int64_t kMaxMlOpset = 5;

/// A parsed model file. Imported weights point into `proto` and into the
/// external data mapped in `external`, so it must outlive every module
/// imported from it.
struct LoadedModel {
  ::onnx::ModelProto proto;
  std::string path;      ///< as given on the command line, used in messages
  ExternalData external; ///< external data is read from the model's directory
};

/// Reads and parses `path`. Errors are emitted on the context's handler at
/// the model's location.
std::unique_ptr<LoadedModel> loadModel(mlir::MLIRContext &ctx,
                                       const std::string &path);

/// Parses a model held in memory (`bytes`); `path` names it in messages and
/// its directory is where external data may live.
std::unique_ptr<LoadedModel> parseModel(mlir::MLIRContext &ctx,
                                        llvm::StringRef bytes,
                                        const std::string &path);

/// The graph's real inputs: those that are not initializers (older
/// exporters list weights as inputs too). predict() takes them in this order.
std::vector<const ::onnx::ValueInfoProto *>
graphInputs(const ::onnx::GraphProto &graph);

/// A dynamic dimension of a graph input. `name` is its dim_param, or
/// "input:axis" (unnamedDimName) when it has none; --dim accepts both.
struct SymbolicDim {
  std::string name;
  std::string input; ///< the input's name
  int inputIndex;    ///< its position in graphInputs()
  int index;         ///< the dimension
};
std::vector<SymbolicDim> listSymbolicDims(const ::onnx::ModelProto &model);
/// "input:axis", the name of a dynamic dimension without a dim_param.
std::string unnamedDimName(llvm::StringRef input, int axis);

struct ImportOptions {
  /// Values for symbolic dimensions (--dim NAME=VALUE).
  std::map<std::string, int64_t> dims;
};

/// Imports the main graph as `func.func @main` in the onnx dialect. Result
/// types stay unranked until --onnxcc-shape-inference runs. Returns null
/// after emitting every error found (all unsupported ops at once).
mlir::OwningOpRef<mlir::ModuleOp> importModel(mlir::MLIRContext &ctx,
                                              LoadedModel &model,
                                              const ImportOptions &options);

} // namespace onnxcc

#endif // ONNXCC_COMPILER_FRONTEND_ONNXIMPORTER_H
