// The table declarations (trace/tables.h, analyzer/result/analysis_tables.h)
// are the one source of truth; this suite checks that everything else saying
// the same thing agrees with them in full, types included: the SQL of the
// trace store (trace/schema.sql, hand-kept) and of the analysis tables
// (generated), and the column references (docs/trace-format.md, hand-kept;
// docs/analysis.md, generated from the declarations: the test that holds it
// equal also rewrites it when asked, see kRegenerate). It also checks that
// the checker's C++-type-to-SQL-type trait says what trace/column_io.h really
// stores.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "analyzer/result/analysis_store.h"
#include "analyzer/result/analysis_tables.h"
#include "tests/schema_check.h"
#include "tests/test_support.h"
#include "trace/column_io.h"
#include "trace/schema_sql.h"
#include "trace/table_schema.h"

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

// docs/analysis.md's column tables are generated from the declarations,
// between these two lines. To change them, change the declarations, then run
//   DAMSCOPE_WRITE_DOCS=1 build/tests/schema_agreement_test --gtest_filter='*AnalysisDoc*'
// which rewrites them, and read the diff.
constexpr std::string_view kGeneratedBegin =
    "<!-- generated from analyzer/result/analysis_tables.h by tests/schema_agreement_test.cc -->\n";
constexpr std::string_view kGeneratedEnd = "<!-- end of the generated tables -->\n";
constexpr const char* kRegenerate = "DAMSCOPE_WRITE_DOCS";

TEST(SchemaAgreement, AnalysisDocColumnTablesAreTheDeclarations) {
  const std::string path = std::string(DAMSCOPE_SOURCE_DIR) + "/docs/analysis.md";
  const std::string text = testing::readFile(path);
  const size_t begin = text.find(kGeneratedBegin);
  const size_t end = text.find(kGeneratedEnd);
  ASSERT_TRUE(begin != std::string::npos && end != std::string::npos && begin < end)
      << "docs/analysis.md: the markers of the generated tables are missing";
  const size_t from = begin + kGeneratedBegin.size();
  const std::string generated = "\n" + columnReferenceMarkdown(AnalysisTables{}) + "\n";
  if (std::getenv(kRegenerate)) {
    std::ofstream(path, std::ios::binary) << text.substr(0, from) << generated << text.substr(end);
    GTEST_SKIP() << "rewrote " << path << ": read the diff";
  }
  EXPECT_EQ(text.substr(from, end - from), generated)
      << "docs/analysis.md differs from the declarations; regenerate it with " << kRegenerate
      << "=1 (see this test)";
  // And what the generator writes reads as a column reference of every table.
  expectAgreement(schema_check::checkDocs("docs/analysis.md", text,
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
