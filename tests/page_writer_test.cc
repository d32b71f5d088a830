// PageWriter (trace/page_writer.h) against SQLite itself: the same rows
// written as pages and inserted by SQLite read back equal, value and type, and
// the pages pass PRAGMA integrity_check (which checks every b-tree, cell,
// overflow chain, free-space count and index entry against its row), with
// trees of several levels, overflowing text, every integer width, NULL keys,
// and on small pages; and what the writer cannot write exactly, it refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "tests/test_support.h"
#include "trace/page_writer.h"
#include "trace/sqlite_db.h"
#include "trace/table_io.h"

namespace damscope {
namespace {

using testing::TempDir;

#define PROBE_COLUMNS(X) \
  X(int64_t, k)          \
  X(double, x)           \
  X(std::string, s)      \
  X(StringId, name)      \
  X(int32_t, n)          \
  X(SyncKind, kind)
DAMSCOPE_DEFINE_TABLE(ProbeTable, "probe", PROBE_COLUMNS)

constexpr const char* kProbeSchema =
    "CREATE TABLE probe (id INTEGER PRIMARY KEY, k INTEGER, x REAL, s TEXT, name INTEGER,"
    " n INTEGER NOT NULL, kind TEXT NOT NULL);"
    "CREATE INDEX probe_by_k ON probe(k);"
    "CREATE INDEX probe_by_name ON probe(name);"
    "CREATE TABLE strings (id INTEGER PRIMARY KEY, value TEXT NOT NULL);";

// A file with `schema`, its pages of `page_size` bytes, `reserved` of them
// at each page's end kept for an extension (fileformat2 §1.3.4).
void create(const std::string& path, int page_size, const char* schema = kProbeSchema,
            int reserved = 0) {
  auto db = Database::open(path, Database::Mode::kReadWriteCreate);
  ASSERT_TRUE(db.ok()) << db.error().message();
  ASSERT_TRUE(db->exec("PRAGMA page_size=" + std::to_string(page_size) + ";").ok());
  if (reserved) {
    ASSERT_EQ(sqlite3_file_control(db->handle(), "main", SQLITE_FCNTL_RESERVE_BYTES, &reserved),
              SQLITE_OK);
  }
  ASSERT_TRUE(db->exec(schema).ok());
  ASSERT_TRUE(db->close().ok());
}

Status writePages(const std::string& path, const ProbeTable& rows, const StringPool* strings) {
  DAMSCOPE_ASSIGN_OR_RETURN(PageWriter pages, PageWriter::open(path));
  DAMSCOPE_RETURN_IF_ERROR(pages.fill(rows));
  if (strings) DAMSCOPE_RETURN_IF_ERROR(pages.fillStrings(*strings));
  return pages.finish();
}

// The same rows inserted by SQLite.
void insert(const std::string& path, const ProbeTable& rows, const StringPool* strings) {
  auto db = Database::open(path, Database::Mode::kReadWriteCreate);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(db->exec("BEGIN;").ok());
  ASSERT_TRUE(table_io::insertRows(*db, rows, 0).ok());
  if (strings) {
    auto stmt = db->prepare("INSERT INTO strings(id, value) VALUES(?, ?)");
    ASSERT_TRUE(stmt.ok());
    for (int32_t i = 0; i < static_cast<int32_t>(strings->size()); ++i) {
      stmt->bindInt(1, i);
      stmt->bindText(2, strings->get(StringId{i}));
      ASSERT_TRUE(stmt->run().ok());
    }
  }
  ASSERT_TRUE(db->exec("COMMIT;").ok());
  ASSERT_TRUE(db->close().ok());
}

// Every row of a query, each value with its type, as text.
std::vector<std::string> rowsOf(const std::string& path, const std::string& sql) {
  std::vector<std::string> out;
  auto db = Database::open(path, Database::Mode::kReadOnly);
  EXPECT_TRUE(db.ok());
  if (!db.ok()) return out;
  auto stmt = db->prepare(sql);
  EXPECT_TRUE(stmt.ok()) << sql;
  if (!stmt.ok()) return out;
  const int columns = stmt->columnCount();
  while (stmt->step().value()) {
    std::string row;
    for (int c = 0; c < columns; ++c) {
      const int type = stmt->columnType(c);
      row += std::to_string(type) + ":";
      if (type == SQLITE_FLOAT) {
        char buffer[40];
        std::snprintf(buffer, sizeof buffer, "%.17g", stmt->columnReal(c));
        row += buffer;
      } else if (type != SQLITE_NULL) {
        row += stmt->columnText(c);
      }
      row += "|";
    }
    out.push_back(std::move(row));
  }
  return out;
}

std::string integrity(const std::string& path) {
  const std::vector<std::string> rows = rowsOf(path, "PRAGMA integrity_check");
  std::string all;
  for (const std::string& row : rows) all += row;
  return all;
}

// Every way of reading the rows: the table in id order, each index in its
// order (forced), and lookups through each index.
void expectSameContents(const std::string& pages, const std::string& sqlite) {
  for (const char* sql :
       {"SELECT * FROM probe ORDER BY id",
        "SELECT k, id FROM probe INDEXED BY probe_by_k ORDER BY k, id",
        "SELECT name, id FROM probe INDEXED BY probe_by_name ORDER BY name, id",
        "SELECT count(*), sum(id) FROM probe INDEXED BY probe_by_k WHERE k BETWEEN -1000 AND 1000",
        "SELECT count(*) FROM probe INDEXED BY probe_by_k WHERE k IS NULL",
        "SELECT * FROM strings ORDER BY id"}) {
    EXPECT_EQ(rowsOf(pages, sql), rowsOf(sqlite, sql)) << sql;
  }
}

ProbeTable randomRows(size_t n, StringPool& pool, uint32_t seed, size_t long_text_every) {
  std::mt19937_64 random(seed);
  ProbeTable rows;
  for (size_t i = 0; i < n; ++i) {
    ProbeTable::Row r;
    const int width = static_cast<int>(random() % 64);
    r.k = random() % 11 == 0 ? kNullInt
                             : static_cast<int64_t>(random() >> width) * (random() % 2 ? 1 : -1);
    r.x = random() % 7 == 0 ? std::nan("") : static_cast<double>(random() % 100000) / 7.0;
    if (long_text_every && i % long_text_every == 0) {
      r.s = std::string(100 + random() % 20000, static_cast<char>('a' + i % 26));
    } else if (random() % 5) {
      r.s = "row " + std::to_string(i) + " \xc3\xa9";
    }
    r.name =
        random() % 9 == 0 ? StringId{} : pool.intern("kernel_" + std::to_string(random() % 300));
    r.n = static_cast<int32_t>(random() % 5);
    r.kind = random() % 2 ? SyncKind::kStreamSynchronize : SyncKind::kContextSynchronize;
    rows.append(r);
  }
  return rows;
}

void roundTrip(const ProbeTable& rows, const StringPool* strings, int page_size, int reserved = 0) {
  TempDir dir;
  const std::string pages = dir.file("pages.db"), sqlite = dir.file("sqlite.db");
  create(pages, page_size, kProbeSchema, reserved);
  create(sqlite, page_size, kProbeSchema, reserved);
  const Status written = writePages(pages, rows, strings);
  ASSERT_TRUE(written.ok()) << written.error().message();
  insert(sqlite, rows, strings);
  EXPECT_EQ(integrity(pages), "3:ok|");
  expectSameContents(pages, sqlite);
}

TEST(PageWriter, EveryIntegerWidthRealsTextAndNullsReadBackAsSqliteStoresThem) {
  ProbeTable rows;
  StringPool pool;
  const int64_t edges[] = {0,
                           1,
                           -1,
                           2,
                           127,
                           128,
                           -128,
                           -129,
                           32767,
                           32768,
                           -32768,
                           -32769,
                           8388607,
                           8388608,
                           -8388608,
                           -8388609,
                           2147483647,
                           2147483648LL,
                           -2147483648LL,
                           -2147483649LL,
                           140737488355327LL,
                           140737488355328LL,
                           -140737488355328LL,
                           -140737488355329LL,
                           std::numeric_limits<int64_t>::max(),
                           std::numeric_limits<int64_t>::min() + 1,
                           kNullInt};
  for (const int64_t k : edges) {
    ProbeTable::Row r;
    r.k = k;
    r.x = k == kNullInt ? std::numeric_limits<double>::infinity() : static_cast<double>(k) / 3;
    r.s = k % 2 ? "odd \xe2\x9c\x93" : std::string("bad \xff utf-8");
    r.name = pool.intern(std::to_string(k));
    r.n = static_cast<int32_t>(k & 0xffff);
    r.kind = SyncKind::kEventSynchronize;
    rows.append(r);
  }
  for (const double x : {0.0, -0.0, 1.0, 0.1, -2.5e-300, 1e308, 4.0e15}) {
    ProbeTable::Row r;
    r.x = x;
    r.n = 0;
    r.kind = SyncKind::kStreamWaitEvent;
    rows.append(r);
  }
  pool.intern("");  // the pool's text is stored as it is, even empty
  roundTrip(rows, &pool, 4096);
}

TEST(PageWriter, ThreeLevelTreesWithOverflowingTextOnSmallAndLargePages) {
  StringPool pool;
  const ProbeTable rows = randomRows(30000, pool, 7, 97);
  roundTrip(rows, &pool, 512);
  roundTrip(rows, &pool, 4096);
  roundTrip(rows, &pool, 65536);
  // Pages with bytes reserved at their end: cells and overflow stop short of them.
  roundTrip(rows, &pool, 1024, 40);
  // About 15 MB of pages: written out to the file while the table is laid out.
  roundTrip(randomRows(3000, pool, 9, 2), &pool, 4096);
}

TEST(PageWriter, TablesOfZeroOneAndAPageFullOfRows) {
  for (const size_t n : {0, 1, 2, 40, 41, 1000}) {
    StringPool pool;
    roundTrip(randomRows(n, pool, static_cast<uint32_t>(n), 0), &pool, 1024);
  }
}

TEST(PageWriter, SqliteKeepsWritingAFileAfterItsPages) {
  TempDir dir;
  const std::string path = dir.file("pages.db");
  create(path, 4096);
  StringPool pool;
  ASSERT_TRUE(writePages(path, randomRows(5000, pool, 3, 50), &pool).ok());
  auto db = Database::open(path, Database::Mode::kReadWriteCreate);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(db->exec("PRAGMA journal_mode=WAL; CREATE TABLE later(v TEXT);"
                       "INSERT INTO later VALUES('after the pages');"
                       "INSERT INTO probe(k, n, kind) VALUES(42, 1, 'stream_synchronize');"
                       "DELETE FROM probe WHERE id % 3 = 0;")
                  .ok());
  ASSERT_TRUE(db->close().ok());
  EXPECT_EQ(integrity(path), "3:ok|");
  EXPECT_EQ(rowsOf(path, "SELECT count(*) FROM probe"),
            std::vector<std::string>{"1:3334|"});  // 5000 - 1667 + 1
}

TEST(PageWriter, RefusesWhatItCannotWriteExactly) {
  TempDir dir;
  StringPool pool;
  const ProbeTable rows = randomRows(10, pool, 1, 0);
  const auto refusal = [&](const char* schema, const ProbeTable& table) {
    const std::string path = dir.file("refused.db");
    std::remove(path.c_str());
    create(path, 4096, schema);
    const Status status = writePages(path, table, nullptr);
    return status.ok() ? std::string("written") : status.error().message();
  };
  const std::string columns =
      "CREATE TABLE probe (id INTEGER PRIMARY KEY, k INTEGER, x REAL, s TEXT, name INTEGER,"
      " n INTEGER NOT NULL, kind TEXT NOT NULL";
  EXPECT_NE(refusal((columns + "); INSERT INTO probe(n, kind) VALUES(1, 'x');").c_str(), rows)
                .find("is not empty"),
            std::string::npos);
  EXPECT_NE(
      refusal((columns + "); CREATE UNIQUE INDEX u ON probe(k);").c_str(), rows).find("UNIQUE"),
      std::string::npos);
  EXPECT_NE(
      refusal((columns + "); CREATE INDEX e ON probe(k + 1);").c_str(), rows).find("expression"),
      std::string::npos);
  EXPECT_NE(refusal((columns + "); CREATE INDEX t ON probe(s);").c_str(), rows)
                .find("not on an integer column"),
            std::string::npos);
  EXPECT_NE(refusal("CREATE TABLE probe (id INTEGER PRIMARY KEY, k TEXT, x REAL, s TEXT,"
                    " name INTEGER, n INTEGER NOT NULL, kind TEXT NOT NULL);",
                    rows)
                .find("probe.k: its SQL type would convert"),
            std::string::npos);
  EXPECT_NE(refusal("CREATE TABLE probe (id INTEGER PRIMARY KEY, k INTEGER, x INTEGER, s TEXT,"
                    " name INTEGER, n INTEGER NOT NULL, kind TEXT NOT NULL);",
                    rows)
                .find("probe.x"),
            std::string::npos);
  EXPECT_NE(
      refusal("CREATE TABLE probe (id INTEGER PRIMARY KEY, k INTEGER, x REAL, s TEXT NOT NULL,"
              " name INTEGER, n INTEGER NOT NULL, kind TEXT NOT NULL);",
              [] {
                ProbeTable t;
                ProbeTable::Row r;
                r.n = 1;
                t.append(r);
                return t;
              }())
          .find("probe.s: NULL in row 0"),
      std::string::npos);
  EXPECT_NE(refusal("CREATE TABLE probe (id INTEGER PRIMARY KEY, x REAL);", rows).find("columns"),
            std::string::npos);

  {
    const std::string twice = dir.file("twice.db");
    create(twice, 4096);
    auto pages = PageWriter::open(twice);
    ASSERT_TRUE(pages.ok());
    ASSERT_TRUE(pages->fill(rows).ok());
    const Status again = pages->fill(rows);
    ASSERT_FALSE(again.ok());
    EXPECT_NE(again.error().message().find("is not empty"), std::string::npos);
  }

  {
    const std::string vacuum = dir.file("vacuum.db");
    {
      auto db = Database::open(vacuum, Database::Mode::kReadWriteCreate);
      ASSERT_TRUE(db->exec("PRAGMA auto_vacuum=FULL;").ok());
      ASSERT_TRUE(db->exec(kProbeSchema).ok());
    }
    auto refused = PageWriter::open(vacuum);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message().find("auto-vacuum"), std::string::npos);
  }

  const std::string wal = dir.file("wal.db");
  create(wal, 4096);
  {
    auto db = Database::open(wal, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db->exec("PRAGMA journal_mode=WAL;").ok());
  }
  auto refused = PageWriter::open(wal);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("WAL"), std::string::npos);
}

}  // namespace
}  // namespace damscope
