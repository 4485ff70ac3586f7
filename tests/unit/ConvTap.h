//===- ConvTap.h - where a convolution tap reads, for references -*- C++ -*-===//
#ifndef ONNXCC_TESTS_UNIT_CONVTAP_H
#define ONNXCC_TESTS_UNIT_CONVTAP_H

#include <cstdint>

namespace onnxcc::test {

/// Output pixel (oh, ow) of kernel tap (kh, kw) of conv_shape S reads input
/// (ih, iw), or the zero padding when that lies outside the image.
template <typename S> struct Tap {
  int64_t ih, iw;
  Tap(int64_t oh, int64_t ow, int64_t kh, int64_t kw)
      : ih(oh * S::SH - S::PT + kh * S::DH), iw(ow * S::SW - S::PL + kw * S::DW) {}
  bool inside() const { return ih >= 0 && ih < S::H && iw >= 0 && iw < S::W; }
};

} // namespace onnxcc::test

#endif // ONNXCC_TESTS_UNIT_CONVTAP_H
