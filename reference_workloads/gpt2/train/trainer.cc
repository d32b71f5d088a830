// The training run: see trainer.h. The loop is llm.c's (train_gpt2.c main):
// get a batch, forward, backward, clip and update, print; each phase in its
// NVTX range (annotations.h).
#include "reference_workloads/gpt2/train/trainer.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <thread>
#include <vector>

#include "reference_workloads/gpt2/data/loader.h"
#include "reference_workloads/gpt2/data/token_source.h"
#include "reference_workloads/gpt2/dist/gradient_sync.h"
#include "reference_workloads/gpt2/dist/mpi_communicator.h"
#include "reference_workloads/gpt2/dist/rank_environment.h"
#include "reference_workloads/gpt2/model/gpt2_model.h"
#include "reference_workloads/gpt2/model/memory_estimate.h"
#include "reference_workloads/gpt2/model/model_flops.h"
#include "reference_workloads/gpt2/train/annotations.h"
#include "reference_workloads/gpt2/train/checkpoint.h"
#include "reference_workloads/gpt2/train/lr_schedule.h"
#include "reference_workloads/gpt2/train/scenarios.h"
#include "reference_workloads/gpt2/train/step_log.h"
#include "reference_workloads/gpt2/train/system_info.h"
#include "reference_workloads/gpt2/train/training_device.h"

#if DAMSCOPE_GPT2_NCCL
#include "reference_workloads/gpt2/dist/nccl_communicator.h"
#endif

