// What the inputs of one job say of it that cannot all be true: see
// job_consistency.h.
#include "analyzer/pipeline/job_consistency.h"

#include <map>

namespace damscope {
namespace {

// "a, b, c and 997 more": the files `named` of `count` in all.
std::string someFiles(const std::vector<const std::string*>& named, size_t count) {
  std::string out;
  for (size_t i = 0; i < named.size(); ++i) {
    if (i > 0) out += i + 1 == named.size() && count == named.size() ? " and " : ", ";
    out += *named[i];
  }
  if (count > named.size()) out += " and " + std::to_string(count - named.size()) + " more";
  return out;
}

}  // namespace

std::vector<std::string> jobInconsistencies(const std::vector<JobMember>& members) {
  std::vector<std::string> notes;
  // Per claimed rank: how many files claim it and the first few of them.
  struct Claims {
    size_t count = 0;
    std::vector<const std::string*> first;
  };
  std::map<int32_t, Claims> claims;
  for (const JobMember& m : members) {
    if (!m.rank) continue;
    Claims& c = claims[*m.rank];
    ++c.count;
    if (c.first.size() < kFilesNamed) c.first.push_back(&m.source);
  }
  size_t claimed_twice = 0;
  for (const auto& [rank, c] : claims) {
    if (c.count < 2) continue;
    if (++claimed_twice > kRanksNamed) continue;
    if (c.count == 2) {
      notes.push_back("rank " + std::to_string(rank) + " is claimed by both " + *c.first[0] +
                      " and " + *c.first[1] +
                      ": traces of two different runs, or one given twice? The comparison "
                      "treats them as two ranks");
    } else {
      notes.push_back("rank " + std::to_string(rank) + " is claimed by " + std::to_string(c.count) +
                      " files (" + someFiles(c.first, c.count) +
                      "): traces of different runs, or one given several times? The "
                      "comparison treats them as " +
                      std::to_string(c.count) + " ranks");
    }
  }
  if (claimed_twice > kRanksNamed) {
    notes.push_back(std::to_string(claimed_twice - kRanksNamed) +
                    " more ranks are each claimed by several files");
  }
  const JobMember* first_sized = nullptr;
  for (const JobMember& m : members) {
    if (!m.world_size) continue;
    if (!first_sized) {
      first_sized = &m;
    } else if (*m.world_size != *first_sized->world_size) {
      notes.push_back("the traces disagree on the job's size: " + first_sized->source + " says " +
                      std::to_string(*first_sized->world_size) + " ranks, " + m.source + " says " +
                      std::to_string(*m.world_size));
      break;
    }
  }
  return notes;
}

}  // namespace damscope
