PRAGMA page_size=512;
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE meta (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  value TEXT
);
INSERT INTO meta VALUES(1,'format','damscope-trace');
INSERT INTO meta VALUES(2,'schema_version','1');
INSERT INTO meta VALUES(3,'kineto_schema_version','1');
INSERT INTO meta VALUES(4,'kineto_trace_name','worker0.pt.trace.json');
INSERT INTO meta VALUES(5,'kineto_display_time_unit','ms');
INSERT INTO meta VALUES(6,'source_format','kineto');
INSERT INTO meta VALUES(7,'source_file','/tmp/tmp.LnZKlFmf3L/k.json');
INSERT INTO meta VALUES(8,'clock','realtime');
INSERT INTO meta VALUES(9,'kineto_base_time_ns','1700000000000000000');
INSERT INTO meta VALUES(10,'profiler_span_start_ns','1700000000000000000');
INSERT INTO meta VALUES(11,'profiler_span_end_ns','1700000000001000000');
CREATE TABLE strings (
  id INTEGER PRIMARY KEY,
  value TEXT NOT NULL
);
INSERT INTO strings VALUES(0,'cpu_op');
INSERT INTO strings VALUES(1,'ProfilerStep#1');
INSERT INTO strings VALUES(2,'aten::mm');
INSERT INTO strings VALUES(3,'cudaLaunchKernel');
INSERT INTO strings VALUES(4,'ampere_sgemm_128x64_nn');
INSERT INTO strings VALUES(5,'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)');
INSERT INTO strings VALUES(6,'gpu_user_annotation');
INSERT INTO strings VALUES(7,'forward');
INSERT INTO strings VALUES(8,'user_annotation');
INSERT INTO strings VALUES(9,'train_step');
INSERT INTO strings VALUES(10,'dataloader');
INSERT INTO strings VALUES(11,'enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__');
INSERT INTO strings VALUES(12,'cuda_profiler_range');
INSERT INTO strings VALUES(13,'range');
INSERT INTO strings VALUES(14,'memory_allocated_bytes');
INSERT INTO strings VALUES(15,'memory_reserved_bytes');
INSERT INTO strings VALUES(16,'nvidia');
INSERT INTO strings VALUES(17,'NVIDIA A100-SXM4-40GB');
INSERT INTO strings VALUES(18,'python');
INSERT INTO strings VALUES(19,'nccl');
INSERT INTO strings VALUES(20,'thread 1 (python)');
CREATE TABLE stats (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  value INTEGER NOT NULL,
  description TEXT
);
INSERT INTO stats VALUES(1,'kineto.events',21,'trace events read from traceEvents');
INSERT INTO stats VALUES(2,'kineto.instant_events',1,'instant events other than [memory] (iteration marks); not stored');
INSERT INTO stats VALUES(3,'kineto.unsupported_phase_events',1,'events of a phase Kineto does not write (B/E/C/...); not stored');
INSERT INTO stats VALUES(4,'kineto.flow_events',2,'flow arrows (ac2g launch links, fwdbwd); not stored: kernels link to their launch through the correlation argument');
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
INSERT INTO processes VALUES(0,1,18,NULL,0,NULL,2,19,NULL);
CREATE TABLE threads (
  id INTEGER PRIMARY KEY,
  process_id INTEGER,       -- processes.id
  tid INTEGER,
  name INTEGER              -- string_id
);
INSERT INTO threads VALUES(0,0,1,20);
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
INSERT INTO devices VALUES(0,0,'gpu',16,17,108,42505273344,NULL,NULL,8,0,32,1024,2048,NULL,65536,65536,49152,167936,NULL,NULL,NULL);
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
INSERT INTO kernels VALUES(0,1700000000000020000,300000,0,7,7,2,4,64,2,1,256,1,1,128,16384,NULL,NULL,25.0,NULL);
INSERT INTO kernels VALUES(1,1700000000000330000,100000,0,20,9,NULL,5,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
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
INSERT INTO memcpys VALUES(0,1700000000000500000,30000,0,7,8,NULL,'HtoD','pageable','device',4096,NULL,NULL,NULL);
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
INSERT INTO memsets VALUES(0,1700000000000540000,3000,0,7,10,NULL,'device',128,NULL,NULL);
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
INSERT INTO api_calls VALUES(0,1700000000000010000,5000,0,'runtime',3,7,2,211,NULL);
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
INSERT INTO ranges VALUES(0,1700000000000000000,1000000,0,NULL,NULL,0,NULL,1,0,NULL,1,NULL,NULL);
INSERT INTO ranges VALUES(1,1700000000000002000,990000,0,NULL,NULL,8,NULL,9,1,0,NULL,NULL,NULL);
INSERT INTO ranges VALUES(2,1700000000000005000,40000,0,NULL,NULL,0,NULL,2,2,1,2,NULL,'{"flops":2097152}');
INSERT INTO ranges VALUES(3,1700000000000020000,310000,NULL,0,7,6,NULL,7,0,NULL,NULL,NULL,NULL);
INSERT INTO ranges VALUES(4,1700000000000020000,300000,NULL,0,7,12,NULL,13,1,3,NULL,NULL,'{"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum":1000,"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum":10}');
INSERT INTO ranges VALUES(5,1700000000000600000,300000,0,NULL,NULL,10,NULL,11,2,1,NULL,NULL,NULL);
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
INSERT INTO syncs VALUES(0,1700000000000550000,20000,NULL,0,7,'stream_synchronize',11,NULL,NULL);
CREATE TABLE counters (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  name INTEGER,             -- string_id
  value REAL,
  device INTEGER,
  thread_id INTEGER
);
INSERT INTO counters VALUES(0,1700000000000015000,14,1048576.0,0,0);
INSERT INTO counters VALUES(1,1700000000000015000,15,2097152.0,0,0);
CREATE TABLE kernel_metrics (
  id INTEGER PRIMARY KEY,
  kernel_id INTEGER,        -- kernels.id
  range_id INTEGER,         -- ranges.id, when the metric belongs to a profiled range
  flops REAL,
  dram_bytes REAL,
  source TEXT NOT NULL      -- measured | annotated | estimated
);
INSERT INTO kernel_metrics VALUES(0,NULL,2,2097152.0,NULL,'estimated');
INSERT INTO kernel_metrics VALUES(1,NULL,4,2010.0,NULL,'measured');
CREATE INDEX kernels_by_ts ON kernels(ts);
CREATE INDEX kernels_by_correlation ON kernels(correlation_id);
CREATE INDEX memcpys_by_ts ON memcpys(ts);
CREATE INDEX memsets_by_ts ON memsets(ts);
CREATE INDEX api_calls_by_ts ON api_calls(ts);
CREATE INDEX api_calls_by_correlation ON api_calls(correlation_id);
CREATE INDEX ranges_by_ts ON ranges(ts);
CREATE INDEX syncs_by_ts ON syncs(ts);
CREATE INDEX counters_by_ts ON counters(ts);
COMMIT;
