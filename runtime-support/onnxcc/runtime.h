//===- runtime.h - everything generated code includes -----------*- C++ -*-===//
#ifndef ONNXCC_RUNTIME_RUNTIME_H
#define ONNXCC_RUNTIME_RUNTIME_H

#include "onnxcc/attention.h"
#include "onnxcc/config.h"
#include "onnxcc/conv.h"
#include "onnxcc/data_movement.h"
#include "onnxcc/depthwise.h"
#include "onnxcc/elementwise.h"
#include "onnxcc/gemm.h"
#include "onnxcc/gemm_packed.h"
#include "onnxcc/gemm_packed_dots.h"
#include "onnxcc/indexing.h"
#include "onnxcc/layout.h"
#include "onnxcc/linalg.h"
#include "onnxcc/ml.h"
#include "onnxcc/ml_strings.h"
#include "onnxcc/normalization.h"
#include "onnxcc/pool.h"
#include "onnxcc/quantization.h"
#include "onnxcc/recurrent.h"
#include "onnxcc/reduce.h"
#include "onnxcc/grid_sample.h"
#include "onnxcc/resize.h"
#include "onnxcc/rotary.h"
#include "onnxcc/scalar_ops.h"
#include "onnxcc/sweep.h"
#include "onnxcc/types.h"
#include "onnxcc/window.h"

#endif // ONNXCC_RUNTIME_RUNTIME_H
