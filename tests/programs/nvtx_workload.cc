// A small CPU program that annotates itself with NVTX the way a training
// script does (steps, data loading, forward with per-op FLOP annotations, the
// damscope model annotation, registered strings, categories, payloads, wide
// strings, thread names, a start/end range that ends on another thread). It
// needs no GPU: the collector tests record it with `damscope record`, attach
// to it, kill it, fork it, and check every annotation in the trace.
//
// Usage: nvtx_workload [--steps N] [--step-ms MS] [--busy] [--until-file F]
//          [--pid-file F] [--exit-code C] [--echo] [--signal NAME] [--fork]
//          [--call-cuda-injection] [--burst N] [--paced-burst N] [--long-message BYTES]
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

namespace {

struct Options {
  int steps = 3;
  int step_ms = 20;
  bool busy = false;
  std::string until_file;
  std::string pid_file;
  int exit_code = 0;
  bool echo = false;
  std::string signal_name;
  bool fork_child = false;
  bool call_cuda_injection = false;
  long burst = 0;
  long paced_burst = 0;
  size_t long_message = 0;
};

void work(int ms, bool busy) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  if (!busy) {
    std::this_thread::sleep_until(end);
    return;
  }
  volatile double x = 1;
  while (std::chrono::steady_clock::now() < end) x = x * 1.0000001 + 1e-9;
}

nvtxEventAttributes_t attributes(const char* message) {
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = message;
  return a;
}

bool exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (arg == "--steps")
      o.steps = std::atoi(next().c_str());
    else if (arg == "--step-ms")
      o.step_ms = std::atoi(next().c_str());
    else if (arg == "--busy")
      o.busy = true;
    else if (arg == "--until-file")
      o.until_file = next();
    else if (arg == "--pid-file")
      o.pid_file = next();
    else if (arg == "--exit-code")
      o.exit_code = std::atoi(next().c_str());
    else if (arg == "--echo")
      o.echo = true;
    else if (arg == "--signal")
      o.signal_name = next();
    else if (arg == "--fork")
      o.fork_child = true;
    else if (arg == "--call-cuda-injection")
      o.call_cuda_injection = true;
    else if (arg == "--burst")
      o.burst = std::atol(next().c_str());
    else if (arg == "--paced-burst")
      o.paced_burst = std::atol(next().c_str());
    else if (arg == "--long-message")
      o.long_message = std::strtoul(next().c_str(), nullptr, 10);
    else {
      std::fprintf(stderr, "nvtx_workload: unknown argument %s\n", arg.c_str());
      return 64;
    }
  }

  // Naming, as a trainer does at start-up.
  nvtxNameOsThreadA(static_cast<uint32_t>(syscall(SYS_gettid)), "trainer-main");
  nvtxDomainHandle_t damscope = nvtxDomainCreateA("damscope");
  nvtxDomainNameCategoryA(damscope, 7, "forward-ops");
  nvtxStringHandle_t registered = nvtxDomainRegisterStringA(damscope, "registered_op");

  if (!o.pid_file.empty()) {
    std::ofstream(o.pid_file + ".tmp") << getpid() << "\n";
    std::rename((o.pid_file + ".tmp").c_str(), o.pid_file.c_str());
  }
  if (o.call_cuda_injection) {
    // What the CUDA driver does inside cuInit when CUDA_INJECTION64_PATH is set.
    if (const char* path = std::getenv("CUDA_INJECTION64_PATH")) {
      if (void* lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD)) {
        using Init = int (*)();
        if (auto init = reinterpret_cast<Init>(dlsym(lib, "InitializeInjection"))) {
          std::printf("InitializeInjection returned %d\n", init());
        }
      }
    }
  }

  // The model annotation: one mark in domain "damscope" whose message is JSON.
  const char* model =
      R"({"model":"gpt2","params":124439808,"layers":12,"d_model":768,"heads":12,)"
      R"("seq_len":1024,"vocab":50257,"tokens_per_step":524288,"precision":"bf16"})";
  nvtxEventAttributes_t model_mark = attributes(model);
  nvtxDomainMarkEx(damscope, &model_mark);
  if (o.long_message > 0) {
    std::string long_json = "{\"blob\":\"" + std::string(o.long_message, 'x') + "\"}";
    nvtxEventAttributes_t long_mark = attributes(long_json.c_str());
    nvtxDomainMarkEx(damscope, &long_mark);
  }

  // A start/end range that another thread ends (an async copy finishing).
  const nvtxRangeId_t io = nvtxRangeStartA("async_io");
  std::thread io_thread([io] {
    nvtxNameOsThreadA(static_cast<uint32_t>(syscall(SYS_gettid)), "io-worker");
    nvtxRangePushA("io_wait");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    nvtxRangePop();
    nvtxRangeEnd(io);
  });
  io_thread.join();

  for (int step = 0; o.until_file.empty() ? step < o.steps : !exists(o.until_file); ++step) {
    nvtxEventAttributes_t s = attributes("step");
    s.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    s.payload.ullValue = static_cast<uint64_t>(step);
    s.colorType = NVTX_COLOR_ARGB;
    s.color = 0xFF76B900;
    nvtxRangePushEx(&s);

    nvtxRangePushA("data");
    work(o.step_ms / 4, o.busy);
    nvtxRangePop();

    nvtxRangePushW(L"forward \u2713");
    nvtxEventAttributes_t op =
        attributes(R"({"op":"attn_fwd","flops":1073741824,"bytes":8388608})");
    op.category = 7;
    op.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
    op.payload.dValue = 0.5;
    nvtxDomainRangePushEx(damscope, &op);
    work(o.step_ms / 2, o.busy);
    nvtxDomainRangePop(damscope);
    nvtxEventAttributes_t reg{};
    reg.version = NVTX_VERSION;
    reg.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    reg.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    reg.message.registered = registered;
    reg.payloadType = NVTX_PAYLOAD_TYPE_INT32;
    reg.payload.iValue = -3;
    nvtxDomainRangePushEx(damscope, &reg);
    nvtxDomainRangePop(damscope);
    nvtxRangePop();  // forward

    if (step == 1) nvtxMarkA("checkpoint");
    work(o.step_ms / 4, o.busy);
    nvtxRangePop();  // step
  }

  for (long i = 0; i < o.burst; ++i) {
    nvtxRangePushA("burst");
    nvtxRangePop();
  }
  // The same, paced so that the writer keeps up: chunks of 1000 pairs, 2 ms apart.
  for (long i = 0; i < o.paced_burst; ++i) {
    nvtxRangePushA("paced");
    nvtxRangePop();
    if (i % 1000 == 999) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }

  if (o.fork_child) {
    const pid_t child = fork();
    if (child == 0) {
      nvtxRangePushA("in_child");
      nvtxRangePop();
      _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    std::printf("child exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }

  if (o.echo) {
    std::string line;
    while (std::getline(std::cin, line)) std::cout << "echo: " << line << "\n";
  }
  std::cout << "workload done" << std::endl;

  if (!o.signal_name.empty()) {
    const int sig = o.signal_name == "INT" ? SIGINT : o.signal_name == "KILL" ? SIGKILL : SIGTERM;
    // Keep annotating while the signal is being handled: the program must
    // keep running normally until it dies.
    nvtxRangePushA("dying");
    kill(getpid(), sig);
    for (int i = 0; i < 200; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::fprintf(stderr, "nvtx_workload: still alive after signal\n");
    return 99;
  }
  return o.exit_code;
}
