// The Statistics panel's module tree: nn.Module → op → kernel from the
// attribution of op_breakdown.h, its figures against hand-computed ones, the
// item model under QAbstractItemModelTester, and a row click asking the
// timeline for the operations beneath it.
#include "gui/models/op_tree.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTreeView>

#include "gui/models/op_tree_model.h"
#include "gui/panels/statistics_panel.h"
#include "tests/gui/gui_test_support.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::analysedRunOf;
using testing::TraceBuilder;
using testing::us;

// Net_0 holds Linear_0 (aten::linear: two GEMMs) and aten::relu; aten::add
// runs outside every module; a kernel with no launch call belongs nowhere.
std::shared_ptr<const AnalysedRun> moduleRun() {
  TraceBuilder b;
  b.device(0, 80);
  b.range(0, 1000, "nn.Module: Net_0", "python_function");
  b.range(10, 400, "nn.Module: Linear_0", "python_function");
  b.range(20, 300, "aten::linear");
  b.launchKernel(30, 100, 40, "sgemm_128x64");
  b.launchKernel(60, 150, 60, "sgemm_128x64");
  b.range(500, 100, "aten::relu");
  b.launchKernel(510, 520, 10, "relu_kernel");
  b.range(2000, 100, "aten::add");
  b.launchKernel(2010, 2020, 5, "add_kernel");
  return std::make_shared<const AnalysedRun>(analysedRunOf(b.build()));
}

const OpTreeNode& childNamed(const OpTree& tree, const std::vector<int>& children,
                             const std::string& name) {
  for (int c : children) {
    if (tree.nodes[static_cast<size_t>(c)].name == name) return tree.nodes[static_cast<size_t>(c)];
  }
  ADD_FAILURE() << "no child " << name;
  static const OpTreeNode none;
  return none;
}

TEST(OpTree, ModulesNestOutermostFirstThenTheLeafOpThenTheKernel) {
  const auto run = moduleRun();
  const OpTree tree = buildOpTree(*run, 0, std::nullopt);
  EXPECT_TRUE(tree.has_modules);
  ASSERT_EQ(tree.roots.size(), 2u);
  EXPECT_EQ(tree.gpu_ns, us(40 + 60 + 10 + 5));
  const OpTreeNode& net = tree.nodes[static_cast<size_t>(tree.roots[0])];  // largest first
  EXPECT_EQ(net.name, "Net_0");
  EXPECT_EQ(net.gpu_ns, us(110));
  EXPECT_EQ(net.self_ns, us(10)) << "relu is launched in Net_0 with no module inside";
  EXPECT_EQ(net.operations, 3);
  ASSERT_EQ(net.children.size(), 2u);
  const OpTreeNode& linear = childNamed(tree, net.children, "Linear_0");
  EXPECT_EQ(linear.level, OpTreeLevel::kModule);
  EXPECT_EQ(linear.gpu_ns, us(100));
  EXPECT_EQ(linear.self_ns, us(100));
  const OpTreeNode& op = childNamed(tree, linear.children, "aten::linear");
  EXPECT_EQ(op.level, OpTreeLevel::kOp);
  const OpTreeNode& gemm = childNamed(tree, op.children, "sgemm_128x64");
  EXPECT_EQ(gemm.level, OpTreeLevel::kKernel);
  EXPECT_EQ(gemm.operations, 2);
  EXPECT_EQ(gemm.gpu_ns, us(100));
  const OpTreeNode& relu = childNamed(tree, net.children, "aten::relu");
  EXPECT_EQ(relu.level, OpTreeLevel::kOp);
  EXPECT_EQ(relu.gpu_ns, us(10));
  const OpTreeNode& outside = tree.nodes[static_cast<size_t>(tree.roots[1])];
  EXPECT_EQ(outside.name, "(no module)");
  EXPECT_EQ(childNamed(tree, outside.children, "aten::add").gpu_ns, us(5));
  // Everything under a node, in time order.
  const EventRefs events = tree.eventsOf(tree.roots[0]);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(nameOf(events[0], *run), "sgemm_128x64");
  EXPECT_EQ(nameOf(events[2], *run), "relu_kernel");
}

TEST(OpTree, AWindowKeepsTheOperationsThatStartInIt) {
  const auto run = moduleRun();
  const int64_t origin = run->tables[0].kernels.ts[0] - us(100);
  const OpTree tree = buildOpTree(*run, 0, TimeWindow{origin + us(140), origin + us(600)});
  EXPECT_EQ(tree.gpu_ns, us(60 + 10));
  ASSERT_EQ(tree.roots.size(), 1u);
}

TEST(OpTree, WithoutAnyModuleTheOpsAreTheRoots) {
  TraceBuilder b;
  b.device(0, 80);
  b.range(0, 100, "aten::mm");
  b.launchKernel(10, 20, 30, "sgemm_128x64");
  const OpTree tree = buildOpTree(analysedRunOf(b.build()), 0, std::nullopt);
  EXPECT_FALSE(tree.has_modules);
  ASSERT_EQ(tree.roots.size(), 1u);
  EXPECT_EQ(tree.nodes[static_cast<size_t>(tree.roots[0])].name, "aten::mm");
  EXPECT_EQ(tree.nodes[static_cast<size_t>(tree.roots[0])].level, OpTreeLevel::kOp);
}

TEST(OpTreeModel, PassesTheModelTesterAndSortsByTheFiguresNotTheText) {
  OpTreeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTree(buildOpTree(*moduleRun(), 0, std::nullopt));
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  proxy.setSortRole(OpTreeModel::SortRole);
  QAbstractItemModelTester proxy_tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
  proxy.sort(OpTreeModel::kGpuTotal, Qt::AscendingOrder);
  EXPECT_EQ(proxy.index(0, 0).data().toString(), "(no module)");
  proxy.sort(OpTreeModel::kGpuTotal, Qt::DescendingOrder);
  const QModelIndex net = proxy.index(0, 0);
  EXPECT_EQ(net.data().toString(), "Net_0");
  EXPECT_EQ(proxy.rowCount(net), 2);
  EXPECT_EQ(proxy.index(0, OpTreeModel::kShare, {}).data().toString(),
            percentText(100.0 * 110 / 115));
  // A filter keeps the rows above a match.
  proxy.setRecursiveFilteringEnabled(true);
  proxy.setFilterFixedString("relu_kernel");
  ASSERT_EQ(proxy.rowCount(), 1);
  EXPECT_EQ(proxy.rowCount(proxy.index(0, 0)), 1);
}

TEST(OpTreeModel, ClickingARowAsksTheTimelineForEveryOperationBeneathIt) {
  StatisticsPanel panel;
  const auto run = moduleRun();
  panel.setRun(run, 0);
  ASSERT_TRUE(panel.isReady());
  QSignalSpy spy(&panel, &StatisticsPanel::eventsRequested);
  QTreeView* view = panel.moduleTreeView();
  const QModelIndex net = view->model()->index(0, 0);
  ASSERT_EQ(net.data().toString(), "Net_0");
  view->setCurrentIndex(net);
  ASSERT_EQ(spy.count(), 1);
  const auto events = spy.at(0).at(0).value<EventRefs>();
  EXPECT_EQ(events,
            buildOpTree(*run, 0, std::nullopt).eventsOf(panel.moduleTree()->tree().roots[0]));
  EXPECT_EQ(events.size(), 3u);
}

}  // namespace
}  // namespace damscope
