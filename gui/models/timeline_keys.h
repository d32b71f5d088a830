// The timeline's keys, as one table: the widget reads the action of a key
// press from it, the help overlay (`?`) lists it, and a test checks that
// docs/gui.md names every key in it, so the three cannot drift apart.
//
// W, A, S and D are taken by physical position, as games and Tracy take them:
// on an AZERTY keyboard the keys where a QWERTY keyboard has W and A print Z
// and Q, and those are the keys that zoom and pan. Where the platform reports
// the key's position (QKeyEvent::nativeScanCode: an XKB keycode under X11 and
// Wayland, a PC set-1 scan code on Windows) the position alone decides, so the
// key printing W on AZERTY (QWERTY's Z position) does nothing. Where it does
// not (scan code 0: macOS, the offscreen platform of the tests), both letters
// of each position act: W or Z zooms in, A or Q pans left; the two layouts
// then agree on every key, at the cost of Z and Q also acting on QWERTY,
// where neither has another use.
// Every other key is taken by the character it types (+, -, ?, arrows).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include <Qt>

class QString;

namespace damscope {

enum class TimelineAction : uint8_t {
  kZoomIn,  // at the mouse pointer (the view's centre when it is elsewhere)
  kZoomOut,
  kPanLeft,
  kPanRight,
  kScrollUp,  // the rows
  kScrollDown,
  kFit,   // the whole trace
  kBack,  // the zoom history
  kForward,
  kClear,       // selection, highlights and the selected window
  kFrameTimes,  // the frame-time overlay, as Tracy and Orbit show theirs
};
// (`?`, the keys overlay, is the window's Help ▸ Keys shortcut: it works on
// every tab, not only the timeline.)

// What scan codes mean on the platform a key event came from.
enum class ScanCodes : uint8_t {
  kNone,         // unknown or absent: fall back on the letters of both layouts
  kXkb,          // X11 and Wayland: evdev code + 8 (linux/input-event-codes.h)
  kWindowsSet1,  // Windows: PC scan code set 1
};

// The scan codes of the platform Qt runs on (QGuiApplication::platformName).
ScanCodes scanCodesOf(const QString& platform_name);

// The action of a key press, or none. `key` is QKeyEvent::key(),
// `scan_code` its nativeScanCode().
std::optional<TimelineAction> timelineActionOf(int key, Qt::KeyboardModifiers modifiers,
                                               uint32_t scan_code, ScanCodes codes);

// One line of the keys table: the keys as docs/gui.md writes them, and what
// they do.
struct KeyHelp {
  const char* keys;
  const char* what;
};

// Every key and mouse gesture of the timeline and the window, in the order
// the overlay shows them.
std::span<const KeyHelp> timelineKeyHelp();

}  // namespace damscope
