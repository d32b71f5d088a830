-- The damscope analysis tables, layout version 2: what `damscope analyze` stores
-- beside the events of a run.db (trace/schema.sql). trace/analysis_tables.h
-- declares the same columns for the in-memory tables (a test checks that they
-- agree); docs/analysis.md documents every table, column and vocabulary. They
-- are the stored form of the analyzer's result model
-- (analyzer/result/analysis_result.h), read back whole by `readStoredResult`.
--
-- Conventions: `id` is the row's position (0-based). `step_id` is a steps.id,
-- NULL for figures about the whole analysis window. Columns ending in `_id`
-- that name event tables hold that table's id (kernels.id, ranges.id, ...).
-- Times are int64 ns on the trace's clock; `*_pct` are percentages (0..100).
-- NULL means unknown. Storing results replaces all of these tables in one
-- transaction; the event tables are never touched.

CREATE TABLE summary (
  id INTEGER PRIMARY KEY,
  source TEXT,              -- the input the trace came from
  rank INTEGER,
  world_size INTEGER,       -- ranks in the job, as the trace says
  device INTEGER,           -- the primary device (most kernel time)
  device_name TEXT,
  device_kind TEXT,         -- gpu | cpu (a CPU run: the ops of the workload are the device's work)
  verdict TEXT NOT NULL,    -- data-bound | host-bound | communication-bound | memory-bound | compute-bound | none
  verdict_may_be_off INTEGER NOT NULL,  -- 1: so many events were lost that the verdict may be wrong
  starved_threshold_pct REAL,   -- stall share from which the GPU counts as starved
  scorecard_device INTEGER, -- the device the scorecard is about
  window_mode TEXT NOT NULL,    -- hta | all
  window_cut INTEGER NOT NULL,  -- 1: HTA's cut of the last step was applied
  window_cutoff_ns INTEGER, -- CPU events start before this
  window_gpu_ops INTEGER NOT NULL,
  window_gpu_start_ns INTEGER,
  window_gpu_end_ns INTEGER,
  window_start_ns INTEGER,  -- the analysed time range
  window_end_ns INTEGER,
  first_step INTEGER NOT NULL,      -- steps [first_step, first_step + steps_analysed) are analysed
  steps_analysed INTEGER NOT NULL,
  avg_step_ns REAL,         -- mean duration of the analysed steps
  step_source TEXT NOT NULL,    -- profiler_step | trainer | annotation | none
  tokens_per_step REAL,
  samples_per_step REAL,
  throughput_source TEXT,   -- options | model annotation
  kernels INTEGER NOT NULL, -- kernels in the window
  kernel_ns INTEGER NOT NULL,   -- their summed durations
  fp32_matrix_ns INTEGER NOT NULL,
  tensor_core_ns INTEGER NOT NULL,
  matrix_ns INTEGER NOT NULL,
  launched_kernels INTEGER NOT NULL,
  kernels_with_launch INTEGER NOT NULL,
  shorter_than_launch INTEGER NOT NULL,
  shorter_than_threshold INTEGER NOT NULL,
  runtime_outliers INTEGER NOT NULL,
  launch_delay_outliers INTEGER NOT NULL,
  utilization_steps INTEGER NOT NULL,   -- 0: utilization over the whole span
  overview_steps INTEGER NOT NULL,
  overview_whole_span INTEGER NOT NULL,
  overview_avg_step_ns REAL,
  overview_kernel_ns REAL,
  overview_memcpy_ns REAL,
  overview_memset_ns REAL,
  overview_runtime_ns REAL,
  overview_dataloader_ns REAL,
  overview_cpu_exec_ns REAL,
  overview_other_ns REAL,
  events INTEGER NOT NULL,          -- events stored in the trace
  lost_events INTEGER NOT NULL,     -- lost on the way in (stats)
  repaired_events INTEGER NOT NULL,
  clipped_events INTEGER NOT NULL,
  mfu_flops_source TEXT NOT NULL,   -- none | user_model | model_annotation | profiler_ops
  model TEXT,               -- the model MFU counts FLOPs of
  model_params REAL,
  model_layers INTEGER,
  model_d_model INTEGER,
  model_heads INTEGER,
  model_seq_len INTEGER,
  model_vocab INTEGER,
  flops_per_token REAL,     -- training FLOPs per token: 6 N (+ 6 L d T)
  precision TEXT NOT NULL,  -- the precision the peak is taken at: fp64 | fp32 | tf32 | fp16 | bf16 | fp8
  precision_source TEXT NOT NULL,   -- user | model_annotation | kernel_names | default
  precision_share_pct REAL, -- kernel_names: its share of the matrix kernels' time
  peak_source TEXT NOT NULL,        -- none | user | user_device | model_annotation | trace_device
  peak_device TEXT,         -- what the peak is of, and how it was matched
  peak_flops_per_s REAL,
  bandwidth_bytes_per_s REAL,
  model_flops_per_step REAL,
  achieved_flops_per_s REAL,
  mfu_pct REAL,             -- NULL when unknown or impossible
  mfu_impossible_pct REAL,  -- the MFU the inputs imply, when above 100 (an input is wrong)
  mfu_likely_wrong TEXT,    -- which input, then
  hardware_flops_per_step REAL,
  hfu_pct REAL,
  roofline_kernels INTEGER NOT NULL,    -- window kernels with FLOPs or bytes
  roofline_time_pct REAL,   -- their share of window kernel time
  measured_kernels INTEGER NOT NULL,    -- kernels whose work was measured
  annotated_kernels INTEGER NOT NULL,   -- ... annotated by the workload
  estimated_kernels INTEGER NOT NULL,   -- ... estimated from shapes
  memory_estimated INTEGER NOT NULL,    -- 1: the memory_* columns hold an estimate
  memory_state_bytes REAL,  -- weights, gradients, optimizer state
  memory_activation_bytes REAL,
  memory_total_bytes REAL,
  memory_device_bytes REAL,
  memory_pct REAL,          -- total of the device's memory
  memory_micro_batch INTEGER,
  memory_micro_batch_from_tokens INTEGER,   -- 1: tokens per step / sequence length
  memory_ranks INTEGER,     -- data-parallel ranks the ZeRO figures shard over
  memory_zero1_bytes REAL,  -- training state per GPU with ZeRO stage 1
  memory_zero2_bytes REAL,
  memory_zero3_bytes REAL
);

CREATE TABLE steps (
  id INTEGER PRIMARY KEY,
  number INTEGER NOT NULL,  -- N of ProfilerStep#N, else the step's ordinal
  name TEXT,
  range_id INTEGER,         -- ranges.id of the step range
  host_ts INTEGER NOT NULL, -- the host range
  host_dur INTEGER NOT NULL,
  ts INTEGER NOT NULL,      -- aligned to the GPU work the step launched
  dur INTEGER NOT NULL,
  in_window INTEGER NOT NULL,  -- 1: analysed by the analysis window
  complete INTEGER NOT NULL,   -- 0: the profiler probably cut its GPU work off
  gpu_launches INTEGER NOT NULL,  -- launch calls inside the step that ran GPU work
  tokens_per_s REAL,
  samples_per_s REAL
);

CREATE TABLE breakdown (
  id INTEGER PRIMARY KEY,
  step_id INTEGER,          -- NULL: the analysis window (HTA's definition)
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,     -- span: first GPU start to last GPU end (window), or the step
  idle_ns INTEGER NOT NULL,
  compute_ns INTEGER NOT NULL,
  non_compute_ns INTEGER NOT NULL,
  communication_ns INTEGER NOT NULL,
  exposed_communication_ns INTEGER NOT NULL,
  overlap_ns INTEGER NOT NULL,
  memory_ns INTEGER NOT NULL,   -- union of memcpys and memsets
  idle_pct REAL,
  compute_pct REAL,
  non_compute_pct REAL,
  overlap_pct REAL          -- NULL without communication
);

CREATE TABLE gaps (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  device INTEGER NOT NULL,
  stream INTEGER,           -- NULL: the whole device was idle
  step_id INTEGER,
  in_window INTEGER NOT NULL,   -- 1: inside the analysis window
  cause TEXT NOT NULL,      -- data_loading | host_launch | synchronization | communication_wait | other
  data_loading_ns INTEGER NOT NULL,
  host_launch_ns INTEGER NOT NULL,
  synchronization_ns INTEGER NOT NULL,
  communication_wait_ns INTEGER NOT NULL,
  other_ns INTEGER NOT NULL,
  hta_category TEXT,        -- host_wait | kernel_wait | other (stream gaps, HTA); NULL for device gaps
  next_table TEXT,          -- kernels | memcpys | memsets | syncs: the operation after the gap
  next_id INTEGER,
  launch_call_id INTEGER,   -- api_calls.id that launched it
  evidence_table TEXT,      -- ranges | api_calls | kernels | memcpys | memsets | syncs; NULL: none
  evidence_id INTEGER
);

CREATE TABLE kernel_categories (
  id INTEGER PRIMARY KEY,
  category TEXT NOT NULL,   -- gemm | convolution | attention | normalization | elementwise | reduction | optimizer | communication | memory | other
  bound TEXT NOT NULL,      -- compute | memory | communication
  kernels INTEGER NOT NULL,
  total_ns INTEGER NOT NULL,
  pct REAL                  -- of all kernel time in the window
);

CREATE TABLE top_kernels (
  id INTEGER PRIMARY KEY,
  name TEXT,
  category TEXT NOT NULL,
  kernels INTEGER NOT NULL,
  total_ns INTEGER NOT NULL,
  mean_ns INTEGER NOT NULL,
  min_ns INTEGER NOT NULL,
  max_ns INTEGER NOT NULL,
  pct REAL,                 -- of all kernel time in the window
  example_kernel_id INTEGER -- kernels.id of its longest run
);

CREATE TABLE launch_stats (
  id INTEGER PRIMARY KEY,
  metric TEXT NOT NULL,     -- launch_delay_ns | launch_cost_ns | kernel_duration_ns
  count INTEGER NOT NULL,
  mean REAL,
  p50 REAL,
  p90 REAL,
  p99 REAL,
  max REAL
);

CREATE TABLE launch_queues (
  id INTEGER PRIMARY KEY,
  device INTEGER NOT NULL,
  stream INTEGER NOT NULL,
  operations INTEGER NOT NULL,  -- GPU operations on the stream
  count INTEGER NOT NULL,   -- depth samples
  mean REAL,                -- depth, time-weighted
  p50 REAL,
  p90 REAL,
  p99 REAL,
  max REAL,
  empty_pct REAL            -- share of the stream's span with nothing queued
);

CREATE TABLE device_utilization (
  id INTEGER PRIMARY KEY,
  device INTEGER NOT NULL,
  ts INTEGER NOT NULL,      -- the range the figures are over
  dur INTEGER NOT NULL,
  kernel_ns INTEGER NOT NULL,   -- union of kernels inside the range
  gpu_util_pct REAL,
  sm_efficiency_pct REAL,   -- NULL: unknown (no grid sizes or SM count)
  occupancy_pct REAL,       -- NULL: unknown (the trace reports none)
  kernels_without_grid INTEGER NOT NULL,
  kernels_with_occupancy INTEGER NOT NULL,
  primary_device INTEGER NOT NULL  -- 1: the device the headline figures are about
);

CREATE TABLE scorecard (
  id INTEGER PRIMARY KEY,
  step_id INTEGER,          -- NULL: the run (every analysed step)
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,     -- the time the axes split
  verdict TEXT NOT NULL,
  deciding_axis TEXT NOT NULL,  -- the axis the verdict rests on
  data_stall_ns INTEGER NOT NULL,
  host_stall_ns INTEGER NOT NULL,
  sync_stall_ns INTEGER NOT NULL,
  exposed_communication_ns INTEGER NOT NULL,
  memory_bound_ns INTEGER NOT NULL,
  compute_bound_ns INTEGER NOT NULL,
  other_idle_ns INTEGER NOT NULL,
  data_stall_pct REAL,
  host_stall_pct REAL,
  sync_stall_pct REAL,
  exposed_communication_pct REAL,
  memory_bound_pct REAL,
  compute_bound_pct REAL,
  other_idle_pct REAL
);

CREATE TABLE findings (
  id INTEGER PRIMARY KEY,
  rule TEXT NOT NULL,
  kind TEXT NOT NULL,       -- performance | trace_quality
  severity TEXT NOT NULL,   -- high | medium | low
  title TEXT NOT NULL,
  metric TEXT NOT NULL,
  value REAL,
  threshold REAL,
  recommendation TEXT NOT NULL,
  max_gain_pct REAL         -- NULL: no bound can be stated
);

CREATE TABLE finding_evidence (
  id INTEGER PRIMARY KEY,
  finding_id INTEGER NOT NULL,  -- findings.id
  event_table TEXT NOT NULL,    -- gaps | kernels | ranges | memcpys | api_calls | counters | stats
  event_id INTEGER NOT NULL,
  ts INTEGER,
  dur INTEGER,
  label TEXT                -- the event's name; the stat's name
);

CREATE TABLE metrics (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,       -- see docs/analysis.md, "Findings"
  value REAL
);

CREATE TABLE data_loss (
  id INTEGER PRIMARY KEY,
  stats_id INTEGER NOT NULL,    -- stats.id
  stat TEXT NOT NULL,
  kind TEXT NOT NULL,       -- lost | repaired | clipped
  events INTEGER NOT NULL
);

CREATE TABLE analysis_notes (
  id INTEGER PRIMARY KEY,
  analysis TEXT,
  message TEXT,
  remedy TEXT               -- device | model | tokens: what the user can supply
);

CREATE TABLE rank_comparison (
  id INTEGER PRIMARY KEY,
  rank INTEGER,
  source TEXT,
  steps INTEGER NOT NULL,
  median_step_ns INTEGER NOT NULL,
  slower_than_median_pct REAL,
  straggler INTEGER NOT NULL,
  collectives INTEGER NOT NULL,
  median_start_skew_ns INTEGER NOT NULL,
  max_start_skew_ns INTEGER NOT NULL,
  last_to_start_pct REAL,   -- share of collectives this rank entered last
  this_rank INTEGER NOT NULL    -- 1: the rank of this file
);

CREATE TABLE mfu_steps (
  id INTEGER PRIMARY KEY,
  step_id INTEGER NOT NULL,
  model_flops REAL,
  mfu_pct REAL,
  hardware_flops REAL,
  hfu_pct REAL
);

CREATE TABLE roofline (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,       -- kernel | class
  name TEXT,                -- the kernel's name, or the class
  category TEXT NOT NULL,
  precision TEXT NOT NULL,
  source TEXT NOT NULL,     -- measured | annotated | estimated (the least trusted of its runs)
  kernels INTEGER NOT NULL,
  time_ns INTEGER NOT NULL,
  flops REAL,
  bytes REAL,
  intensity REAL,           -- FLOP/byte; NULL without bytes
  achieved_flops_per_s REAL,
  ceiling_flops_per_s REAL, -- min(peak, bandwidth x intensity)
  pct_of_ceiling REAL,
  memory_bound INTEGER,     -- 1: below the ridge; NULL: no intensity or ridge
  example_kernel_id INTEGER
);

CREATE TABLE roofline_ceilings (
  id INTEGER PRIMARY KEY,
  precision TEXT NOT NULL,
  peak_flops_per_s REAL,
  ridge_flops_per_byte REAL
);

CREATE TABLE collectives (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,       -- allreduce, allgather, ...
  kernels INTEGER NOT NULL,
  time_ns INTEGER NOT NULL,
  bus_bytes REAL,           -- NCCL bus bytes (nccl-tests PERFORMANCE.md)
  achieved_bytes_per_s REAL,
  link_bytes_per_s REAL,    -- the device's peer link, per direction
  pct_of_link REAL
);

CREATE TABLE collective_starts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,       -- the communication kernel's name
  ts INTEGER NOT NULL       -- its start; the rows are in time order
);

-- No index on gaps.ts: damscope reads the table whole, and building one cost
-- a quarter of storing a first analysis' results (issue 26).
CREATE INDEX finding_evidence_by_finding ON finding_evidence(finding_id);
