// The command line: see flags.h. The flags are a table; parsing, the
// scenario's defaults and --help all read it.
#include "reference_workloads/gpt2/train/flags.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <sstream>

#include "reference_workloads/gpt2/model/config.h"
#include "reference_workloads/gpt2/train/scenarios.h"

namespace damscope::gpt2 {
namespace {

using Setter = std::function<Status(Options&, const std::string&)>;

struct Flag {
  std::string name;     // without "--"
  std::string metavar;  // empty for a switch
  std::string help;
  std::string default_text;
  Setter set;
  std::string range;  // a number's valid values, as --help shows them; empty otherwise
};

Error badValue(const std::string& flag, const std::string& value, const std::string& what) {
  return Error("--" + flag + ": '" + value + "' is not " + what);
}

template <typename T>
std::string numberText(T x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

// A number flag's valid values, both ends included: every size and duration
// has one, so that no value is taken that the run cannot honour (a batch
// cost of 1e308 ms, 100000 threads).
template <typename T>
struct Range {
  T min;
  T max;
  std::string text() const { return numberText(min) + " to " + numberText(max); }
};

template <typename Int>
Flag wholeNumber(std::string name, std::string metavar, std::string help, std::string default_text,
                 Int Options::*field, Range<Int> range) {
  Setter set = [field, name, range](Options& o, const std::string& v) -> Status {
    Int x{};
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (v.empty() || end != v.data() + v.size() ||
        (ec != std::errc() && ec != std::errc::result_out_of_range))
      return badValue(name, v, "a whole number");
    if (ec != std::errc() || x < range.min || x > range.max)
      return badValue(name, v, "a whole number from " + range.text());
    o.*field = x;
    return okStatus();
  };
  return {std::move(name),         std::move(metavar), std::move(help),
          std::move(default_text), std::move(set),     range.text()};
}

Flag realNumber(std::string name, std::string metavar, std::string help, double Options::*field,
                Range<double> range) {
  const Options defaults;
  Setter set = [field, name, range](Options& o, const std::string& v) -> Status {
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || end != v.c_str() + v.size() || std::isnan(x))
      return badValue(name, v, "a number");
    if (!(x >= range.min && x <= range.max))
      return badValue(name, v, "a number from " + range.text());
    o.*field = x;
    return okStatus();
  };
  return {std::move(name), std::move(metavar), std::move(help), numberText(defaults.*field),
          std::move(set),  range.text()};
}

Flag text(std::string name, std::string metavar, std::string help, std::string default_text,
          std::string Options::*field) {
  Setter set = [field, name](Options& o, const std::string& v) -> Status {
    if (v.empty()) return Error("--" + name + ": the value is empty");
    o.*field = v;
    return okStatus();
  };
  return {std::move(name),         std::move(metavar), std::move(help),
          std::move(default_text), std::move(set),     ""};
}

Flag onSwitch(std::string name, std::string help, bool Options::*field) {
  Setter set = [field](Options& o, const std::string&) -> Status {
    o.*field = true;
    return okStatus();
  };
  std::string default_text = name == "help" ? "" : "off";
  return {std::move(name), "", std::move(help), std::move(default_text), std::move(set), ""};
}

std::string configNames() {
  std::string names;
  for (const ConfigPreset& p : configPresets()) names += (names.empty() ? "" : "|") + p.config.name;
  return names;
}

std::string scenarioNames() {
  std::string names;
  for (const Scenario& s : scenarios()) names += (names.empty() ? "" : "|") + s.name;
  return names;
}

// The ranges. A run holds its batches, its threads and its buckets in
// memory and its durations are spent as CPU work, so each bound keeps a run
// finite and within one node:
//   steps, warmup: 10^7, far past any reference run (llm.c's GPT-2 124M
//     reproduction trains 19,073 steps);
//   batch, seq: 65536 each; the config's context and the memory estimate
//     bound them further (trainer.cc);
//   lr: 1e-9 (no weight moves in fp32) to 10 (AdamW diverges at once);
//   loader-workers, prefetch, threads: 1024, more than the cores of any one
//     node today (the CPU backend's threads are OpenMP's; at 100000 the
//     runtime crashed);
//   batch-cost-ms, straggler-ms, checkpoint-ms: one minute per batch or step;
//   checkpoint-every: 0 (never) to the steps' bound;
//   bucket-mb: 1 KB to 1 GB (PyTorch DDP's default is 25 MB);
//   straggler-rank: -1 (none) to 65535; the job's size bounds it further.
constexpr Range<int> kStepsRange{1, 10'000'000};
constexpr Range<int> kShapeRange{1, 65536};
constexpr Range<int> kThreadsRange{1, 1024};
constexpr Range<double> kMillisecondsRange{0, 60'000};

const std::vector<Flag>& flags() {
  static const std::vector<Flag> table = [] {
    const Options d;
    std::vector<Flag> f = {
        text("device", "cpu|cuda",
             "Backend: cpu (OpenBLAS, OpenMP) or cuda (cuBLASLt, own kernels)", d.device,
             &Options::device),
        text("config", configNames(), "Model preset (listed below)", d.config, &Options::config),
        wholeNumber("steps", "N", "Training steps of the run (a resumed run continues up to N)",
                    std::to_string(d.steps), &Options::steps, kStepsRange),
        wholeNumber("batch", "B", "Sequences per step", std::to_string(d.batch), &Options::batch,
                    kShapeRange),
        wholeNumber("seq", "T", "Tokens per sequence, at most the config's context",
                    "the config's context", &Options::seq, kShapeRange),
        realNumber("lr", "RATE", "Peak learning rate", &Options::lr, Range<double>{1e-9, 10}),
        wholeNumber("warmup", "STEPS", "Linear warm-up steps", std::to_string(d.warmup),
                    &Options::warmup, Range<int>{0, kStepsRange.max}),
        text("lr-schedule", "constant|cosine",
             "Rate after warm-up: constant, or cosine decay to 10% at the last step", d.lr_schedule,
             &Options::lr_schedule),
        wholeNumber("seed", "N", "Seed of the initialisation and of the data",
                    std::to_string(d.seed), &Options::seed,
                    Range<uint64_t>{0, std::numeric_limits<uint64_t>::max()}),
        text("data", "FILE",
             "Train on the bytes of FILE (byte-level tokens; a regular file of at most 1 GiB)",
             "a synthetic stream from the seed", &Options::data),
        wholeNumber("loader-workers", "N",
                    "Loader threads; 0 makes each batch on the training thread",
                    std::to_string(d.loader_workers), &Options::loader_workers,
                    Range<int>{0, kThreadsRange.max}),
        wholeNumber("prefetch", "N",
                    "Batches the loader makes ahead; 0: a batch is made only when the trainer asks",
                    std::to_string(d.prefetch), &Options::prefetch,
                    Range<int>{0, kThreadsRange.max}),
        realNumber("batch-cost-ms", "MS",
                   "CPU work per batch in the loader (computation, not sleep), in milliseconds",
                   &Options::batch_cost_ms, kMillisecondsRange),
        text("scenario", scenarioNames(), "A named set of defaults (listed below)", d.scenario,
             &Options::scenario),
        text("log-json", "FILE", "Write one JSON line per step to FILE", "none",
             &Options::log_json),
        text("save", "FILE", "Write a checkpoint to FILE after the last step", "none",
             &Options::save),
        text("load", "FILE", "Resume from a checkpoint written by --save", "none", &Options::load),
        wholeNumber("threads", "N", "Compute threads (OpenMP; OpenBLAS runs inside them)",
                    "all cores", &Options::threads, kThreadsRange),
        onSwitch("pad-vocab", "Pad the vocabulary to a multiple of 128 (50257 -> 50304)",
                 &Options::pad_vocab),
        onSwitch("print-ops", "Print one step's op annotations (JSON lines) and exit",
                 &Options::print_ops),
        text("precision", "fp32|tf32|bf16",
             "GEMM precision (cuda); fp32 master weights and optimizer state either way",
             d.precision, &Options::precision),
        text("attention", "naive|fused",
             "Attention: naive materialises the B x H x T x T scores, fused tiles them (cuda only; "
             "on tensor cores with --precision bf16 and head size 64)",
             "cpu naive, cuda fused", &Options::attention),
        onSwitch("cuda-graph", "Capture forward and backward in a CUDA graph, replayed every step",
                 &Options::cuda_graph),
        onSwitch("cold-start",
                 "Skip the warm-up pass (one forward and backward before the first step, cuda), "
                 "so that step 1 pays the one-time costs: kernel loading, cuBLASLt plans, scratch "
                 "allocations",
                 &Options::cold_start),
        onSwitch("pageable-copies",
                 "Copy the batch from pageable host memory (cudaMemcpy) instead of pinned memory "
                 "on a copy stream",
                 &Options::pageable_copies),
        onSwitch("sync-every-op", "Wait for the GPU after every op (cudaStreamSynchronize)",
                 &Options::sync_every_op),
        realNumber("bucket-mb", "MB", "Data parallel: gradients all-reduced together, in megabytes",
                   &Options::bucket_mb, Range<double>{0.001, 1000}),
        onSwitch("overlap",
                 "Data parallel: start each bucket's all-reduce during the backward pass",
                 &Options::overlap),
        wholeNumber("straggler-rank", "R",
                    "Data parallel: rank R is slowed by --straggler-ms per step", "none",
                    &Options::straggler_rank, Range<int>{-1, 65535}),
        realNumber("straggler-ms", "MS",
                   "CPU work the straggler rank adds to every step, in milliseconds",
                   &Options::straggler_ms, kMillisecondsRange),
        wholeNumber("checkpoint-every", "N",
                    "Write a checkpoint of the model to a scratch file every N steps", "never",
                    &Options::checkpoint_every, Range<int>{0, 10'000'000}),
        realNumber("checkpoint-ms", "MS",
                   "The least time each --checkpoint-every write holds the training thread "
                   "(the rest of it sleeping, as on slow storage), in milliseconds",
                   &Options::checkpoint_ms, kMillisecondsRange),
        onSwitch("help", "Show this help and exit", &Options::help),
    };
    return f;
  }();
  return table;
}

const Flag* findFlag(const std::string& name) {
  for (const Flag& f : flags()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

}  // namespace

Result<Options> parseFlags(const std::vector<std::string>& args) {
  // Pass 1: which flags, with which values; nothing applied yet.
  std::vector<std::pair<const Flag*, std::string>> given;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) {
      return Error("unexpected argument '" + arg + "' (flags start with --; see --help)");
    }
    std::string name = arg.substr(2), value;
    const size_t eq = name.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    const Flag* flag = findFlag(name);
    if (!flag) return Error("unknown flag --" + name + " (see --help)");
    if (flag->metavar.empty()) {
      if (inline_value) return Error("--" + name + " takes no value");
    } else if (!inline_value) {
      if (i + 1 >= args.size())
        return Error("--" + name + " needs a value (" + flag->metavar + ")");
      value = args[++i];
    }
    given.emplace_back(flag, value);
  }

  Options o;
  for (const auto& [flag, value] : given) {
    o.explicit_flags.insert(flag->name);
    if (flag->name == "help") o.help = true;
    if (flag->name == "scenario" || flag->name == "device") {
      DAMSCOPE_RETURN_IF_ERROR(flag->set(o, value));
    }
  }
  if (o.help) return o;
  const Scenario* scenario = findScenario(o.scenario);
  if (!scenario) {
    return Error("unknown scenario '" + o.scenario + "' (expected one of: " + scenarioNames() +
                 ")");
  }
  // Pass 2: the scenario's defaults for the device, then the explicit flags over them.
  const std::vector<std::pair<std::string, std::string>>* settings =
      scenario->settingsFor(o.device);
  if (!settings) {
    return Error("scenario " + scenario->name + " is for --device " +
                 (scenario->cpu ? std::string("cpu") : std::string("cuda")) + " (got --device " +
                 o.device + ")");
  }
  for (const auto& [name, value] : *settings) {
    const Flag* flag = findFlag(name);
    if (!flag) return Error("scenario " + scenario->name + " sets unknown flag --" + name);
    if (!o.isExplicit(name)) DAMSCOPE_RETURN_IF_ERROR(flag->set(o, value));
  }
  for (const auto& [flag, value] : given) DAMSCOPE_RETURN_IF_ERROR(flag->set(o, value));
  return o;
}

std::string helpText() {
  std::ostringstream out;
  out << "gpt2-train: GPT-2 training with NVTX annotations, the reference workload of damscope\n"
         "\n"
         "Usage: gpt2-train [--scenario NAME] [--config NAME] [FLAGS...]\n"
         "\n"
         "Flags (default in brackets):\n";
  for (const Flag& f : flags()) {
    std::string left = "  --" + f.name + (f.metavar.empty() ? "" : " " + f.metavar);
    if (left.size() < 34)
      left.resize(34, ' ');
    else
      left += "\n" + std::string(34, ' ');
    out << left << f.help;
    if (!f.range.empty()) out << "; " << f.range;
    if (!f.default_text.empty()) out << " [" << f.default_text << "]";
    out << "\n";
  }
  out << "\nScenarios (--scenario NAME sets these defaults; explicit flags override them):\n";
  for (const Scenario& s : scenarios()) {
    out << "  " << s.name << ": " << s.reproduces;
    if (s.min_ranks > 1) out << " (" << s.min_ranks << "+ ranks)";
    out << "\n";
    for (const auto& [device, settings] : {std::pair{"cpu", &s.cpu}, std::pair{"cuda", &s.cuda}}) {
      if (!*settings) continue;
      out << "    " << device << ":";
      if ((*settings)->empty()) out << " (the defaults above)";
      for (const auto& [flag, value] : **settings) {
        out << " --" << flag << (value.empty() ? "" : " ") << value;
      }
      out << "\n";
    }
  }
  out << "\nConfigs (layers / d_model / heads / context / vocabulary):\n";
  for (const ConfigPreset& p : configPresets()) {
    const ModelConfig& c = p.config;
    std::string left = "  " + c.name;
    left.resize(10, ' ');
    out << left << c.layers << " / " << c.d_model << " / " << c.heads << " / " << c.max_seq << " / "
        << c.vocab << "  " << p.description << " (" << parameterCount(c) << " parameters)\n";
  }
  out << "\nOutput: a header (machine, measured peak FLOP/s and bandwidth, model), then one line\n"
         "per step on stdout: step k/N | loss | step time | tokens/s | MFU. Errors: one line\n"
         "on stderr, exit status 2. In a data-parallel job rank 0 prints; tokens/s counts every\n"
         "rank's tokens.\n"
         "\nData parallel: one process per rank, started by mpirun (cpu: MPI; `mpirun -np 2\n"
         "gpt2-train ...`, as root add --allow-run-as-root) or by torchrun-style RANK, "
         "WORLD_SIZE,\n"
         "LOCAL_RANK, MASTER_ADDR, MASTER_PORT (cuda: NCCL; mpirun works too).\n"
         "\nEnvironment: OMP_WAIT_POLICY=passive makes idle OpenMP threads sleep at once\n"
         "instead of spinning first (the runtime's default, fastest on a dedicated machine);\n"
         "use it when other work keeps the cores busy (load average above the core count).\n"
         "NVTX_INJECTION64_PATH: an NVTX tool (damscope record sets it) that receives the\n"
         "annotations.\n";
  return out.str();
}

}  // namespace damscope::gpt2
