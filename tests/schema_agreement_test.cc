// The table declarations (trace/tables.h, trace/analysis_tables.h) are the one
// source of truth; this suite checks that everything else saying the same
// thing agrees with them in full, types included: the SQL of both stores
// (trace/schema.sql, and the analysis tables' SQL generated from their
// declarations) and the column references
// (docs/trace-format.md, docs/analysis.md). It also checks that the checker's
// C++-type-to-SQL-type trait says what trace/column_io.h really stores.
#include <gtest/gtest.h>

#include "tests/schema_check.h"
#include "tests/test_support.h"
#include "analyzer/result/analysis_store.h"
#include "analyzer/result/analysis_tables.h"
#include "trace/column_io.h"
#include "trace/schema_sql.h"

namespace damscope {
namespace {

using schema_check::StoredAs;
using schema_check::Table;

// The event tables plus `strings`, which has no X-macro: the string pool is
// stored as (id, value) rows by trace_writer.cc and read back by
// trace_reader.cc, and this is that declaration.
std::vector<Table> traceDeclarations() {
  std::vector<Table> tables = schema_check::declaredTables(TraceTables{});
  tables.push_back({"strings", {{"value", "std::string", "TEXT", false}}});
  return tables;
}

std::string doc(const std::string& name) {
  return testing::readFile(std::string(DAMSCOPE_SOURCE_DIR) + "/docs/" + name);
}

// One failure line per disagreement, so a run lists them all.
void expectAgreement(const std::vector<std::string>& problems) {
  for (const std::string& p : problems) ADD_FAILURE() << p;
}

TEST(SchemaAgreement, SchemaSqlMatchesTablesHColumnByColumnWithTypes) {
  expectAgreement(schema_check::checkSql("trace/schema.sql", kSchemaSql, traceDeclarations()));
}

TEST(SchemaAgreement, GeneratedAnalysisSqlMatchesAnalysisTablesHColumnByColumnWithTypes) {
  expectAgreement(schema_check::checkSql("analysisSchemaSql()", analysisSchemaSql(),
                                         schema_check::declaredTables(AnalysisTables{})));
}

TEST(SchemaAgreement, TraceFormatDocListsEveryColumnWithItsType) {
  expectAgreement(
      schema_check::checkDocs("docs/trace-format.md", doc("trace-format.md"), traceDeclarations()));
}

TEST(SchemaAgreement, AnalysisDocListsEveryColumnWithItsType) {
  expectAgreement(schema_check::checkDocs("docs/analysis.md", doc("analysis.md"),
                                          schema_check::declaredTables(AnalysisTables{})));
}

// What SQLite stores for one non-null value bound through column_io.
template <typename T>
std::string storedType(const T& value) {
  auto db = Database::open(":memory:", Database::Mode::kReadWriteCreate);
  auto stmt = db->prepare("SELECT upper(typeof(?1))");
  column_io::bindValue(*stmt, 1, value);
  EXPECT_TRUE(stmt->step().value());
  return std::string(stmt->columnText(0));
}

TEST(SchemaAgreement, StoredAsSaysWhatColumnIoBinds) {
  EXPECT_EQ(storedType(int64_t{7}), StoredAs<int64_t>::kSql);
  EXPECT_EQ(storedType(int32_t{7}), StoredAs<int32_t>::kSql);
  EXPECT_EQ(storedType(1.5), StoredAs<double>::kSql);
  EXPECT_EQ(storedType(StringId{3}), StoredAs<StringId>::kSql);
  EXPECT_EQ(storedType(std::string("x")), StoredAs<std::string>::kSql);
  // Every enum goes through the same bindValue template.
  EXPECT_EQ(storedType(CopyKind::kHtoD), StoredAs<CopyKind>::kSql);
}

}  // namespace
}  // namespace damscope
