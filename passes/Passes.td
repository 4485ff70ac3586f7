//===- Passes.td - onnxcc passes ---------------------------*- tablegen -*-===//
#ifndef ONNXCC_PASSES
#define ONNXCC_PASSES

include "mlir/Pass/PassBase.td"

def ShapeInference : Pass<"onnxcc-shape-inference", "mlir::func::FuncOp"> {
  let summary = "specialise every tensor to the static shapes of the inputs";
  let description = [{
    Walks the graph in order, re-running each op's shape rule on its now
    refined operands. An op whose operands are all constants is folded on
    the spot, so shape arithmetic (Shape -> Gather -> Concat -> Reshape)
    collapses in the same sweep and later Reshapes see constant targets.
    The function's result types are updated last.

    Before:
    ```mlir
    %0 = onnx.relu %x : (tensor<1x4xf32>) -> tensor<*xf32>
    ```
    After:
    ```mlir
    %0 = onnx.relu %x : (tensor<1x4xf32>) -> tensor<1x4xf32>
    ```
  }];
  let dependentDialects = ["::onnxcc::onnx::OnnxDialect"];
}

def FoldConstants : Pass<"onnxcc-fold-constants", "mlir::func::FuncOp"> {
  let summary = "evaluate constant subgraphs at compile time";
  let description = [{
    Runs every op folder to a fixed point and removes dead constants.
    Elementwise ops on constants larger than the folders' limit are folded
    here, up to `max-elements` per result.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", /*default=*/"1 << 22",
           "largest constant (in elements) this pass will create">,
  ];
  let dependentDialects = ["::onnxcc::onnx::OnnxDialect"];
}

def FoldBatchNorm : Pass<"onnxcc-fold-batchnorm", "mlir::func::FuncOp"> {
  let summary = "fold BatchNormalization into the preceding Conv";
  let description = [{
    `conv(x, W, b)` followed by inference BatchNormalization with constant
    parameters becomes `conv(x, W * s, (b - mean) * s + beta)` with
    `s = gamma / sqrt(var + eps)`. A BatchNormalization that does not follow
    a Conv (or every one, with `into-conv=false`) becomes a per-channel Mul
    and Add: there is no BatchNormalization kernel, so this pass runs even
    when fusion is off. Parameters that are not constants (graph inputs)
    give the same map computed at run time:
    `(x - mean) * (gamma / sqrt(var + eps)) + beta`, per channel.
  }];
  let options = [
    Option<"intoConv", "into-conv", "bool", /*default=*/"true",
           "fold into a preceding Conv's weights where possible">,
  ];
  let dependentDialects = ["::onnxcc::onnx::OnnxDialect"];
}

def FuseMatMulAdd : Pass<"onnxcc-fuse-matmul-add", "mlir::func::FuncOp"> {
  let summary = "turn MatMul followed by a bias Add into Gemm";
  let description = [{
    `add(matmul(a, b), c)` with 2-D `a` and `b` and `c` broadcastable to the
    product becomes `gemm(a, b, c)`, so that the bias is added in the GEMM
    epilogue instead of a second pass over the output. With `a` of rank 3
    or more (a transformer's `[1, seq, d]`) and `c` varying only along the
    last axis, `a` is reshaped to one `[rows, d]` operand and the Gemm's
    result back to the product's shape.
  }];
  let dependentDialects = ["::onnxcc::onnx::OnnxDialect"];
}

def LowerToKernel : Pass<"onnxcc-lower-to-kernel", "mlir::func::FuncOp"> {
  let summary = "lower the onnx dialect to kernel calls";
  let description = [{
    One kernel op per compute op. Elementwise ops become `kernel.elementwise`
    with a scalar arith/math body; Reshape, Flatten, Squeeze, Unsqueeze and
    Identity become aliasing `kernel.view`s. Every tensor must be static by
    now; ops without a kernel are all reported.

    Constant weights may be laid out at compile time for the product that
    reads them (a Gemm's B transposed for row panels). `layout-rows` makes
    that choice as if each product had at least that many rows: shape
    buckets pass their largest size, so every bucket lays a weight out the
    same way and the buckets share one copy of it.
  }];
  let options = [
    Option<"layoutRows", "layout-rows", "int64_t", /*default=*/"0",
           "rows the compile-time weight layouts are chosen for, at least">
  ];
  let dependentDialects = ["::onnxcc::kernel::KernelDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def ChooseConvAlgorithm : Pass<"onnxcc-choose-conv-algorithm",
                                "mlir::func::FuncOp"> {
  let summary = "decide which kernel runs each kernel.conv2d";
  let description = [{
    Sets `algorithm` on every `kernel.conv2d`, which the planner (scratch
    size) and the emitter (the kernel called) only read: `depthwise` for
    one input and one output channel per group (taps summed in registers),
    `pointwise` for a 1x1, stride-1, unpadded convolution (a GEMM on the
    input itself) unless it has at least 96 output channels per group and
    its map pads at most a twentieth to a multiple of 16 columns: then
    `im2col`, which for a 1x1 is one copy of the input into the GEMM's
    packed panels, read contiguously by every row panel after (squeezenet's
    512 -> 1000 classifier: 1950 -> 1760 us; mobilenet_v2's 16 -> 96
    expand over 112x112: 640 -> 490 us), while fewer rows did not repay
    the copy and a 7x7 map's 49 columns padded to 64 ran 25% slower;
    but `pointwise_lanes` (output channels in the vector lanes, positions
    along the register tile's rows) for an ungrouped f32 one with constant
    weights and at least 32 output channels, over a map of 2 to 25
    positions from 128 input channels, or over a larger map whose positions
    pad more than an eighth to a multiple of 16 from 256 input channels
    (mobilenet_v2's 7x7 layers from 320 or more channels: 0.74-0.83 of
    `pointwise`'s time; 576 -> 160 over 3x3 0.35, over 5x5 0.55; 160 ->
    960 over 7x7 0.93-1.04 and 128 -> 256 1.2, where the transposed store
    of each tile is a larger share; never above 1.0 where chosen, AVX-512),
    or with at least 512 input and 512 output channels over at most 256
    positions: the lanes product reads the input once per 32 output
    channels where im2col's GEMM reads its copy once per 12-row tile
    (squeezenet1_1's 512 -> 1000 classifier over 13x13, one thread, in the
    model: 0.90-0.95 of `im2col`'s time; at two threads 1.01), or over a
    map of 26 to 256 positions with whole panels of 32 output channels from
    at least 48 input channels (a 13x13 or 14x14 map, where `pointwise`
    pads 169 or 196 columns to 176 or 208 and reads each input plane once
    per 12-row tile: squeezenet1_1's 384 and 512 -> 64 squeezes 0.88, 64
    -> 256 and 48 -> 192 expands 0.90-0.93, mobilenet_v2's 14x14 layers
    0.73-0.86 of `pointwise`'s time, one thread; 48 output channels, a
    half-empty second panel, 1.22), on several threads (`threads`) only
    for an expansion (no fewer output than input channels) of at least 4
    panels a thread: the squeezes and projections, which `pointwise` splits
    by input channel there (`split_depth`), ran 1.1-2x slower in lanes,
    while mobilenet_v2's 64 -> 384 and 96 -> 576 ran 0.7-0.9 of their time,
    `winograd` for a 3x3, stride-1, ungrouped f32 one with
    constant weights and either at least 32 input and output channels
    (resnet18's 3x3 layers: 2.25x fewer multiply-adds, which pay for the
    transforms once the GEMMs are this deep) or at least 2 input channels
    over a map of 9 to 16 2x2 output tiles (a square map of 5x5 to 8x8
    outputs), which the runtime runs with every tile in one row of lanes
    (winograd_map.h: a 16 -> 32 channel 8x8 layer 6.4 -> 3.8 us, 4 -> 16
    channels 1.1 -> 0.9 us; at 4 tiles, 12 of 16 lanes idle, and at 1
    input channel it lost); a `min-winograd-channels` N >= 1 replaces
    that rule by at least N input and N output channels,
    `implicit_gemm` for any other stride-1 ungrouped f32 one (the GEMM
    reads its columns from padded copies of the input channels, written
    once, where im2col writes each input element KH*KW times: 30% of a
    3 -> 16 -> 32-channel CNN's time) and for a strided one of at most 4
    input channels (an image model's stem: the copies keep each row's
    column phases apart; mobilenet_v2's 3x3 and resnet18's 7x7 stride-2
    stems run 1.4x and 1.6x faster than through im2col, while deeper
    strided layers, whose im2col is a smaller share, ran slower),
    `im2col_lanes` for any other ungrouped f32 one with constant weights,
    at least 32 output channels and at least 256 rows of im2col (C * KH *
    KW) over a map of at most 256 positions (a 16x16 map): im2col's rows
    copied row-major, then `pointwise_lanes`' product over them (resnet18's
    stride-2 layers over 14x14 and 7x7 maps: 0.62-0.84 of `im2col`'s time,
    whose packed copy took 117 us of 1.2 ms and whose panels padded 49
    columns to 64; over 28x28 1.2x and from 128 rows over 14x14 1.2x
    slower, AVX-512), `im2col` otherwise.

    Choosing `winograd` also rewrites the weight operand into the
    kernel's layout, U = G g G^T per (o, c) as a [16, O, C] constant,
    computed here in double precision, so the runtime never transforms
    weights; choosing `pointwise_lanes` rewrites it into W^T in panels of
    32 output channels, [ceil(O / 32), C, 32], zero past O, and
    `im2col_lanes` into the same with the window kept, [ceil(O / 32), C,
    KH, KW, 32].
  }];
  let options = [
    Option<"minWinogradChannels", "min-winograd-channels", "int64_t",
           /*default=*/"::onnxcc::kDefaultMinWinogradChannels",
           "least input and output channels of a Winograd convolution (0: "
           "at least 32, or from 2 inputs over a map of 9 to 16 2x2 tiles)">,
    Option<"threads", "threads", "int64_t", /*default=*/"1",
           "threads the kernels will split across (--threads): whole "
           "panels over a small map pay for `pointwise_lanes` on one "
           "thread, only in expansions on several">,
  ];
}

def PackGemmWeights : Pass<"onnxcc-pack-gemm-weights", "mlir::func::FuncOp"> {
  let summary = "lay constant GEMM weights out in the runtime's panels";
  let description = [{
    Rewrites the constant B of each f32 `kernel.gemm` whose operands are
    not transposed (a MatMul's weights, or a Linear's the lowering already
    transposed) into panels of 32 columns, [ceil(N / 32), K, 32]
    zero-padded, and sets `packed_b`, unless the padding would exceed a
    quarter of N (33 columns would take 64: the weights grow more than
    the stream gains). The
    runtime then reads B as one sequential stream, where row-major it
    reads one row of B per k, N floats apart: with the weights arriving
    from L3, as they do inside a whole model, a transformer's 32x384x128
    product ran 25% faster. A B with other users stays as it is (a second,
    packed copy would grow the weights).

    A constant transposed B (B^T, N rows of K: a PyTorch Linear's weight)
    of a product of at most 3 rows, which the runtime computes as dot
    products, becomes groups of 16 rows, [ceil(N / 16), K, 16]: for each
    whole block of 16 k, the group's 16 rows' floats one row after another,
    then their last K % 16 floats (see kernel.gemm), when K is at least 16
    and padding N to whole groups adds at most a quarter. A dot group then
    reads its rows as one stream instead of 16 streams K floats apart: the
    classifier's 784 -> 256 layer at batch 1 ran in 3.8 us instead of 6.6
    (AMD EPYC Zen 5, L2-hot).
  }];
}

def ChooseThreads : Pass<"onnxcc-choose-threads", "mlir::func::FuncOp"> {
  let summary = "decide which kernels split their work across threads";
  let description = [{
    Sets `threads` on each f32 `kernel.gemm` of at least `min-macs`
    multiply-adds, each `depthwise` `kernel.conv2d` of at least
    `min-depthwise-macs`, each other one of at least `min-conv-macs` and
    each f32 `kernel.pool` (without indices) reading at least
    `min-pool-taps` window taps, and each float `kernel.elementwise` of
    map()'s form (inputs of the result's shape or one element, a body with
    vector forms) writing at least `min-map-elements`, each f32
    `kernel.batch_matmul` of at least two products and `min-macs`
    multiply-adds in all, and each f32 `kernel.softmax` over a last axis of
    at least two rows and `min-softmax-elements`, to the `threads` of
    --threads N; smaller ones stay on the calling thread.
    Splitting costs little in the pool (0.2 us a part) but each thread then
    reads what the other wrote: a convolution's activations cross between
    cores' caches, which costs lenet's 86K- and 154K-MAC layers more than
    they save (lenet: 30 us on one thread, 60 us split), while a product
    streaming a large weight matrix (the classifier's 200K-MAC first layer)
    gains from two cores' bandwidth. A depthwise layer does 9 or 25
    multiply-adds per output where a dense one does hundreds, so it pays at
    far fewer: mobilenet_v2's 7x7 and 14x14 ones (0.4M-1M) run 1.7x faster
    split. A pool does one comparison or addition a tap, so it pays as a
    depthwise layer does: squeezenet1_1's max pools (0.4M-1.7M taps) ran
    on one thread while ONNX Runtime split them. A map, a residual Add
    above all, splits for where its inputs are rather than for its
    arithmetic: the convolutions before it wrote half of each input on
    each core, and the calling thread alone reading all of it pulled half
    across (mobilenet_v2's ten Adds: 17 us at one thread, 36 us at two,
    and 150 us when the host put the two vCPUs on different dies). Split,
    each thread reads the half its core wrote when the producers split the
    same way (a GEMM by rows, a depthwise convolution by channel). Below
    8192 elements the pool's round trip costs more than that saves:
    tiny_transformer's 4096-element Adds took its call from 205 to 220 us
    at two threads. Attention's per-head products and softmaxes split by
    head and by row: a 4096-row softmax (2.1 us, an exponential an
    element) is worth a round trip where an Add of as many elements is
    not. The per-head products are the rule's edge: each 32x32x32 one
    took 2.6 us when this was set and 0.9 us since they run as one packed
    panel; split by head, tiny_transformer's QK^T products went from 3.5
    to 4.6 us at two threads while the whole call moved less than the
    host's noise (167 vs 162 us, medians of ten alternated runs), so the
    rule stays until a quieter host decides it.

    A threaded `pointwise` convolution of one group that reads at least 3x
    as many channels as it writes also gets `split_depth`: its threads
    split the input channels, each summing a partial output, rather than
    the output channels, each reading all of the input. The layer before
    (a depthwise one, split by channel) wrote half of that input on the
    other core, and mobilenet_v2's projections (576 -> 96 over 14x14: 145
    us on one thread, 120-135 us split by output) and squeezenet1_1's
    squeezes barely gained from a second core; split by depth they cross
    only the partials, C/O times smaller than the input: 85-90 us, and
    mobilenet_v2 at two threads 4.09 -> 3.70 ms. At 2x (32 -> 16 over
    112x112, 800 KB of partial) the partials cost more than they saved
    (87 -> 106 us). Runs after onnxcc-choose-conv-algorithm
    and before planning: a grouped im2col convolution's scratch grows to
    one copy per thread.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"1",
           "threads of the generated code (--threads)">,
    Option<"minMacs", "min-macs", "int64_t", /*default=*/"65536",
           "smallest GEMM (multiply-adds) worth splitting">,
    Option<"minConvMacs", "min-conv-macs", "int64_t", /*default=*/"1048576",
           "smallest convolution (multiply-adds) worth splitting">,
    Option<"minDepthwiseMacs", "min-depthwise-macs", "int64_t",
           /*default=*/"65536",
           "smallest depthwise convolution (multiply-adds) worth splitting">,
    Option<"minPoolTaps", "min-pool-taps", "int64_t", /*default=*/"65536",
           "smallest pool (output elements x window taps) worth splitting">,
    Option<"minMapElements", "min-map-elements", "int64_t", /*default=*/"8192",
           "smallest elementwise map (output elements) worth splitting">,
    Option<"minSoftmaxElements", "min-softmax-elements", "int64_t",
           /*default=*/"2048",
           "smallest softmax (elements) worth splitting">,
  ];
}

def ChooseTreeStrategy : Pass<"onnxcc-choose-tree-strategy",
                               "mlir::func::FuncOp"> {
  let summary = "decide how each tree ensemble is printed";
  let description = [{
    Marks a `kernel.ml_tree_ensemble` `nested` (printed as one `if` per
    branch node, thresholds as literals) or leaves it a walk over its node
    array. `auto` nests ensembles of at most `nested-max-nodes` nodes run
    at most `nested-max-rows` rows at a time: there nested branches beat
    the array walk, while code size grows with the node count and
    mispredicted branches cost more than the walk's masked selects once
    many rows go through. Only ensembles of at most 64 levels over f32 or
    f64 rows can nest (deeper ones would exceed compilers' brace-nesting
    limits); `nested` nests every such ensemble, `array` none.
  }];
  let options = [
    Option<"strategy", "strategy", "std::string", /*default=*/"\"auto\"",
           "auto, nested or array">,
    Option<"nestedMaxNodes", "nested-max-nodes", "int64_t",
           /*default=*/"2048", "largest ensemble `auto` nests, in nodes">,
    Option<"nestedMaxRows", "nested-max-rows", "int64_t",
           /*default=*/"1", "most rows per call `auto` nests">,
  ];
}

def FuseElementwise : Pass<"onnxcc-fuse-elementwise", "mlir::func::FuncOp"> {
  let summary = "fuse elementwise chains and activations into one loop";
  let description = [{
    A `kernel.elementwise` whose only user is another one is merged into its
    body. A unary elementwise op on the single-use result of `kernel.gemm` or
    `kernel.conv2d` becomes that op's epilogue (Conv + Relu, Gemm + Clip).
    A two-input Add that only a `kernel.layer_norm` reads becomes its
    `skip` operand (a transformer's residual Add + LayerNormalization).
    Fusion moves ops instead of cloning them, so a chain of n ops fuses in
    O(n); a body stops growing at `max-body-ops` scalar ops.
  }];
  let options = [
    Option<"maxBodyOps", "max-body-ops", "int64_t", /*default=*/"128",
           "largest fused body, in scalar ops">,
  ];
  let dependentDialects = ["::onnxcc::kernel::KernelDialect"];
}

def PlanMemory : Pass<"onnxcc-plan-memory", "mlir::ModuleOp"> {
  let summary = "assign every intermediate tensor an offset in one arena";
  let description = [{
    Liveness-based static planning. Views alias their source; a concat
    whose slices are contiguous is planned in place (its producers write
    straight into it); an elementwise op may overwrite an input that dies
    there. The remaining buffers are placed by the greedy-by-size algorithm
    (TFLite's arena planner; Pisarchyk & Lee, "Efficient Memory Management
    for Deep Neural Net Inference", 2020). Results go to `kernel.offset`,
    `kernel.output`, `kernel.scratch_offset` and the module's
    `kernel.workspace_bytes`.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"64",
           "byte alignment of every buffer">,
  ];
  let dependentDialects = ["::onnxcc::kernel::KernelDialect"];
}

#endif // ONNXCC_PASSES
