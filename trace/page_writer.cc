// Writes SQLite b-tree pages directly: see page_writer.h. Section numbers
// refer to the file format's specification, sqlite.org/fileformat2.html.
#include "trace/page_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>
#include <optional>

#include "trace/sqlite_db.h"
#include "trace/sqlite_record.h"

namespace damscope {
namespace {

// §1.6: the page types' first byte.
constexpr uint8_t kIndexInterior = 0x02;
constexpr uint8_t kTableInterior = 0x05;
constexpr uint8_t kIndexLeaf = 0x0a;
constexpr uint8_t kTableLeaf = 0x0d;
// §1.3: the page holding this byte offset is never used (the lock-byte page).
constexpr uint64_t kLockByteOffset = 0x40000000;

void put16(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 8), p[1] = uint8_t(v);
}
void put32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 24), p[1] = uint8_t(v >> 16), p[2] = uint8_t(v >> 8), p[3] = uint8_t(v);
}
uint32_t get16(const uint8_t* p) {
  return uint32_t(p[0]) << 8 | p[1];
}
uint32_t get32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}

// §3.1 "Determination Of Column Affinity" (sqlite.org/datatype3.html): the
// affinity a declared type gives, by the first rule that matches.
enum class Affinity { kInteger, kText, kBlob, kReal, kNumeric };
Affinity affinityOf(std::string type) {
  std::transform(type.begin(), type.end(), type.begin(), ::toupper);
  const auto has = [&](const char* s) { return type.find(s) != std::string::npos; };
  if (has("INT")) return Affinity::kInteger;
  if (has("CHAR") || has("CLOB") || has("TEXT")) return Affinity::kText;
  if (has("BLOB") || type.empty()) return Affinity::kBlob;
  if (has("REAL") || has("FLOA") || has("DOUB")) return Affinity::kReal;
  return Affinity::kNumeric;
}

// True when SQLite would store a value of `kind` in a column of `affinity`
// unchanged (datatype3 §3.4): otherwise it would convert it, which these
// pages do not.
bool storedUnchanged(ValueKind kind, Affinity affinity) {
  if (affinity == Affinity::kBlob) return true;
  switch (kind) {
    case ValueKind::kInteger:
      // A REAL column keeps whole numbers as integers on disk and reads them
      // back as reals (datatype3 §3.2): the same as these pages do.
      return affinity != Affinity::kText;
    case ValueKind::kReal:
      return affinity == Affinity::kReal;
    case ValueKind::kText:
      return affinity == Affinity::kText;
  }
  return false;
}

// Index entries, encoded: entry i is records[offsets[i], offsets[i+1]).
struct EncodedRows {
  std::vector<uint8_t> records;
  std::vector<size_t> offsets{0};
  size_t size() const { return offsets.size() - 1; }
};

// Pages written so far are handed to the file once they pass this size, so
// a large table never holds all its pages in memory.
constexpr size_t kWriteTailBytes = 4 << 20;

}  // namespace

struct PageWriter::Impl {
  struct Column {
    std::string name;
    Affinity affinity;
    bool not_null;
  };
  struct Index {
    std::string name;
    uint32_t root;
    std::string column;  // its one key column
    std::string why;     // non-empty: an index these pages cannot write
  };
  struct Table {
    std::string name;
    uint32_t root = 0;
    std::string why;              // non-empty: a table these pages cannot write
    std::vector<Column> columns;  // after id
    std::vector<Index> indexes;
    bool filled = false;  // by this writer (its root is written only at finish)
  };

  std::string path;
  int fd = -1;
  uint32_t page_size = 0;
  uint32_t usable = 0;
  uint32_t unwritten = 0;     // the first page not yet written to the file
  uint32_t next = 0;          // the next page to allocate
  std::vector<uint8_t> tail;  // pages unwritten .. next-1
  // Root pages, written last: until then the file reads as it was.
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> roots;
  std::vector<Table> tables;

  ~Impl() {
    if (fd >= 0) ::close(fd);
  }

  Error fail(const std::string& what) const { return Error(path + ": " + what); }

