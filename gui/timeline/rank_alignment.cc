// The ranks of a job on one clock: see rank_alignment.h.
#include "gui/timeline/rank_alignment.h"

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "analyzer/report/text_format.h"

namespace damscope {
namespace {

// The one hostname the processes of `t` name, or "" (none, or several).
std::string hostOf(const TraceTables& t) {
  std::string host;
  for (size_t i = 0; i < t.processes.size(); ++i) {
    const std::string_view name = t.strings.get(t.processes.hostname[i]);
    if (name.empty()) continue;
    if (!host.empty() && name != host) return {};
    host = name;
  }
  return host;
}

int32_t rankNumber(const AnalysedRun& run, size_t index) {
  return run.run.ranks[index].rank.value_or(static_cast<int32_t>(index));
}

// The end of each communication kernel of `t`, by its start: a matched start
// is a kernel's ts (collectiveStarts, analyzer/analyses/rank_analysis.cc).
std::unordered_map<int64_t, int64_t> collectiveEnds(const TraceTables& t, const RankResult& r) {
  const std::unordered_set<std::string_view> names(r.collective_names.begin(),
                                                   r.collective_names.end());
  std::vector<int8_t> is_collective(t.strings.size(), -1);  // by string id, -1 not yet known
  std::unordered_map<int64_t, int64_t> ends;
  const auto& k = t.kernels;
  for (size_t i = 0; i < k.size(); ++i) {
    if (!k.name[i].valid()) continue;
    int8_t& known = is_collective[static_cast<size_t>(k.name[i].value)];
    if (known < 0) known = names.count(t.strings.get(k.name[i])) ? 1 : 0;
    if (known) ends.try_emplace(k.ts[i], k.ts[i] + std::max<int64_t>(k.dur[i], 0));
  }
  return ends;
}

int64_t median(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

RankAlignment alignRanks(const AnalysedRun& run) {
  RankAlignment out;
  const size_t n = std::min(run.tables.size(), run.run.ranks.size());
  out.offset_ns.assign(n, 0);
  if (n < 2) {
    out.description = "one rank";
    return out;
  }
  const std::vector<MatchedCollective> matched =
      matchCollectives(crossRankTimelines(run.run.ranks));
  // The job-wide name ids crossRankTimelines gives, replayed: each name in
  // the order it first appears over the ranks in input order.
  std::vector<std::string> job_names;
  {
    std::unordered_map<std::string, int32_t> seen;
    for (const RankResult& r : run.run.ranks) {
      for (const std::string& name : r.collective_names) {
        if (seen.try_emplace(name, static_cast<int32_t>(job_names.size())).second) {
          job_names.push_back(name);
        }
      }
    }
  }

  const std::string host = hostOf(run.tables[0]);
  bool one_host = !host.empty();
  for (size_t r = 1; r < n && one_host; ++r) one_host = hostOf(run.tables[r]) == host;
  if (one_host) {
    out.how = ClockAlignment::kCollectorClock;
    out.description = "on the collector's clock (one host: " + host + ")";
  } else if (!matched.empty()) {
    std::vector<std::unordered_map<int64_t, int64_t>> ends(n);
    for (size_t r = 0; r < n; ++r) ends[r] = collectiveEnds(run.tables[r], run.run.ranks[r]);
    std::vector<std::vector<int64_t>> differences(n);
    for (const MatchedCollective& c : matched) {
      const auto first = ends[0].find(c.start_ns[0]);
      if (first == ends[0].end()) continue;
      for (size_t r = 1; r < n; ++r) {
        const auto end = ends[r].find(c.start_ns[r]);
        if (end != ends[r].end()) differences[r].push_back(first->second - end->second);
      }
    }
    bool aligned = true;
    for (size_t r = 1; r < n && aligned; ++r) aligned = !differences[r].empty();
    if (aligned) {
      for (size_t r = 1; r < n; ++r) out.offset_ns[r] = median(differences[r]);
      out.how = ClockAlignment::kCollectiveEnds;
      out.description = "aligned on " + std::to_string(matched.size()) +
                        " matched collective ends (no common host)";
    }
  }
  if (out.how == ClockAlignment::kOneRank) {
    out.how = ClockAlignment::kAsRecorded;
    out.description = "as recorded (no common host, no common collective: clocks may differ)";
  }

  out.collectives.reserve(matched.size());
  for (const MatchedCollective& c : matched) {
    CollectiveSkew s;
    if (static_cast<size_t>(c.name) < job_names.size())
      s.name = job_names[static_cast<size_t>(c.name)];
    s.first_start = c.start_ns[0] + out.offset_ns[0];
    s.last_start = s.first_start;
    for (size_t r = 1; r < n; ++r) {
      const int64_t start = c.start_ns[r] + out.offset_ns[r];
      if (start < s.first_start) {
        s.first_start = start;
        s.earliest_rank = static_cast<int32_t>(r);
      }
      if (start > s.last_start) {
        s.last_start = start;
        s.latest_rank = static_cast<int32_t>(r);
      }
    }
    out.collectives.push_back(std::move(s));
  }
  std::stable_sort(out.collectives.begin(), out.collectives.end(),
                   [](const CollectiveSkew& a, const CollectiveSkew& b) {
                     return a.first_start < b.first_start;
                   });
  return out;
}

std::string skewTooltip(const CollectiveSkew& skew, const AnalysedRun& run) {
  const auto rank = [&](int32_t index) {
    const size_t i = static_cast<size_t>(index);
    std::string text = "rank " + std::to_string(rankNumber(run, i));
    const std::string file = std::filesystem::path(run.run.ranks[i].source).filename().string();
    if (!file.empty()) text += " (" + file + ")";
    return text;
  };
  return skew.name + "\nfirst to start: " + rank(skew.earliest_rank) +
         "\nlast to start: " + rank(skew.latest_rank) +
         "\nskew: " + formatDuration(static_cast<double>(skew.skewNs()));
}

}  // namespace damscope
