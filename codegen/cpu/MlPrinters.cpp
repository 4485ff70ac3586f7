//===- MlPrinters.cpp - kernel.ml_* ---------------------------------------===//
#include "codegen/cpu/KernelPrinter.h"
#include "codegen/cpu/MlNestedTrees.h"

#include "dialects/Kernel/KernelOps.h"

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {

static LogicalResult printTreeEnsemble(PrintContext &c, raw_indented_ostream &os,
                                       k::MlTreeEnsembleOp op) {
  if (op.getNested())
    return printNestedTreeEnsemble(c, os, op);
  ArrayRef<int64_t> x = staticShape(op.getX()), s = staticShape(op.getScores());
  int64_t trees = staticShape(op.getRoots())[0];
  os << "onnxcc::rt::ml_tree_ensemble<" << x[0] << ", " << x[1] << ", "
     << trees << ", " << op.getNTargets() << ", " << s[1] << ", "
     << op.getDepth() << ", " << op.getAggregate() << ", "
     << op.getPostTransform() << ", " << (op.getBinary() ? "true" : "false")
     << ", " << op.getBranchMode() << ", "
     << (op.getMissing() ? "true" : "false") << ", "
     << (op.getDenseLeaves() ? "true" : "false") << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getX()) << ", " << c.ptr(op.getNodes()) << ",\n"
     << c.ptr(op.getThresholds()) << ", " << c.ptr(op.getMembers()) << ",\n"
     << c.ptr(op.getRoots()) << ", " << c.ptr(op.getTargets()) << ",\n"
     << c.ptr(op.getWeights()) << ", " << c.ptr(op.getBase()) << ",\n"
     << c.ptr(op.getScores()) << ");\n";
  os.unindent().unindent();
  return success();
}

static LogicalResult printSvmClassifier(PrintContext &c,
                                        raw_indented_ostream &os,
                                        k::MlSvmClassifierOp op) {
  ArrayRef<int64_t> x = staticShape(op.getX());
  int64_t sv = op.getVectors();
  os << "onnxcc::rt::ml_svm_classifier<" << x[0] << ", " << x[1] << ", "
     << op.getClasses() << ", " << sv << ", " << op.getNScores() << ", "
     << op.getColumns() << ", " << op.getKernel() << ", " << op.getDegree()
     << ", " << op.getPostTransform() << ", "
     << (op.getProba() ? "true" : "false") << ", " << op.getLabelMode() << ", "
     << op.getScoreMode() << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getX()) << ", " << c.ptr(op.getSupportVectors()) << ",\n"
     << c.ptr(op.getCoefficients()) << ", " << c.ptr(op.getRho()) << ",\n"
     << c.ptr(op.getStarts()) << ", " << c.ptr(op.getProbA()) << ", "
     << c.ptr(op.getProbB()) << ",\n"
     << c.ptr(op.getLabels()) << ", "
     << formatFloat(op.getGamma().convertToFloat()) << ", "
     << formatFloat(op.getCoef0().convertToFloat()) << ",\n"
     << c.ptr(op.getLabel()) << ", " << c.ptr(op.getScores()) << ");\n";
  os.unindent().unindent();
  return success();
}

void addMlPrinters(KernelPrinterTable &t) {
  addPrinter<k::MlTreeEnsembleOp>(t, printTreeEnsemble);
  addPrinter<k::MlSvmClassifierOp>(t, printSvmClassifier);
}

} // namespace onnxcc
