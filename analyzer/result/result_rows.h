// The stored form of the result model: one rank's RankResult as the rows of
// the analysis tables (analysis_tables.h), which analysis_store.h writes into
// the rank's run.db, and those rows read back into the same RankResult
// (toRankResult(toAnalysisTables(r)) == r, apart from `store`, which names
// the file the rows were read from). Each column moves as its declaration
// says (analysis_tables.h, stored_figure.h); what a declaration leaves to
// code (kByCode: ids, a row's kind) and the checks across rows are here.
//
// Ids line up with the model: gaps row k is RankResult::gaps[k] (findings'
// evidence names gaps by row), steps row k is RankResult::steps[k].
//
// Reading checks what it reads, since a run.db is a file anyone can edit: an
// unknown vocabulary word, a step_id or finding_id that names no row, or
// per-step rows that do not match the steps is an error naming the table and
// row, never a crash or a silently different result.
#pragma once

#include <string>
#include <vector>

#include "analyzer/result/analysis_result.h"
#include "analyzer/result/analysis_tables.h"
#include "base/result.h"

namespace damscope {

// The rows of `rank`. `job` is the run's cross-rank table (empty with one
// rank); `index` the position of `rank` in it.
AnalysisTables toAnalysisTables(const RankResult& rank, const std::vector<RankComparison>& job = {},
                                size_t index = 0);

// A rank's stored rows back as its result; `store` names the file.
struct StoredRank {
  RankResult rank;
  std::vector<RankComparison> job;  // the cross-rank table stored with it
};
Result<StoredRank> toRankResult(const AnalysisTables& tables, const std::string& store);

}  // namespace damscope
