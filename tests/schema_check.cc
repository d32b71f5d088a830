// The schema agreement checker: see schema_check.h. The SQL is checked by
// running it in an in-memory SQLite database and reading back what SQLite
// made of it (pragma_table_info), so the check sees exactly what a store
// file gets; the markdown is read with a line-based parser of GitHub tables.
#include "tests/schema_check.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "trace/sqlite_db.h"

namespace damscope::schema_check {
namespace {

// A column as a schema file or a doc states it.
struct Stated {
  std::string name;
  std::string type;
};

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string joined(const std::vector<std::string>& names, std::string_view separator = ", ") {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : std::string(separator)) + names[i];
  }
  return out;
}

// Compares the columns `stated` for table `table` in `file` with the
// declaration; `expected_type` gives the type the file should state for a
// declared column. Messages go to `problems`.
template <typename ExpectedType>
void compareColumns(std::string_view file, const Table& table, const std::vector<Stated>& stated,
                    ExpectedType expected_type, std::vector<std::string>& problems) {
  const std::string where = std::string(file) + ": " + table.name + ".";
  std::vector<std::string> stated_order, declared_order;
  std::set<std::string> seen;
  for (const Stated& s : stated) {
    if (!seen.insert(s.name).second) {
      problems.push_back(where + s.name + " is listed twice");
      continue;
    }
    const auto it = std::find_if(table.columns.begin(), table.columns.end(),
                                 [&](const Column& c) { return c.name == s.name; });
    if (it == table.columns.end()) {
      problems.push_back(where + s.name + " is not declared");
      continue;
    }
    stated_order.push_back(s.name);
    const std::string expected = expected_type(*it);
    if (s.type != expected) {
      problems.push_back(where + s.name + " has type `" + s.type + "`; declared " + it->cpp_type +
                         ", it should be `" + expected + "`");
    }
  }
  for (const Column& c : table.columns) {
    if (!seen.count(c.name)) {
      problems.push_back(where + c.name + " (declared " + c.cpp_type + ") is missing");
    } else {
      declared_order.push_back(c.name);
    }
  }
  if (stated_order != declared_order) {
    problems.push_back(std::string(file) + ": " + table.name + ": columns are in the order (" +
                       joined(stated_order) + "), declared (" + joined(declared_order) + ")");
  }
}

struct SqlColumn {
  std::string name;
  std::string type;
  int64_t primary_key = 0;  // position in the primary key, 0 if not part of it
};

std::vector<SqlColumn> sqlColumns(Database& db, const std::string& table) {
  std::vector<SqlColumn> out;
  auto stmt = db.prepare("SELECT name, type, pk FROM pragma_table_info(?1)");
  if (!stmt.ok()) return out;
  stmt->bindText(1, table);
  while (true) {
    auto row = stmt->step();
    if (!row.ok() || !*row) break;
    out.push_back(
        {std::string(stmt->columnText(0)), upper(stmt->columnText(1)), stmt->columnInt(2)});
  }
  return out;
}

std::vector<std::string> sqlTableNames(Database& db) {
  std::vector<std::string> out;
  auto stmt = db.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
      "ORDER BY rowid");
  if (!stmt.ok()) return out;
  while (true) {
    auto row = stmt->step();
    if (!row.ok() || !*row) break;
    out.emplace_back(stmt->columnText(0));
  }
  return out;
}

// The cells of a markdown table row, trimmed, without the outer pipes. An
// escaped pipe (`\|`) stays inside its cell.
std::vector<std::string> cells(std::string_view line) {
  line = trim(line);
  if (line.starts_with("|")) line.remove_prefix(1);
  if (line.ends_with("|")) line.remove_suffix(1);
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || (line[i] == '|' && (i == 0 || line[i - 1] != '\\'))) {
      out.emplace_back(trim(line.substr(start, i - start)));
      start = i + 1;
    }
  }
  return out;
}

bool isTableLine(std::string_view line) {
  return trim(line).starts_with("|");
}

// A `### ` section of a markdown file: its heading and the rows of its first
// table whose header's first cell is `column` (header first, then the rows
// after the |---| separator; empty when the section has no such table).
struct Section {
  std::string name;
  std::vector<std::vector<std::string>> column_table;
};

