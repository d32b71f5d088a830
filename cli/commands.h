// The `damscope` subcommands. Each returns the process exit code: 0 on
// success, 2 on bad input (after printing one line naming the file and what
// is wrong), 1 on an internal failure.
#pragma once

#include <string>

namespace damscope {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

struct ImportArgs {
  std::string input;
  std::string output;  // empty: derived from the input's name, in the current directory
  bool force = false;
};
int runImport(const ImportArgs& args);

struct InfoArgs {
  std::string input;
  bool json = false;
};
int runInfo(const InfoArgs& args);

// Prints "damscope: <message>" on stderr.
void printError(const std::string& message);

}  // namespace damscope
