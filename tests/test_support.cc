// Shared test helpers: see test_support.h.
#include "tests/test_support.h"

#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace damscope::testing {

std::string sharedTracesDir() {
  if (const char* env = std::getenv("DAMSCOPE_SHARED_TRACES")) return env;
  return std::string(DAMSCOPE_SOURCE_DIR) + "/../shared/traces";
}

bool haveSharedTraces() {
  return std::filesystem::is_directory(sharedTracesDir() + "/kineto");
}

std::string sharedTrace(const std::string& relative) {
  return sharedTracesDir() + "/" + relative;
}

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base ? base : "/tmp") + "/damscope-test-XXXXXX";
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void writeFile(const std::string& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void writeGzip(const std::string& path, std::string_view content, size_t keep_bytes) {
  z_stream zs{};
  deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, content.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(content.data()));
  zs.avail_in = static_cast<uInt>(content.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (keep_bytes > 0 && keep_bytes < out.size()) out.resize(keep_bytes);
  writeFile(path, out);
}

CommandResult runCommand(const std::string& command) {
  TempDir dir;
  const std::string out = dir.file("stdout"), err = dir.file("stderr");
  const int status = std::system((command + " >" + out + " 2>" + err).c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = readFile(out);
  result.err = readFile(err);
  return result;
}

std::string damscopeBinary() {
  return std::string(DAMSCOPE_BINARY_DIR) + "/cli/damscope";
}

std::string dataBoundKinetoTrace(int rank, int slow_us, int steps) {
  std::string events;
  for (int step = 0; step < steps; ++step) {
    const int t0 = step * (1000 + slow_us);
    const int c = step + 1;
    events += R"({"ph":"X","cat":"cpu_op","name":"ProfilerStep#)" + std::to_string(step + 1) +
              R"(","pid":1,"tid":1,"ts":)" + std::to_string(t0) + R"(,"dur":)" +
              std::to_string(1000 + slow_us) + "},";
    events +=
        R"({"ph":"X","cat":"user_annotation","name":"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__","pid":1,"tid":1,"ts":)" +
        std::to_string(t0) + R"(,"dur":)" + std::to_string(600 + slow_us) + "},";
    events += R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" +
              std::to_string(t0 + 610 + slow_us) + R"(,"dur":5,"args":{"correlation":)" +
              std::to_string(c) + "}},";
    events +=
        R"({"ph":"X","cat":"kernel","name":"volta_sgemm_128x64_nn","pid":0,"tid":7,"ts":)" +
        std::to_string(t0 + 620 + slow_us) + R"(,"dur":300,"args":{"correlation":)" +
        std::to_string(c) +
        R"(,"device":0,"stream":7,"grid":[160,1,1],"block":[256,1,1],"est. achieved occupancy %":50}},)";
  }
  events.pop_back();
  return R"({"traceEvents":[)" + events +
         R"(],"deviceProperties":[{"id":0,"name":"Test GPU","numSms":80,"totalGlobalMem":34084028416}],)" +
         R"("distributedInfo":{"rank":)" + std::to_string(rank) +
         R"(,"world_size":2,"backend":"nccl"}})";
}

std::string allReduceKinetoTrace(int rank, int world_size, int late_us, int steps) {
  std::string events;
  auto launch = [&](int ts, int correlation) {
    events += R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" +
              std::to_string(ts) + R"(,"dur":5,"args":{"correlation":)" +
              std::to_string(correlation) + "}},";
  };
  auto kernel = [&](const char* name, int ts, int dur, int correlation, int stream) {
    events += R"({"ph":"X","cat":"kernel","name":")" + std::string(name) +
              R"(","pid":0,"tid":7,"ts":)" + std::to_string(ts) + R"(,"dur":)" +
              std::to_string(dur) + R"(,"args":{"correlation":)" + std::to_string(correlation) +
              R"(,"device":0,"stream":)" + std::to_string(stream) + "}},";
  };
  for (int step = 0; step < steps; ++step) {
    const int t0 = 100 + step * (1000 + late_us);
    events += R"({"ph":"X","cat":"cpu_op","name":"ProfilerStep#)" + std::to_string(step + 1) +
              R"(","pid":1,"tid":1,"ts":)" + std::to_string(t0) + R"(,"dur":)" +
              std::to_string(1000 + late_us) + "},";
    launch(t0 + 10, 2 * step + 1);
    kernel("volta_sgemm_128x64_nn", t0 + 20, 500 + late_us, 2 * step + 1, 7);
    launch(t0 + 30 + late_us, 2 * step + 2);
    kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
           t0 + 540 + late_us, 400, 2 * step + 2, 9);
  }
  events.pop_back();
  return R"({"traceEvents":[)" + events +
         R"(],"deviceProperties":[{"id":0,"name":"Test GPU","numSms":80,"totalGlobalMem":34084028416}],)" +
         R"("distributedInfo":{"rank":)" + std::to_string(rank) + R"(,"world_size":)" +
         std::to_string(world_size) + R"(,"backend":"nccl"}})";
}

namespace {
// In JSON: "\n" and "\r" escaped, the format controls as raw UTF-8.
constexpr std::string_view kFormatControls =
    "\u202E\u2066x\u2069\u200B\uFEFF\U000E0001";

void replaceAll(std::string& text, std::string_view from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}
}  // namespace

std::string forgedNamesKinetoTrace(int rank, int slow_us) {
  std::string trace = dataBoundKinetoTrace(rank, slow_us);
  const std::string controls(kFormatControls);
  replaceAll(trace, "volta_sgemm_128x64_nn",
             "sgemm_fp32\\nVERDICT  COMPUTE-BOUND  (forged line)\\r" + controls);
  replaceAll(trace, "\"Test GPU\"", "\"A100\\nVERDICT  DATA-BOUND (forged)" + controls + "\"");
  replaceAll(trace, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
             "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__\\nVERDICT  RANGE "
             "(forged)" + controls);
  return trace;
}

size_t linesStartingWithVerdict(const std::string& out) {
  size_t n = 0;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) n += line.rfind("VERDICT", 0) == 0 ? 1 : 0;
  return n;
}

bool hasRawFormatControl(const std::string& out) {
  for (std::string_view control :
       {"\u202E", "\u2066", "\u2069", "\u200B", "\uFEFF", "\U000E0001", "\r"}) {
    if (out.find(control) != std::string::npos) return true;
  }
  return false;
}

}  // namespace damscope::testing
