// One capture window's trace file: see capture_writer.h.
#include "collector/capture_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "trace/sqlite_db.h"

namespace damscope::collector {
namespace {

// Claims `path` for this process: creating it with O_EXCL fails if any other
// process (another rank, an earlier run) has it. SQLite treats the empty file
// as a new database.
Status claimFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return Error(path + ": cannot create trace file: " + std::strerror(errno));
  ::close(fd);
  return okStatus();
}

void removeFile(const std::string& path) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix, ec);
}

}  // namespace

Result<std::unique_ptr<CaptureWriter>> CaptureWriter::create(const CaptureFileOptions& options) {
  DAMSCOPE_RETURN_IF_ERROR(claimFile(options.path));
  auto open = [&]() -> Result<std::unique_ptr<CaptureWriter>> {
    DAMSCOPE_ASSIGN_OR_RETURN(Database db,
                              Database::open(options.path, Database::Mode::kReadWriteCreate));
    if (options.max_file_bytes > 0) {
      // SQLite's default page is 4096 bytes; past max_page_count pages an
      // insert fails with SQLITE_FULL, the same error a full disk gives.
      const int64_t pages = std::max<int64_t>(options.max_file_bytes / 4096, 32);
      DAMSCOPE_RETURN_IF_ERROR(db.exec("PRAGMA max_page_count=" + std::to_string(pages) + ";"));
    }
    DAMSCOPE_ASSIGN_OR_RETURN(
        TraceWriter writer,
        // No indexes while recording: their upkeep halves the insert rate
        // (bench/collector_bench); the finalizer adds them (trace_finalizer.h).
        TraceWriter::create(std::move(db), {WriterOptions::Mode::kStreaming, false}));
    std::unique_ptr<CaptureWriter> capture(new CaptureWriter(options.path, std::move(writer)));
    TraceTables& t = capture->batch_;
    const ProcessInfo& p = options.process;
    ProcessTable::Row row;
    row.pid = p.pid;
    if (!p.name.empty()) row.name = t.strings.intern(p.name);
    if (!p.hostname.empty()) row.hostname = t.strings.intern(p.hostname);
    row.rank = p.rank;
    row.local_rank = p.local_rank;
    row.world_size = p.world_size;
    row.cmdline = p.cmdline;
    t.processes.append(row);
    DAMSCOPE_RETURN_IF_ERROR(capture->commit());
    // The first write shows whether the file can be written at all.
    DAMSCOPE_RETURN_IF_ERROR(capture->store_->flush());
    return capture;
  };
  auto capture = open();
  if (!capture.ok()) removeFile(options.path);
  return capture;
}

CaptureWriter::CaptureWriter(std::string path, TraceWriter writer)
    : path_(std::move(path)), store_(std::make_unique<BatchStore>(std::move(writer))) {
  batch_.forEachTable([&](const auto&) { written_.push_back(0); });
}

CaptureWriter::~CaptureWriter() = default;

void CaptureWriter::update(std::string_view table, std::string_view column, int64_t id,
                           int64_t value) {
  updates_.push_back({table, column, id, value});
}

int64_t CaptureWriter::threadId(int64_t tid) {
  auto [it, added] = thread_rows_.try_emplace(tid, 0);
  if (added) {
    it->second = nextId(batch_.threads);
    const std::string name = namer_ ? namer_(tid) : std::string();
    batch_.threads.append({0, tid, name.empty() ? kNoString : intern(name)});
    thread_named_[tid] = !name.empty();
  }
  return it->second;
}

void CaptureWriter::nameThread(int64_t tid, std::string_view name, bool only_if_unnamed) {
  if (name.empty()) return;
  const int64_t id = threadId(tid);
  bool& named = thread_named_[tid];
  if (named && only_if_unnamed) return;
  named = true;
  const StringId name_id = intern(name);
  if (inBatch(batch_.threads, id)) {
    batch_.threads.name[batchIndex(batch_.threads, id)] = name_id;
  } else {
    update(ThreadTable::kSqlName, "name", id, name_id.value);
  }
}

size_t CaptureWriter::pendingRows() const {
  return batch_.kernels.size() + batch_.memcpys.size() + batch_.memsets.size() +
         batch_.api_calls.size() + batch_.ranges.size() + batch_.syncs.size() +
         batch_.counters.size() + batch_.threads.size() + batch_.devices.size();
}

int64_t CaptureWriter::discardPendingRows() {
  const auto rows = static_cast<int64_t>(pendingRows());
  TraceTables dropped;
  moveBatchTables(batch_, dropped);
  // Where events were lost stays: it is what the file says about this loss.
  batch_.lost_spans = std::move(dropped.lost_spans);
  updates_.clear();
  return rows;
}

int64_t CaptureWriter::fileBytes() const {
  int64_t bytes = 0;
  for (const char* suffix : {"", "-wal"}) {
    struct stat st;
    if (::stat((path_ + suffix).c_str(), &st) == 0) bytes += st.st_size;
  }
  return bytes;
}

Status CaptureWriter::commit() {
  if (!failure_.ok()) return failure_;
  if (finished_) return Error(path_ + ": commit after finish");
  BatchStore::Job job;
  for (size_t id = strings_handed_; id < batch_.strings.size(); ++id) {
    job.new_strings.emplace_back(batch_.strings.get(StringId{static_cast<int32_t>(id)}));
  }
  strings_handed_ = batch_.strings.size();
  size_t index = 0;
  batch_.forEachTable([&](const auto& table) {
    using Table = std::decay_t<decltype(table)>;
    // Meta and stats are keyed by name and re-written with every commit.
    if constexpr (!std::is_same_v<Table, MetaTable> && !std::is_same_v<Table, StatTable>) {
      written_[index] += static_cast<int64_t>(table.size());
    }
    ++index;
  });
  moveBatchTables(batch_, job.tables);
  job.updates = std::move(updates_);
  updates_.clear();
  if (Status status = store_->submit(std::move(job)); !status.ok()) {
    failure_ = status;
    return status;
  }
  return okStatus();
}

Status CaptureWriter::finish() {
  DAMSCOPE_RETURN_IF_ERROR(commit());
  finished_ = true;
  if (Status status = store_->finish(); !status.ok()) {
    failure_ = status;
    return status;
  }
  return okStatus();
}

}  // namespace damscope::collector
