// The timeline's keys: see timeline_keys.h.
#include "gui/models/timeline_keys.h"

#include <array>

#include <QString>

namespace damscope {
namespace {

// The WASD positions: the XKB keycodes are the evdev codes KEY_W 17, KEY_A
// 30, KEY_S 31, KEY_D 32 (linux/input-event-codes.h) plus 8, the offset XKB
// adds; set 1 uses the evdev numbers themselves for these keys (the evdev
// codes were taken from the PC AT set 1).
struct Position {
  TimelineAction action;
  uint32_t evdev;
  Qt::Key qwerty;
  Qt::Key azerty;
};
constexpr std::array<Position, 4> kPositions = {{
    {TimelineAction::kZoomIn, 17, Qt::Key_W, Qt::Key_Z},
    {TimelineAction::kPanLeft, 30, Qt::Key_A, Qt::Key_Q},
    {TimelineAction::kZoomOut, 31, Qt::Key_S, Qt::Key_S},
    {TimelineAction::kPanRight, 32, Qt::Key_D, Qt::Key_D},
}};
constexpr uint32_t kXkbOffset = 8;

constexpr std::array<KeyHelp, 20> kHelp = {{
    {"W / S", "zoom in / out at the mouse pointer (Z / S on AZERTY: keys by position)"},
    {"A / D", "pan left / right (Q / D on AZERTY)"},
    {"+ / -", "zoom in / out at the mouse pointer"},
    {"Left / Right", "pan left / right"},
    {"Up / Down", "scroll the rows"},
    {"Home or F", "fit the whole run"},
    {"Alt+Left / Alt+Right", "back / forward in the zoom history"},
    {"Esc", "clear the selection, the highlights and the selected window"},
    {"Wheel", "zoom at the mouse pointer (Shift+wheel scrolls the rows)"},
    {"Drag", "pan"},
    {"Right-drag or Ctrl+drag", "zoom to the range dragged over"},
    {"Shift+drag", "select a time window: its aggregates, and the diagnosis re-scoped to it"},
    {"Click", "an event's details in the Event dock"},
    {"Double-click or middle-click", "on a fold: zoom into it"},
    {"Click a rank header", "collapse or open that rank's rows (all ranks stacked)"},
    {"Right-click a row header",
     "collapse, hide or pin the row (Show All Rows brings hidden ones back)"},
    {"Ctrl+F", "find by name; Enter or F3 the next match, Shift+F3 the previous one"},
    {"F12", "frame times: how long the last repaint took, items drawn, folds"},
    {"Ctrl+1 … Ctrl+5", "Timeline, Charts, Roofline, Statistics, Ranks"},
    {"?", "this list of keys"},
}};

std::optional<TimelineAction> positionAction(int key, uint32_t scan_code, ScanCodes codes) {
  for (const Position& p : kPositions) {
    switch (codes) {
      case ScanCodes::kXkb:
        if (scan_code == p.evdev + kXkbOffset) return p.action;
        break;
      case ScanCodes::kWindowsSet1:
        if (scan_code == p.evdev) return p.action;
        break;
      case ScanCodes::kNone:
        if (key == p.qwerty || key == p.azerty) return p.action;
        break;
    }
  }
  return std::nullopt;
}

}  // namespace

ScanCodes scanCodesOf(const QString& platform_name) {
  if (platform_name == "xcb" || platform_name.startsWith("wayland")) return ScanCodes::kXkb;
  if (platform_name == "windows") return ScanCodes::kWindowsSet1;
  return ScanCodes::kNone;
}

std::optional<TimelineAction> timelineActionOf(int key, Qt::KeyboardModifiers modifiers,
                                               uint32_t scan_code, ScanCodes codes) {
  // Shift types + and ? on most layouts: it does not change the action.
  const Qt::KeyboardModifiers held = modifiers & ~(Qt::ShiftModifier | Qt::KeypadModifier);
  if (held == Qt::AltModifier) {
    if (key == Qt::Key_Left) return TimelineAction::kBack;
    if (key == Qt::Key_Right) return TimelineAction::kForward;
    return std::nullopt;
  }
  if (held != Qt::NoModifier) return std::nullopt;
  switch (key) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:  // + unshifted on US layouts
      return TimelineAction::kZoomIn;
    case Qt::Key_Minus:
      return TimelineAction::kZoomOut;
    case Qt::Key_Left:
      return TimelineAction::kPanLeft;
    case Qt::Key_Right:
      return TimelineAction::kPanRight;
    case Qt::Key_Up:
      return TimelineAction::kScrollUp;
    case Qt::Key_Down:
      return TimelineAction::kScrollDown;
    case Qt::Key_Home:
    case Qt::Key_F:
      return TimelineAction::kFit;
    case Qt::Key_Escape:
      return TimelineAction::kClear;
    case Qt::Key_F12:
      return TimelineAction::kFrameTimes;
    default:
      break;
  }
  // With a scan code the position decides; a key at another position that
  // prints W (AZERTY's Z position) is not a zoom.
  if (codes != ScanCodes::kNone && scan_code == 0) codes = ScanCodes::kNone;
  return positionAction(key, scan_code, codes);
}

std::span<const KeyHelp> timelineKeyHelp() {
  return kHelp;
}

}  // namespace damscope
