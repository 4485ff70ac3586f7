//===- ModelMutator.cpp - structure-aware mutations of ONNX models --------===//
#include "tests/fuzz/ModelMutator.h"

#include "compiler/frontend/OpImporters.h"
#include <algorithm>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace onnxcc::fuzz {
namespace {

using ::onnx::AttributeProto;
using ::onnx::GraphProto;
using ::onnx::ModelProto;
using ::onnx::NodeProto;
using ::onnx::TensorProto;
using ::onnx::TensorShapeProto;
using ::onnx::ValueInfoProto;

/// The operators the importer's table knows (sorted, so that a seed means
/// the same mutation run after run) and two it does not.
const std::vector<std::string> &opTypes() {
  static const std::vector<std::string> ops = [] {
    std::vector<std::string> names;
    for (const auto &entry : opImporters())
      names.push_back(entry.getKey().str());
    std::sort(names.begin(), names.end());
    names.push_back("Loop");
    names.push_back("NotAnOnnxOp");
    return names;
  }();
  return ops;
}

/// Attribute names the importers read or ONNX operators commonly have, and
/// one none does. addAttribute() also borrows names from the model itself.
const char *const kAttrNames[] = {
    "allowzero", "alpha",        "auto_pad",     "axes",      "axis",
    "beta",      "ceil_mode",    "count_include_pad",        "dilations",
    "end",       "epsilon",      "group",        "kernel_shape", "max",
    "min",       "pads",         "perm",         "shape",     "start",
    "strides",   "to",           "transA",       "transB",    "value",
    "value_float", "value_floats", "value_int",  "value_ints", "momentum",
    "training_mode", "storage_order", "keepdims", "noop_with_empty_axes",
    "mode", "batch_dims", "largest", "sorted", "saturate", "fmod", "direction",
    "exclusive", "reverse", "select_last_index", "approximate", "lambd",
    "bias", "size", "blocksize", "split", "num_outputs", "scales", "sizes",
    "stash_type", "output_padding", "output_shape", "unknown_attr"};

const char *const kAutoPads[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER",
                                 "VALID",  "",           "same_upper"};

const int kAttrTypes[] = {
    AttributeProto::UNDEFINED, AttributeProto::FLOAT,  AttributeProto::INT,
    AttributeProto::STRING,    AttributeProto::TENSOR, AttributeProto::GRAPH,
    AttributeProto::FLOATS,    AttributeProto::INTS,   AttributeProto::STRINGS,
    AttributeProto::TENSORS}; // proto2 enums: the parser drops others

/// Supported element types first, then some the importer must refuse.
const int kDataTypes[] = {
    TensorProto::FLOAT,  TensorProto::INT64,   TensorProto::INT32,
    TensorProto::INT8,   TensorProto::UINT8,   TensorProto::INT16,
    TensorProto::BOOL,   TensorProto::FLOAT16, TensorProto::DOUBLE,
    TensorProto::STRING, TensorProto::UINT16,  TensorProto::UINT32,
    TensorProto::UINT64, TensorProto::BFLOAT16, TensorProto::COMPLEX64,
    TensorProto::UNDEFINED, 99, -1};

const int64_t kInts[] = {0,
                         1,
                         -1,
                         2,
                         3,
                         4,
                         -2,
                         -3,
                         7,
                         8,
                         16,
                         255,
                         65536,
                         std::numeric_limits<int32_t>::max(),
                         std::numeric_limits<int32_t>::min(),
                         int64_t(1) << 30,
                         int64_t(1) << 31,
                         int64_t(1) << 32,
                         (int64_t(1) << 32) + 1,
                         int64_t(1) << 62,
                         (int64_t(1) << 62) + 1,
                         std::numeric_limits<int64_t>::max(),
                         std::numeric_limits<int64_t>::min(),
                         std::numeric_limits<int64_t>::min() + 1};

const float kFloats[] = {0.0f,
                         -0.0f,
                         1.0f,
                         -1.0f,
                         0.5f,
                         2.0f,
                         1e-5f,
                         -3.5f,
                         1e30f,
                         -1e30f,
                         std::numeric_limits<float>::max(),
                         std::numeric_limits<float>::lowest(),
                         std::numeric_limits<float>::denorm_min(),
                         std::numeric_limits<float>::infinity(),
                         -std::numeric_limits<float>::infinity(),
                         std::numeric_limits<float>::quiet_NaN()};

/// Names that must stay inert in messages and generated code.
const char *const kOddNames[] = {
    "",        "x",         "\n",       "a\nb",     "\x1b[31mred",
    "*/",      "/*",        "\"",       "\\",       "a b",
    "..",      "../w.bin",  "/etc/passwd", "%s%n",  "\xff\xfe",
    "\xe5\x90\x8d", "main", "int",      "namespace", "__x",
    "0",       "1x",        "a::b",     "#define",  "?\?/",
    "\t",      "}",         "std"};

const char *const kExternalKeys[] = {"location", "offset", "length",
                                     "checksum", "",       "location"};
const char *const kExternalValues[] = {
    "w.bin", "../w.bin", "/etc/passwd", "", ".", "a\nb", "0", "-1", "1",
    "4096", "18446744073709551615", "9223372036854775807", "1e3", "12abc",
    "/dev/zero", "sub/dir/w.bin", "fuzz.onnx"};

/// Bytes per element of an ONNX data type (1 for those without a layout).
int64_t elementSize(int dtype) {
  switch (dtype) {
  case TensorProto::INT64:
  case TensorProto::UINT64:
  case TensorProto::DOUBLE:
  case TensorProto::COMPLEX64:
    return 8;
  case TensorProto::FLOAT:
  case TensorProto::INT32:
  case TensorProto::UINT32:
    return 4;
  case TensorProto::INT16:
  case TensorProto::UINT16:
  case TensorProto::FLOAT16:
  case TensorProto::BFLOAT16:
    return 2;
  default:
    return 1;
  }
}

class Mutator {
public:
  Mutator(ModelProto &model, Rng &rng)
      : model(model), graph(*model.mutable_graph()), rng(rng) {}

