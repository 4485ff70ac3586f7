//===- ModelMutator.h - structure-aware mutations of ONNX models -*- C++ -*-===//
//
// libprotobuf-mutator needs protobuf reflection, and Debian's onnx.proto is
// LITE_RUNTIME (no descriptors), so onnxcc-fuzz mutates ModelProtos by hand:
// each mutation is one thing a stranger's model could get wrong (an attribute
// out of range or of the wrong type, a dangling or cyclic edge, a tensor whose
// bytes disagree with its dims, an external-data reference, ...), applied to
// a model that otherwise still parses, so that inputs get past the protobuf
// parser and the importer's checks and reach the passes and the emitter.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_TESTS_FUZZ_MODELMUTATOR_H
#define ONNXCC_TESTS_FUZZ_MODELMUTATOR_H

#include "onnx/onnx_pb.h"
#include <cstddef>
#include <random>

namespace onnxcc::fuzz {

using Rng = std::minstd_rand;

/// Applies one to four random structural mutations to `model`. Each one adds
/// at most a few hundred bytes, so the caller only needs to check the
/// serialized size against libFuzzer's limit.
void mutateModel(::onnx::ModelProto &model, Rng &rng);

/// Moves a random node, initializer, graph input or graph output of `from`
/// into `into` (libFuzzer's cross-over of two corpus entries).
void crossOver(::onnx::ModelProto &into, const ::onnx::ModelProto &from,
               Rng &rng);

} // namespace onnxcc::fuzz

#endif // ONNXCC_TESTS_FUZZ_MODELMUTATOR_H