  Table* table(std::string_view name) {
    for (Table& t : tables) {
      if (t.name == name) return &t;
    }
    return nullptr;
  }

  uint32_t allocate() {
    if (uint64_t(next - 1) * page_size == kLockByteOffset) ++next;
    return next++;
  }

  void store(uint32_t page, const uint8_t* bytes) {
    const size_t at = size_t(page - unwritten) * page_size;
    if (tail.size() < at + page_size) tail.resize(at + page_size);
    std::memcpy(tail.data() + at, bytes, page_size);
  }

  // §1.6 "Cell Payload Overflow Pages": the part of a payload of `payload`
  // bytes kept on a page whose largest local payload is `max_local`.
  size_t localSize(size_t payload, size_t max_local) const {
    if (payload <= max_local) return payload;
    const size_t min_local = (usable - 12) * 32 / 255 - 23;
    const size_t k = min_local + (payload - min_local) % (usable - 4);
    return k <= max_local ? k : min_local;
  }
  size_t tableLeafMaxLocal() const { return usable - 35; }
  size_t indexMaxLocal() const { return (usable - 12) * 64 / 255 - 23; }

  // The bytes of a payload cell after its size varint (and rowid): the local
  // part and, past it, the first overflow page's number.
  size_t payloadCellBytes(size_t payload, size_t max_local) const {
    const size_t local = localSize(payload, max_local);
    return local + (local < payload ? 4 : 0);
  }

  // Writes `payload` at `p` as a cell's local part, spilling the rest into a
  // chain of overflow pages (payloadCellBytes says how many bytes at `p`).
  void putPayload(uint8_t* p, const uint8_t* payload, size_t size, size_t max_local) {
    const size_t local = localSize(size, max_local);
    std::memcpy(p, payload, local);
    if (local == size) return;
    const size_t per_page = usable - 4;
    const size_t pages = (size - local + per_page - 1) / per_page;
    std::vector<uint32_t> chain(pages);
    for (uint32_t& page : chain) page = allocate();
    std::vector<uint8_t> page_bytes(page_size);
    for (size_t i = 0, at = local; i < pages; ++i, at += per_page) {
      std::fill(page_bytes.begin(), page_bytes.end(), 0);
      put32(page_bytes.data(), i + 1 < pages ? chain[i + 1] : 0);
      std::memcpy(page_bytes.data() + 4, payload + at, std::min(per_page, size - at));
      store(chain[i], page_bytes.data());
    }
    put32(p + local, chain[0]);
  }

  // One b-tree page. Cells are packed against the page's end with no gaps,
  // so the header's fragment count is 0 and there is no freeblock.
  class PageLayout {
   public:
    PageLayout(uint32_t page_size, uint32_t usable, uint8_t type)
        : bytes_(page_size), usable_(usable) {
      reset(type);
    }
    void reset(uint8_t type) {
      std::fill(bytes_.begin(), bytes_.end(), 0);
      bytes_[0] = type_ = type;
      content_ = usable_;
      cells_ = 0;
    }
    uint32_t cells() const { return cells_; }
    // True when a cell of `cell_bytes` (and its pointer) still fits.
    bool fits(size_t cell_bytes) const {
      return headerSize() + 2 * (cells_ + 1) + (usable_ - content_) + cell_bytes <= usable_;
    }
    uint8_t* reserve(size_t cell_bytes) {
      content_ -= cell_bytes;
      put16(bytes_.data() + headerSize() + 2 * cells_++, content_);
      return bytes_.data() + content_;
    }
    const uint8_t* finish(uint32_t rightmost) {
      put16(bytes_.data() + 3, cells_);
      put16(bytes_.data() + 5, content_ == 65536 ? 0 : content_);
      if (headerSize() == 12) put32(bytes_.data() + 8, rightmost);
      return bytes_.data();
    }
    static size_t headerSize(uint8_t type) {
      return type == kTableLeaf || type == kIndexLeaf ? 8 : 12;
    }

