// Stores and loads the analysis tables (analysis_tables.h) in a trace store
// file, beside its events. The tables are written and read by the trace
// store's generic machinery (trace/table_io.h) and
// created from their declarations (trace/table_schema.h); what is particular
// to the results is the set of tables, the meta keys that mark them and
// their layout version.
//
// storeAnalysis() replaces every earlier result in one transaction: it drops
// the analysis tables, recreates them from their declarations and writes the
// new rows, or, on any failure, rolls back and leaves the file as it was. The
// event tables are never written, so a failed or interrupted analysis can
// neither corrupt the events nor leave half a result.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/result/analysis_tables.h"
#include "base/result.h"
#include "trace/sqlite_db.h"

namespace damscope {

// `db` must be a damscope trace store opened read-write. `options_key`
// names the analysis options the results were computed with (meta
// "analysis_options"; empty: the defaults), so that a later run can tell
// whether they are still the results it would compute.
Status storeAnalysis(Database& db, const AnalysisTables& tables,
                     const std::string& options_key = {});
Status storeAnalysis(const std::string& path, const AnalysisTables& tables,
                     const std::string& options_key = {});

// Results for a file nobody else sees yet (a fresh import under its
// temporary name, base/pending_file.h), its events just written: the
// analysis tables created and filled in one transaction without a journal or
// fsync, as the import writes the events, then the file set back to WAL. On
// v100_rank1 (44 k gaps and the rest) about 30 ms of CPU. A failure leaves a
// half-written file, which its owner discards.
Status storeAnalysisInNewFile(const std::string& path, const AnalysisTables& tables,
                              const std::string& options_key = {});

// Replaces only the tables named in `tables_to_replace` (their kSqlName), in
// one transaction, in a file that already holds results of this layout: what
// the cross-rank comparison adds to ranks stored one by one. Only while the
// file still holds the results the caller computed on, those stored with
// `expected_options_key` and of this layout, checked in the same write
// transaction: false, and the file left as it is, when another analysis has
// replaced them meanwhile (its results are newer, and the comparison is not
// about them).
Result<bool> storeAnalysisTables(const std::string& path, const AnalysisTables& tables,
                                 const std::vector<std::string_view>& tables_to_replace,
                                 const std::string& expected_options_key);

// The options key stored with the results; empty when none was.
std::string storedAnalysisOptions(Database& db);

// True when the file holds analysis results of this layout version.
bool hasAnalysis(Database& db);

// Loads stored results; an error when there are none (or of another version).
// Tables named in `skip` (their kSqlName) are left empty: a reader that needs
// a summary does not read every bubble.
Result<AnalysisTables> readAnalysis(Database& db, const std::vector<std::string_view>& skip = {});
Result<AnalysisTables> readAnalysis(const std::string& path,
                                    const std::vector<std::string_view>& skip = {});

// What is checked of the file itself before its stored results are reused:
// reuse reads the results, never the events, so a damaged page elsewhere (a
// page of the strings table overwritten) would otherwise go unseen, and the
// GUI or a later analysis would meet it. PRAGMA quick_check (every page's
// structure and the records' format; sqlite.org/pragma.html#pragma_quick_check)
// for at most `budget`: a file it does not finish in is checked as far as it
// got. What the results hold is checked by the reader (result_rows.h). An
// error names the file and SQLite's first finding.
Status checkPages(Database& db, std::chrono::microseconds budget);

// The CREATE statements of the analysis tables, generated from their
// declarations (trace/table_schema.h).
std::string analysisSchemaSql();

}  // namespace damscope
