//===- ort_capi.h - the slice of ONNX Runtime's C API the benchmark uses -===//
//
// The onnxruntime wheel in the test venv ships libonnxruntime.so but no C
// headers, so the benchmark declares the few entries it calls itself.
// OrtApi is a table of function pointers that ONNX Runtime only ever
// appends to, so an entry's index is stable across versions; the indices
// below are those of the published API. Unused slots
// are `void *` padding. The benchmark checks ORT's outputs against the
// model's reference data, so a wrong index cannot go unnoticed.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXCC_BENCH_ORT_CAPI_H
#define ONNXCC_BENCH_ORT_CAPI_H

#include <cstddef>
#include <cstdint>

extern "C" {

struct OrtStatus;
struct OrtEnv;
struct OrtSession;
struct OrtSessionOptions;
struct OrtMemoryInfo;
struct OrtValue;
struct OrtRunOptions;

/// ONNX TensorProto data types, which ORT's element types follow.
using OrtElementType = int;
using OrtStatusPtr = OrtStatus *;

struct OrtApi {
  void *slot0_1[2];                                              // 0..1
  const char *(*GetErrorMessage)(const OrtStatus *);             // 2
  OrtStatusPtr (*CreateEnv)(int level, const char *id, OrtEnv **); // 3
  void *slot4_6[3];                                              // 4..6
  OrtStatusPtr (*CreateSession)(const OrtEnv *, const char *path,
                                const OrtSessionOptions *,
                                OrtSession **);                  // 7
  void *slot8[1];                                                // 8
  OrtStatusPtr (*Run)(OrtSession *, const OrtRunOptions *,
                      const char *const *inputNames,
                      const OrtValue *const *inputs, size_t numInputs,
                      const char *const *outputNames, size_t numOutputs,
                      OrtValue **outputs);                       // 9
  OrtStatusPtr (*CreateSessionOptions)(OrtSessionOptions **);    // 10
  void *slot11_22[12];                                           // 11..22
  OrtStatusPtr (*SetSessionGraphOptimizationLevel)(OrtSessionOptions *,
                                                   int level);   // 23
  OrtStatusPtr (*SetIntraOpNumThreads)(OrtSessionOptions *, int); // 24
  OrtStatusPtr (*SetInterOpNumThreads)(OrtSessionOptions *, int); // 25
  void *slot26_48[23];                                           // 26..48
  OrtStatusPtr (*CreateTensorWithDataAsOrtValue)(
      const OrtMemoryInfo *, void *data, size_t bytes,
      const int64_t *shape, size_t rank, OrtElementType type,
      OrtValue **out);                                           // 49
  void *slot50_68[19];                                           // 50..68
  OrtStatusPtr (*CreateCpuMemoryInfo)(int allocatorType, int memType,
                                      OrtMemoryInfo **);         // 69
  void *slot70_91[22];                                           // 70..91
  void (*ReleaseEnv)(OrtEnv *);                                  // 92
  void (*ReleaseStatus)(OrtStatus *);                            // 93
  void (*ReleaseMemoryInfo)(OrtMemoryInfo *);                    // 94
  void (*ReleaseSession)(OrtSession *);                          // 95
  void (*ReleaseValue)(OrtValue *);                              // 96
  void *slot97_99[3];                                            // 97..99
  void (*ReleaseSessionOptions)(OrtSessionOptions *);            // 100
  void *slot101_129[29];                                         // 101..129
  OrtStatusPtr (*AddSessionConfigEntry)(OrtSessionOptions *,
                                        const char *key,
                                        const char *value);      // 130
};

struct OrtApiBase {
  const OrtApi *(*GetApi)(uint32_t version);
  const char *(*GetVersionString)();
};

/// The only exported entry point of libonnxruntime.so.
using OrtGetApiBaseFn = const OrtApiBase *(*)();

static_assert(offsetof(OrtApi, Run) == 9 * sizeof(void *), "OrtApi layout");
static_assert(offsetof(OrtApi, CreateTensorWithDataAsOrtValue) ==
                  49 * sizeof(void *),
              "OrtApi layout");
static_assert(offsetof(OrtApi, CreateCpuMemoryInfo) == 69 * sizeof(void *),
              "OrtApi layout");
static_assert(offsetof(OrtApi, ReleaseSessionOptions) ==
                  100 * sizeof(void *),
              "OrtApi layout");
static_assert(offsetof(OrtApi, AddSessionConfigEntry) == 130 * sizeof(void *),
              "OrtApi layout");

/// Values of the enums the benchmark passes.
constexpr int kOrtLoggingWarning = 2;
constexpr int kOrtEnableAll = 99;
constexpr int kOrtArenaAllocator = 1;
constexpr int kOrtMemTypeDefault = 0;
/// Every entry above is in API version 10 (ORT 1.10) and later.
constexpr uint32_t kOrtApiVersion = 10;

} // extern "C"

#endif // ONNXCC_BENCH_ORT_CAPI_H
