//===- AttentionPrinters.cpp - kernel.attention ---------------------------===//
#include "codegen/cpu/KernelPrinter.h"

#include "dialects/Kernel/KernelOps.h"

using namespace mlir;
namespace k = ::onnxcc::kernel;

namespace onnxcc {

/// A typed null pointer for an absent buffer, so that the template still
/// deduces its element type.
static std::string nullOf(StringRef element, bool isConst) {
  return "static_cast<" + std::string(isConst ? "const " : "") + element.str() +
         " *>(nullptr)";
}

static LogicalResult printAttention(PrintContext &c, raw_indented_ostream &os,
                                    k::AttentionOp op) {
  ArrayRef<int64_t> q = staticShape(op.getQ()), kv = staticShape(op.getK()),
                    v = staticShape(op.getV());
  bool packed = op.getPacked();
  int64_t hq = op.getQHeads(), hkv = op.getKvHeads();
  int64_t b = q[0], sq = packed ? q[1] : q[2], skv = packed ? kv[1] : kv[2];
  int64_t d = packed ? q[2] / hq : q[3], dv = packed ? v[2] / hkv : v[3];
  int64_t past = op.getPastKey() ? staticShape(op.getPastKey())[2] : 0;
  // The mask's strides over [batch, q_heads, q_seq], 0 where it broadcasts;
  // -1 as its length when there is none.
  int64_t strides[3] = {0, 0, 0}, maskLen = -1;
  if (Value m = op.getMask()) {
    ArrayRef<int64_t> s = staticShape(m);
    maskLen = s.back();
    int64_t stride = maskLen;
    for (int64_t i = (int64_t)s.size() - 2, axis = 2; i >= 0; --i, --axis) {
      strides[axis] = s[i] == 1 ? 0 : stride;
      stride *= s[i];
    }
  }
  std::string t = elementOf(op.getQ());
  auto opt = [&](Value v, StringRef element, bool isConst) {
    return v ? c.ptr(v) : nullOf(element, isConst);
  };
  os << "onnxcc::rt::attention<" << b << ", " << hq << ", " << hkv << ", " << sq
     << ", " << skv << ", " << past << ", " << d << ", " << dv << ", "
     << (packed ? "true" : "false") << ", " << strides[0] << ", " << strides[1]
     << ", " << strides[2] << ", " << maskLen << ", "
     << (op.getCausal() ? "true" : "false") << ", "
     << op.getLeftWindowAttr().getInt() << ", "
     << op.getRightWindowAttr().getInt() << ", " << op.getQkModeAttr().getInt()
     << ">(\n";
  os.indent().indent();
  os << c.ptr(op.getQ()) << ", " << c.ptr(op.getK()) << ", " << c.ptr(op.getV())
     << ",\n"
     << opt(op.getMask(), "bool", true) << ", " << opt(op.getPastKey(), t, true)
     << ", " << opt(op.getPastValue(), t, true) << ", "
     << opt(op.getNonpad(), "std::int64_t", true) << ",\n"
     << formatFloat(op.getScale().convertToFloat()) << ", "
     << formatFloat(op.getSoftcap().convertToFloat()) << ",\n"
     << c.ptr(op.getY()) << ", " << opt(op.getPresentKey(), t, false) << ", "
     << opt(op.getPresentValue(), t, false) << ", " << opt(op.getQk(), t, false)
     << ");\n";
  os.unindent().unindent();
  return success();
}

void addAttentionPrinters(KernelPrinterTable &t) {
  addPrinter<k::AttentionOp>(t, printAttention);
}

} // namespace onnxcc
