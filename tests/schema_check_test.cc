// The schema agreement checker can fail: a small declared table, its correct
// SQL and doc section (which must pass, or the other tests prove nothing),
// then one deliberate mistake at a time, each of which must be reported with
// the file, table and column it concerns.
#include <gtest/gtest.h>

#include "tests/schema_check.h"
#include "trace/tables.h"

namespace damscope {
namespace {

using schema_check::checkDocs;
using schema_check::checkSql;

// One column of every stored kind: integer, string id, real, text, enum.
#define WIDGET_COLUMNS(X) \
  X(int64_t, ts)          \
  X(StringId, name)       \
  X(double, ratio)        \
  X(std::string, label)   \
  X(DeviceKind, kind)

DAMSCOPE_DEFINE_TABLE(WidgetTable, "widgets", WIDGET_COLUMNS)

struct WidgetTables {
  WidgetTable widgets;
  template <typename Visit>
  void forEachTable(Visit&& visit) const {
    visit(widgets);
  }
};

std::vector<schema_check::Table> declared() {
  return schema_check::declaredTables(WidgetTables{});
}

constexpr const char* kGoodSql = R"(
CREATE TABLE widgets (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  name INTEGER,  -- string_id
  ratio REAL,
  label TEXT,
  kind TEXT NOT NULL
);
)";

constexpr const char* kGoodDoc = R"(# Widgets

### widgets
What a widget is.

| column | type | meaning |
|---|---|---|
| ts | INTEGER | when |
| name | INTEGER (string id) | what it is called |
| ratio, label | REAL | |
| kind | TEXT | `gpu` or `cpu` |

### not_a_table
| key | value |
|---|---|
| a | b |
)";

// A replacement of `from` by `to` in `text`, which must contain `from`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// The good doc: label is its own row, with its type.
std::string goodDoc() {
  return replaced(kGoodDoc, "| ratio, label | REAL | |",
                  "| ratio | REAL | how much |\n| label | TEXT | shown to people |");
}

// Expects exactly one problem, containing every one of `parts`.
void expectOneProblem(const std::vector<std::string>& problems,
                      std::initializer_list<std::string_view> parts) {
  ASSERT_EQ(problems.size(), 1u) << ::testing::PrintToString(problems);
  for (std::string_view part : parts) {
    EXPECT_NE(problems[0].find(part), std::string::npos) << problems[0] << "\nlacks: " << part;
  }
}

TEST(SchemaCheck, DeclarationsCarryTheStoredTypes) {
  const auto tables = declared();
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].name, "widgets");
  std::vector<std::string> types;
  for (const auto& c : tables[0].columns) types.push_back(c.name + ":" + c.sql_type);
  EXPECT_EQ(types, (std::vector<std::string>{"ts:INTEGER", "name:INTEGER", "ratio:REAL",
                                             "label:TEXT", "kind:TEXT"}));
  EXPECT_TRUE(tables[0].columns[1].string_id);
  EXPECT_EQ(schema_check::documentedType(tables[0].columns[1]), "INTEGER (string id)");
}

TEST(SchemaCheck, AgreeingSqlAndDocPass) {
  EXPECT_TRUE(checkSql("w.sql", kGoodSql, declared()).empty())
      << ::testing::PrintToString(checkSql("w.sql", kGoodSql, declared()));
  EXPECT_TRUE(checkDocs("w.md", goodDoc(), declared()).empty())
      << ::testing::PrintToString(checkDocs("w.md", goodDoc(), declared()));
}

TEST(SchemaCheck, SqlColumnOfTheWrongTypeIsReported) {
  expectOneProblem(checkSql("w.sql", replaced(kGoodSql, "ratio REAL", "ratio INTEGER"), declared()),
                   {"w.sql", "widgets.ratio", "INTEGER", "double", "REAL"});
}

TEST(SchemaCheck, SqlEnumStoredAsIntegerIsReported) {
  expectOneProblem(
      checkSql("w.sql", replaced(kGoodSql, "kind TEXT NOT NULL", "kind INTEGER"), declared()),
      {"widgets.kind", "enum", "TEXT"});
}

TEST(SchemaCheck, SqlColumnWithoutATypeIsReported) {
  expectOneProblem(checkSql("w.sql", replaced(kGoodSql, "label TEXT", "label"), declared()),
                   {"widgets.label", "has type ``", "TEXT"});
}

TEST(SchemaCheck, MissingSqlColumnIsReported) {
  expectOneProblem(checkSql("w.sql", replaced(kGoodSql, "  ratio REAL,\n", ""), declared()),
                   {"widgets.ratio", "missing"});
}

TEST(SchemaCheck, UndeclaredSqlColumnIsReported) {
  expectOneProblem(
      checkSql("w.sql", replaced(kGoodSql, "label TEXT,", "label TEXT, extra REAL,"), declared()),
      {"widgets.extra", "not declared"});
}

