// A subcommand's long work: see long_work.h.
#include "cli/long_work.h"

#include "cli/commands.h"

namespace damscope {

int printFailure(const Error& error, std::string_view if_output_exists) {
  std::string message = error.message();
  if (error.code() == ErrorCode::kOutputExists && !if_output_exists.empty()) {
    message += " (" + std::string(if_output_exists) + ")";
  }
  printError(message);
  return exitCodeOf(error);
}

}  // namespace damscope
