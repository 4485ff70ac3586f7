//===- AttentionKernelOps.cpp - verifier of kernel.attention --------------===//
#include "dialects/Kernel/KernelOps.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace onnxcc::kernel;

static ArrayRef<int64_t> shape(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

LogicalResult AttentionOp::verify() {
  ArrayRef<int64_t> q = shape(getQ()), k = shape(getK()), v = shape(getV());
  int64_t rank = getPacked() ? 3 : 4, hq = getQHeadsAttr().getInt(),
          hkv = getKvHeadsAttr().getInt();
  if ((int64_t)q.size() != rank || (int64_t)k.size() != rank ||
      (int64_t)v.size() != rank)
    return emitOpError() << "Q, K and V must have rank " << rank;
  if (hq <= 0 || hkv <= 0 || hq % hkv)
    return emitOpError() << "q_heads " << hq << " is not a multiple of kv_heads "
                         << hkv;
  // [batch, heads, seq, size] of each, from either layout.
  auto dims = [&](ArrayRef<int64_t> s, int64_t heads) {
    if (!getPacked())
      return SmallVector<int64_t>(s);
    return SmallVector<int64_t>{s[0], heads, s[1], s[2] / heads};
  };
  if (getPacked() && (q[2] % hq || k[2] % hkv || v[2] % hkv))
    return emitOpError() << "hidden sizes do not divide into heads";
  SmallVector<int64_t> Q = dims(q, hq), K = dims(k, hkv), V = dims(v, hkv);
  if (Q[1] != hq || K[1] != hkv || V[1] != hkv || K[0] != Q[0] ||
      V[0] != Q[0] || K[3] != Q[3] || V[2] != K[2])
    return emitOpError() << "Q, K and V shapes disagree";
  int64_t b = Q[0], sq = Q[2], past = 0, d = Q[3], dv = V[3];
  Type qt = getElementTypeOrSelf(getQ().getType());
  if (getElementTypeOrSelf(getK().getType()) != qt ||
      getElementTypeOrSelf(getV().getType()) != qt || !isa<FloatType>(qt))
    return emitOpError() << "Q, K and V must share one float element type";
  if (!getPastKey() != !getPastValue())
    return emitOpError() << "past_key and past_value come together";
  if (getPastKey()) {
    ArrayRef<int64_t> pk = shape(getPastKey()), pv = shape(getPastValue());
    if (pk.size() != 4 || pv.size() != 4 || pk[0] != b || pv[0] != b ||
        pk[1] != hkv || pv[1] != hkv || pk[2] != pv[2] || pk[3] != d ||
        pv[3] != dv)
      return emitOpError() << "the cache does not fit K and V";
    past = pk[2];
  }
  int64_t total = past + K[2];
  SmallVector<int64_t> y = getPacked() ? SmallVector<int64_t>{b, sq, hq * dv}
                                       : SmallVector<int64_t>{b, hq, sq, dv};
  if (shape(getY()) != ArrayRef<int64_t>(y))
    return emitOpError() << "Y has the wrong shape";
  if (getPresentKey() &&
      shape(getPresentKey()) != ArrayRef<int64_t>{b, hkv, total, d})
    return emitOpError() << "present_key has the wrong shape";
  if (getPresentValue() &&
      shape(getPresentValue()) != ArrayRef<int64_t>{b, hkv, total, dv})
    return emitOpError() << "present_value has the wrong shape";
  if (getQk() && shape(getQk()) != ArrayRef<int64_t>{b, hq, sq, total})
    return emitOpError() << "qk has the wrong shape";
  if (Value m = getMask()) {
    ArrayRef<int64_t> s = shape(m);
    int64_t full[4] = {b, hq, sq, total};
    bool ok = !s.empty() && s.size() <= 4;
    for (size_t i = 0; ok && i < s.size(); ++i) {
      int64_t want = full[4 - s.size() + i];
      ok = i + 1 == s.size() ? s[i] <= want : s[i] == 1 || s[i] == want;
    }
    if (!ok)
      return emitOpError() << "the mask does not broadcast to the scores";
  }
  if (Value n = getNonpad())
    if (shape(n) != ArrayRef<int64_t>{b} ||
        !getElementTypeOrSelf(n.getType()).isInteger(64) || getPastKey())
      return emitOpError() << "nonpad must be i64 [batch], without a cache";
  int64_t mode = getQkModeAttr().getInt();
  if (mode < 0 || mode > 3 || getLeftWindowAttr().getInt() < -1 ||
      getRightWindowAttr().getInt() < -1 || getSoftcap().convertToFloat() < 0)
    return emitOpError() << "has an invalid qk_mode, window or softcap";
  return success();
}
