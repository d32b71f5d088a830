// The fuzz targets' shared assertions: see fuzz_checks.h.
#include "fuzz/fuzz_checks.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <type_traits>

#include "analyzer/analyses/cpu_device_work.h"
#include "analyzer/analyses/rank_analysis.h"
#include "trace/sqlite_db.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

namespace damscope::fuzz {

void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
  std::abort();
}

void checkEventTimesHold(const TraceTables& tables) {
  tables.forEachTable([&](const auto& table) {
    if constexpr (requires { table.ts; }) {
      for (size_t i = 0; i < table.size(); ++i) {
        const std::string where = std::string(table.kSqlName) + " row " + std::to_string(i);
        const int64_t ts = table.ts[i];
        if (isNull(ts) || !isTraceTime(ts)) fail(where + ": ts " + std::to_string(ts));
        if constexpr (requires { table.dur; }) {
          const int64_t dur = table.dur[i];
          if (isNull(dur) || dur < 0 || dur >= kTimeLimitNs || !isTraceTime(ts + dur)) {
            fail(where + ": dur " + std::to_string(dur));
          }
        }
      }
    }
  });
}

void checkAcceptedTrace(const TraceTables& tables) {
  auto memory = Database::open(":memory:", Database::Mode::kReadWriteCreate);
  if (!memory.ok()) fail("open :memory: " + memory.error().message());
  auto writer = TraceWriter::create(std::move(memory.value()));
  if (!writer.ok()) fail("create writer: " + writer.error().message());
  if (Status s = writer->append(tables); !s.ok()) {
    fail("the store refuses an accepted trace: " + s.error().message());
  }
  auto db = writer->finishAndRelease();
  if (!db.ok()) fail("finish: " + db.error().message());
  auto read = readTrace(db.value());
  if (!read.ok()) fail("the reader refuses an accepted trace: " + read.error().message());
  checkEventTimesHold(read.value());
  deriveCpuDeviceWork(read.value());  // as the pipeline does after every read
  auto analysis = analyzeRank(read.value(), AnalysisOptions{});
  if (!analysis.ok()) fail("analysis fails: " + analysis.error().message());
}

namespace {

std::map<std::string, std::string>& inputFiles() {
  static std::map<std::string, std::string> paths;
  return paths;
}

// libFuzzer ends with exit(), which runs this: no file outlives the run.
void removeInputFiles() {
  for (const auto& [name, path] : inputFiles()) ::unlink(path.c_str());
}

}  // namespace

std::string tablesText(const TraceTables& tables) {
  std::ostringstream out;
  out.precision(17);
  tables.forEachTable([&](const auto& table) {
    table.forEachColumn([&](const char* name, const auto& values) {
      out << '\n' << name << ':';
      for (const auto& v : values) {
        using Value = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<Value, StringId>) {
          out << ' ' << (v.valid() ? tables.strings.get(v) : "<null>");
        } else if constexpr (std::is_enum_v<Value>) {
          out << ' ' << static_cast<int>(v);
        } else {
          out << ' ' << v;
        }
      }
    });
  });
  return out.str();
}

std::string writeInputFile(const std::string& name, const uint8_t* data, size_t size) {
  std::string& path = inputFiles()[name];
  if (path.empty()) {
    if (inputFiles().size() == 1) std::atexit(removeInputFiles);
    const char* tmp = std::getenv("TMPDIR");
    path = std::string(tmp && *tmp ? tmp : "/tmp") + "/damscope-fuzz-" +
           std::to_string(::getpid()) + "-" + name;
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) fail("cannot write " + path);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n <= 0) fail("cannot write " + path);
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  return path;
}

}  // namespace damscope::fuzz
