//===- attributes.h - the runtime's compiler attributes ---------*- C++ -*-===//
//
// The inlining and aliasing macros every runtime header uses, apart from
// config.h's SIMD selection: types.h needs only these, and the programs
// that include just it (onnxcc verify's harness, a caller's own code)
// should not parse xsimd, which is most of a runtime header's parse time.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_RUNTIME_ATTRIBUTES_H
#define ONNXCC_RUNTIME_ATTRIBUTES_H

#if defined(__GNUC__) || defined(__clang__)
#define ONNXCC_RESTRICT __restrict__
#define ONNXCC_INLINE inline __attribute__((always_inline))
// A lambda the caller needs inlined (a loop body passed to a helper).
#define ONNXCC_INLINE_LAMBDA __attribute__((always_inline))
// A kernel compiled once per element type and epilogue, whatever the
// shape: inlining it would bring back one copy per call site.
#define ONNXCC_NOINLINE inline __attribute__((noinline))
#else
#define ONNXCC_RESTRICT
#define ONNXCC_INLINE inline
#define ONNXCC_INLINE_LAMBDA
#define ONNXCC_NOINLINE inline
#endif

#endif // ONNXCC_RUNTIME_ATTRIBUTES_H