   private:
    size_t headerSize() const { return headerSize(type_); }
    std::vector<uint8_t> bytes_;
    uint32_t usable_;
    uint32_t content_ = 0;
    uint32_t cells_ = 0;
    uint8_t type_ = 0;
  };

  // A page number for a page of a level of `pages` pages: the tree's root
  // when the level is its top.
  uint32_t pageFor(size_t pages, uint32_t root) { return pages == 1 ? root : allocate(); }

  void storeRoot(uint32_t root, const uint8_t* bytes) {
    roots.emplace_back(root, std::vector<uint8_t>(bytes, bytes + page_size));
  }
  void storePage(uint32_t page, uint32_t root, const uint8_t* bytes) {
    page == root ? storeRoot(root, bytes) : store(page, bytes);
  }

  // §1.6: a table b-tree. Leaves hold the records in rowid order; interior
  // cells hold a child and the largest rowid under it. The leaves are laid
  // out as the rows come (LeafStream); the first is held back, since it is
  // the root when no other follows.
  struct Child {
    uint32_t page;
    int64_t max_rowid;
  };
  struct LeafStream {
    Table* table = nullptr;
    std::optional<PageLayout> leaf;
    int64_t rows = 0;
    std::vector<uint8_t> held;  // the first leaf, until a second one comes
    int64_t held_max_rowid = 0;
    std::vector<Child> children;
    std::vector<uint8_t> payload;  // the current row's record
    Status error;                  // of writing pages out on the way
  } stream;

  void addRow(const RecordEncoder& record) {
    LeafStream& s = stream;
    s.payload.clear();
    record.appendTo(s.payload);
    const size_t size = s.payload.size(), max_local = tableLeafMaxLocal();
    const size_t cell = sqlite_record::varintLength(size) + sqlite_record::varintLength(s.rows) +
                        payloadCellBytes(size, max_local);
    if (s.leaf->cells() > 0 && !s.leaf->fits(cell)) closeLeaf();
    uint8_t* p = s.leaf->reserve(cell);
    p += sqlite_record::putVarint(p, size);
    p += sqlite_record::putVarint(p, s.rows++);
    putPayload(p, s.payload.data(), size, max_local);
  }

  void releaseHeld() {
    LeafStream& s = stream;
    if (s.held.empty()) return;
    const uint32_t page = allocate();
    store(page, s.held.data());
    s.children.push_back({page, s.held_max_rowid});
    s.held.clear();
  }

  void closeLeaf() {
    LeafStream& s = stream;
    const uint8_t* bytes = s.leaf->finish(0);
    if (s.children.empty() && s.held.empty()) {
      s.held.assign(bytes, bytes + page_size);
      s.held_max_rowid = s.rows - 1;
    } else {
      releaseHeld();
      const uint32_t page = allocate();
      store(page, bytes);
      s.children.push_back({page, s.rows - 1});
    }
    s.leaf->reset(kTableLeaf);
    // Every page allocated so far is stored: the tail can go to the file.
    if (tail.size() >= kWriteTailBytes && s.error.ok()) s.error = writeTail();
  }

  // The leaves' parents, level by level up to the root.
  void endTable(uint32_t root) {
    LeafStream& s = stream;
    if (s.leaf->cells() > 0) closeLeaf();
    if (s.children.empty()) {
      if (!s.held.empty()) storeRoot(root, s.held.data());
      s.held.clear();
      return;
    }
    std::vector<Child> children = std::move(s.children);
    s.children.clear();
    while (children.size() > 1) {
      // Runs of children per page: all but the last become cells, the last
      // the page's right-most pointer.
      const auto cell = [&](const Child& c) {
        return 4 + sqlite_record::varintLength(c.max_rowid) + 2;
      };
      std::vector<std::pair<size_t, size_t>> runs;
      for (size_t i = 0; i < children.size();) {
        const size_t first = i;
        size_t used = PageLayout::headerSize(kTableInterior);
        while (i + 1 < children.size() && used + cell(children[i]) <= usable)
          used += cell(children[i++]);
        runs.emplace_back(first, ++i);  // children[i-1] is the right-most child
      }
      // A page of one child and no cell: take a child from the page before.
      if (runs.size() > 1 && runs.back().second - runs.back().first == 1) {
        --runs[runs.size() - 2].second;
        --runs.back().first;
      }
      std::vector<Child> parents;
      for (const auto& [first, end] : runs) {
        PageLayout page(page_size, usable, kTableInterior);
        for (size_t i = first; i + 1 < end; ++i) {
          uint8_t* p = page.reserve(4 + sqlite_record::varintLength(children[i].max_rowid));
          put32(p, children[i].page);
          sqlite_record::putVarint(p + 4, children[i].max_rowid);
        }
        const uint32_t number = pageFor(runs.size(), root);
        storePage(number, root, page.finish(children[end - 1].page));
        parents.push_back({number, children[end - 1].max_rowid});
      }
      children = std::move(parents);
    }
  }

