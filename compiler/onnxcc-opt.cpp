//===- onnxcc-opt.cpp - run onnxcc passes on MLIR files -------------------===//
#include "compiler/InitAll.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  onnxcc::registerAllDialects(registry);
  onnxcc::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "onnxcc pass driver\n", registry));
}
