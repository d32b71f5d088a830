// Thin RAII wrappers over the SQLite C API that report failures as values.
// Only trace/ and the Nsight Systems importer (which reads SQLite exports)
// use them; analyses never see SQLite.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace damscope {

class Statement;

class Database {
 public:
  enum class Mode { kReadOnly, kReadWriteCreate };

  // Opens `path` (":memory:" for an in-memory database). Errors name the path.
  static Result<Database> open(const std::string& path, Mode mode);

  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  // Runs one or more statements that return no rows.
  Status exec(std::string_view sql);
  // Lets a database opened kReadOnly be written from now on, where its file
  // can be (a file that cannot be written stays read-only: writing then
  // fails with SQLite's "readonly database"). Whoever reads a run.db and then
  // stores results into it does so on one connection.
  Status allowWrites();
  Result<Statement> prepare(std::string_view sql);

  bool hasTable(std::string_view table);
  // The column names of `table`, in order; empty if the table does not exist.
  std::vector<std::string> columnNames(std::string_view table);

  // Closes now, reporting errors (the destructor closes silently).
  Status close();

  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }

 private:
  Database(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  std::string lastError() const;

  sqlite3* db_ = nullptr;
  std::string path_;
};

class Statement {
 public:
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Advances to the next row: true while a row is available, false when done.
  Result<bool> step();
  // Runs a statement that returns no rows, then resets it for reuse.
  Status run();
  void reset();

  // Binding, 1-based like SQLite. Text is bound without a copy: it must stay
  // alive until the statement is stepped.
  void bindNull(int index) { sqlite3_bind_null(stmt_, index); }
  void bindInt(int index, int64_t value) { sqlite3_bind_int64(stmt_, index, value); }
  void bindReal(int index, double value) { sqlite3_bind_double(stmt_, index, value); }
  void bindText(int index, std::string_view text) {
    sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
  }
  // The same, with SQLite keeping its own copy (for text that dies first).
  void bindTextCopy(int index, std::string_view text) {
    sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  }

  // Column access, 0-based like SQLite.
  bool isNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
  // SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL.
  int columnType(int column) const { return sqlite3_column_type(stmt_, column); }
  int64_t columnInt(int column) const { return sqlite3_column_int64(stmt_, column); }
  double columnReal(int column) const { return sqlite3_column_double(stmt_, column); }
  std::string_view columnText(int column) const;
  int columnCount() const { return sqlite3_column_count(stmt_); }

 private:
  friend class Database;
  Statement(sqlite3_stmt* stmt, sqlite3* db) : stmt_(stmt), db_(db) {}

  sqlite3_stmt* stmt_ = nullptr;
  sqlite3* db_ = nullptr;
};

}  // namespace damscope