  // §1.6: an index b-tree. Unlike a table's, its interior cells are entries
  // too: each level's pages are runs of entries, and the entry between two
  // runs moves up to the level above, with the run before it as its child.
  void buildIndex(uint32_t root, const EncodedRows& entries) {
    struct Item {
      size_t entry;
      uint32_t left = 0;  // interior levels: the child before the entry
    };
    const size_t max_local = indexMaxLocal();
    const auto payload = [&](const Item& item) {
      return entries.offsets[item.entry + 1] - entries.offsets[item.entry];
    };
    std::vector<Item> items(entries.size());
    for (size_t i = 0; i < items.size(); ++i) items[i].entry = i;
    uint32_t last_child = 0;
    for (bool leaf = true;; leaf = false) {
      const uint8_t type = leaf ? kIndexLeaf : kIndexInterior;
      const auto cellBytes = [&](const Item& item) {
        return (leaf ? 0 : 4) + sqlite_record::varintLength(payload(item)) +
               payloadCellBytes(payload(item), max_local);
      };
      // Runs [first, end); the item at `end` (when there is one) goes up.
      std::vector<std::pair<size_t, size_t>> runs;
      for (size_t i = 0; i < items.size();) {
        const size_t first = i;
        size_t used = PageLayout::headerSize(type);
        for (; i < items.size(); ++i) {
          const size_t bytes = cellBytes(items[i]) + 2;
          if (used + bytes > usable && i > first) break;
          used += bytes;
        }
        runs.emplace_back(first, i);
        if (i < items.size() && ++i == items.size()) {
          // The last item would go up with no run after it: the run gives
          // its own last item up instead and the last item is a run of one.
          // A full run holds at least four entries (an entry's local part
          // is at most a quarter of the page, §1.6), so it stays non-empty.
          --runs.back().second;
          runs.emplace_back(items.size() - 1, items.size());
        }
      }
      std::vector<Item> up;
      for (size_t r = 0; r < runs.size(); ++r) {
        const auto [first, end] = runs[r];
        PageLayout page(page_size, usable, type);
        for (size_t i = first; i < end; ++i) {
          const Item& item = items[i];
          uint8_t* p = page.reserve(cellBytes(item));
          if (!leaf) put32(p, item.left), p += 4;
          p += sqlite_record::putVarint(p, payload(item));
          putPayload(p, entries.records.data() + entries.offsets[item.entry], payload(item),
                     max_local);
        }
        const bool has_next = r + 1 < runs.size();
        const uint32_t rightmost = leaf ? 0 : has_next ? items[end].left : last_child;
        const uint32_t number = pageFor(runs.size(), root);
        storePage(number, root, page.finish(rightmost));
        if (has_next) {
          up.push_back({items[end].entry, number});
        } else {
          last_child = number;
        }
      }
      if (runs.size() == 1) return;
      items = std::move(up);
    }
  }

