// What the trainer reports about the machine: the CPU's name, the cores this
// process may run on, and the memory available for a new allocation (Linux
// /proc and sched_getaffinity).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace damscope::gpt2 {

// "model name" of /proc/cpuinfo, e.g. "AMD EPYC"; "unknown CPU" when absent.
std::string cpuModelName();
// CPUs in this process's affinity mask (what "all cores" means for --threads).
int availableCpus();
// MemAvailable of /proc/meminfo in bytes; empty when it cannot be read.
std::optional<uint64_t> memAvailableBytes();

}  // namespace damscope::gpt2
