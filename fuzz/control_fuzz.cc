// libFuzzer target: the collector's control-socket protocol as the recorded
// process serves it (collector/collector_control.cc): bytes from a peer are
// split into lines by readLine and each line parsed by parseCaptureRequest.
// A request that parses must survive formatCaptureRequest unchanged.
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "collector/control_channel.h"
#include "fuzz/fuzz_checks.h"

namespace {

void checkRequest(const std::string& line) {
  using namespace damscope;
  using namespace damscope::collector;
  auto request = parseCaptureRequest(line);
  if (!request.ok()) return;
  auto again = parseCaptureRequest(formatCaptureRequest(request.value()));
  if (!again.ok()) fuzz::fail("a formatted request does not parse: " + again.error().message());
  if (again->duration_ns != request->duration_ns || again->steps != request->steps ||
      again->output != request->output) {
    fuzz::fail("a request changes when formatted and parsed again");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The socket buffer holds the whole input (max_len stays far below it), so
  // one write before reading cannot block.
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    damscope::fuzz::fail("socketpair");
  }
  if (size > 0 && !damscope::collector::writeAll(
                      fds[1], std::string(reinterpret_cast<const char*>(data), size))) {
    damscope::fuzz::fail("write to socketpair");
  }
  ::close(fds[1]);
  std::string pending;
  bool closed = false;
  while (!closed) {
    const auto line = damscope::collector::readLine(fds[0], pending, 0, &closed);
    if (line) checkRequest(*line);
  }
  ::close(fds[0]);
  return 0;
}