  // An index's entries (key, rowid) in the index's order: NULL keys first,
  // then by key, ties by rowid (sqlite.org/datatype3.html §4.1).
  static EncodedRows indexEntries(const IntegerColumn& keys) {
    std::vector<uint32_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0);
    const auto before = [&](uint32_t a, uint32_t b) {
      if (!keys[a] || !keys[b]) return !keys[a] && keys[b];
      return *keys[a] < *keys[b];
    };
    if (!std::is_sorted(order.begin(), order.end(), before)) {
      std::stable_sort(order.begin(), order.end(), before);
    }
    EncodedRows entries;
    entries.offsets.reserve(keys.size() + 1);
    entries.records.reserve(keys.size() * 12);
    RecordEncoder record;
    for (uint32_t row : order) {
      record.clear();
      keys[row] ? record.addInt(*keys[row]) : record.addNull();
      record.addInt(row);
      record.appendTo(entries.records);
      entries.offsets.push_back(entries.records.size());
    }
    return entries;
  }

  // The tables and indexes, from sqlite_schema and the table_info,
  // index_list and index_xinfo pragmas.
  Status readSchema(Database& db) {
    DAMSCOPE_ASSIGN_OR_RETURN(
        Statement objects,
        db.prepare("SELECT type, name, tbl_name, rootpage, coalesce(sql, '') FROM sqlite_schema "
                   "WHERE type IN ('table', 'index') ORDER BY type DESC"));
    while (true) {
      DAMSCOPE_ASSIGN_OR_RETURN(bool row, objects.step());
      if (!row) break;
      const std::string type(objects.columnText(0));
      const std::string name(objects.columnText(1));
      const std::string table_name(objects.columnText(2));
      const auto root = static_cast<uint32_t>(objects.columnInt(3));
      std::string sql(objects.columnText(4));
      if (type == "table") {
        Impl::Table table{name, root, {}, {}, {}};
        std::transform(sql.begin(), sql.end(), sql.begin(), ::toupper);
        const std::string options = sql.substr(std::min(sql.size(), sql.rfind(')') + 1));
        if (options.find("WITHOUT") != std::string::npos ||
            options.find("STRICT") != std::string::npos) {
          table.why = "a WITHOUT ROWID or STRICT table";
        }
        DAMSCOPE_ASSIGN_OR_RETURN(
            Statement info,
            db.prepare("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)"));
        info.bindText(1, name);
        for (bool first = true;; first = false) {
          DAMSCOPE_ASSIGN_OR_RETURN(bool more, info.step());
          if (!more) break;
          const std::string column(info.columnText(0));
          std::string declared(info.columnText(1));
          std::transform(declared.begin(), declared.end(), declared.begin(), ::toupper);
          if (first) {
            // The rowid alias (sqlite.org/lang_createtable.html#rowid).
            if (column != "id" || declared != "INTEGER" || info.columnInt(3) != 1) {
              table.why = "its first column is not `id INTEGER PRIMARY KEY`";
            }
            continue;
          }
          table.columns.push_back({column, affinityOf(declared), info.columnInt(2) != 0});
        }
        tables.push_back(std::move(table));
      } else if (Table* owner = table(table_name)) {
        Impl::Index index{name, root, {}, {}};
        DAMSCOPE_ASSIGN_OR_RETURN(
            Statement list,
            db.prepare("SELECT \"unique\", origin, partial FROM pragma_index_list(?) "
                       "WHERE name = ?"));
        list.bindText(1, table_name);
        list.bindText(2, name);
        DAMSCOPE_ASSIGN_OR_RETURN(bool listed, list.step());
        if (!listed || list.columnInt(0) != 0 || list.columnInt(2) != 0) {
          index.why = "a UNIQUE or partial index";
        }
        DAMSCOPE_ASSIGN_OR_RETURN(
            Statement keys,
            db.prepare("SELECT cid, name, \"desc\", coll FROM pragma_index_xinfo(?) "
                       "WHERE key = 1"));
        keys.bindText(1, name);
        int key_columns = 0;
        while (true) {
          DAMSCOPE_ASSIGN_OR_RETURN(bool more, keys.step());
          if (!more) break;
          ++key_columns;
          if (keys.columnInt(0) < 0 || keys.columnInt(2) != 0 || keys.columnText(3) != "BINARY") {
            index.why = "an index on an expression, descending or with a collation";
          }
          index.column = std::string(keys.columnText(1));
        }
        if (key_columns != 1 && index.why.empty()) index.why = "an index on several columns";
        owner->indexes.push_back(std::move(index));
      }
    }
    return okStatus();
  }

  // True when `root` is a page SQLite left empty: a leaf of `type`, no cells.
  Result<bool> emptyLeaf(uint32_t root, uint8_t type) const {
    uint8_t header[8];
    if (::pread(fd, header, sizeof header, off_t(root - 1) * page_size) != sizeof header) {
      return fail("cannot read page " + std::to_string(root));
    }
    return header[0] == type && get16(header + 3) == 0;
  }

  // Writes the pages allocated so far, past the end the header gives.
  Status writeTail() {
    tail.resize(size_t(next - unwritten) * page_size);
    DAMSCOPE_RETURN_IF_ERROR(writeAll(tail.data(), tail.size(), off_t(unwritten - 1) * page_size));
    unwritten = next;
    tail.clear();
    return okStatus();
  }

  Status writeAll(const uint8_t* bytes, size_t size, off_t at) const {
    while (size > 0) {
      const ssize_t written = ::pwrite(fd, bytes, size, at);
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) return fail(std::string("cannot write: ") + std::strerror(errno));
      bytes += written, size -= size_t(written), at += written;
    }
    return okStatus();
  }
};

