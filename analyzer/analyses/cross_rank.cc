// Cross-rank comparison: see cross_rank.h.
#include "analyzer/analyses/cross_rank.h"

#include <algorithm>
#include <climits>
#include <map>

#include "base/median.h"

namespace damscope {

CrossRankReport computeCrossRank(const std::vector<RankTimeline>& ranks,
                                 const CrossRankOptions& options) {
  CrossRankReport report;
  const size_t n = ranks.size();
  report.ranks.resize(n);
  for (size_t r = 0; r < n; ++r) {
    report.ranks[r].rank = ranks[r].rank;
    report.ranks[r].source = ranks[r].source;
  }
  if (n < 2) {
    report.notes.push_back("one rank: nothing to compare");
    return report;
  }
  report.notes.push_back(
      "collective skew assumes the ranks' clocks agree; clock offset between hosts adds to it");

  // Steps present on every rank, by number.
  std::map<int64_t, std::vector<int64_t>> by_number;  // number -> dur per rank (-1 missing)
  for (size_t r = 0; r < n; ++r) {
    for (const RankStepTime& s : ranks[r].steps) {
      auto [it, inserted] = by_number.try_emplace(s.number, std::vector<int64_t>(n, -1));
      it->second[r] = s.dur_ns;
    }
  }
  std::vector<std::vector<double>> ratios(n);
  std::vector<std::vector<int64_t>> durations(n);
  for (const auto& [number, durs] : by_number) {
    if (std::count(durs.begin(), durs.end(), -1) > 0) continue;
    const double med = median(durs);
    if (med <= 0) continue;
    for (size_t r = 0; r < n; ++r) {
      ratios[r].push_back(static_cast<double>(durs[r]) / med - 1.0);
      durations[r].push_back(durs[r]);
    }
  }
  if (ratios[0].empty()) {
    report.notes.push_back(
        "no step number is present on every rank: step times cannot be compared");
  }
  for (size_t r = 0; r < n; ++r) {
    RankComparison& c = report.ranks[r];
    c.steps = static_cast<int64_t>(ratios[r].size());
    if (c.steps == 0) continue;
    c.median_step_ns = static_cast<int64_t>(median(durations[r]));
    c.slower_than_median_pct = 100.0 * median(ratios[r]);
    const auto slow = std::count_if(ratios[r].begin(), ratios[r].end(),
                                    [&](double x) { return 100.0 * x > options.straggler_pct; });
    c.straggler = static_cast<double>(slow) >= options.consistency * static_cast<double>(c.steps) &&
                  c.slower_than_median_pct > options.straggler_pct;
  }

  // Collectives matched by (name, occurrence), if the ranks ran at the same time.
  int64_t latest_start = INT64_MIN, earliest_end = INT64_MAX;
  for (const RankTimeline& t : ranks) {
    latest_start = std::max(latest_start, t.start_ns);
    earliest_end = std::min(earliest_end, t.end_ns);
  }
  if (latest_start >= earliest_end) {
    report.notes.push_back(
        "the ranks' time ranges do not overlap (different runs, or clocks that disagree): "
        "collective start skew is not computed");
    return report;
  }
  std::vector<int64_t> skews;
  std::vector<int64_t> last_count(n, 0);
  // Collectives the other ranks waited at for a sizeable part of a step, and
  // which rank they waited for.
  std::vector<double> step_medians;
  for (size_t r = 0; r < n; ++r) {
    if (report.ranks[r].steps > 0) step_medians.push_back(double(report.ranks[r].median_step_ns));
  }
  const double wait_threshold_ns = median(step_medians) * options.straggler_pct / 100.0;
  int64_t waited = 0;
  std::vector<int64_t> waited_for(n, 0);
  for (const MatchedCollective& c : matchCollectives(ranks)) {
    // A tie for the latest start goes to the first rank in input order.
    const auto latest = std::max_element(c.start_ns.begin(), c.start_ns.end());
    const size_t last = static_cast<size_t>(latest - c.start_ns.begin());
    const int64_t skew = c.skewNs();
    skews.push_back(skew);
    ++last_count[last];
    for (size_t r = 0; r < n; ++r) report.ranks[r].peer_wait_ns += *latest - c.start_ns[r];
    if (wait_threshold_ns > 0 && double(skew) > wait_threshold_ns) {
      ++waited;
      ++waited_for[last];
    }
  }
  if (skews.empty()) {
    report.notes.push_back("no collective kernels common to all ranks: no start skew");
  } else {
    const int64_t med = static_cast<int64_t>(median(skews));
    const int64_t max = *std::max_element(skews.begin(), skews.end());
    for (size_t r = 0; r < n; ++r) {
      RankComparison& c = report.ranks[r];
      c.collectives = static_cast<int64_t>(skews.size());
      c.median_start_skew_ns = med;
      c.max_start_skew_ns = max;
      c.last_to_start_pct =
          100.0 * static_cast<double>(last_count[r]) / static_cast<double>(skews.size());
    }
  }
  // A straggler by collective start: when collectives synchronise the ranks
  // every step, every rank's step lasts as long as the slowest one's and
  // step times cannot tell them apart; the rank the others keep waiting for
  // is the straggler (HTA's straggler reasoning, hta/analyzers/straggler.py).
  // It needs waits on most steps, nearly all of them for the same rank.
  int64_t matched_steps = 0;
  for (const RankComparison& c : report.ranks) matched_steps = std::max(matched_steps, c.steps);
  if (waited > 0 &&
      static_cast<double>(waited) >= options.consistency * static_cast<double>(matched_steps)) {
    for (size_t r = 0; r < n; ++r) {
      if (static_cast<double>(waited_for[r]) < options.consistency * static_cast<double>(waited)) {
        continue;
      }
      RankComparison& c = report.ranks[r];
      c.straggler = true;
      report.notes.push_back(
          "rank " + std::to_string(c.rank) + " started last in " + std::to_string(waited_for[r]) +
          " of the " + std::to_string(waited) +
          " collectives the other ranks waited at for more than " +
          std::to_string(static_cast<int>(options.straggler_pct)) +
          " % of a step: it is a straggler, and the others' step times hide it because they "
          "wait for it inside the collective");
    }
  }
  return report;
}

int64_t MatchedCollective::skewNs() const {
  if (start_ns.empty()) return 0;
  const auto [lo, hi] = std::minmax_element(start_ns.begin(), start_ns.end());
  return *hi - *lo;
}

std::vector<MatchedCollective> matchCollectives(const std::vector<RankTimeline>& ranks) {
  const size_t n = ranks.size();
  std::vector<MatchedCollective> out;
  if (n < 2) return out;
  std::vector<std::map<int32_t, std::vector<int64_t>>> starts(n);
  for (size_t r = 0; r < n; ++r) {
    for (const RankCollective& c : ranks[r].collectives) starts[r][c.name].push_back(c.start_ns);
  }
  for (const auto& [name, first_starts] : starts[0]) {
    size_t count = first_starts.size();
    for (size_t r = 1; r < n; ++r) {
      auto it = starts[r].find(name);
      count = it == starts[r].end() ? 0 : std::min(count, it->second.size());
    }
    for (size_t i = 0; i < count; ++i) {
      MatchedCollective c;
      c.name = name;
      c.start_ns.reserve(n);
      for (size_t r = 0; r < n; ++r) c.start_ns.push_back(starts[r][name][i]);
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace damscope
