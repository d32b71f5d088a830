// Forward and backward ops linked by sequence number: see op_links.h.
#include "analyzer/analyses/op_links.h"

#include <charconv>
#include <unordered_map>

namespace damscope {
namespace {

constexpr std::string_view kSequence = "\"Sequence number\"";

// The sequence number in an op's args, or -1.
int64_t sequenceOf(std::string_view args) {
  const size_t at = args.find(kSequence);
  if (at == std::string_view::npos) return -1;
  size_t i = at + kSequence.size();
  while (i < args.size() && (args[i] == ' ' || args[i] == ':')) ++i;
  int64_t seq = -1;
  const auto [end, ec] = std::from_chars(args.data() + i, args.data() + args.size(), seq);
  return ec == std::errc() ? seq : -1;
}

// A backward node is named for its function ("AddmmBackward0"); the engine's
// wrapper ("autograd::engine::evaluate_function: AddmmBackward0") records no
// inputs, and the ATen ops are the forward ones.
bool isBackwardNode(std::string_view name) {
  return !name.starts_with("aten::") && !name.starts_with("autograd::") &&
         name.find("Backward") != std::string_view::npos;
}

// The first element of a JSON array of arrays ("[[32,64,56,56],[]]" ->
// "[32,64,56,56]"), or "".
std::string_view firstDims(std::string_view args) {
  constexpr std::string_view kDims = "\"Input Dims\"";
  const size_t at = args.find(kDims);
  if (at == std::string_view::npos) return {};
  const size_t open = args.find('[', at + kDims.size());
  if (open == std::string_view::npos || open + 1 >= args.size() || args[open + 1] != '[') return {};
  const size_t close = args.find(']', open + 1);
  if (close == std::string_view::npos) return {};
  return args.substr(open + 1, close - open);
}

}  // namespace

std::string_view OpLinks::outputDims(const TraceTables& t, int64_t range) const {
  if (empty()) return {};
  const int64_t node = backward_node[static_cast<size_t>(range)];
  return isNull(node) ? std::string_view() : firstDims(t.ranges.args[static_cast<size_t>(node)]);
}

std::string_view OpLinks::forwardArgs(const TraceTables& t, int64_t range) const {
  if (empty()) return {};
  const int64_t op = forward_op[static_cast<size_t>(range)];
  return isNull(op) ? std::string_view() : std::string_view(t.ranges.args[static_cast<size_t>(op)]);
}

OpLinks linkOps(const TraceTables& t) {
  const RangeTable& r = t.ranges;
  // Per sequence number: its backward node, and its innermost forward ATen op
  // (the one that ran the kernels, whose inputs are the kernels' operands).
  std::unordered_map<int64_t, int64_t> node_of, forward_of;
  std::vector<int64_t> seq(r.size(), -1);
  for (size_t i = 0; i < r.size(); ++i) {
    const std::string_view args = r.args[i];
    if (args.empty() || isNull(r.thread_id[i])) continue;
    seq[i] = sequenceOf(args);
    if (seq[i] < 0) continue;
    const std::string_view name = t.strings.get(r.name[i]);
    if (isBackwardNode(name)) {
      node_of.try_emplace(seq[i], static_cast<int64_t>(i));
    } else if (name.starts_with("aten::")) {
      auto [it, inserted] = forward_of.try_emplace(seq[i], static_cast<int64_t>(i));
      if (!inserted && r.depth[i] > r.depth[static_cast<size_t>(it->second)]) {
        it->second = static_cast<int64_t>(i);
      }
    }
  }
  OpLinks links;
  if (node_of.empty()) return links;
  links.backward_node.assign(r.size(), kNullInt);
  links.forward_op.assign(r.size(), kNullInt);
  links.recomputed.assign(r.size(), 0);
  for (size_t i = 0; i < r.size(); ++i) {
    if (seq[i] < 0) continue;
    const std::string_view name = t.strings.get(r.name[i]);
    if (!name.starts_with("aten::")) continue;
    if (auto it = node_of.find(seq[i]); it != node_of.end()) links.backward_node[i] = it->second;
  }
  // An op inside a backward node differentiates the node's forward op: the
  // nearest enclosing node (ranges are in time order, so a parent's answer
  // is known before its children ask).
  std::vector<int64_t> node_above(r.size(), kNullInt);
  for (size_t i = 0; i < r.size(); ++i) {
    const int64_t p = r.parent_id[i];
    if (isNull(p) || p < 0 || static_cast<size_t>(p) >= i) continue;
    const size_t parent = static_cast<size_t>(p);
    node_above[i] = seq[parent] >= 0 && isBackwardNode(t.strings.get(r.name[parent]))
                        ? p
                        : node_above[parent];
    if (isNull(node_above[i])) continue;
    if (seq[i] >= 0 && t.strings.get(r.name[i]).starts_with("aten::")) links.recomputed[i] = 1;
    if (auto it = forward_of.find(seq[static_cast<size_t>(node_above[i])]); it != forward_of.end()) {
      links.forward_op[i] = it->second;
    }
  }
  return links;
}

}  // namespace damscope
