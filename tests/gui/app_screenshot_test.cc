// damscope-gui as a person (or the docs) runs it: open a real trace, wait for
// the analysis, save an image of a view and exit; bad input is one line and
// exit code 2, and nothing is left behind.
#include <gtest/gtest.h>

#include <QImage>
#include <filesystem>
#include <set>

#include "tests/test_support.h"

namespace damscope {
namespace {

using testing::runCommand;
using testing::TempDir;

std::string gui() { return std::string(DAMSCOPE_BINARY_DIR) + "/gui/damscope-gui"; }

// Distinct colours in a coarse sample: a blank or single-colour image has 1–3.
size_t coloursIn(const QImage& image) {
  std::set<QRgb> colours;
  for (int y = 0; y < image.height(); y += 7) {
    for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
  }
  return colours.size();
}

void expectScreenshot(const std::string& trace, const char* view, const QSize& size) {
  TempDir dir;
  const std::string out = dir.file(std::string(view) + ".png");
  const auto run = runCommand("QT_QPA_PLATFORM=offscreen " + gui() + " " + trace +
                              " --screenshot " + out + " --view " + view + " 2>&1");
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const QImage image(QString::fromStdString(out));
  ASSERT_FALSE(image.isNull()) << view;
  EXPECT_EQ(image.size(), size) << view;
  EXPECT_GT(coloursIn(image), 20u) << view << ": looks blank";
}

TEST(GuiScreenshot, SharedTracesInEveryView) {
  if (!testing::haveSharedTraces()) GTEST_SKIP() << "../shared/traces is absent";
  const std::string resnet = testing::sharedTrace("kineto/resnet50_workers0.pt.trace.json.gz");
  expectScreenshot(resnet, "timeline", QSize(1600, 1000));
  expectScreenshot(resnet, "charts", QSize(1600, 1000));
  expectScreenshot(resnet, "roofline", QSize(1600, 1000));
  const std::string nccl = testing::sharedTrace("kineto/nccl_2rank_a100.json.gz");
  expectScreenshot(nccl, "timeline", QSize(1600, 1000));
  expectScreenshot(nccl, "statistics", QSize(1600, 1000));
}

TEST(GuiScreenshot, BadInputIsOneLineAndExitCodeTwo) {
  TempDir dir;
  const std::string bad = dir.file("broken.json");
  testing::writeFile(bad, "{\"traceEvents\": [ {\"ph\": ");
  const std::string out = dir.file("never.png");
  auto run = runCommand("QT_QPA_PLATFORM=offscreen " + gui() + " " + bad + " --screenshot " +
                        out);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("broken.json"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << "one line: " << run.err;
  EXPECT_FALSE(std::filesystem::exists(out));

  run = runCommand("QT_QPA_PLATFORM=offscreen " + gui() + " " + bad + " --screenshot " + out +
                   " --view nowhere");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--view nowhere"), std::string::npos) << run.err;

  run = runCommand("QT_QPA_PLATFORM=offscreen " + gui() + " --screenshot " + out);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("needs a run"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace damscope