namespace damscope::gpt2 {
namespace {

using Clock = std::chrono::steady_clock;

// What the options resolve to, before anything big is allocated.
struct RunPlan {
  DeviceRequest device;
  RankEnvironment ranks;
  ModelConfig config;
  StepShape shape;
  uint64_t seed = 0;
  int threads = 1;
  LrSettings lr;
  int first_step = 0;
  int64_t first_batch = 0;
  bool resume = false;
  std::string checkpoint_data;  // the data the checkpoint was trained on
};

// A checkpoint's setting against an explicit flag: resuming exactly needs
// the same value.
template <typename T>
Status sameAsCheckpoint(const Options& o, const std::string& flag, const T& asked, const T& saved) {
  if (!o.isExplicit(flag) || asked == saved) return okStatus();
  return Error(o.load + ": the checkpoint was written with --" + flag + " " +
               std::to_string(saved) + "; resuming it needs the same (got " +
               std::to_string(asked) + ")");
}

bool sameShape(const ModelConfig& a, const ModelConfig& b) {
  return a.layers == b.layers && a.d_model == b.d_model && a.heads == b.heads &&
         a.max_seq == b.max_seq && a.vocab == b.vocab && a.padded_vocab == b.padded_vocab;
}

Result<RunPlan> planRun(const Options& o) {
  RunPlan p;
  p.device.device = o.device;
  p.device.precision = o.precision;
  p.device.attention = o.attention;
  p.device.pageable_copies = o.pageable_copies;
  p.device.sync_every_op = o.sync_every_op;
  DAMSCOPE_RETURN_IF_ERROR(checkDeviceRequest(p.device));
  if (o.cuda_graph && o.device != "cuda") return Error("--cuda-graph needs --device cuda");
  DAMSCOPE_ASSIGN_OR_RETURN(p.ranks,
                            rankEnvironment([](const char* name) { return std::getenv(name); }));
  p.device.cuda_device = p.ranks.local_rank;
  const Scenario* scenario = findScenario(o.scenario);
  if (scenario && p.ranks.world_size < scenario->min_ranks) {
    return Error("scenario " + o.scenario + " needs at least " +
                 std::to_string(scenario->min_ranks) +
                 " data-parallel ranks (e.g. mpirun -np 2 gpt2-train --scenario " + o.scenario +
                 "; as root add --allow-run-as-root)");
  }
  if (p.ranks.world_size > 1 && o.device == "cpu" && p.ranks.launcher != Launcher::kMpirun) {
    return Error("data parallel on the CPU runs under mpirun (MPI); this job was started by " +
                 std::string(launcherName(p.ranks.launcher)));
  }
  if (o.overlap && o.cuda_graph) {
    return Error(
        "--overlap and --cuda-graph: the graph holds the whole backward pass, so the "
        "all-reduce cannot start inside it; choose one");
  }
  if (o.straggler_rank >= p.ranks.world_size) {
    return Error("--straggler-rank " + std::to_string(o.straggler_rank) +
                 " is not a rank of this " + std::to_string(p.ranks.world_size) + "-rank job");
  }
  std::optional<CheckpointHeader> checkpoint;
  if (!o.load.empty()) {
    DAMSCOPE_ASSIGN_OR_RETURN(checkpoint, readCheckpointHeader(o.load));
    p.resume = true;
  }

  if (checkpoint && !o.isExplicit("config") && !o.isExplicit("pad-vocab")) {
    p.config = checkpoint->config;
  } else {
    DAMSCOPE_ASSIGN_OR_RETURN(p.config, findConfig(o.config, o.pad_vocab));
    if (checkpoint && !sameShape(p.config, checkpoint->config)) {
      return Error(
          o.load + ": the checkpoint is for config " + checkpoint->config.name +
          (checkpoint->config.padded_vocab != checkpoint->config.vocab ? " (padded)" : "") +
          ", this run asks for " + p.config.name + (o.pad_vocab ? " (padded)" : ""));
    }
  }

  int seq = o.seq == 0 ? p.config.max_seq : o.seq;
  int batch = o.batch;
  p.seed = o.seed;
  if (checkpoint) {
    DAMSCOPE_RETURN_IF_ERROR(sameAsCheckpoint(o, "batch", batch, checkpoint->batch));
    DAMSCOPE_RETURN_IF_ERROR(sameAsCheckpoint(o, "seq", seq, checkpoint->seq));
    DAMSCOPE_RETURN_IF_ERROR(sameAsCheckpoint(o, "seed", p.seed, checkpoint->seed));
    batch = checkpoint->batch;
    seq = checkpoint->seq;
    p.seed = checkpoint->seed;
    if (checkpoint->steps >= o.steps) {
      return Error(o.load + ": the checkpoint is at step " + std::to_string(checkpoint->steps) +
                   "; --steps " + std::to_string(o.steps) +
                   " leaves nothing to run (--steps counts the whole run)");
    }
    p.first_step = static_cast<int>(checkpoint->steps);
    p.first_batch = checkpoint->next_batch;
    p.checkpoint_data = checkpoint->data;
  }
  if (seq > p.config.max_seq) {
    return Error("--seq " + std::to_string(seq) + " exceeds config " + p.config.name +
                 "'s context of " + std::to_string(p.config.max_seq) + " tokens");
  }
  if (int64_t{batch} * seq > INT_MAX) return Error("--batch x --seq exceeds 2^31 tokens");
  p.shape = {batch, seq};

  DAMSCOPE_ASSIGN_OR_RETURN(p.lr.schedule, parseLrSchedule(o.lr_schedule));
  // The flags' ranges (flags.cc) hold the numbers that need no other
  // setting to be checked.
  p.lr.lr = static_cast<float>(o.lr);
  p.lr.warmup_steps = o.warmup;
  p.lr.total_steps = o.steps;
  // Ranks on one node share its cores.
  p.threads = o.threads > 0 ? o.threads
                            : std::max(1, availableCpus() / std::max(1, p.ranks.local_world_size));
  p.device.threads = p.threads;
  return p;
}

// The directory of a file to be written must exist and be writable now,
// rather than after an hour of training. An existing path must be a file
// that can be replaced, or where `device_ok` a character device (--log-json
// /dev/stdout; a checkpoint is renamed into place, never over a device): a
// directory cannot be written, and a FIFO blocks the writer until someone
// reads it.
Status checkWritable(const std::string& flag, const std::string& path, bool device_ok) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
      !(device_ok && S_ISCHR(st.st_mode))) {
    return Error("--" + flag + " " + path +
                 (S_ISDIR(st.st_mode) ? ": is a directory" : ": is not a regular file"));
  }
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  if (access(dir.c_str(), W_OK) != 0) {
    return Error("--" + flag + " " + path + ": the directory " + dir + " is not writable");
  }
  return okStatus();
}

