//===- LinalgShapes.cpp - shape rules of the linear-algebra ops -----------===//
#include "dialects/Onnx/LinalgShapes.h"

#include "dialects/Onnx/InertText.h"
#include "dialects/Onnx/TensorLimits.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace onnxcc {

static constexpr int64_t kDyn = ShapedType::kDynamic;

static std::string str(ArrayRef<int64_t> s) { return formatShape(s); }

/// Whether two dims can be equal (either is dynamic, or they match).
static bool compatible(int64_t a, int64_t b) {
  return a == kDyn || b == kDyn || a == b;
}

FailureOr<Shape> inferGemmShape(OptLoc loc, ArrayRef<int64_t> a,
                                ArrayRef<int64_t> b, bool transA, bool transB) {
  if (a.size() != 2 || b.size() != 2)
    return emitOptionalError(loc, "expects 2-D A and B, got ", str(a), " and ",
                             str(b));
  int64_t m = transA ? a[1] : a[0], ka = transA ? a[0] : a[1];
  int64_t kb = transB ? b[1] : b[0], n = transB ? b[0] : b[1];
  if (!compatible(ka, kb))
    return emitOptionalError(loc, "inner dimensions differ: A ", str(a),
                             " (trans_a=", transA, ") and B ", str(b),
                             " (trans_b=", transB, ")");
  return Shape{m, n};
}

FailureOr<Shape> inferMatMulShape(OptLoc loc, ArrayRef<int64_t> a,
                                  ArrayRef<int64_t> b) {
  if (a.empty() || b.empty())
    return emitOptionalError(loc, "expects operands of rank >= 1, got ", str(a),
                             " and ", str(b));
  Shape sa(a.begin(), a.end()), sb(b.begin(), b.end());
  bool promoteA = sa.size() == 1, promoteB = sb.size() == 1;
  if (promoteA)
    sa.insert(sa.begin(), 1);
  if (promoteB)
    sb.push_back(1);
  int64_t k1 = sa.back(), k2 = sb[sb.size() - 2];
  if (!compatible(k1, k2))
    return emitOptionalError(loc, "inner dimensions differ: ", str(a), " x ",
                             str(b));
  auto batch = inferBroadcastShape(
      loc, ArrayRef<int64_t>(sa).drop_back(2), ArrayRef<int64_t>(sb).drop_back(2));
  if (failed(batch))
    return failure();
  Shape out = *batch;
  if (!promoteA)
    out.push_back(sa[sa.size() - 2]);
  if (!promoteB)
    out.push_back(sb.back());
  return out;
}

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

/// Marks the ellipsis inside a parsed term.
static constexpr int64_t kEllipsis = -1;

/// The label ids of one term, kEllipsis where "..." stands.
static FailureOr<SmallVector<int64_t, 4>> parseTerm(OptLoc loc, StringRef eq,
                                                    StringRef term) {
  SmallVector<int64_t, 4> out;
  bool ellipsis = false;
  for (size_t i = 0; i < term.size();) {
    char c = term[i];
    if (term.substr(i).starts_with("...")) {
      if (ellipsis)
        return emitOptionalError(loc, "equation '", messageText(eq),
                                 "' has two ellipses in one term");
      ellipsis = true;
      out.push_back(kEllipsis);
      i += 3;
      continue;
    }
    if (c >= 'a' && c <= 'z')
      out.push_back(c - 'a');
    else if (c >= 'A' && c <= 'Z')
      out.push_back(26 + c - 'A');
    else
      return emitOptionalError(loc, "equation '", messageText(eq),
                               "' has an unexpected character at offset ", i,
                               " of term '", messageText(term), "'");
    ++i;
  }
  return out;
}

/// Replaces the ellipsis of `term` by `n` ids, right-aligned to `total`.
static SmallVector<int64_t, 4> expandEllipsis(ArrayRef<int64_t> term, int64_t n,
                                              int64_t total) {
  SmallVector<int64_t, 4> out;
  for (int64_t l : term) {
    if (l != kEllipsis) {
      out.push_back(l);
      continue;
    }
    for (int64_t j = total - n; j < total; ++j)
      out.push_back(EinsumSpec::kEllipsisBase + j);
  }
  return out;
}

