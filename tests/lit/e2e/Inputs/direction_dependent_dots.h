// Force-included (-include) by verify_second_call.test: makes every
// gemm_packed_dots() call add 1 to its first output when it reads its
// weight forward, so a model's answer depends on what the call before
// left in the workspace, which `onnxcc verify` must catch. The weights'
// assembly file gets the flag too, hence the guard.
#if defined(__cplusplus)
#include "onnxcc/runtime.h"

namespace onnxcc {
namespace rt {
template <int64_t M, int64_t N, int64_t K, int64_t BRS, int64_t BCS,
          bool HasBias, typename Epi>
inline void direction_dependent_dots(const float *A, const float *B,
                                     const float *bias, float alpha,
                                     float beta, float *C, Epi epi,
                                     sweep dir) {
  gemm_packed_dots<M, N, K, BRS, BCS, HasBias>(A, B, bias, alpha, beta, C, epi,
                                               dir);
  if (dir == sweep::forward)
    C[0] += 1.0f;
}
} // namespace rt
} // namespace onnxcc

#define gemm_packed_dots direction_dependent_dots
#endif
