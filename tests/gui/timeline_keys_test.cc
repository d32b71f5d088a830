// The timeline's keys: W/A/S/D by physical position (AZERTY's Z/Q/S/D do what
// QWERTY's W/A/S/D do), the other keys by character, Alt+arrows for the zoom
// history, and docs/gui.md naming every key of the one table.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <QString>

#include "gui/models/timeline_keys.h"

namespace damscope {
namespace {

std::optional<TimelineAction> act(int key, uint32_t scan_code = 0,
                                  ScanCodes codes = ScanCodes::kNone,
                                  Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
  return timelineActionOf(key, modifiers, scan_code, codes);
}

TEST(TimelineKeys, XkbPositionsDecideWhateverTheLetter) {
  // XKB keycodes of the W, A, S, D positions (evdev 17, 30, 31, 32, plus 8).
  // On AZERTY the W position prints Z and the A position Q.
  EXPECT_EQ(act(Qt::Key_Z, 25, ScanCodes::kXkb), TimelineAction::kZoomIn);
  EXPECT_EQ(act(Qt::Key_W, 25, ScanCodes::kXkb), TimelineAction::kZoomIn);
  EXPECT_EQ(act(Qt::Key_Q, 38, ScanCodes::kXkb), TimelineAction::kPanLeft);
  EXPECT_EQ(act(Qt::Key_S, 39, ScanCodes::kXkb), TimelineAction::kZoomOut);
  EXPECT_EQ(act(Qt::Key_D, 40, ScanCodes::kXkb), TimelineAction::kPanRight);
  // AZERTY's W is at QWERTY's Z position (keycode 52): not a zoom.
  EXPECT_EQ(act(Qt::Key_W, 52, ScanCodes::kXkb), std::nullopt);
}

TEST(TimelineKeys, WindowsScanCodesAreTheSetOneCodes) {
  EXPECT_EQ(act(Qt::Key_Z, 0x11, ScanCodes::kWindowsSet1), TimelineAction::kZoomIn);
  EXPECT_EQ(act(Qt::Key_Q, 0x1E, ScanCodes::kWindowsSet1), TimelineAction::kPanLeft);
  EXPECT_EQ(act(Qt::Key_W, 0x2C, ScanCodes::kWindowsSet1), std::nullopt);
}

TEST(TimelineKeys, WithoutScanCodesBothLayoutsLettersAct) {
  EXPECT_EQ(act(Qt::Key_W), TimelineAction::kZoomIn);
  EXPECT_EQ(act(Qt::Key_Z), TimelineAction::kZoomIn);
  EXPECT_EQ(act(Qt::Key_A), TimelineAction::kPanLeft);
  EXPECT_EQ(act(Qt::Key_Q), TimelineAction::kPanLeft);
  EXPECT_EQ(act(Qt::Key_S), TimelineAction::kZoomOut);
  EXPECT_EQ(act(Qt::Key_D), TimelineAction::kPanRight);
  // A platform with scan codes that sends none for a key falls back too.
  EXPECT_EQ(act(Qt::Key_Z, 0, ScanCodes::kXkb), TimelineAction::kZoomIn);
}

TEST(TimelineKeys, OtherKeysByCharacter) {
  EXPECT_EQ(act(Qt::Key_Plus, 0, ScanCodes::kNone, Qt::ShiftModifier), TimelineAction::kZoomIn);
  EXPECT_EQ(act(Qt::Key_Minus, 0, ScanCodes::kNone, Qt::KeypadModifier), TimelineAction::kZoomOut);
  EXPECT_EQ(act(Qt::Key_Left), TimelineAction::kPanLeft);
  EXPECT_EQ(act(Qt::Key_Right), TimelineAction::kPanRight);
  EXPECT_EQ(act(Qt::Key_Up), TimelineAction::kScrollUp);
  EXPECT_EQ(act(Qt::Key_Down), TimelineAction::kScrollDown);
  EXPECT_EQ(act(Qt::Key_Home), TimelineAction::kFit);
  EXPECT_EQ(act(Qt::Key_F), TimelineAction::kFit);
  EXPECT_EQ(act(Qt::Key_Escape), TimelineAction::kClear);
  EXPECT_EQ(act(Qt::Key_Left, 0, ScanCodes::kNone, Qt::AltModifier), TimelineAction::kBack);
  EXPECT_EQ(act(Qt::Key_Right, 0, ScanCodes::kNone, Qt::AltModifier), TimelineAction::kForward);
  // Ctrl+W, Ctrl+F and the like belong to the window.
  EXPECT_EQ(act(Qt::Key_W, 0, ScanCodes::kNone, Qt::ControlModifier), std::nullopt);
  EXPECT_EQ(act(Qt::Key_F, 0, ScanCodes::kNone, Qt::ControlModifier), std::nullopt);
  EXPECT_EQ(act(Qt::Key_X), std::nullopt);
}

TEST(TimelineKeys, PlatformsScanCodes) {
  EXPECT_EQ(scanCodesOf("xcb"), ScanCodes::kXkb);
  EXPECT_EQ(scanCodesOf("wayland-egl"), ScanCodes::kXkb);
  EXPECT_EQ(scanCodesOf("windows"), ScanCodes::kWindowsSet1);
  EXPECT_EQ(scanCodesOf("cocoa"), ScanCodes::kNone);
  EXPECT_EQ(scanCodesOf("offscreen"), ScanCodes::kNone);
}

// The overlay lists timelineKeyHelp(); the user's guide must say the same.
TEST(TimelineKeys, TheGuideNamesEveryKeyOfTheTable) {
  std::ifstream in(DAMSCOPE_SOURCE_DIR "/docs/gui.md");
  ASSERT_TRUE(in) << "docs/gui.md";
  std::stringstream doc;
  doc << in.rdbuf();
  const std::string text = doc.str();
  ASSERT_GE(timelineKeyHelp().size(), 10u);
  for (const KeyHelp& line : timelineKeyHelp()) {
    EXPECT_NE(text.find(line.keys), std::string::npos)
        << "docs/gui.md does not name \"" << line.keys << "\"";
  }
}

}  // namespace
}  // namespace damscope