FailureOr<EinsumSpec> parseEinsum(OptLoc loc, StringRef equation,
                                  ArrayRef<int64_t> ranks) {
  std::string eq;
  for (char c : equation)
    if (c != ' ')
      eq += c;
  StringRef lhs = eq, rhs;
  bool explicitOutput = false;
  if (size_t arrow = lhs.find("->"); arrow != StringRef::npos) {
    rhs = lhs.substr(arrow + 2);
    lhs = lhs.substr(0, arrow);
    explicitOutput = true;
  }
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != ranks.size())
    return emitOptionalError(loc, "equation '", messageText(equation), "' has ",
                             terms.size(), " input terms for ", ranks.size(),
                             " inputs");
  // Each term's ellipsis covers the dims its letters leave over.
  SmallVector<SmallVector<int64_t, 4>> parsed;
  SmallVector<int64_t> ellipsisRanks;
  int64_t maxEllipsis = 0;
  for (auto [term, rank] : llvm::zip(terms, ranks)) {
    auto t = parseTerm(loc, equation, term);
    if (failed(t))
      return failure();
    bool hasEllipsis = llvm::is_contained(*t, kEllipsis);
    int64_t letters = t->size() - (hasEllipsis ? 1 : 0);
    int64_t e = rank - letters;
    if (e < 0 || (!hasEllipsis && e != 0))
      return emitOptionalError(loc, "term '", messageText(term), "' of equation '",
                               messageText(equation), "' has ", letters,
                               " labels for an input of rank ", rank);
    parsed.push_back(*t);
    ellipsisRanks.push_back(e);
    maxEllipsis = std::max(maxEllipsis, e);
  }
  EinsumSpec spec;
  llvm::DenseMap<int64_t, int> counts;
  for (auto [t, e] : llvm::zip(parsed, ellipsisRanks)) {
    spec.inputs.push_back(expandEllipsis(t, e, maxEllipsis));
    for (int64_t l : spec.inputs.back())
      ++counts[l];
  }
  if (explicitOutput) {
    auto t = parseTerm(loc, equation, rhs);
    if (failed(t))
      return failure();
    bool hasEllipsis = llvm::is_contained(*t, kEllipsis);
    if (!hasEllipsis && maxEllipsis > 0)
      return emitOptionalError(loc, "equation '", messageText(equation),
                               "' drops the ellipsis dims from its output");
    spec.output = expandEllipsis(*t, maxEllipsis, maxEllipsis);
  } else {
    for (int64_t j = 0; j < maxEllipsis; ++j)
      spec.output.push_back(EinsumSpec::kEllipsisBase + j);
    for (int64_t l = 0; l < 52; ++l)
      if (counts.lookup(l) == 1)
        spec.output.push_back(l);
  }
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t l : spec.output)
    if (!counts.count(l) || !seen.insert(l).second)
      return emitOptionalError(loc, "output of equation '", messageText(equation),
                               "' has a label that is repeated or in no input");
  return spec;
}

FailureOr<llvm::DenseMap<int64_t, int64_t>>
einsumLabelSizes(OptLoc loc, const EinsumSpec &spec,
                 ArrayRef<ArrayRef<int64_t>> shapes) {
  llvm::DenseMap<int64_t, int64_t> sizes;
  for (auto [labels, shape] : llvm::zip(spec.inputs, shapes))
    for (auto [l, d] : llvm::zip(labels, shape)) {
      auto [it, inserted] = sizes.try_emplace(l, d);
      int64_t &s = it->second;
      if (inserted || s == d)
        continue;
      bool ellipsis = l >= EinsumSpec::kEllipsisBase;
      if (ellipsis && (d == 1 || s == 1)) {
        s = s == 1 ? d : s;
        continue;
      }
      if (s == kDyn || d == kDyn) {
        s = kDyn;
        continue;
      }
      return emitOptionalError(loc, "einsum label sizes disagree: ", s, " and ",
                               d, " (inputs ", str(shapes[0]),
                               shapes.size() > 1 ? ", " : "",
                               shapes.size() > 1 ? str(shapes[1]) : "", ")");
    }
  return sizes;
}

FailureOr<Shape> inferEinsumShape(OptLoc loc, const EinsumSpec &spec,
                                  ArrayRef<ArrayRef<int64_t>> shapes) {
  auto sizes = einsumLabelSizes(loc, spec, shapes);
  if (failed(sizes))
    return failure();
  Shape out;
  for (int64_t l : spec.output)
    out.push_back(sizes->lookup(l));
  return out;
}

} // namespace onnxcc
