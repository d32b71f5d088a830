// What the inputs of one job say of it that cannot all be true: several
// files claim the same rank, or they disagree on how many ranks there are.
// Likely traces of different runs (or one given several times), which the
// cross-rank comparison would mix; the pipeline adds these notes to the
// comparison's.
//
// The notes are bounded whatever the number of inputs, since every rank's
// result carries every note of the comparison: a rank claimed by many files
// is one note naming how many and the first few (kFilesNamed), and at most
// kRanksNamed ranks get a note of their own before one note counts the rest.
// A thousand copies of one trace then give each rank a note of constant
// size, not a thousand notes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace damscope {

// One input of the job, as its trace describes itself.
struct JobMember {
  std::string source;
  std::optional<int32_t> rank;
  std::optional<int32_t> world_size;
};

inline constexpr size_t kFilesNamed = 3;
inline constexpr size_t kRanksNamed = 3;

std::vector<std::string> jobInconsistencies(const std::vector<JobMember>& members);

}  // namespace damscope
