// RAII wrappers over SQLite: see sqlite_db.h.
#include "trace/sqlite_db.h"

#include <sys/stat.h>
#include <unistd.h>

#include <vector>

#include "base/input_fd.h"

namespace damscope {
namespace {

std::string parentDirectory(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

Result<Database> Database::open(const std::string& path, Mode mode) {
  // SQLite opens the file itself, and reading a FIFO would wait forever: an
  // existing path passes the one door of every input first (base/input_fd.h).
  struct stat st {};
  if (path != ":memory:" && ::stat(path.c_str(), &st) == 0) {
    DAMSCOPE_RETURN_IF_ERROR(checkRegularFile(path));
  }
  sqlite3* db = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  // A reader of a WAL database needs its -shm and -wal files, and a read-only
  // connection creates them but cannot remove them (sqlite.org/wal.html,
  // "Read-Only Databases"): every read would leave two files beside the
  // user's run.db. Where the file can be written, a read-write connection that
  // refuses to write (query_only) removes them when it is the last to close.
  const bool writable = path != ":memory:" && ::access(path.c_str(), W_OK) == 0 &&
                        ::access(parentDirectory(path).c_str(), W_OK) == 0;
  if (mode == Mode::kReadOnly) flags = writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return Error(path + ": cannot open SQLite database: " + message);
  }
  // Wait briefly instead of failing when another process (a recording
  // collector, the GUI) holds a lock.
  sqlite3_busy_timeout(db, 2000);
  if (mode == Mode::kReadOnly && writable) {
    sqlite3_exec(db, "PRAGMA query_only=ON", nullptr, nullptr, nullptr);
  }
  return Database(db, path);
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    if (db_) sqlite3_close(db_);
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

Database::~Database() {
  if (db_) sqlite3_close(db_);
}

std::string Database::lastError() const {
  return db_ ? sqlite3_errmsg(db_) : "database closed";
}

Status Database::exec(std::string_view sql) {
  std::string text(sql);
  char* message = nullptr;
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string error = message ? message : lastError();
    sqlite3_free(message);
    return Error(path_ + ": " + error);
  }
  return okStatus();
}

Status Database::allowWrites() {
  return exec("PRAGMA query_only=OFF");
}

Result<Statement> Database::prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr) !=
      SQLITE_OK) {
    return Error(path_ + ": " + lastError() + " (in \"" + std::string(sql.substr(0, 80)) + "\")");
  }
  return Statement(stmt, db_);
}

bool Database::hasTable(std::string_view table) {
  auto stmt = prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?");
  if (!stmt.ok()) return false;
  stmt->bindText(1, table);
  auto row = stmt->step();
  return row.ok() && row.value();
}

std::vector<std::string> Database::columnNames(std::string_view table) {
  std::vector<std::string> names;
  auto stmt = prepare("SELECT name FROM pragma_table_info(?)");
  if (!stmt.ok()) return names;
  stmt->bindText(1, table);
  while (true) {
    auto row = stmt->step();
    if (!row.ok() || !row.value()) break;
    names.emplace_back(stmt->columnText(0));
  }
  return names;
}

Status Database::close() {
  if (!db_) return okStatus();
  const int rc = sqlite3_close(db_);
  if (rc != SQLITE_OK) return Error(path_ + ": cannot close database: " + lastError());
  db_ = nullptr;
  return okStatus();
}

Statement::Statement(Statement&& other) noexcept
    : stmt_(std::exchange(other.stmt_, nullptr)), db_(other.db_) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    if (stmt_) sqlite3_finalize(stmt_);
    stmt_ = std::exchange(other.stmt_, nullptr);
    db_ = other.db_;
  }
  return *this;
}

Statement::~Statement() {
  if (stmt_) sqlite3_finalize(stmt_);
}

Result<bool> Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return Error(std::string(sqlite3_errmsg(db_)));
}

Status Statement::run() {
  const int rc = sqlite3_step(stmt_);
  sqlite3_reset(stmt_);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) return Error(std::string(sqlite3_errmsg(db_)));
  return okStatus();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
}

std::string_view Statement::columnText(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (!text) return {};
  return std::string_view(text, static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

}  // namespace damscope
