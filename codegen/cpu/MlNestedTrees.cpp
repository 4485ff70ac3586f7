//===- MlNestedTrees.cpp - tree ensembles as nested branches --------------===//
//
// A kernel.ml_tree_ensemble that onnxcc-choose-tree-strategy marked
// `nested` is printed as the trees themselves: one `if` per branch node,
// thresholds and leaf weights as literals, so that a small ensemble at
// batch 1 costs a handful of compares and no loads from a node array. The
// node arrays stay the kernel's operands (and the source of truth); this
// printer reads them from their kernel.weight constants.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/MlNestedTrees.h"

#include "codegen/cpu/BodyPrinter.h"
#include "dialects/Kernel/KernelOps.h"
#include "dialects/Onnx/ConstantData.h"

#include "mlir/IR/TypeUtilities.h"

#include <vector>

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {
namespace {

/// The ensemble's arrays, read back from their weights.
struct NestedEnsemble {
  std::vector<int64_t> nodes, roots, targets;
  std::vector<double> thresholds, members, weights;
  bool f64 = false; ///< thresholds and weights are double
};

bool readEnsemble(k::MlTreeEnsembleOp op, NestedEnsemble &e) {
  auto ints = [](Value v, std::vector<int64_t> &out) {
    ElementsAttr a = getConstantElements(v);
    return a && readAsInt64s(a, out);
  };
  auto reals = [](Value v, std::vector<double> &out) {
    ElementsAttr a = getConstantElements(v);
    return a && readAsDoubles(a, out);
  };
  e.f64 = getElementTypeOrSelf(op.getThresholds().getType()).isF64();
  return ints(op.getNodes(), e.nodes) && ints(op.getRoots(), e.roots) &&
         ints(op.getTargets(), e.targets) &&
         reals(op.getThresholds(), e.thresholds) &&
         reals(op.getMembers(), e.members) &&
         reals(op.getWeights(), e.weights);
}

class NestedPrinter {
public:
  NestedPrinter(const NestedEnsemble &e, int64_t aggregate,
                raw_indented_ostream &os)
      : e(e), aggregate(aggregate), os(os) {}

  std::string literal(double v) const {
    return e.f64 ? formatDouble(v) : formatFloat(static_cast<float>(v));
  }

  /// The branch condition of node `i` on the row `x` (already in the
  /// threshold type): ORT's semantics, a NaN goes to the true branch only
  /// where the node tracks missing values (NEQ nodes always do).
  std::string condition(int64_t i) const {
    const int64_t *nd = &e.nodes[i * 6];
    int mode = nd[1] & 0xff;
    bool tracks = (nd[1] >> 8) & 1;
    std::string v = "x[" + std::to_string(nd[0]) + "]";
    std::string th = literal(e.thresholds[i]);
    std::string c;
    switch (mode) {
    case 1: c = v + " <= " + th; break;
    case 2: c = v + " < " + th; break;
    case 3: c = v + " >= " + th; break;
    case 4: c = v + " > " + th; break;
    case 5: c = v + " == " + th; break;
    case 6: return v + " != " + th; // NaN is true already
    default:
      for (int64_t k = nd[4]; k < nd[5]; ++k)
        c += (c.empty() ? "" : " || ") + v + " == " + literal(e.members[k]);
      if (c.empty())
        c = "false";
    }
    return tracks ? "(" + c + ") || " + v + " != " + v : c;
  }

  void leaf(int64_t i) {
    const int64_t *nd = &e.nodes[i * 6];
    for (int64_t k = nd[4]; k < nd[5]; ++k)
      os << "onnxcc::rt::ml_tree_accumulate<" << aggregate << ">(acc["
         << e.targets[k] << "], scored[" << e.targets[k] << "], "
         << literal(e.weights[k]) << ");\n";
  }

  /// One tree from node `i`; recursion depth is the tree's depth, which the
  /// strategy pass bounds.
  void tree(int64_t i) {
    if ((e.nodes[i * 6 + 1] & 0xff) == 0) {
      leaf(i);
      return;
    }
    os << "if (" << condition(i) << ") {\n";
    os.indent();
    tree(e.nodes[i * 6 + 2]);
    os.unindent();
    os << "} else {\n";
    os.indent();
    tree(e.nodes[i * 6 + 3]);
    os.unindent();
    os << "}\n";
  }

private:
  const NestedEnsemble &e;
  int64_t aggregate;
  raw_indented_ostream &os;
};

} // namespace

LogicalResult printNestedTreeEnsemble(PrintContext &c,
                                      raw_indented_ostream &os,
                                      k::MlTreeEnsembleOp op) {
  NestedEnsemble e;
  if (!readEnsemble(op, e))
    return op.emitOpError("nested trees need constant node arrays");
  ArrayRef<int64_t> x = staticShape(op.getX()), s = staticShape(op.getScores());
  int64_t trees = e.roots.size(), targets = op.getNTargets();
  std::string tt = e.f64 ? "double" : "float";
  os << "for (std::int64_t n = 0; n < " << x[0] << "; ++n) {\n";
  os.indent();
  // The row in the threshold type, as the node-array walk compares.
  os << tt << " x[" << x[1] << "];\n";
  os << "for (std::int64_t f = 0; f < " << x[1] << "; ++f)\n";
  os << "  x[f] = static_cast<" << tt << ">(static_cast<onnxcc::rt::compute_t<"
     << elementOf(op.getX()) << ">>(" << c.ptr(op.getX()) << "[n * " << x[1]
     << " + f]));\n";
  os << tt << " acc[" << targets << "] = {};\n";
  os << "bool scored[" << targets << "] = {};\n";
  NestedPrinter printer(e, op.getAggregate(), os);
  for (int64_t t = 0; t < trees; ++t) {
    os << "// tree " << t << "\n";
    printer.tree(e.roots[t]);
  }
  os << "(void)scored;\n";
  os << "onnxcc::rt::ml_tree_finish<" << trees << ", " << targets << ", "
     << s[1] << ", " << op.getAggregate() << ", " << op.getPostTransform()
     << ", " << (op.getBinary() ? "true" : "false") << ">(acc, "
     << c.ptr(op.getBase()) << ", " << c.ptr(op.getScores()) << " + n * "
     << s[1] << ");\n";
  os.unindent();
  os << "}\n";
  return success();
}

} // namespace onnxcc
