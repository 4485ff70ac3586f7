//===- AttentionShapes.cpp - type rule of onnx.attention ------------------===//
#include "dialects/Onnx/AttentionShapes.h"

#include "dialects/Onnx/OnnxOps.h"
#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxcc {

static std::string dimsText(ArrayRef<int64_t> s) {
  std::string t = "[";
  for (size_t i = 0; i < s.size(); ++i)
    t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

FailureOr<AttentionDims>
attentionDims(std::optional<Location> loc, ArrayRef<int64_t> q,
              ArrayRef<int64_t> k, ArrayRef<int64_t> v,
              std::optional<ArrayRef<int64_t>> pastKey,
              std::optional<ArrayRef<int64_t>> pastValue, int64_t qNumHeads,
              int64_t kvNumHeads) {
  if (q.size() != k.size() || q.size() != v.size() ||
      (q.size() != 3 && q.size() != 4))
    return emitOptionalError(loc, "Q, K and V must all be 3-D or all 4-D, got ",
                             dimsText(q), ", ", dimsText(k), " and ", dimsText(v));
  if (qNumHeads < 0 || kvNumHeads < 0)
    return emitOptionalError(loc, "q_num_heads ", qNumHeads, " and kv_num_heads ",
                             kvNumHeads, " must not be negative");
  AttentionDims d;
  d.batch = q[0];
  if (k[0] != d.batch || v[0] != d.batch)
    return emitOptionalError(loc, "Q, K and V have batches ", q[0], ", ", k[0],
                             " and ", v[0]);
  if (q.size() == 3) {
    if (!qNumHeads || !kvNumHeads)
      return emitOptionalError(
          loc, "3-D inputs need q_num_heads and kv_num_heads attributes");
    if (q[2] % qNumHeads || k[2] % kvNumHeads || v[2] % kvNumHeads)
      return emitOptionalError(loc, "hidden sizes ", q[2], ", ", k[2], ", ",
                               v[2], " do not divide into ", qNumHeads, " and ",
                               kvNumHeads, " heads");
    d.packed = true;
    d.qHeads = qNumHeads;
    d.kvHeads = kvNumHeads;
    d.qSeq = q[1];
    d.kvSeq = k[1];
    d.headSize = q[2] / qNumHeads;
    d.vHeadSize = v[2] / kvNumHeads;
    if (k[2] / kvNumHeads != d.headSize)
      return emitOptionalError(loc, "K's head size ", k[2] / kvNumHeads,
                               " differs from Q's ", d.headSize);
    if (v[1] != d.kvSeq)
      return emitOptionalError(loc, "K and V have ", k[1], " and ", v[1],
                               " positions");
  } else {
    d.qHeads = q[1];
    d.kvHeads = k[1];
    d.qSeq = q[2];
    d.kvSeq = k[2];
    d.headSize = q[3];
    d.vHeadSize = v[3];
    if ((qNumHeads && qNumHeads != d.qHeads) ||
        (kvNumHeads && kvNumHeads != d.kvHeads))
      return emitOptionalError(loc, "q_num_heads ", qNumHeads, " and kv_num_heads ",
                               kvNumHeads, " contradict 4-D inputs of ",
                               d.qHeads, " and ", d.kvHeads, " heads");
    if (v[1] != d.kvHeads || v[2] != d.kvSeq || k[3] != d.headSize)
      return emitOptionalError(loc, "K ", dimsText(k), " and V ", dimsText(v),
                               " do not fit Q ", dimsText(q));
  }
  if (d.kvHeads <= 0 || d.qHeads <= 0 || d.qHeads % d.kvHeads)
    return emitOptionalError(loc, "Q's ", d.qHeads,
                             " heads are not a multiple of K and V's ", d.kvHeads);
  if (pastKey.has_value() != pastValue.has_value())
    return emitOptionalError(loc, "past_key and past_value come together");
  if (pastKey) {
    ArrayRef<int64_t> pk = *pastKey, pv = *pastValue;
    if (pk.size() != 4 || pv.size() != 4 || pk[0] != d.batch ||
        pv[0] != d.batch || pk[1] != d.kvHeads || pv[1] != d.kvHeads ||
        pk[2] != pv[2] || pk[3] != d.headSize || pv[3] != d.vHeadSize)
      return emitOptionalError(loc, "past_key ", dimsText(pk), " and past_value ",
                               dimsText(pv), " are not [batch ", d.batch, ", ",
                               d.kvHeads, " heads, past, ", d.headSize, " / ",
                               d.vHeadSize, "]");
    d.pastSeq = pk[2];
  }
  CheckedInt total = CheckedInt(d.pastSeq) + d.kvSeq;
  CheckedInt hidden = CheckedInt(d.qHeads) * d.vHeadSize;
  if (total.overflowed() || *total > kMaxDim || hidden.overflowed() ||
      *hidden > kMaxDim)
    return emitOptionalError(loc, "past plus new sequence or the output's hidden "
                                  "size exceeds ", kMaxDim);
  return d;
}

LogicalResult checkAttentionMask(std::optional<Location> loc,
                                 const AttentionDims &d, ArrayRef<int64_t> m) {
  int64_t full[4] = {d.batch, d.qHeads, d.qSeq, d.totalSeq()};
  bool ok = m.size() >= 1 && m.size() <= 4;
  for (size_t i = 0; ok && i < m.size(); ++i) {
    int64_t want = full[4 - m.size() + i];
    int64_t got = m[i];
    ok = i + 1 == m.size() ? got >= 0 && got <= want : got == 1 || got == want;
  }
  if (!ok)
    return emitOptionalError(loc, "attn_mask ", dimsText(m),
                             " does not broadcast to ", dimsText(full));
  return success();
}

FailureOr<AttentionDims> onnx::AttentionOp::getDims() {
  auto q = shapeOf(getQ()), k = shapeOf(getK()), v = shapeOf(getV());
  std::optional<ArrayRef<int64_t>> pk, pv;
  if (getPastKey()) {
    pk = shapeOf(getPastKey());
    pv = shapeOf(getPastValue());
    if (!pk || !pv)
      return failure();
  }
  if (!q || !k || !v)
    return failure();
  return attentionDims(getLoc(), *q, *k, *v, pk, pv, getQNumHeads(),
                       getKvNumHeads());
}

LogicalResult inferAttentionTypes(std::optional<Location> loc,
                                  onnx::AttentionOp::Adaptor a,
                                  SmallVectorImpl<Type> &types) {
  Type qt = getElementTypeOrSelf(a.getQ().getType());
  Type vt = getElementTypeOrSelf(a.getV().getType());
  auto unknown = [&] {
    for (Type t : {qt, qt, vt, qt})
      types.push_back(UnrankedTensorType::get(t));
    return success();
  };
  auto q = shapeOf(a.getQ()), k = shapeOf(a.getK()), v = shapeOf(a.getV());
  std::optional<ArrayRef<int64_t>> pk, pv;
  if (a.getPastKey()) {
    pk = shapeOf(a.getPastKey());
    pv = shapeOf(a.getPastValue());
    if (!pk || !pv)
      return unknown();
  }
  if (!q || !k || !v)
    return unknown();
  for (auto s : {*q, *k, *v})
    if (llvm::any_of(s, ShapedType::isDynamic))
      return unknown();
  auto d = attentionDims(loc, *q, *k, *v, pk, pv, a.getQNumHeads(),
                         a.getKvNumHeads());
  if (failed(d))
    return failure();
  if (a.getAttnMask()) {
    auto m = shapeOf(a.getAttnMask());
    if (m && !llvm::any_of(*m, ShapedType::isDynamic) &&
        failed(checkAttentionMask(loc, *d, *m)))
      return failure();
  }
  if (Value n = a.getNonpadKvSeqlen()) {
    auto s = shapeOf(n);
    if (!getElementTypeOrSelf(n.getType()).isInteger(64) ||
        (s && (s->size() != 1 || (*s)[0] != d->batch)))
      return emitOptionalError(loc, "nonpad_kv_seqlen must be int64 [", d->batch,
                               "]");
    if (a.getPastKey())
      return emitOptionalError(loc, "nonpad_kv_seqlen cannot be combined with "
                                    "past_key and past_value");
  }
  SmallVector<int64_t> y =
      d->packed ? SmallVector<int64_t>{d->batch, d->qSeq, d->qHeads * d->vHeadSize}
                : SmallVector<int64_t>{d->batch, d->qHeads, d->qSeq, d->vHeadSize};
  types.push_back(RankedTensorType::get(y, qt));
  types.push_back(RankedTensorType::get(
      {d->batch, d->kvHeads, d->totalSeq(), d->headSize}, qt));
  types.push_back(RankedTensorType::get(
      {d->batch, d->kvHeads, d->totalSeq(), d->vHeadSize}, vt));
  types.push_back(RankedTensorType::get(
      {d->batch, d->qHeads, d->qSeq, d->totalSeq()}, qt));
  return success();
}

} // namespace onnxcc
