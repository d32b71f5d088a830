// The Statistics panel's module tree: see op_tree.h.
#include "gui/models/op_tree.h"

#include <algorithm>
#include <map>
#include <utility>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/op_breakdown.h"
#include "base/duration_sum.h"

namespace damscope {
namespace {

class Builder {
 public:
  explicit Builder(OpTree& tree) : tree_(tree) {}

  // The child of `parent` (-1: a root) named `name`, added if new.
  int child(int parent, const std::string& name, OpTreeLevel level) {
    auto [it, fresh] = index_.try_emplace({parent, name}, static_cast<int>(tree_.nodes.size()));
    if (fresh) {
      OpTreeNode node;
      node.name = name;
      node.level = level;
      node.parent = parent;
      tree_.nodes.push_back(std::move(node));
      (parent < 0 ? tree_.roots : tree_.nodes[static_cast<size_t>(parent)].children)
          .push_back(it->second);
    }
    return it->second;
  }

  void sortChildren() {
    auto larger = [&](int a, int b) {
      const OpTreeNode& x = tree_.nodes[static_cast<size_t>(a)];
      const OpTreeNode& y = tree_.nodes[static_cast<size_t>(b)];
      return x.gpu_ns != y.gpu_ns ? x.gpu_ns > y.gpu_ns : x.name < y.name;
    };
    std::sort(tree_.roots.begin(), tree_.roots.end(), larger);
    for (OpTreeNode& node : tree_.nodes)
      std::sort(node.children.begin(), node.children.end(), larger);
  }

 private:
  OpTree& tree_;
  std::map<std::pair<int, std::string>, int> index_;
};

}  // namespace

EventRefs OpTree::eventsOf(int node) const {
  std::vector<std::pair<int32_t, EventRef>> timed;
  std::vector<int> stack{node};
  while (!stack.empty()) {
    const OpTreeNode& n = nodes[static_cast<size_t>(stack.back())];
    stack.pop_back();
    for (size_t e = 0; e < n.events.size(); ++e) timed.emplace_back(n.event_order[e], n.events[e]);
    stack.insert(stack.end(), n.children.begin(), n.children.end());
  }
  std::sort(timed.begin(), timed.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  EventRefs out;
  out.reserve(timed.size());
  for (const auto& [order, ref] : timed) out.push_back(ref);
  return out;
}

OpTree buildOpTree(const AnalysedRun& run, int rank, const std::optional<TimeWindow>& window) {
  OpTree tree;
  if (rank < 0 || static_cast<size_t>(rank) >= run.tables.size()) return tree;
  const AnalysisInput in = AnalysisInput::build(run.tables[static_cast<size_t>(rank)]);
  const std::vector<GpuOp>& gpu = in.gpu();
  WindowReport w;
  w.mode = WindowMode::kAll;
  w.in_window.resize(gpu.size());
  for (size_t g = 0; g < gpu.size(); ++g) w.in_window[g] = !window || window->contains(gpu[g].ts);
  OpBreakdownOptions options;
  options.keep_rows_of_gpu_op = true;
  options.grouping = OpGrouping::kModule;
  const OpBreakdownReport modules = computeOpBreakdown(in, w, {}, {}, options);
  options.grouping = OpGrouping::kLeafOp;
  const OpBreakdownReport ops = computeOpBreakdown(in, w, {}, {}, options);

  for (size_t g = 0; g < gpu.size() && !tree.has_modules; ++g) {
    tree.has_modules = !modules.rows_of_gpu_op[g].empty();
  }
  Builder builder(tree);
  std::vector<int> path;
  // gpu is in time order (analysis_input.h), so each kernel's events are too.
  for (size_t g = 0; g < gpu.size(); ++g) {
    const GpuOp& op = gpu[g];
    if (op.kind == GpuOpKind::kSync || !w.in_window[g]) continue;
    const int64_t dur = op.end - op.ts;
    path.clear();
    int node = -1;
    const std::vector<int32_t>& around = modules.rows_of_gpu_op[g];
    if (around.empty() && tree.has_modules) {
      node = builder.child(node, "(no module)", OpTreeLevel::kModule);
      path.push_back(node);
    }
    for (auto m = around.rbegin(); m != around.rend(); ++m) {
      node = builder.child(node, modules.rows[static_cast<size_t>(*m)].name, OpTreeLevel::kModule);
      path.push_back(node);
    }
    const int innermost_module = node;
    const std::vector<int32_t>& leaf = ops.rows_of_gpu_op[g];
    node =
        builder.child(node, leaf.empty() ? "(no op)" : ops.rows[static_cast<size_t>(leaf[0])].name,
                      OpTreeLevel::kOp);
    path.push_back(node);
    const EventRef ref{rank, eventKindOf(op.kind), op.row};
    node = builder.child(node, nameOf(ref, run), OpTreeLevel::kKernel);
    path.push_back(node);
    for (int n : path) {
      OpTreeNode& at = tree.nodes[static_cast<size_t>(n)];
      accumulateDuration(at.gpu_ns, dur);
      ++at.operations;
      if (at.level != OpTreeLevel::kModule || n == innermost_module) {
        accumulateDuration(at.self_ns, dur);
      }
    }
    OpTreeNode& kernel = tree.nodes[static_cast<size_t>(node)];
    kernel.events.push_back(ref);
    kernel.event_order.push_back(static_cast<int32_t>(g));
    accumulateDuration(tree.gpu_ns, dur);
  }
  builder.sortChildren();
  return tree;
}

}  // namespace damscope
