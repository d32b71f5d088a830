// Machine facts from Linux: see system_info.h.
#include "reference_workloads/gpt2/train/system_info.h"

#include <sched.h>

#include <fstream>
#include <sstream>

namespace damscope::gpt2 {

std::string cpuModelName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    size_t begin = line.find_first_not_of(" \t", colon + 1);
    if (begin == std::string::npos) break;
    size_t end = line.find_last_not_of(" \t");
    return line.substr(begin, end - begin + 1);
  }
  return "unknown CPU";
}

int availableCpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
  return 1;
}

std::optional<uint64_t> memAvailableBytes() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    uint64_t kib = 0;
    std::string unit;
    if (fields >> kib >> unit && unit == "kB") return kib * 1024;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace damscope::gpt2