std::vector<Section> sections(std::string_view markdown) {
  std::vector<Section> out;
  std::vector<std::string_view> body;  // the lines of the current ### section
  auto finish = [&] {
    for (size_t i = 0; i < body.size() && out.back().column_table.empty(); ++i) {
      if (!isTableLine(body[i]) || (i > 0 && isTableLine(body[i - 1]))) continue;
      std::vector<std::string> header = cells(body[i]);
      if (header.empty() || header[0] != "column") continue;
      out.back().column_table.push_back(std::move(header));
      for (size_t j = i + 2; j < body.size() && isTableLine(body[j]); ++j) {
        out.back().column_table.push_back(cells(body[j]));
      }
    }
    body.clear();
  };
  bool in_fence = false, in_section = false;
  for (size_t pos = 0; pos < markdown.size();) {
    const size_t end = std::min(markdown.find('\n', pos), markdown.size());
    const std::string_view line = markdown.substr(pos, end - pos);
    pos = end + 1;
    if (line.starts_with("```")) in_fence = !in_fence;
    // A `#` inside a fenced block is a shell comment, not a heading.
    if (!in_fence && line.starts_with("#")) {
      if (in_section) finish();
      in_section = line.starts_with("### ");
      if (in_section) out.push_back({std::string(trim(line.substr(4))), {}});
    } else if (in_section) {
      body.push_back(line);
    }
  }
  if (in_section) finish();
  return out;
}

}  // namespace

std::string documentedType(const Column& column) {
  return column.string_id ? column.sql_type + " (string id)" : column.sql_type;
}

std::vector<std::string> checkSql(std::string_view file, std::string_view sql,
                                  const std::vector<Table>& declared) {
  std::vector<std::string> problems;
  const std::string f(file);
  auto db = Database::open(":memory:", Database::Mode::kReadWriteCreate);
  if (!db.ok()) return {f + ": cannot open an in-memory database: " + db.error().message()};
  if (auto status = db->exec(sql); !status.ok()) {
    return {f + ": does not run: " + status.error().message()};
  }
  std::set<std::string> names;
  for (const Table& table : declared) {
    names.insert(table.name);
    std::vector<SqlColumn> columns = sqlColumns(*db, table.name);
    if (columns.empty()) {
      problems.push_back(f + ": table " + table.name + " is declared but not created");
      continue;
    }
    const size_t key_columns = std::count_if(columns.begin(), columns.end(),
                                             [](const SqlColumn& c) { return c.primary_key > 0; });
    const SqlColumn& first = columns.front();
    if (first.name != "id" || first.type != "INTEGER" || first.primary_key != 1 ||
        key_columns != 1) {
      problems.push_back(f + ": " + table.name + ": the first column must be " +
                         "`id INTEGER PRIMARY KEY` and the only key; it is `" + first.name + " " +
                         first.type + "`" + (first.primary_key == 1 ? " PRIMARY KEY" : "") +
                         (key_columns > 1 ? ", with a key of several columns" : ""));
    }
    std::vector<Stated> stated;
    for (size_t i = first.name == "id" ? 1 : 0; i < columns.size(); ++i) {
      stated.push_back({columns[i].name, columns[i].type});
    }
    const auto sql_type = [](const Column& c) { return c.sql_type; };
    compareColumns(file, table, stated, sql_type, problems);
  }
  for (const std::string& name : sqlTableNames(*db)) {
    if (!names.count(name)) {
      problems.push_back(f + ": table " + name + " has no declaration (X-macro)");
    }
  }
  return problems;
}

std::vector<std::string> checkDocs(std::string_view file, std::string_view markdown,
                                   const std::vector<Table>& declared) {
  std::vector<std::string> problems;
  const std::string f(file);
  const std::vector<Section> found = sections(markdown);
  for (const Table& table : declared) {
    const auto section = std::find_if(found.begin(), found.end(),
                                      [&](const Section& s) { return s.name == table.name; });
    if (section == found.end()) {
      problems.push_back(f + ": no section `### " + table.name + "`");
      continue;
    }
    if (section->column_table.empty()) {
      problems.push_back(f + ": ### " + table.name + " has no `| column | type | meaning |` table");
      continue;
    }
    const std::vector<std::string>& header = section->column_table.front();
    if (header != std::vector<std::string>{"column", "type", "meaning"}) {
      problems.push_back(f + ": ### " + table.name + ": the column table's header is `| " +
                         joined(header, " | ") + " |`, expected `| column | type | meaning |`");
      continue;
    }
    std::vector<Stated> stated;
    for (size_t r = 1; r < section->column_table.size(); ++r) {
      const std::vector<std::string>& row = section->column_table[r];
      if (row.size() < 2) {
        problems.push_back(f + ": ### " + table.name + ": row `| " + joined(row, " | ") +
                           " |` has no type cell");
        continue;
      }
      std::string_view names = row[0];
      while (!names.empty()) {
        const size_t comma = std::min(names.find(','), names.size());
        stated.push_back({std::string(trim(names.substr(0, comma))), row[1]});
        names.remove_prefix(std::min(comma + 1, names.size()));
      }
    }
    compareColumns(file, table, stated, documentedType, problems);
  }
  for (const Section& s : found) {
    const bool is_declared = std::any_of(declared.begin(), declared.end(),
                                         [&](const Table& t) { return t.name == s.name; });
    if (!s.column_table.empty() && !is_declared) {
      problems.push_back(f + ": ### " + s.name + " documents columns of a table not declared");
    }
  }
  return problems;
}

}  // namespace damscope::schema_check
