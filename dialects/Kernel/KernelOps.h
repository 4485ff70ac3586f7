//===- KernelOps.h - kernel-level dialect -----------------------*- C++ -*-===//
#ifndef ONNXCC_DIALECTS_KERNEL_KERNELOPS_H
#define ONNXCC_DIALECTS_KERNEL_KERNELOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/Kernel/KernelDialect.h.inc"

#define GET_OP_CLASSES
#include "dialects/Kernel/KernelOps.h.inc"

#endif // ONNXCC_DIALECTS_KERNEL_KERNELOPS_H