// How the run's attention runs: the CUDA backend fuses it unless --attention
// naive; the CPU backend materialises it.
AttentionForm attentionForm(const DeviceRequest& d) {
  return d.device == "cuda" && d.attention != "naive" ? AttentionForm::kFused
                                                      : AttentionForm::kMaterialised;
}

void printOps(const RunPlan& p, std::ostream& out) {
  const size_t param_floats = ParameterLayout(p.config).total();
  for (const auto& [site, layer] : stepOrder(p.config)) {
    out << opMessage(site, layer, p.config, p.shape, param_floats, attentionForm(p.device)) << "\n";
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The communicator of a data-parallel job, or null for one rank.
Result<std::unique_ptr<Communicator>> openCommunicator(const RunPlan& p, TrainingDevice& device) {
  if (p.ranks.world_size == 1) return std::unique_ptr<Communicator>();
  std::unique_ptr<Communicator> comm;
  if (p.device.device == "cpu") {
    DAMSCOPE_ASSIGN_OR_RETURN(comm, createMpiCommunicator());
  } else {
#if DAMSCOPE_GPT2_NCCL
    DAMSCOPE_ASSIGN_OR_RETURN(
        comm, createNcclCommunicator(p.ranks, p.device.cuda_device, device.computeStream()));
#else
    (void)device;
    return Error("data parallel on --device cuda needs NCCL, and this build has none");
#endif
  }
  if (comm->size() != p.ranks.world_size || comm->rank() != p.ranks.rank) {
    return Error(std::string(comm->name()) + " sees rank " + std::to_string(comm->rank()) + " of " +
                 std::to_string(comm->size()) + ", the launcher said rank " +
                 std::to_string(p.ranks.rank) + " of " + std::to_string(p.ranks.world_size));
  }
  return comm;
}

// The warm-up pass: one forward and backward over a batch of token 0, the
// gradient all-reduce and the norm, before the first step and outside any
// step range (one `warm_up` range, no op ranges). A CUDA program's first
// pass pays one-time costs no later step pays: lazy kernel loading
// (CUDA_MODULE_LOADING=LAZY, the default since CUDA 12.2; CUDA C++
// Programming Guide, "Lazy Loading"), cuBLASLt's algorithm choice per GEMM
// shape, the first scratch allocations, NCCL's connection set-up. On an H100
// that was a ~100 ms gap in step 1 against steps of 1-6 ms in the small
// scenarios (docs/gpu-results.md, 2026-11-26), so it decided their verdicts.
// PyTorch's profiler skips such steps for the same reason
// (torch.profiler.schedule's wait and warmup). Nothing a step reads changes:
// backward overwrites every gradient and the optimizer is not stepped (its
// moments would move), so the losses equal a cold run's.
Status warmUp(const RunPlan& p, Gpt2Model& model, GradientSync* sync, TrainingDevice& device,
              Annotations& notes) {
  const std::vector<int32_t> tokens(size_t(p.shape.batch) * size_t(p.shape.seq), 0);
  notes.pushWarmUp();
  model.forward(tokens.data(), tokens.data());
  model.backward();
  if (sync) sync->finish();
  model.gradNorm();
  notes.pop();
  return device.status();
}

}  // namespace

int runTrainer(const Options& o, std::ostream& out, std::ostream& err) {
  auto fail = [&err](const Error& e) {
    err << "gpt2-train: " << e.message() << "\n";
    return kExitBadInput;
  };
  auto planned = planRun(o);
  if (!planned) return fail(planned.error());
  const RunPlan& p = *planned;
  const int world = p.ranks.world_size;
  const bool lead = p.ranks.rank == 0;  // rank 0 prints and logs
  auto failRank = [&](const Error& e) {
    return fail(world > 1 ? Error("rank " + std::to_string(p.ranks.rank) + ": " + e.message()) : e);
  };

  // Refuse what cannot fit before allocating any of it. Ranks on one node
  // share its memory on the CPU; each GPU has its own.
  const MemoryEstimate memory = estimateMemory(p.config, p.shape);
  auto available = deviceMemoryAvailable(p.device);
  if (!available) return fail(available.error());
  const uint64_t sharers = p.device.device == "cpu" ? uint64_t(p.ranks.local_world_size) : 1;
  if (*available && memory.total() * sharers > **available) {
    const bool gpu = p.device.device == "cuda";
    return fail(
        Error("config " + p.config.name + " with batch " + std::to_string(p.shape.batch) + " x " +
              std::to_string(p.shape.seq) + " tokens needs an estimated " + memory.describe() +
              (sharers > 1 ? " per rank, " + std::to_string(sharers) + " ranks on this node" : "") +
              ", more than the " + formatBytes(**available) +
              (gpu ? " free on GPU " + std::to_string(p.device.cuda_device)
                   : " available (MemAvailable)")));
  }
  if (o.print_ops) {
    printOps(p, out);
    return kExitOk;
  }

  TokenSource source = TokenSource::synthetic(p.seed);
  if (!o.data.empty()) {
    auto file = TokenSource::fromFile(o.data, int64_t{p.shape.seq} + 1);
    if (!file) return fail(file.error());
    source = std::move(*file);
  }
  if (p.resume && p.checkpoint_data != source.description()) {
    err << "gpt2-train: note: the checkpoint was trained on " << p.checkpoint_data
        << "; this run reads " << source.description() << "\n";
  }
  std::ofstream log;
  if (!o.log_json.empty() && lead) {
    if (Status s = checkWritable("log-json", o.log_json, /*device_ok=*/true); !s)
      return fail(s.error());
    log.open(o.log_json, std::ios::trunc);
    if (!log) return fail(Error("--log-json " + o.log_json + ": cannot write the file"));
  }
  if (!o.save.empty()) {
    if (Status s = checkWritable("save", o.save, /*device_ok=*/false); !s) return fail(s.error());
  }

  auto opened = openTrainingDevice(p.device);
  if (!opened) return failRank(opened.error());
  TrainingDevice& device = **opened;
  Backend& backend = device.backend();
  const DeviceFigures& figures = device.figures();
  auto created = Gpt2Model::create(p.config, p.shape, backend, p.seed);
  if (!created) return failRank(created.error());
  Gpt2Model& model = **created;
  if (p.resume) {
    if (Status s = loadCheckpointState(o.load, model); !s) return fail(s.error());
  }

  Annotations notes;
  notes.nameThisThread("train");
  notes.prepareOps(p.config, p.shape, model.layout().total(), attentionForm(p.device));

  // Data parallel: every rank starts from the same parameters (the same
  // seed), takes its own batches and averages its gradients with the others.
  auto communicator = openCommunicator(p, device);
  if (!communicator) return failRank(communicator.error());
  std::unique_ptr<Communicator> comm = std::move(*communicator);
  std::unique_ptr<GradientSync> sync;
  if (comm) {
    BucketPlan plan(p.config, static_cast<size_t>(o.bucket_mb * 1e6));
    std::vector<size_t> bucket_bytes;
    for (const GradientBucket& b : plan.buckets()) bucket_bytes.push_back(b.floats * sizeof(float));
    notes.prepareCollectives(bucket_bytes, world);
    auto made =
        GradientSync::create(backend, *comm, std::move(plan), o.overlap, model.gradientBuffer());
    if (!made) return failRank(made.error());
    sync = std::move(*made);
    if (o.overlap) model.setGradientListener(sync.get());
  }

  if (p.device.device == "cuda" && !o.cold_start) {
    if (Status s = warmUp(p, model, sync.get(), device, notes); !s) return failRank(s.error());
  }
  model.setTracer(notes.opTracer());
  if (comm) comm->setTracer(notes.collectiveTracer());

  ModelDescription description;
  description.config = &p.config;
  description.shape = p.shape;
  description.params = parameterCount(p.config);
  description.device_kind = figures.kind;
  description.device_name = figures.name;
  description.precision = p.device.device == "cuda" ? o.precision : "fp32";
  description.ranks = world;
  description.cores = figures.cores;
  description.peak_flops_per_s = figures.peak_flops_per_s;
  description.bandwidth_bytes_per_s = figures.bandwidth_bytes_per_s;
  notes.markModel(modelMessage(description));

  const int64_t tokens = int64_t{p.shape.batch} * p.shape.seq;
  const double flops_per_step = modelFlopsPerStep(p.config, p.shape);
  // MFU of one rank: its model FLOPs over its device's peak (every rank
  // does the same work); 0 when the peak is unknown.
  auto mfuPct = [&](double seconds) {
    return figures.peak_flops_per_s > 0
               ? 100.0 * flops_per_step / (figures.peak_flops_per_s * seconds)
               : 0.0;
  };
  char line[512];
  if (lead) {
    out << "gpt2-train | " << figures.description << "\n";
    const ModelConfig& c = p.config;
    out << "model gpt2 " << c.name << ": " << c.layers << " layers, d_model " << c.d_model << ", "
        << c.heads << " heads, vocab " << c.vocab;
    if (c.padded_vocab != c.vocab) out << " (padded " << c.padded_vocab << ")";
    std::snprintf(line, sizeof line, "%.3g", flops_per_step);
    out << " | " << withThousands(description.params) << " params | batch " << p.shape.batch
        << " x seq " << p.shape.seq << " = " << withThousands(tokens) << " tokens/step";
    if (world > 1) out << " per rank";
    out << " | " << line << " model FLOPs/step\n";
    if (sync) {
      std::snprintf(line, sizeof line, "%.3g", o.bucket_mb);
      out << "data parallel " << world << " ranks (" << launcherName(p.ranks.launcher) << ", "
          << comm->name() << ") | " << sync->plan().buckets().size()
          << " gradient buckets of <= " << line << " MB | all-reduce "
          << (o.overlap ? "overlapped with backward" : "after backward");
      if (o.straggler_rank >= 0 && o.straggler_ms > 0) {
        out << " | rank " << o.straggler_rank << " slowed by " << o.straggler_ms << " ms/step";
      }
      out << "\n";
    }
    if (o.checkpoint_every > 0) {
      out << "checkpoint every " << o.checkpoint_every << " steps to a scratch file, holding the "
          << "training thread at least " << o.checkpoint_ms << " ms\n";
    }
    out << "data " << source.description() << " | loader ";
    if (o.loader_workers == 0) {
      out << "inline on the training thread";
    } else {
      out << o.loader_workers << (o.loader_workers == 1 ? " worker" : " workers") << ", prefetch "
          << o.prefetch;
    }
    out << ", batch cost " << o.batch_cost_ms << " ms | lr " << p.lr.lr << " "
        << lrScheduleName(p.lr.schedule) << ", warm-up " << p.lr.warmup_steps << " | scenario "
        << o.scenario << "\n";
    out << "memory estimate " << memory.describe();
    if (*available) {
      out << " of " << formatBytes(**available)
          << (p.device.device == "cuda" ? " free on the GPU" : " available");
    }
    out << " | NVTX annotations "
        << (Annotations::compiledIn() ? "on (domain damscope)" : "compiled out");
    if (o.cuda_graph) out << " | CUDA graph of forward + backward";
    if (p.resume) out << " | resumed at step " << p.first_step << " from " << o.load;
    out << "\n" << std::flush;
  }

  BatchSpec spec;
  spec.batch = p.shape.batch;
  spec.seq = p.shape.seq;
  spec.seed = p.seed;
  spec.cost_ms = o.batch_cost_ms;
  LoaderOptions loader_options{o.loader_workers, o.prefetch};
  loader_options.stride = world;
  loader_options.offset = p.ranks.rank;
  Loader loader(source, spec, loader_options, p.first_batch,
                Annotations::compiledIn() ? &notes : nullptr);
  const OptimizerSettings optimizer;
  const bool straggler = o.straggler_rank == p.ranks.rank && o.straggler_ms > 0;
  // The model's state after the steps before `next_step`, as --save writes it.
  auto checkpointHeader = [&](int next_step) {
    CheckpointHeader h;
    h.config = p.config;
    h.steps = model.optimizerSteps();
    h.seed = p.seed;
    h.batch = p.shape.batch;
    h.seq = p.shape.seq;
    h.next_batch = p.first_batch + (next_step - p.first_step);
    h.data = source.description();
    return h;
  };
  // --checkpoint-every writes here, in the system's temporary folder, and
  // removes it at the end.
  const std::string scratch_checkpoint =
      o.checkpoint_every > 0 && lead ? (std::filesystem::temp_directory_path() /
                                        ("gpt2-train-" + std::to_string(getpid()) + ".ckpt"))
                                           .string()
                                     : std::string();
  Batch batch;
  std::vector<double> step_seconds;
  for (int step = p.first_step; step < o.steps; ++step) {
    const auto start = Clock::now();
    notes.pushStep(step);
    notes.push(Phase::kData);
    loader.next(batch);
    notes.pop();
    if (straggler) {
      // A slow rank: real CPU work, as a throttled or shared core would cost.
      notes.pushStragglerDelay();
      batch.work_digest ^= burnCpu(o.straggler_ms, batch.inputs);
      notes.pop();
    }
    float loss = 0;
    if (o.cuda_graph) {
      // The first step captures forward + backward; every step replays them
      // between the token upload and the loss read.
      model.setTokens(batch.inputs.data(), batch.targets.data());
      if (!device.hasGraph()) {
        Status captured = device.beginCapture();
        if (captured) {
          model.forwardOps();
          model.backward();
          captured = device.endCapture();
        }
        if (!captured) return failRank(captured.error());
      }
      notes.push(Phase::kForward);
      if (Status s = device.replay(); !s) return failRank(s.error());
      loss = model.readLoss();
      notes.pop();
      notes.push(Phase::kBackward);
    } else {
      notes.push(Phase::kForward);
      loss = model.forward(batch.inputs.data(), batch.targets.data());
      notes.pop();
      notes.push(Phase::kBackward);
      model.backward();
    }
    if (sync) sync->finish();
    notes.pop();
    notes.push(Phase::kOptimizer);
    const float norm = model.gradNorm();
    const float lr = learningRate(p.lr, step);
    model.optimizerStep(lr, norm, optimizer);
    notes.pop();
    if (o.checkpoint_every > 0 && (step + 1) % o.checkpoint_every == 0) {
      // A periodic checkpoint: written for real (by the lead rank), then the
      // thread is held for the rest of --checkpoint-ms, as slow storage would.
      notes.pushCheckpoint();
      const auto began = Clock::now();
      if (lead) {
        if (Status s = saveCheckpoint(scratch_checkpoint, checkpointHeader(step + 1), model); !s) {
          return failRank(s.error());
        }
      }
      std::this_thread::sleep_until(
          began + std::chrono::duration_cast<Clock::duration>(
                      std::chrono::duration<double, std::milli>(o.checkpoint_ms)));
      notes.pop();
    }
    notes.pop();  // step
    if (Status s = device.status(); !s) return failRank(s.error());
    if (comm) {
      if (Status s = comm->status(); !s) return failRank(s.error());
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    step_seconds.push_back(seconds);

    StepRecord r;
    r.step = step + 1;
    r.steps = o.steps;
    r.loss = loss;
    r.step_ms = seconds * 1e3;
    r.tokens_per_s = tokens * world / seconds;
    r.mfu_pct = mfuPct(seconds);
    r.lr = lr;
    r.grad_norm = norm;
    if (lead) {
      out << stepLine(r) << "\n" << std::flush;
      if (log.is_open()) log << stepJson(r) << "\n" << std::flush;
    }
  }
  backend.synchronize();

  // The first step pays for first-touch page faults and warm caches; the
  // summary is the median of the others.
  const size_t skip = step_seconds.size() > 1 ? 1 : 0;
  const double typical =
      median(std::vector<double>(step_seconds.begin() + skip, step_seconds.end()));
  if (lead) {
    std::snprintf(
        line, sizeof line, "done | median step %.1f ms (steps %d-%d) | %s tok/s | MFU %.1f%%\n",
        typical * 1e3, p.first_step + 1 + int(skip), o.steps,
        withThousands(static_cast<int64_t>(tokens * world / typical)).c_str(), mfuPct(typical));
    out << line;
  }

  if (!scratch_checkpoint.empty()) std::remove(scratch_checkpoint.c_str());
  if (!o.save.empty() && lead) {
    const CheckpointHeader h = checkpointHeader(o.steps);
    if (Status s = saveCheckpoint(o.save, h, model); !s) return fail(s.error());
    out << "saved " << o.save << " at step " << h.steps << "\n";
  }
  return kExitOk;
}

}  // namespace damscope::gpt2