  void mutateOnce();
  void crossOver(const ModelProto &from);

private:
  // --- random choices -------------------------------------------------------
  size_t below(size_t n) { return n ? size_t(rng()) % n : 0; }
  bool oneIn(unsigned n) { return below(n) == 0; }
  template <class T, size_t N> const T &pick(const T (&a)[N]) {
    return a[below(N)];
  }
  uint64_t random64() { return (uint64_t(rng()) << 33) ^ (uint64_t(rng()) << 2) ^ rng(); }
  int64_t interestingInt() {
    if (oneIn(3))
      return int64_t(below(17)) - 8;
    return pick(kInts);
  }
  float interestingFloat() {
    if (oneIn(4))
      return float(int64_t(below(2001)) - 1000) / 100.0f;
    return pick(kFloats);
  }
  /// Mostly small sizes, so that shapes stay consistent often enough for
  /// the model to get through shape inference.
  int64_t interestingDim() {
    if (!oneIn(4))
      return int64_t(below(5));
    return pick(kInts);
  }
  std::string randomOp() {
    const std::vector<std::string> &ops = opTypes();
    return ops[below(ops.size())];
  }
  std::string oddName() {
    if (oneIn(8))
      return std::string(64 + below(400), 'n');
    if (oneIn(8))
      return std::string("a\0b", 3);
    return pick(kOddNames);
  }