TEST(SchemaCheck, SqlColumnsOutOfOrderAreReported) {
  const std::string swapped =
      replaced(replaced(kGoodSql, "ratio REAL", "@"), "label TEXT", "ratio REAL");
  expectOneProblem(checkSql("w.sql", replaced(swapped, "@", "label TEXT"), declared()),
                   {"widgets", "(ts, name, label, ratio, kind)", "(ts, name, ratio, label, kind)"});
}

TEST(SchemaCheck, SqlIdThatIsNotAnIntegerPrimaryKeyIsReported) {
  expectOneProblem(
      checkSql("w.sql", replaced(kGoodSql, "id INTEGER PRIMARY KEY", "id INTEGER"), declared()),
      {"widgets", "`id INTEGER PRIMARY KEY`"});
  expectOneProblem(
      checkSql("w.sql", replaced(kGoodSql, "id INTEGER PRIMARY KEY", "id TEXT PRIMARY KEY"),
               declared()),
      {"widgets", "`id TEXT` PRIMARY KEY"});
}

TEST(SchemaCheck, DeclaredTableMissingFromSqlIsReported) {
  expectOneProblem(checkSql("w.sql", "CREATE TABLE other (id INTEGER PRIMARY KEY);", {}),
                   {"w.sql", "other", "no declaration"});
  expectOneProblem(checkSql("w.sql", "", declared()), {"w.sql", "widgets", "not created"});
}

TEST(SchemaCheck, SqlThatDoesNotRunIsReported) {
  expectOneProblem(checkSql("w.sql", replaced(kGoodSql, ");", ""), declared()),
                   {"w.sql", "does not run"});
}

TEST(SchemaCheck, DocColumnOfTheWrongTypeIsReported) {
  expectOneProblem(
      checkDocs("w.md", replaced(goodDoc(), "| ratio | REAL |", "| ratio | INTEGER |"), declared()),
      {"w.md", "widgets.ratio", "`INTEGER`", "double", "`REAL`"});
}

TEST(SchemaCheck, DocStringIdWithoutItsMarkIsReported) {
  expectOneProblem(
      checkDocs("w.md", replaced(goodDoc(), "| INTEGER (string id) |", "| INTEGER |"), declared()),
      {"widgets.name", "StringId", "`INTEGER (string id)`"});
}

TEST(SchemaCheck, DocGroupRowGivesEveryColumnItsType) {
  // kGoodDoc lists ratio and label in one REAL row: label is TEXT.
  expectOneProblem(checkDocs("w.md", kGoodDoc, declared()),
                   {"widgets.label", "`REAL`", "std::string", "`TEXT`"});
}

TEST(SchemaCheck, DocMissingColumnIsReported) {
  expectOneProblem(
      checkDocs("w.md", replaced(goodDoc(), "| label | TEXT | shown to people |\n", ""),
                declared()),
      {"w.md", "widgets.label", "missing"});
}

TEST(SchemaCheck, DocUndeclaredOrRepeatedColumnIsReported) {
  expectOneProblem(checkDocs("w.md", replaced(goodDoc(), "| ts |", "| ts, colour |"), declared()),
                   {"widgets.colour", "not declared"});
  expectOneProblem(checkDocs("w.md", replaced(goodDoc(), "| kind |", "| ts, kind |"), declared()),
                   {"widgets.ts", "listed twice"});
}

TEST(SchemaCheck, DocColumnsOutOfOrderAreReported) {
  const std::string doc = replaced(goodDoc(), "| ratio | REAL | how much |\n", "");
  expectOneProblem(
      checkDocs("w.md", replaced(doc, "| kind |", "| ratio | REAL | how much |\n| kind |"),
                declared()),
      {"widgets", "(ts, name, label, ratio, kind)"});
}

TEST(SchemaCheck, DocWithoutATypeColumnIsReported) {
  std::string doc = replaced(goodDoc(), "| column | type | meaning |\n|---|---|---|",
                             "| column | meaning |\n|---|---|");
  expectOneProblem(
      checkDocs("w.md", doc, declared()),
      {"w.md", "### widgets", "`| column | meaning |`", "`| column | type | meaning |`"});
}

TEST(SchemaCheck, DocMissingSectionOrTableIsReported) {
  expectOneProblem(checkDocs("w.md", "# Widgets\n", declared()), {"no section `### widgets`"});
  expectOneProblem(checkDocs("w.md", "### widgets\nNo table here.\n", declared()),
                   {"### widgets has no `| column | type | meaning |` table"});
}

TEST(SchemaCheck, DocSectionOfAnUndeclaredTableIsReported) {
  const std::string extra = goodDoc() +
                            "\n### gadgets\n| column | type | meaning |\n|---|---|---|\n"
                            "| ts | INTEGER | |\n";
  expectOneProblem(checkDocs("w.md", extra, declared()), {"### gadgets", "not declared"});
}

TEST(SchemaCheck, HeadingsInsideCodeBlocksAreNotSections) {
  const std::string fenced =
      replaced(goodDoc(), "What a widget is.", "```\n# a shell comment\n### gadgets\n```");
  EXPECT_TRUE(checkDocs("w.md", fenced, declared()).empty());
}

}  // namespace
}  // namespace damscope
