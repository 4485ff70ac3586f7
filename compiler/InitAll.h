//===- InitAll.h - every dialect and pass onnxcc registers ------*- C++ -*-===//
#ifndef ONNXCC_COMPILER_INITALL_H
#define ONNXCC_COMPILER_INITALL_H

#include "dialects/Kernel/KernelOps.h"
#include "dialects/Onnx/OnnxOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "passes/Passes.h"
#include "passes/Pipelines.h"

namespace onnxcc {

inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<onnx::OnnxDialect, kernel::KernelDialect,
                  mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect>();
}

inline void registerAllPasses() {
  registerOnnxccPasses();
  registerPipelines();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
}

} // namespace onnxcc

#endif // ONNXCC_COMPILER_INITALL_H