  // --- what the model has ---------------------------------------------------
  std::vector<std::string> valueNames() const;
  std::string existingValue() {
    std::vector<std::string> names = valueNames();
    if (names.empty() || oneIn(10))
      return oneIn(2) ? std::string() : oddName();
    return names[below(names.size())];
  }
  NodeProto *randomNode() {
    if (graph.node_size() == 0)
      return nullptr;
    return graph.mutable_node(below(graph.node_size()));
  }
  AttributeProto *randomAttribute();
  std::string attributeNameInModel() {
    AttributeProto *a = randomAttribute();
    return a ? a->name() : pick(kAttrNames);
  }
  ValueInfoProto *randomValueInfo();
  TensorProto *randomTensor();

  // --- mutations --------------------------------------------------------------
  void setAttributeValue(AttributeProto &a);
  void fillAttribute(AttributeProto &a, int type);
  void mutateAttribute();
  void retypeAttribute();
  void addAttribute();
  void removeAttribute();
  void changeOpType();
  void rewireInput();
  void rewireOutput();
  void duplicateNode();
  void deleteNode();
  void swapNodes();
  void addNode();
  void mutateValueInfo();
  void mutateTensor(TensorProto &t);
  void fillTensor(TensorProto &t);
  void makeExternal(TensorProto &t);
  void mutateInitializers();
  void changeOpset();
  void renameValue();
  void renameOther();
  void mutateOutputs();

