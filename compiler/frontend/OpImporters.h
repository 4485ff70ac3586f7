//===- OpImporters.h - one builder per ONNX operator ------------*- C++ -*-===//
#ifndef ONNXCC_COMPILER_FRONTEND_OPIMPORTERS_H
#define ONNXCC_COMPILER_FRONTEND_OPIMPORTERS_H

#include "compiler/frontend/TensorImport.h"
#include "mlir/IR/Builders.h"
#include "onnx/onnx_pb.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <string>

namespace onnxcc {

/// What an op builder sees of one ONNX node.
struct NodeContext {
  mlir::OpBuilder &builder;
  mlir::Location loc;
  const ::onnx::NodeProto &node;
  llvm::SmallVector<mlir::Value> operands; ///< null for omitted optional inputs
  int64_t opset;
  ExternalData &external; ///< for Constant values stored outside the model
  llvm::SmallVector<mlir::Value> results; ///< filled by the builder
  /// Attributes the builder looked at (through attr() and its getters).
  mutable llvm::StringSet<> consulted;
  /// The first attribute read as a type it does not have.
  mutable std::string attributeError;

  const ::onnx::AttributeProto *attr(llvm::StringRef name) const;
  /// The attribute `name` if present and of `type`; null (and an error for
  /// checkAttributes()) if present with another type.
  const ::onnx::AttributeProto *
  typedAttr(llvm::StringRef name,
            ::onnx::AttributeProto::AttributeType type) const;
  int64_t getInt(llvm::StringRef name, int64_t dflt) const;
  float getFloat(llvm::StringRef name, float dflt) const;
  std::string getString(llvm::StringRef name, const std::string &dflt) const;
  llvm::SmallVector<int64_t> getInts(llvm::StringRef name) const;
  bool has(llvm::StringRef name) const { return attr(name) != nullptr; }
  mlir::Value operand(unsigned i) const {
    return i < operands.size() ? operands[i] : mlir::Value();
  }
  /// An unranked tensor of `element`: shape inference refines it later.
  mlir::Type unranked(mlir::Type element) const;
  mlir::Type unrankedLike(mlir::Value v) const;
  /// An i64 constant tensor (for attributes that became inputs in later
  /// opsets, e.g. Unsqueeze axes).
  mlir::Value i64Constant(llvm::ArrayRef<int64_t> values) const;
  mlir::Value f32Scalar(float v) const;
  mlir::LogicalResult error(const llvm::Twine &message) const;
  /// Checks the number of inputs the node gives (omitted optional ones
  /// count) and that the first `min` are present.
  mlir::LogicalResult arity(unsigned min, unsigned max) const;
  /// Fails if an attribute was read as the wrong type, or, naming them, if
  /// the node has attributes the builder never read and that could change
  /// the result: ignoring them would be a silent wrong answer (e.g.
  /// Squeeze-13 with an `axes` attribute, Concat `axis` given as a list).
  mlir::LogicalResult checkAttributes() const;
};

using OpImportFn = mlir::LogicalResult (*)(NodeContext &);

/// ONNX op type (default domain) -> builder. The only place where ONNX's
/// CamelCase operator names appear.
const llvm::StringMap<OpImportFn> &opImporters();

/// The builders of one op family (ElementwiseImporters.cpp, ...), added to
/// the table.
void addElementwiseImporters(llvm::StringMap<OpImportFn> &table);
void addLinalgImporters(llvm::StringMap<OpImportFn> &table);
void addConvPoolImporters(llvm::StringMap<OpImportFn> &table);
void addRecurrentImporters(llvm::StringMap<OpImportFn> &table);
void addQuantizationImporters(llvm::StringMap<OpImportFn> &table);
void addDataMovementImporters(llvm::StringMap<OpImportFn> &table);
void addNormalizationImporters(llvm::StringMap<OpImportFn> &table);
void addReductionImporters(llvm::StringMap<OpImportFn> &table);
void addImageImporters(llvm::StringMap<OpImportFn> &table);
void addAttentionImporters(llvm::StringMap<OpImportFn> &table);
void addSignalImporters(llvm::StringMap<OpImportFn> &table);
void addRefusedImporters(llvm::StringMap<OpImportFn> &table);
void addLossImporters(llvm::StringMap<OpImportFn> &table);
void addRotaryImporters(llvm::StringMap<OpImportFn> &table);
/// ai.onnx.ml builders, keyed "ai.onnx.ml.<OpType>" (MlImporters.cpp).
void addMlImporters(llvm::StringMap<OpImportFn> &table);

} // namespace onnxcc

#endif // ONNXCC_COMPILER_FRONTEND_OPIMPORTERS_H