PageWriter::PageWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PageWriter::PageWriter(PageWriter&&) noexcept = default;
PageWriter& PageWriter::operator=(PageWriter&&) noexcept = default;
PageWriter::~PageWriter() = default;

Result<PageWriter> PageWriter::open(const std::string& path) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  {
    DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadOnly));
    DAMSCOPE_RETURN_IF_ERROR(impl->readSchema(db));
    DAMSCOPE_RETURN_IF_ERROR(db.close());
  }

  impl->fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (impl->fd < 0) return impl->fail(std::string("cannot open: ") + std::strerror(errno));
  // §1.3 "The Database Header".
  uint8_t header[100];
  if (::pread(impl->fd, header, sizeof header, 0) != sizeof header ||
      std::memcmp(header, "SQLite format 3", 16) != 0) {
    return impl->fail("not an SQLite database");
  }
  impl->page_size = get16(header + 16) == 1 ? 65536 : get16(header + 16);
  impl->usable = impl->page_size - header[20];
  if (header[18] != 1 || header[19] != 1)
    return impl->fail("in WAL mode; pages are written only to a closed rollback-mode file");
  if (get32(header + 56) != 1) return impl->fail("not UTF-8");
  if (get32(header + 44) != 4)
    return impl->fail("schema format " + std::to_string(get32(header + 44)) + ", not 4");
  // Auto-vacuum files keep a pointer-map page for every page (§1.5), which
  // appended pages would leave stale.
  if (get32(header + 52) != 0) return impl->fail("in auto-vacuum mode");
  const off_t size = ::lseek(impl->fd, 0, SEEK_END);
  const uint32_t pages = get32(header + 28);
  // The header's page count is valid only while its change counter equals
  // its "version-valid-for" number (§1.3.7).
  if (get32(header + 24) != get32(header + 92) || off_t(pages) * impl->page_size != size) {
    return impl->fail("its header's page count does not match its size");
  }
  impl->unwritten = impl->next = pages + 1;
  return PageWriter(std::move(impl));
}

Result<std::vector<uint8_t>> PageWriter::checkColumns(std::string_view table,
                                                      const std::vector<std::string_view>& names,
                                                      const std::vector<ValueKind>& kinds) {
  const Impl::Table* t = impl_->table(table);
  if (!t) return impl_->fail("no table " + std::string(table));
  if (!t->why.empty()) return impl_->fail("table " + t->name + " is " + t->why);
  if (t->columns.size() != names.size()) {
    return impl_->fail("table " + t->name + " has " + std::to_string(t->columns.size()) +
                       " columns after id, the rows " + std::to_string(names.size()));
  }
  std::vector<uint8_t> not_null;
  for (size_t i = 0; i < names.size(); ++i) {
    const Impl::Column& column = t->columns[i];
    if (column.name != names[i]) {
      return impl_->fail("table " + t->name + " column " + std::to_string(i + 2) + " is " +
                         column.name + ", the rows' " + std::string(names[i]));
    }
    if (!storedUnchanged(kinds[i], column.affinity)) {
      return impl_->fail(t->name + "." + column.name + ": its SQL type would convert the values");
    }
    not_null.push_back(column.not_null);
  }
  return not_null;
}

