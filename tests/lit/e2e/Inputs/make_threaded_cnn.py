"""Writes DIR/model.onnx and DIR/test_data_set_{0,1} for the threaded
kernels: a depthwise 3x3 (split by channel), a 1x1 projection to a third
of the channels with a Relu (split by input channel: partial sums, then
bias and epilogue), a 1x1 expansion back, a 3x3 max pool (split by
channel), a grouped 3x3 of 12 channels per group (im2col: one scratch
copy per thread), a 1x1 (the product alone), a 3x3 stride-1 one of 32
channels (Winograd: transforms by channel, whole GEMMs per thread), a
residual Add fused with a Tanh (a map cut into whole vectors), a 3x3
average pool, a 3x3 stride-2 convolution to 31 channels (im2col cut by
channel, then the product by tile), a 3x3 stride-3 one to 288 channels
over 5x5 (im2col_lanes: im2row cut by its 31 input channels, then 9
register panels under AVX-512, cut by position at 2 threads and by panel
at 3; 18 under AVX2, by panel), a 1x1 from them to 160 (output channels
in the lanes: 5 register panels under AVX-512, cut by position at 2 and
3 threads; 10 under AVX2, cut by panel at 2 and by position at 3; 20
under SSE2, cut by panel), then a Gemm (its transposed weights packed in
groups of 16 rows, split by group); onnxruntime computes the
references."""
import sys

import numpy as np
from onnx import helper
from reference_data import fan_in_weight, save_float_graph

out = sys.argv[1]
rng = np.random.default_rng(7)


def weight(name, *shape):
    return fan_in_weight(rng, name, *shape)


# Every layer is above onnxcc-choose-threads' thresholds (1M multiply-adds
# for a convolution, 64K for a product or pool taps, 4096 elements for a
# map), so every one is split. 48 and 32 channels split unevenly over 3 threads (--threads 3).
inits = [weight("dw", 48, 1, 3, 3), weight("dwb", 48),
         weight("jw", 16, 48, 1, 1), weight("jwb", 16),
         weight("ew", 48, 16, 1, 1), weight("ewb", 48),
         weight("gw", 48, 12, 3, 3), weight("gwb", 48),
         weight("pw", 32, 48, 1, 1), weight("pwb", 32),
         weight("ww", 32, 32, 3, 3), weight("wwb", 32),
         weight("cw", 31, 32, 3, 3), weight("cwb", 31),
         weight("sw", 288, 31, 3, 3), weight("swb", 288),
         weight("lw", 160, 288, 1, 1), weight("lwb", 160),
         weight("fw", 64, 160 * 5 * 5), weight("fb", 64)]
nodes = [
    helper.make_node("Conv", ["x", "dw", "dwb"], ["a"], group=48, pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["a"], ["a1"]),
    helper.make_node("Conv", ["a1", "jw", "jwb"], ["j"]),
    helper.make_node("Relu", ["j"], ["j1"]),
    helper.make_node("Conv", ["j1", "ew", "ewb"], ["e"]),
    helper.make_node("MaxPool", ["e"], ["m"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    helper.make_node("Conv", ["m", "gw", "gwb"], ["g"], group=4, strides=[2, 2],
                     pads=[1, 1, 1, 1]),
    helper.make_node("Conv", ["g", "pw", "pwb"], ["b"]),
    helper.make_node("Conv", ["b", "ww", "wwb"], ["w"], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["w"], ["w1"]),
    helper.make_node("Add", ["w1", "b"], ["r"]),
    helper.make_node("Tanh", ["r"], ["r1"]),
    helper.make_node("AveragePool", ["r1"], ["v"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    helper.make_node("Conv", ["v", "cw", "cwb"], ["c"], strides=[2, 2], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c"], ["c1"]),
    helper.make_node("Conv", ["c1", "sw", "swb"], ["s"], strides=[3, 3], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["s"], ["s1"]),
    helper.make_node("Conv", ["s1", "lw", "lwb"], ["l"]),
    helper.make_node("Relu", ["l"], ["l1"]),
    helper.make_node("Flatten", ["l1"], ["f"]),
    helper.make_node("Gemm", ["f", "fw", "fb"], ["y"], transB=1),
]
save_float_graph(out, "threaded_cnn", nodes, inits, (1, 48, 56, 56), (1, 64), rng)
