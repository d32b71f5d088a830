-- The damscope analysis tables, layout version 1: what `damscope analyze` stores
-- beside the events of a run.db (trace/schema.sql). trace/analysis_tables.h
-- declares the same columns for the in-memory tables (a test checks that they
-- agree); docs/analysis.md documents every table, column and vocabulary.
--
-- Conventions: `id` is the row's position (0-based). `step_id` is a steps.id,
-- NULL for figures about the whole analysis window. Columns ending in `_id`
-- that name event tables hold that table's id (kernels.id, ranges.id, ...).
-- Times are int64 ns on the trace's clock; `*_pct` are percentages (0..100).
-- Storing results replaces all of these tables in one transaction; the event
-- tables are never touched.

CREATE TABLE steps (
  id INTEGER PRIMARY KEY,
  number INTEGER,           -- N of ProfilerStep#N, else the step's ordinal
  name TEXT,
  source TEXT NOT NULL,     -- profiler_step | annotation | trainer
  range_id INTEGER,         -- ranges.id of the step range
  host_ts INTEGER NOT NULL, -- the host range
  host_dur INTEGER NOT NULL,
  ts INTEGER NOT NULL,      -- aligned to the GPU work the step launched
  dur INTEGER NOT NULL,
  in_window INTEGER NOT NULL,  -- 1: analysed by the default (HTA) window
  complete INTEGER NOT NULL,   -- 0: the profiler probably cut its GPU work off
  gpu_launches INTEGER,     -- launch calls inside the step that ran GPU work
  tokens REAL,
  samples REAL,
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
  device INTEGER,
  stream INTEGER,           -- NULL: the whole device was idle
  step_id INTEGER,
  cause TEXT NOT NULL,      -- data_loading | host_launch | synchronization | communication_wait | other
  data_loading_ns INTEGER NOT NULL,
  host_launch_ns INTEGER NOT NULL,
  synchronization_ns INTEGER NOT NULL,
  communication_wait_ns INTEGER NOT NULL,
  other_ns INTEGER NOT NULL,
  hta_category TEXT,        -- host_wait | kernel_wait | other (stream gaps, HTA)
  next_table TEXT,          -- kernels | memcpys | memsets: the operation after the gap
  next_id INTEGER,
  launch_call_id INTEGER,   -- api_calls.id that launched it
  evidence_table TEXT,      -- ranges | api_calls | kernels | syncs
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
  name TEXT NOT NULL,
  category TEXT NOT NULL,
  kernels INTEGER NOT NULL,
  total_ns INTEGER NOT NULL,
  mean_ns INTEGER,
  min_ns INTEGER,
  max_ns INTEGER,
  pct REAL,                 -- of all kernel time in the window
  example_kernel_id INTEGER -- kernels.id of its longest run
);

CREATE TABLE launch_stats (
  id INTEGER PRIMARY KEY,
  metric TEXT NOT NULL,     -- launch_delay_ns | launch_cost_ns | kernel_duration_ns | queue_depth
  device INTEGER,
  stream INTEGER,
  count INTEGER NOT NULL,
  mean REAL,
  p50 REAL,
  p90 REAL,
  p99 REAL,
  max REAL
);

CREATE TABLE scorecard (
  id INTEGER PRIMARY KEY,
  step_id INTEGER,          -- NULL: the run (every analysed step)
  axis TEXT NOT NULL,       -- data_stall | host_stall | sync_stall | exposed_communication | memory_bound | compute_bound | other_idle
  ns INTEGER NOT NULL,
  pct REAL,
  verdict TEXT              -- the step's (or run's) verdict, repeated on each axis row
);

CREATE TABLE findings (
  id INTEGER PRIMARY KEY,
  rule TEXT NOT NULL,
  severity TEXT NOT NULL,   -- high | medium | low
  title TEXT NOT NULL,
  metric TEXT,
  value REAL,
  threshold REAL,
  recommendation TEXT NOT NULL,
  max_gain_pct REAL,        -- NULL: no bound can be stated
  evidence TEXT             -- JSON object of event ids
);

CREATE TABLE summary (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  value REAL,
  text TEXT
);

CREATE TABLE analysis_notes (
  id INTEGER PRIMARY KEY,
  analysis TEXT NOT NULL,
  message TEXT NOT NULL
);

CREATE TABLE rank_comparison (
  id INTEGER PRIMARY KEY,
  rank INTEGER,
  source TEXT,
  steps INTEGER,
  median_step_ns INTEGER,
  slower_than_median_pct REAL,
  straggler INTEGER,
  collectives INTEGER,
  median_start_skew_ns INTEGER,
  max_start_skew_ns INTEGER,
  last_to_start_pct REAL    -- share of collectives this rank entered last
);

CREATE INDEX gaps_by_ts ON gaps(ts);