Result<std::vector<size_t>> PageWriter::indexedColumns(std::string_view table,
                                                       const std::vector<std::string_view>& names,
                                                       const std::vector<ValueKind>& kinds) {
  const Impl::Table* t = impl_->table(table);
  std::vector<size_t> columns;
  for (const Impl::Index& index : t->indexes) {
    if (!index.why.empty()) return impl_->fail("index " + index.name + " is " + index.why);
    const auto at = std::find(names.begin(), names.end(), index.column);
    if (at == names.end() || kinds[size_t(at - names.begin())] != ValueKind::kInteger) {
      return impl_->fail("index " + index.name + " is not on an integer column");
    }
    columns.push_back(size_t(at - names.begin()));
  }
  return columns;
}

Status PageWriter::beginRows(std::string_view table) {
  Impl::Table* t = impl_->table(table);
  DAMSCOPE_ASSIGN_OR_RETURN(bool empty, impl_->emptyLeaf(t->root, kTableLeaf));
  if (!empty || t->filled) return impl_->fail("table " + t->name + " is not empty");
  t->filled = true;
  Impl::LeafStream& s = impl_->stream;
  s.table = t;
  s.rows = 0;
  s.error = okStatus();
  if (!s.leaf) s.leaf.emplace(impl_->page_size, impl_->usable, kTableLeaf);
  s.leaf->reset(kTableLeaf);
  return okStatus();
}

void PageWriter::addRow(const RecordEncoder& record) {
  impl_->addRow(record);
}

Status PageWriter::endRows(const std::vector<IntegerColumn>& index_keys) {
  Impl::Table* t = impl_->stream.table;
  impl_->endTable(t->root);
  DAMSCOPE_RETURN_IF_ERROR(impl_->stream.error);
  if (impl_->stream.rows == 0) return okStatus();
  for (size_t k = 0; k < t->indexes.size(); ++k) {
    DAMSCOPE_ASSIGN_OR_RETURN(bool index_empty, impl_->emptyLeaf(t->indexes[k].root, kIndexLeaf));
    if (!index_empty) return impl_->fail("index " + t->indexes[k].name + " is not empty");
    impl_->buildIndex(t->indexes[k].root, Impl::indexEntries(index_keys[k]));
  }
  return impl_->writeTail();
}

Status PageWriter::fillStrings(const StringPool& pool) {
  const std::vector<std::string_view> names{"value"};
  const std::vector<ValueKind> kinds{ValueKind::kText};
  if (auto columns = checkColumns("strings", names, kinds); !columns.ok()) return columns.error();
  if (auto indexed = indexedColumns("strings", names, kinds); !indexed.ok()) return indexed.error();
  DAMSCOPE_RETURN_IF_ERROR(beginRows("strings"));
  RecordEncoder record;
  for (size_t i = 0; i < pool.size(); ++i) {
    record.clear();
    record.addNull();
    // As the trace writer binds them: the pool's text as it is, "" included.
    record.addText(pool.get(StringId{static_cast<int32_t>(i)}));
    addRow(record);
  }
  return endRows({});
}

Status PageWriter::finish() {
  Impl& w = *impl_;
  if (w.roots.empty()) return okStatus();
  DAMSCOPE_RETURN_IF_ERROR(w.writeTail());
  for (const auto& [page, bytes] : w.roots) {
    DAMSCOPE_RETURN_IF_ERROR(w.writeAll(bytes.data(), bytes.size(), off_t(page - 1) * w.page_size));
  }
  w.roots.clear();
  uint8_t count[4];
  put32(count, w.next - 1);
  return w.writeAll(count, sizeof count, 28);
}

}  // namespace damscope