  ModelProto &model;
  GraphProto &graph;
  Rng &rng;
};

std::vector<std::string> Mutator::valueNames() const {
  std::vector<std::string> names;
  for (const auto &in : graph.input())
    names.push_back(in.name());
  for (const auto &t : graph.initializer())
    names.push_back(t.name());
  for (const auto &n : graph.node())
    for (const auto &out : n.output())
      names.push_back(out);
  return names;
}

AttributeProto *Mutator::randomAttribute() {
  std::vector<AttributeProto *> all;
  for (auto &n : *graph.mutable_node())
    for (auto &a : *n.mutable_attribute())
      all.push_back(&a);
  return all.empty() ? nullptr : all[below(all.size())];
}

ValueInfoProto *Mutator::randomValueInfo() {
  size_t n = graph.input_size() + graph.output_size() + graph.value_info_size();
  if (n == 0)
    return nullptr;
  size_t i = below(n);
  if (i < (size_t)graph.input_size())
    return graph.mutable_input(i);
  i -= graph.input_size();
  if (i < (size_t)graph.output_size())
    return graph.mutable_output(i);
  return graph.mutable_value_info(i - graph.output_size());
}

/// An initializer or the value of a Constant node.
TensorProto *Mutator::randomTensor() {
  std::vector<TensorProto *> all;
  for (auto &t : *graph.mutable_initializer())
    all.push_back(&t);
  for (auto &n : *graph.mutable_node())
    for (auto &a : *n.mutable_attribute())
      if (a.has_t())
        all.push_back(a.mutable_t());
  return all.empty() ? nullptr : all[below(all.size())];
}

void Mutator::setAttributeValue(AttributeProto &a) {
  switch (a.type()) {
  case AttributeProto::INT:
    a.set_i(interestingInt());
    return;
  case AttributeProto::FLOAT:
    a.set_f(interestingFloat());
    return;
  case AttributeProto::STRING:
    a.set_s(oneIn(2) ? pick(kAutoPads) : oddName());
    return;
  case AttributeProto::TENSOR:
    mutateTensor(*a.mutable_t());
    return;
  case AttributeProto::INTS: {
    auto &ints = *a.mutable_ints();
    size_t what = below(4);
    if (what == 0 || ints.empty())
      ints.Add(interestingInt());
    else if (what == 1)
      ints.RemoveLast();
    else if (what == 2)
      ints.Set(below(ints.size()), interestingInt());
    else // the same value everywhere: "all pads 0", "all strides 2"
      for (int i = 0; i < ints.size(); ++i)
        ints.Set(i, i == 0 ? interestingInt() : ints.Get(0));
    return;
  }
  case AttributeProto::FLOATS: {
    auto &floats = *a.mutable_floats();
    if (floats.empty() || oneIn(3))
      floats.Add(interestingFloat());
    else if (oneIn(2))
      floats.RemoveLast();
    else
      floats.Set(below(floats.size()), interestingFloat());
    return;
  }
  default:
    fillAttribute(a, pick(kAttrTypes));
  }
}

/// Gives `a` type `type` and a payload of that type; sometimes the payload of
/// another type instead, or both.
void Mutator::fillAttribute(AttributeProto &a, int type) {
  if (!oneIn(4)) {
    a.clear_i();
    a.clear_f();
    a.clear_s();
    a.clear_t();
    a.clear_g();
    a.clear_ints();
    a.clear_floats();
    a.clear_strings();
  }
  a.set_type(static_cast<AttributeProto::AttributeType>(type));
  int payload = oneIn(5) ? pick(kAttrTypes) : type;
  switch (payload) {
  case AttributeProto::INT:
    a.set_i(interestingInt());
    break;
  case AttributeProto::FLOAT:
    a.set_f(interestingFloat());
    break;
  case AttributeProto::STRING:
    a.set_s(oneIn(2) ? pick(kAutoPads) : oddName());
    break;
  case AttributeProto::TENSOR:
    fillTensor(*a.mutable_t());
    break;
  case AttributeProto::GRAPH:
    a.mutable_g()->set_name("sub");
    if (oneIn(2))
      a.mutable_g()->add_node()->set_op_type(randomOp());
    break;
  case AttributeProto::INTS:
    for (size_t i = 0, n = below(7); i < n; ++i)
      a.add_ints(interestingInt());
    break;
  case AttributeProto::FLOATS:
    for (size_t i = 0, n = below(5); i < n; ++i)
      a.add_floats(interestingFloat());
    break;
  case AttributeProto::STRINGS:
    for (size_t i = 0, n = below(3); i < n; ++i)
      a.add_strings(oddName());
    break;
  default:
    break;
  }
}

void Mutator::mutateAttribute() {
  if (AttributeProto *a = randomAttribute())
    setAttributeValue(*a);
  else
    addAttribute();
}

void Mutator::retypeAttribute() {
  if (AttributeProto *a = randomAttribute())
    fillAttribute(*a, pick(kAttrTypes));
}

void Mutator::addAttribute() {
  NodeProto *n = randomNode();
  if (!n)
    return;
  AttributeProto *a = n->add_attribute();
  // A second attribute of an existing name now and then.
  if (n->attribute_size() > 1 && oneIn(6))
    a->set_name(n->attribute(below(n->attribute_size() - 1)).name());
  else if (oneIn(12))
    a->set_name(oddName());
  else if (oneIn(3))
    a->set_name(attributeNameInModel());
  else
    a->set_name(pick(kAttrNames));
  int type = pick(kAttrTypes);
  if (oneIn(2)) // mostly the types attributes really have
    type = oneIn(2) ? AttributeProto::INT : AttributeProto::INTS;
  fillAttribute(*a, type);
}

void Mutator::removeAttribute() {
  NodeProto *n = randomNode();
  if (n && n->attribute_size())
    n->mutable_attribute()->DeleteSubrange(below(n->attribute_size()), 1);
}

void Mutator::changeOpType() {
  NodeProto *n = randomNode();
  if (!n)
    return;
  if (oneIn(16)) {
    n->set_domain(oneIn(2) ? "ai.onnx" : (oneIn(2) ? "com.microsoft" : ""));
    return;
  }
  n->set_op_type(oneIn(20) ? oddName() : randomOp());
}

void Mutator::rewireInput() {
  NodeProto *n = randomNode();
  if (!n)
    return;
  size_t what = below(5);
  if (what == 0 || n->input_size() == 0)
    n->add_input(existingValue());
  else if (what == 1)
    n->mutable_input()->RemoveLast();
  else if (what == 2)
    n->set_input(below(n->input_size()), "");
  else // possibly a cycle, possibly the node's own output
    n->set_input(below(n->input_size()), existingValue());
}

void Mutator::rewireOutput() {
  NodeProto *n = randomNode();
  if (!n)
    return;
  size_t what = below(4);
  if (what == 0 || n->output_size() == 0)
    n->add_output(oneIn(2) ? existingValue() : "extra_" + std::to_string(below(100)));
  else if (what == 1)
    n->mutable_output()->RemoveLast();
  else if (what == 2)
    n->set_output(below(n->output_size()), existingValue());
  else
    n->set_output(below(n->output_size()), "");
}

void Mutator::duplicateNode() {
  NodeProto *n = randomNode();
  if (!n)
    return;
  NodeProto copy = *n;
  // Fresh outputs usually (a second consumer of the same inputs), the same
  // ones sometimes (a value defined twice).
  if (!oneIn(4))
    for (int i = 0; i < copy.output_size(); ++i)
      copy.set_output(i, copy.output(i) + "_dup" + std::to_string(below(1000)));
  auto *nodes = graph.mutable_node();
  *nodes->Add() = std::move(copy);
  // Consumers of the copy: rewire one input of a later node to it.
  if (oneIn(2) && nodes->size() > 1) {
    const NodeProto &added = nodes->Get(nodes->size() - 1);
    NodeProto *user = randomNode();
    if (added.output_size() && user->input_size())
      user->set_input(below(user->input_size()), added.output(0));
  }
}

void Mutator::deleteNode() {
  if (graph.node_size())
    graph.mutable_node()->DeleteSubrange(below(graph.node_size()), 1);
}

void Mutator::swapNodes() {
  if (graph.node_size() > 1)
    graph.mutable_node()->SwapElements(below(graph.node_size()),
                                       below(graph.node_size()));
}

/// A new node of a random op reading existing values.
void Mutator::addNode() {
  NodeProto n;
  n.set_op_type(randomOp());
  n.set_name("fuzz_" + std::to_string(below(1000)));
  for (size_t i = 0, k = 1 + below(3); i < k; ++i)
    n.add_input(existingValue());
  std::string out = "fuzz_out_" + std::to_string(below(100000));
  n.add_output(out);
  for (size_t i = 0, k = below(3); i < k; ++i) {
    AttributeProto *a = n.add_attribute();
    a->set_name(pick(kAttrNames));
    fillAttribute(*a, oneIn(2) ? AttributeProto::INTS : pick(kAttrTypes));
  }
  auto *nodes = graph.mutable_node();
  *nodes->Add() = std::move(n);
  // At a random position: nodes need not be sorted.
  for (int i = nodes->size() - 1, pos = below(nodes->size()); i > pos; --i)
    nodes->SwapElements(i, i - 1);
  if (oneIn(2)) {
    ValueInfoProto *o = graph.add_output();
    o->set_name(out);
    o->mutable_type()->mutable_tensor_type()->set_elem_type(TensorProto::FLOAT);
  }
}

void Mutator::mutateValueInfo() {
  ValueInfoProto *v = randomValueInfo();
  if (!v)
    return;
  auto *tt = v->mutable_type()->mutable_tensor_type();
  TensorShapeProto *shape = tt->mutable_shape();
  switch (below(8)) {
  case 0:
    tt->set_elem_type(pick(kDataTypes));
    return;
  case 1:
    shape->add_dim()->set_dim_value(interestingDim());
    return;
  case 2:
    if (shape->dim_size())
      shape->mutable_dim()->RemoveLast();
    return;
  case 3: { // a symbolic dimension; the harness binds it to a small size
    auto *d = shape->dim_size() ? shape->mutable_dim(below(shape->dim_size()))
                                : shape->add_dim();
    d->set_dim_param(oneIn(3) ? oddName() : (oneIn(2) ? "N" : "batch"));
    return;
  }
  case 4: { // neither value nor parameter
    if (shape->dim_size())
      shape->mutable_dim(below(shape->dim_size()))->Clear();
    return;
  }
  case 5:
    if (oneIn(2))
      tt->clear_shape(); // unranked
    else
      v->mutable_type()->mutable_sequence_type();
    return;
  default:
    if (shape->dim_size())
      shape->mutable_dim(below(shape->dim_size()))->set_dim_value(interestingDim());
    else
      shape->add_dim()->set_dim_value(interestingDim());
    return;
  }
}

/// Gives `t` a random small shape and type and a payload that matches them,
/// so that it gets past the importer: the values are what vary.
void Mutator::fillTensor(TensorProto &t) {
  static const int kTyped[] = {TensorProto::FLOAT, TensorProto::INT64,
                               TensorProto::INT64, TensorProto::INT32,
                               TensorProto::FLOAT16, TensorProto::BOOL,
                               TensorProto::UINT8, TensorProto::DOUBLE};
  int dtype = pick(kTyped);
  t.clear_dims();
  t.clear_raw_data();
  t.clear_float_data();
  t.clear_int32_data();
  t.clear_int64_data();
  t.clear_double_data();
  t.clear_external_data();
  t.clear_data_location();
  t.set_data_type(dtype);
  int64_t count = 1;
  for (size_t r = 0, rank = below(4); r < rank; ++r) {
    int64_t d = below(5);
    t.add_dims(d);
    count *= d;
  }
  std::string raw;
  for (int64_t i = 0; i < count; ++i) {
    if (dtype == TensorProto::FLOAT) {
      float f = interestingFloat();
      raw.append(reinterpret_cast<const char *>(&f), sizeof f);
    } else if (dtype == TensorProto::DOUBLE) {
      double d = interestingFloat();
      raw.append(reinterpret_cast<const char *>(&d), sizeof d);
    } else {
      int64_t v = interestingInt();
      raw.append(reinterpret_cast<const char *>(&v), elementSize(dtype));
    }
  }
  // Typed fields for some element types, raw bytes for the rest.
  if (dtype == TensorProto::INT64 && oneIn(2)) {
    for (int64_t i = 0; i < count; ++i) {
      int64_t v;
      std::memcpy(&v, raw.data() + 8 * i, 8);
      t.add_int64_data(v);
    }
  } else if (dtype == TensorProto::FLOAT && oneIn(2)) {
    for (int64_t i = 0; i < count; ++i) {
      float f;
      std::memcpy(&f, raw.data() + 4 * i, 4);
      t.add_float_data(f);
    }
  } else {
    t.set_raw_data(raw);
  }
}

void Mutator::makeExternal(TensorProto &t) {
  t.set_data_location(TensorProto::EXTERNAL);
  if (oneIn(3))
    t.clear_external_data();
  for (size_t i = 0, n = 1 + below(3); i < n; ++i) {
    auto *kv = t.add_external_data();
    kv->set_key(pick(kExternalKeys));
    kv->set_value(oneIn(4) ? std::to_string(interestingInt())
                           : pick(kExternalValues));
  }
}

void Mutator::mutateTensor(TensorProto &t) {
  switch (below(12)) {
  case 0:
    t.set_data_type(pick(kDataTypes));
    return;
  case 1: // one dimension
    if (t.dims_size())
      t.set_dims(below(t.dims_size()), interestingDim());
    else
      t.add_dims(interestingDim());
    return;
  case 2:
    if (oneIn(2))
      t.add_dims(interestingDim());
    else if (t.dims_size())
      t.mutable_dims()->RemoveLast();
    return;
  case 3: { // raw bytes cut or extended
    std::string raw = t.raw_data();
    if (oneIn(2) && !raw.empty())
      raw.resize(below(raw.size()));
    else
      for (size_t i = 0, n = 1 + below(16); i < n; ++i)
        raw.push_back(char(rng()));
    t.set_raw_data(raw);
    return;
  }
  case 4: { // one element of the payload to an interesting value
    int64_t width = elementSize(t.data_type());
    if (t.has_raw_data() && t.raw_data().size() >= (size_t)width) {
      std::string raw = t.raw_data();
      size_t at = below(raw.size() / width) * width;
      if (t.data_type() == TensorProto::FLOAT) {
        float f = interestingFloat();
        std::memcpy(&raw[at], &f, 4);
      } else {
        int64_t v = interestingInt();
        std::memcpy(&raw[at], &v, width);
      }
      t.set_raw_data(raw);
    } else if (t.int64_data_size()) {
      t.set_int64_data(below(t.int64_data_size()), interestingInt());
    } else if (t.float_data_size()) {
      t.set_float_data(below(t.float_data_size()), interestingFloat());
    } else if (t.int32_data_size()) {
      t.set_int32_data(below(t.int32_data_size()), int32_t(interestingInt()));
    } else {
      fillTensor(t);
    }
    return;
  }
  case 5: // a typed field that disagrees with the dims, or with raw_data
    if (oneIn(2))
      t.add_int64_data(interestingInt());
    else if (oneIn(2))
      t.add_float_data(interestingFloat());
    else if (oneIn(2))
      t.add_int32_data(int32_t(interestingInt()));
    else
      t.add_double_data(interestingFloat());
    return;
  case 6:
    makeExternal(t);
    return;
  case 7:
    t.clear_raw_data();
    return;
  case 8:
    if (oneIn(2))
      t.set_data_location(TensorProto::DEFAULT);
    else
      t.add_string_data(oddName());
    return;
  case 9:
    t.mutable_segment()->set_begin(interestingInt());
    t.mutable_segment()->set_end(interestingInt());
    return;
  default:
    fillTensor(t);
    return;
  }
}

void Mutator::mutateInitializers() {
  auto *inits = graph.mutable_initializer();
  size_t what = below(5);
  if (what == 0 && !inits->empty()) {
    inits->DeleteSubrange(below(inits->size()), 1);
  } else if (what == 1) {
    // A new initializer, under the name of an existing value sometimes (it
    // then shadows a graph input or clashes with a node output).
    TensorProto *t = inits->Add();
    fillTensor(*t);
    t->set_name(oneIn(2) ? existingValue() : "init_" + std::to_string(below(1000)));
    if (NodeProto *n = randomNode(); n && oneIn(2)) {
      if (n->input_size())
        n->set_input(below(n->input_size()), t->name());
      else
        n->add_input(t->name());
    }
  } else if (TensorProto *t = randomTensor()) {
    mutateTensor(*t);
  }
}

void Mutator::changeOpset() {
  auto *imports = model.mutable_opset_import();
  switch (below(6)) {
  case 0:
    imports->Add()->set_version(1 + below(25));
    return;
  case 1:
    if (!imports->empty())
      imports->Mutable(below(imports->size()))->set_domain(
          oneIn(2) ? "ai.onnx" : (oneIn(2) ? "ai.onnx.ml" : "com.microsoft"));
    return;
  case 2:
    if (!imports->empty())
      imports->Mutable(below(imports->size()))->set_version(interestingInt());
    return;
  case 3:
    if (!imports->empty())
      imports->RemoveLast();
    return;
  default:
    if (imports->empty())
      imports->Add();
    imports->Mutable(below(imports->size()))->set_version(1 + below(25));
    return;
  }
}

/// Renames one value everywhere it appears: the model stays consistent and
/// the odd name travels into the IR, the messages and the generated code.
void Mutator::renameValue() {
  std::vector<std::string> names = valueNames();
  if (names.empty())
    return;
  std::string from = names[below(names.size())];
  std::string to = oneIn(3) ? oddName() : from + pick(kOddNames);
  auto rename = [&](std::string *s) {
    if (*s == from)
      *s = to;
  };
  for (auto &v : *graph.mutable_input())
    rename(v.mutable_name());
  for (auto &v : *graph.mutable_output())
    rename(v.mutable_name());
  for (auto &v : *graph.mutable_value_info())
    rename(v.mutable_name());
  for (auto &t : *graph.mutable_initializer())
    rename(t.mutable_name());
  for (auto &n : *graph.mutable_node()) {
    for (auto &s : *n.mutable_input())
      rename(&s);
    for (auto &s : *n.mutable_output())
      rename(&s);
  }
}

void Mutator::renameOther() {
  switch (below(4)) {
  case 0:
    if (NodeProto *n = randomNode())
      n->set_name(oddName());
    return;
  case 1:
    graph.set_name(oddName());
    return;
  case 2:
    model.set_producer_name(oddName());
    model.set_producer_version(oddName());
    return;
  default:
    if (NodeProto *n = randomNode())
      n->set_doc_string(oddName());
    return;
  }
}

void Mutator::mutateOutputs() {
  auto *outs = graph.mutable_output();
  size_t what = below(4);
  if (what == 0 && !outs->empty()) {
    outs->DeleteSubrange(below(outs->size()), 1);
  } else if (what == 1 && !outs->empty()) {
    *outs->Add() = outs->Get(below(outs->size())); // listed twice
  } else {
    // Any value as an output: a graph input, an initializer, an inner value.
    ValueInfoProto *o = what == 2 && !outs->empty()
                            ? outs->Mutable(below(outs->size()))
                            : outs->Add();
    o->set_name(existingValue());
    if (!o->has_type())
      o->mutable_type()->mutable_tensor_type()->set_elem_type(TensorProto::FLOAT);
  }
}

void Mutator::mutateOnce() {
  switch (below(20)) {
  case 0:
  case 1:
  case 2:
    return mutateAttribute();
  case 3:
    return retypeAttribute();
  case 4:
    return addAttribute();
  case 5:
    return removeAttribute();
  case 6:
    return changeOpType();
  case 7:
  case 8:
    return rewireInput();
  case 9:
    return rewireOutput();
  case 10:
    return duplicateNode();
  case 11:
    return oneIn(2) ? deleteNode() : swapNodes();
  case 12:
    return addNode();
  case 13:
  case 14:
    return mutateValueInfo();
  case 15:
  case 16:
    return mutateInitializers();
  case 17:
    return changeOpset();
  case 18:
    return oneIn(2) ? renameValue() : renameOther();
  default:
    return mutateOutputs();
  }
}

void Mutator::crossOver(const ModelProto &from) {
  const GraphProto &src = from.graph();
  switch (below(4)) {
  case 0:
    if (src.node_size()) {
      *graph.add_node() = src.node(below(src.node_size()));
      // Often with what it reads, so that it can import.
      const NodeProto &n = graph.node(graph.node_size() - 1);
      for (const auto &t : src.initializer())
        for (const auto &in : n.input())
          if (t.name() == in && oneIn(2))
            *graph.add_initializer() = t;
    }
    return;
  case 1:
    if (src.initializer_size())
      *graph.add_initializer() = src.initializer(below(src.initializer_size()));
    return;
  case 2:
    if (src.input_size())
      *graph.add_input() = src.input(below(src.input_size()));
    return;
  default:
    if (src.output_size())
      *graph.add_output() = src.output(below(src.output_size()));
    return;
  }
}

} // namespace

void mutateModel(ModelProto &model, Rng &rng) {
  Mutator m(model, rng);
  for (unsigned i = 0, n = 1 + rng() % 4; i < n; ++i)
    m.mutateOnce();
}

void crossOver(ModelProto &into, const ModelProto &from, Rng &rng) {
  Mutator(into, rng).crossOver(from);
}

} // namespace onnxcc::fuzz
