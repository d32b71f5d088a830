// The GUI's way into a run: the loader runs the pipeline off the UI thread and
// answers on it; the exports write the report and images whole.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <algorithm>
#include <filesystem>

#include "gui/app/report_export.h"
#include "gui/app/run_loader.h"
#include "tests/stored_run.h"
#include "tests/test_support.h"

namespace damscope {
namespace {

using testing::TempDir;

QStringList twoRanks(const TempDir& dir, int steps = 40) {
  const std::string a = dir.file("rank0.json");
  const std::string b = dir.file("rank1.json");
  testing::writeFile(a, testing::dataBoundKinetoTrace(0, 0, steps));
  testing::writeFile(b, testing::dataBoundKinetoTrace(1, 200, steps));
  return {QString::fromStdString(a), QString::fromStdString(b)};
}

std::vector<std::string> filesIn(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(RunLoader, OpensRanksOffTheUiThreadAndWritesNothingBesideATrace) {
  TempDir dir;
  const QStringList inputs = twoRanks(dir);
  RunLoader loader;
  QSignalSpy loaded(&loader, &RunLoader::loaded);
  QSignalSpy failed(&loader, &RunLoader::failed);
  QSignalSpy progressed(&loader, &RunLoader::progressed);
  loader.load(inputs);
  EXPECT_TRUE(loader.busy());
  ASSERT_TRUE(loaded.wait(30000)) << "no answer";
  EXPECT_FALSE(loader.busy());
  EXPECT_EQ(failed.count(), 0);
  EXPECT_GT(progressed.count(), 0);
  const auto run = loaded.front().at(0).value<std::shared_ptr<const AnalysedRun>>();
  ASSERT_TRUE(run);
  ASSERT_EQ(run->tables.size(), 2u);
  EXPECT_EQ(run->run.ranks[0].rank, 0);
  EXPECT_TRUE(run->run.ranks[1].comparison->straggler);
  EXPECT_EQ(loaded.front().at(1).toStringList(), inputs);
  EXPECT_EQ(filesIn(dir.path()), (std::vector<std::string>{"rank0.json", "rank1.json"}));
}

TEST(RunLoader, RunDbsGetTheirResultsStored) {
  EXPECT_FALSE(RunLoader::pipelineOptions().store_imports);
  TempDir dir;
  const QStringList traces = twoRanks(dir, 3);
  RunLoader loader;
  QSignalSpy loaded(&loader, &RunLoader::loaded);
  loader.load({traces[0]});
  ASSERT_TRUE(loaded.wait(30000));
  // A run.db made by `damscope import` is analysed and its results kept in it.
  const std::string db = dir.file("rank0.db");
  const auto imported =
      testing::runCommand(testing::damscopeBinary() + " import " + traces[0].toStdString() +
                          " -o " + db);
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_TRUE(RunLoader::pipelineOptions().store);
  loader.load({QString::fromStdString(db)});
  ASSERT_TRUE(loaded.wait(30000));
  auto stored = testing::readStoredRank(db);
  ASSERT_TRUE(stored.ok()) << stored.error().message();
  const auto run = loaded.back().at(0).value<std::shared_ptr<const AnalysedRun>>();
  EXPECT_EQ(stored->findings, run->run.ranks[0].findings);
}

TEST(RunLoader, ACorruptFileIsAMessageNamingIt) {
  TempDir dir;
  const std::string bad = dir.file("broken.json");
  testing::writeFile(bad, "{\"traceEvents\": [ {\"ph\": \"X\", ");
  RunLoader loader;
  QSignalSpy failed(&loader, &RunLoader::failed);
  loader.load({QString::fromStdString(bad)});
  ASSERT_TRUE(failed.wait(30000));
  const QString message = failed.front().at(0).toString();
  EXPECT_TRUE(message.contains("broken.json")) << message.toStdString();
  EXPECT_FALSE(failed.front().at(1).toBool());
  EXPECT_FALSE(loader.busy());
}

TEST(RunLoader, ANewLoadReplacesTheOneRunningAndCancelStops) {
  TempDir dir;
  const QStringList inputs = twoRanks(dir, 400);
  RunLoader loader;
  QSignalSpy loaded(&loader, &RunLoader::loaded);
  QSignalSpy failed(&loader, &RunLoader::failed);
  loader.load(inputs);
  loader.load({inputs[0]});  // the first one's result must never arrive
  ASSERT_TRUE(loaded.wait(30000));
  QTest::qWait(200);
  ASSERT_EQ(loaded.count(), 1);
  EXPECT_EQ(loaded.front().at(1).toStringList(), QStringList{inputs[0]});
  EXPECT_EQ(failed.count(), 0) << "the replaced load says nothing";

  // Cancelled at once, a long load stops at its first check and says so.
  const QStringList big = twoRanks(dir, 20000);
  loader.load(big);
  loader.cancel();
  ASSERT_TRUE(failed.wait(30000));
  EXPECT_TRUE(failed.front().at(1).toBool()) << "cancelled, not failed";
  EXPECT_EQ(loaded.count(), 1);
  EXPECT_FALSE(loader.busy());
}

TEST(ReportExport, TheReportByItsSuffixAndImagesWrittenWhole) {
  TempDir dir;
  const QStringList inputs = twoRanks(dir, 3);
  RunLoader loader;
  QSignalSpy loaded(&loader, &RunLoader::loaded);
  loader.load({inputs[0]});
  ASSERT_TRUE(loaded.wait(30000));
  const auto run = loaded.front().at(0).value<std::shared_ptr<const AnalysedRun>>();
  EXPECT_EQ(reportKindOf("a.MD"), ReportKind::kMarkdown);
  EXPECT_EQ(reportKindOf("a.json"), ReportKind::kJson);
  EXPECT_EQ(reportKindOf("a.html"), ReportKind::kHtml);
  for (const char* name : {"r.html", "r.md", "r.json"}) {
    const QString path = QString::fromStdString(dir.file(name));
    ASSERT_TRUE(writeReport(*run, path).ok());
    const std::string text = testing::readFile(path.toStdString());
    EXPECT_EQ(text, renderReport(*run, reportKindOf(path))) << name;
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
    EXPECT_NE(lower.find("data"), std::string::npos) << name << ": the verdict is in it";
  }
  QImage image(64, 32, QImage::Format_RGB32);
  image.fill(Qt::red);
  const QString png = QString::fromStdString(dir.file("view.png"));
  ASSERT_TRUE(writeImage(image, png).ok());
  EXPECT_EQ(QImage(png).size(), QSize(64, 32));
  const Status refused = writeImage(image, QString::fromStdString(dir.file("no/such/dir/x.png")));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("x.png"), std::string::npos);
}

}  // namespace
}  // namespace damscope
