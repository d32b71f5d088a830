-- The damscope trace store, schema version 1. One SQLite file per process (rank).
-- docs/trace-format.md documents every table and column; trace/tables.h declares
-- the same columns for the in-memory tables (a test checks that they agree).
--
-- Conventions: `id` is the row's position (0-based) in its table and the target
-- of every `*_id` column that names a damscope table (thread_id, parent_id,
-- kernel_id, range_id, process_id). `device` and `stream` are the numbers
-- CUDA/HIP gives; `correlation_id` is CUPTI's launch correlation; `external_id`
-- the framework's (PyTorch "External id"). Times are int64 ns on one clock per
-- file (meta.clock says which). NULL means unknown. Names are interned in
-- `strings`; columns of type string_id hold a strings.id.

CREATE TABLE meta (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  value TEXT
);

CREATE TABLE strings (
  id INTEGER PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE stats (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  value INTEGER NOT NULL,
  description TEXT
);

CREATE TABLE processes (
  id INTEGER PRIMARY KEY,
  pid INTEGER,
  name INTEGER,             -- string_id
  hostname INTEGER,         -- string_id
  rank INTEGER,
  local_rank INTEGER,
  world_size INTEGER,
  comm_backend INTEGER,     -- string_id: nccl, gloo, rccl, mpi
  cmdline TEXT
);

CREATE TABLE threads (
  id INTEGER PRIMARY KEY,
  process_id INTEGER,       -- processes.id
  tid INTEGER,
  name INTEGER              -- string_id
);

CREATE TABLE devices (
  id INTEGER PRIMARY KEY,
  device INTEGER NOT NULL,  -- CUDA/HIP ordinal, as events refer to it
  kind TEXT NOT NULL,       -- gpu | cpu
  vendor INTEGER,           -- string_id: nvidia, amd, cpu
  name INTEGER,             -- string_id
  sm_count INTEGER,
  memory_bytes INTEGER,
  memory_bandwidth_bytes_per_s REAL,
  sm_clock_hz INTEGER,
  compute_major INTEGER,
  compute_minor INTEGER,
  warp_size INTEGER,
  max_threads_per_block INTEGER,
  max_threads_per_sm INTEGER,
  max_blocks_per_sm INTEGER,
  registers_per_block INTEGER,
  registers_per_sm INTEGER,
  shared_memory_per_block_bytes INTEGER,
  shared_memory_per_sm_bytes INTEGER,
  l2_cache_bytes INTEGER,
  uuid INTEGER,             -- string_id
  bus_location INTEGER      -- string_id
);

CREATE TABLE kernels (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  device INTEGER,
  stream INTEGER,
  correlation_id INTEGER,
  external_id INTEGER,
  name INTEGER,             -- string_id
  grid_x INTEGER,
  grid_y INTEGER,
  grid_z INTEGER,
  block_x INTEGER,
  block_y INTEGER,
  block_z INTEGER,
  registers_per_thread INTEGER,
  shared_memory_bytes INTEGER,   -- static + dynamic, per block
  graph_id INTEGER,
  graph_node_id INTEGER,
  occupancy_pct REAL,            -- estimated achieved occupancy reported by the source
  args TEXT                      -- JSON object: source arguments without a column
);

CREATE TABLE memcpys (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  device INTEGER,
  stream INTEGER,
  correlation_id INTEGER,
  external_id INTEGER,
  copy_kind TEXT NOT NULL,  -- HtoD, DtoH, DtoD, HtoH, PtoP, ... (CUpti_ActivityMemcpyKind)
  src_kind TEXT NOT NULL,   -- pageable, pinned, device, managed, ... (CUpti_ActivityMemoryKind)
  dst_kind TEXT NOT NULL,
  bytes INTEGER,
  src_device INTEGER,
  dst_device INTEGER,
  graph_node_id INTEGER
);

CREATE TABLE memsets (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  device INTEGER,
  stream INTEGER,
  correlation_id INTEGER,
  external_id INTEGER,
  memory_kind TEXT NOT NULL,
  bytes INTEGER,
  value INTEGER,
  graph_node_id INTEGER
);

CREATE TABLE api_calls (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  thread_id INTEGER,        -- threads.id
  api TEXT NOT NULL,        -- runtime | driver
  name INTEGER,             -- string_id
  correlation_id INTEGER,
  external_id INTEGER,
  cbid INTEGER,
  return_code INTEGER
);

CREATE TABLE ranges (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  thread_id INTEGER,        -- threads.id, for host ranges
  device INTEGER,           -- for GPU-side ranges (gpu_user_annotation, cuda_profiler_range)
  stream INTEGER,
  category INTEGER,         -- string_id: nvtx, nvtx_mark, cpu_op, user_annotation, ...
  domain INTEGER,           -- string_id: NVTX domain
  name INTEGER,             -- string_id
  depth INTEGER,
  parent_id INTEGER,        -- ranges.id of the enclosing range on the same thread/stream
  external_id INTEGER,
  correlation_id INTEGER,
  args TEXT                 -- JSON object: arguments, NVTX payload
);

CREATE TABLE syncs (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  thread_id INTEGER,
  device INTEGER,
  stream INTEGER,
  kind TEXT NOT NULL,       -- event_synchronize | stream_wait_event | stream_synchronize | context_synchronize | unknown
  correlation_id INTEGER,
  external_id INTEGER,
  event_id INTEGER
);

CREATE TABLE counters (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  name INTEGER,             -- string_id
  value REAL,
  device INTEGER,
  thread_id INTEGER
);

CREATE TABLE kernel_metrics (
  id INTEGER PRIMARY KEY,
  kernel_id INTEGER,        -- kernels.id
  range_id INTEGER,         -- ranges.id, when the metric belongs to a profiled range
  flops REAL,
  dram_bytes REAL,
  source TEXT NOT NULL      -- measured | annotated | estimated
);

-- Where events were lost (the stats count them): added after schema version 1
-- went out, so a file without this table reads as one without spans.
CREATE TABLE lost_spans (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  stat TEXT NOT NULL,       -- stats.name: the count these events are part of
  events INTEGER NOT NULL
);

-- @indexes: created after bulk loads (an import creates them once, at the end).
-- None on ts: every event table is stored in (ts, -dur) order, so id order is
-- time order (docs/trace-format.md), and damscope reads whole tables in id
-- order; an index on ts served no reader and cost a third of an import's
-- store. The two below join a kernel and its launching call in plain SQL.
CREATE INDEX kernels_by_correlation ON kernels(correlation_id);
CREATE INDEX api_calls_by_correlation ON api_calls(correlation_id);
