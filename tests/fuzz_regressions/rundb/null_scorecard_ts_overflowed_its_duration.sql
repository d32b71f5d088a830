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
INSERT INTO meta VALUES(3,'kineto_schema_„ersion','1');
INSERT INTO meta VALUES(4,'source_format','kineto');
INSERT INTO meta VALUES(5,'source_file','/work/ci-clone/build-fuzz/slices/diff_test_v100.json');
INSERT INTO meta VALUES(6,'clock','realtime');
INSERT INTO meta VALUES(7,'profiler_span_start_ns','1661938466240491000');
INSERT INTO meta VALUES(8,'profiler_span_end_ns','1661938467010384000');
INSERT INTO meta VALUES(9,'analysis_options','damscope 0.1.0; window=hta; tokens_per_step=nan; samples_per_step=nan; thresholds=; model=; params=nan; layers=0; seq=0; d_model=0; heads=0; gpu=; peak_tflops=nan; peak_bw_gbs=nan; precision=');
INSERT INTO meta VALUES(10,'analysis_schema_version','5');
CREATE TABLE strings (
  id INTEGER PRIMARY KEY,
  value TEXT NOT NULL
);
INSERT INTO strings VALUES(0,'cpu_op');
INSERT INTO strings VALUES(1,'aten::zeros');
INSERT INTO strings VALUES(2,'aten::empty');
INSERT INTO strings VALUES(3,'user_annotation');
INSERT INTO strings VALUES(4,'ProfilerStep#1009');
INSERT INTO strings VALUES(5,'## metrics:publish ##');
INSERT INTO strings VALUES(6,'## zero_grad ##');
INSERT INTO strings VALUES(7,'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)');
INSERT INTO strings VALUES(8,'cudaEventQuery');
INSERT INTO strings VALUES(9,'nvidia');
INSERT INTO strings VALUES(10,'Tesla V100-SXM2-16GB');
INSERT INTO strings VALUES(11,'python3.8');
INSERT INTO strings VALUES(12,'nccl');
CREATE TABLE stats (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  value INTEGER NOT NULL,
  description TEXT
);
INSERT INTO stats VALUES(1,'kineto.events',30,'trace events read from traceEvents');
INSERT INTO stats VALUES(2,'kineto.instant_events',2,'instant events other than [memory] (iteration marks); not stored');
INSERT INTO stats VALUES(3,'kineto.flow_events',6,'flow arrows (ac2g launch links, fwdbwd); not stored: kernels link to their launch through the correlation argument');
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
INSERT INTO processes VALUES(0,2568503,11,NULL,1,NULL,2,12,NULL);
CREATE TABLE threads (
  id INTEGER PRIMARY KEY,
  process_id INTEGER,       -- processes.id
  tid INTEGER,
  name INTEGER              -- string_id
);
INSERT INTO threads VALUES(0,0,2568503,NULL);
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
INSERT INTO devices VALUES(0,0,'gpu',9,10,80,16945512448,NULL,NULL,7,0,32,1024,2048,NULL,65536,65536,49152,98304,NULL,NULL,NULL);
INSERT INTO devices VALUES(1,1,'gpu',9,10,80,16945512448,NULL,NULL,7,0,32,1024,2048,NULL,65536,65536,49152,98304,NULL,NULL,NULL);
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
INSERT INTO kernels VALUES(0,1661938466265584000,5000,1,7,1930734,1930734,7,110,1,1,128,1,1,20,0,NULL,NULL,9.0,NULL);
INSERT INTO kernels VALUES(1,1661938466265592000,5000,1,7,1930741,1930741,7,1,1,1,128,1,1,20,0,NULL,NULL,0.0,NULL);
INSERT INTO kernels VALUES(2,1661938466265600000,6000,1,7,1930748,1930748,7,98,1,1,128,1,1,20,0,NULL,NULL,8.0,NULL);
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
INSERT INTO memcpys VALUES(0,1661938466265125000,9000,1,7,1930403,1930403,'DtoD','device','device',1802240,NULL,NULL,NULL);
INSERT INTO memcpys VALUES(1,1661938466265140000,4000,1,7,1930412,1930412,'DtoF','device','device',768,NULL,NULL,NULL);
INSERT INTO memcpys VALUES(2,1661938466265149000,8000,1,7,1930421,1930421,'DtoD','device','device',1605632,NULL,NULL,NULL);
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
INSERT INTO memsets VALUES(0,1661938466276221000,11000,1,7,1932166,1932166,'device',16,NULL,NULL);
INSERT INTO memsets VALUES(1,1661938466277382000,11000,1,7,1932353,1932353,'device',16,NULL,NULL);
INSERT INTO memsets VALUES(2,1661938466278435000,3000,1,7,1932541,1932541,'device',16,NULL,NULL);
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
INSERT INTO api_calls VALUES(0,1661938466265776000,10000,0,'runtime',8,1936889,1936889,138,NULL);
INSERT INTO api_calls VALUES(1,1661938466265788000,1000,0,'runtime',8,1936890,1936890,138,NULL);
INSERT INTO api_calls VALUES(2,1661938466265790000,1000,0,'runtime',8,1936891,1936891,138,NULL);
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
INSERT INTO ranges VALUES(0,1661938466265032000,25000,0,NULL,NULL,0,NULL,1,0,NULL,1,NULL,'{"Input Dims":[[], [], [], [], []],"Input type":["", "", "", "", "Scalar"],"Module Hierarchy":"","Call stack":""}');
INSERT INTO ranges VALUES(1,1661938466265039000,18000,0,NULL,NULL,0,NULL,1,1,0,2,NULL,'{"Input Dims":[[], [], [], [], []],"Input type":["", "", "", "", "Scalar"],"Module Hierarchy":"","Call stack":""}');
INSERT INTO ranges VALUES(2,1661938466265042000,7000,0,NULL,NULL,0,NULL,2,2,1,3,NULL,'{"Input Dims":[[], [], [], [], [], []],"Input type":["", "", "", "", "Scalar", ""],"Module Hierarchy":"","Call stack":""}');
INSERT INTO ranges VALUES(3,1661938466265087000,100298000,0,NULL,NULL,3,NULL,4,0,NULL,5,NULL,'{"Module Hierarchy":"","Call stack":""}');
INSERT INTO ranges VALUES(4,1661938466265132000,11000,0,NULL,NULL,3,NULL,5,1,3,11,NULL,'{"Module Hierarchy":"","Call stack":""}');
INSERT INTO ranges VALUES(5,1661938466265165000,251000,0,NULL,NULL,3,NULL,6,1,3,17,NULL,'{"Module Hierarchy":"","Call stack":""}');
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
CREATE TABLE summary (
  id INTEGER PRIMARY KEY,
  source TEXT,
  rank INTEGER,
  world_size INTEGER,
  device INTEGER,
  device_name TEXT,
  device_kind TEXT,
  verdict TEXT NOT NULL,
  verdict_may_be_off INTEGER NOT NULL,
  starved_threshold_pct REAL,
  scorecard_device INTEGER,
  window_mode TEXT NOT NULL,
  window_cut INTEGER NOT NULL,
  window_cutoff_ns INTEGER,
  window_gpu_ops INTEGER NOT NULL,
  window_gpu_start_ns INTEGER,
  window_gpu_end_ns INTEGER,
  window_start_ns INTEGER,
  window_end_ns INTEGER,
  first_step INTEGER NOT NULL,
  steps_analysed INTEGER NOT NULL,
  avg_step_ns REAL,
  step_source TEXT NOT NULL,
  tokens_per_step REAL,
  samples_per_step REAL,
  throughput_source TEXT,
  kernels INTEGER NOT NULL,
  kernel_ns INTEGER NOT NULL,
  fp32_matrix_ns INTEGER NOT NULL,
  tensor_core_ns INTEGER NOT NULL,
  matrix_ns INTEGER NOT NULL,
  launched_kernels INTEGER NOT NULL,
  kernels_with_launch INTEGER NOT NULL,
  shorter_than_launch INTEGER NOT NULL,
  shorter_than_threshold INTEGER NOT NULL,
  runtime_outliers INTEGER NOT NULL,
  launch_delay_outliers INTEGER NOT NULL,
  utilization_steps INTEGER NOT NULL,
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
  events INTEGER NOT NULL,
  lost_events INTEGER NOT NULL,
  repaired_events INTEGER NOT NULL,
  clipped_events INTEGER NOT NULL,
  mfu_flops_source TEXT NOT NULL,
  model TEXT,
  model_params REAL,
  model_layers INTEGER,
  model_d_model INTEGER,
  model_heads INTEGER,
  model_seq_len INTEGER,
  model_vocab INTEGER,
  flops_per_token REAL,
  precision TEXT NOT NULL,
  precision_source TEXT NOT NULL,
  precision_share_pct REAL,
  peak_source TEXT NOT NULL,
  peak_device TEXT,
  peak_flops_per_s REAL,
  bandwidth_bytes_per_s REAL,
  model_flops_per_step REAL,
  achieved_flops_per_s REAL,
  mfu_pct REAL,
  mfu_impossible_pct REAL,
  mfu_likely_wrong TEXT,
  hardware_flops_per_step REAL,
  hfu_pct REAL,
  roofline_kernels INTEGER NOT NULL,
  roofline_time_pct REAL,
  measured_kernels INTEGER NOT NULL,
  annotated_kernels INTEGER NOT NULL,
  estimated_kernels INTEGER NOT NULL,
  memory_estimated INTEGER NOT NULL,
  memory_state_bytes REAL,
  memory_activation_bytes REAL,
  memory_total_bytes REAL,
  memory_device_bytes REAL,
  memory_pct REAL,
  memory_micro_batch INTEGER,
  memory_micro_batch_from_tokens INTEGER,
  memory_ranks INTEGER,
  memory_zero1_bytes REAL,
  memory_zero2_bytes REAL,
  memory_zero3_bytes REAL
);
INSERT INTO summary VALUES(0,'/work/ci-clone/build-fuzz/slices/diff_test_v100.json',1,2,1,'Tesla V100-SXM2-16GB','gpu','host-bound',0,20.0,1,'hta',0,NULL,9,1661938466265125000,1661938466278438000,1661938466265087000,1661938466365385000,0,1,100298000.0,'profiler_step',NULL,NULL,NULL,3,16000,0,0,0,3,0,0,3,0,0,1,1,0,100298000.0,16000.0,21000.0,25000.0,12000.0,0.0,257000.0,99967000.0,18,0,0,0,'none',NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'fp32','default',NULL,'trace_device','V100 SXM2 16GB (matched by name "Tesla V100-SXM2-16GB")',15700000000000.0,900000000000.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,0.0,0,0,0,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
CREATE TABLE steps (
  id INTEGER PRIMARY KEY,
  number INTEGER NOT NULL,
  name TEXT,
  range_id INTEGER,
  host_ts INTEGER NOT NULL,
  host_dur INTEGER NOT NULL,
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  in_window INTEGER NOT NULL,
  complete INTEGER NOT NULL,
  gpu_launches INTEGER NOT NULL,
  tokens_per_s REAL,
  samples_per_s REAL
);
INSERT INTO steps VALUES(0,1009,'ProfilerStep#1009',3,1661938466265087000,100298000,1661938466265087000,100298000,1,1,0,NULL,NULL);
CREATE TABLE breakdown (
  id INTEGER PRIMARY KEY,
  step_id INTEGER,
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  idle_ns INTEGER NOT NULL,
  compute_ns INTEGER NOT NULL,
  non_compute_ns INTEGER NOT NULL,
  communication_ns INTEGER NOT NULL,
  exposed_communication_ns INTEGER NOT NULL,
  overlap_ns INTEGER NOT NULL,
  memory_ns INTEGER NOT NULL,
  idle_pct REAL,
  compute_pct REAL,
  non_compute_pct REAL,
  overlap_pct REAL
);
INSERT INTO breakdown VALUES(0,NULL,1661938466265125000,13313000,13251000,16000,46000,0,0,0,46000,99.534289791932692992,0.12018327950123938729,0.34552692856606326277,NULL);
INSERT INTO breakdown VALUES(1,0,1661938466265087000,100298000,100236000,16000,46000,0,0,0,46000,99.938184211051066087,0.015952461664240562971,0.045863327284691619845,NULL);
CREATE TABLE gaps (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  device INTEGER NOT NULL,
  stream INTEGER,
  step_id INTEGER,
  in_window INTEGER NOT NULL,
  cause TEXT NOT NULL,
  data_loading_ns INTEGER NOT NULL,
  host_launch_ns INTEGER NOT NULL,
  synchronization_ns INTEGER NOT NULL,
  communication_wait_ns INTEGER NOT NULL,
  other_ns INTEGER NOT NULL,
  hta_category TEXT,
  next_table TEXT,
  next_id INTEGER,
  launch_call_id INTEGER,
  evidence_table TEXT,
  evidence_id INTEGER
);
INSERT INTO gaps VALUES(0,1661938466265087000,38000,1,NULL,0,1,'other',0,0,0,0,38000,NULL,'memcpys',0,NULL,'memcpys',0);
INSERT INTO gaps VALUES(1,1661938466265134000,6000,1,NULL,0,1,'other',0,0,0,0,6000,NULL,'memcpys',1,NULL,'memcpys',1);
INSERT INTO gaps VALUES(2,1661938466265144000,5000,1,NULL,0,1,'other',0,0,0,0,5000,NULL,'memcpys',2,NULL,'memcpys',2);
INSERT INTO gaps VALUES(3,1661938466265157000,427000,1,NULL,0,1,'other',0,0,0,0,427000,NULL,'kernels',0,NULL,'kernels',0);
INSERT INTO gaps VALUES(4,1661938466265589000,3000,1,NULL,0,1,'other',0,0,0,0,3000,NULL,'kernels',1,NULL,'kernels',1);
INSERT INTO gaps VALUES(5,1661938466265597000,3000,1,NULL,0,1,'other',0,0,0,0,3000,NULL,'kernels',2,NULL,'kernels',2);
INSERT INTO gaps VALUES(6,1661938466265606000,10615000,1,NULL,0,1,'other',0,0,0,0,10615000,NULL,'memsets',0,NULL,'memsets',0);
INSERT INTO gaps VALUES(7,1661938466276232000,1150000,1,NULL,0,1,'other',0,0,0,0,1150000,NULL,'memsets',1,NULL,'memsets',1);
INSERT INTO gaps VALUES(8,1661938466277393000,1042000,1,NULL,0,1,'other',0,0,0,0,1042000,NULL,'memsets',2,NULL,'memsets',2);
INSERT INTO gaps VALUES(9,1661938466278438000,86947000,1,NULL,0,1,'other',0,0,0,0,86947000,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO gaps VALUES(10,1661938466265134000,6000,1,7,0,1,'other',0,0,0,0,6000,'kernel_wait','memcpys',1,NULL,'memcpys',1);
INSERT INTO gaps VALUES(11,1661938466265144000,5000,1,7,0,1,'other',0,0,0,0,5000,'kernel_wait','memcpys',2,NULL,'memcpys',2);
INSERT INTO gaps VALUES(12,1661938466265157000,427000,1,7,0,1,'other',0,0,0,0,427000,'other','kernels',0,NULL,'kernels',0);
INSERT INTO gaps VALUES(13,1661938466265589000,3000,1,7,0,1,'other',0,0,0,0,3000,'kernel_wait','kernels',1,NULL,'kernels',1);
INSERT INTO gaps VALUES(14,1661938466265597000,3000,1,7,0,1,'other',0,0,0,0,3000,'kernel_wait','kernels',2,NULL,'kernels',2);
INSERT INTO gaps VALUES(15,1661938466265606000,10615000,1,7,0,1,'other',0,0,0,0,10615000,'other','memsets',0,NULL,'memsets',0);
INSERT INTO gaps VALUES(16,1661938466276232000,1150000,1,7,0,1,'other',0,0,0,0,1150000,'other','memsets',1,NULL,'memsets',1);
INSERT INTO gaps VALUES(17,1661938466277393000,1042000,1,7,0,1,'other',0,0,0,0,1042000,'other','memsets',2,NULL,'memsets',2);
CREATE TABLE kernel_categories (
  id INTEGER PRIMARY KEY,
  category TEXT NOT NULL,
  bound TEXT NOT NULL,
  kernels INTEGER NOT NULL,
  total_ns INTEGER NOT NULL,
  pct REAL
);
INSERT INTO kernel_categories VALUES(0,'elementwise','memory',3,16000,100.0);
CREATE TABLE top_kernels (
  id INTEGER PRIMARY KEY,
  name TEXT,
  category TEXT NOT NULL,
  kernels INTEGER NOT NULL,
  total_ns INTEGER NOT NULL,
  mean_ns INTEGER NOT NULL,
  min_ns INTEGER NOT NULL,
  max_ns INTEGER NOT NULL,
  pct REAL,
  example_kernel_id INTEGER
);
INSERT INTO top_kernels VALUES(0,'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)','elementwise',3,16000,5333,5000,6000,100.0,2);
CREATE TABLE launch_stats (
  id INTEGER PRIMARY KEY,
  metric TEXT NOT NULL,
  count INTEGER NOT NULL,
  mean REAL,
  p50 REAL,
  p90 REAL,
  p99 REAL,
  max REAL
);
INSERT INTO launch_stats VALUES(0,'launch_delay_ns',0,0.0,0.0,0.0,0.0,0.0);
INSERT INTO launch_stats VALUES(1,'launch_cost_ns',0,0.0,0.0,0.0,0.0,0.0);
INSERT INTO launch_stats VALUES(2,'kernel_duration_ns',3,5333.3333333333330303,5000.0,6000.0,6000.0,6000.0);
CREATE TABLE launch_queues (
  id INTEGER PRIMARY KEY,
  device INTEGER NOT NULL,
  stream INTEGER NOT NULL,
  operations INTEGER NOT NULL,
  count INTEGER NOT NULL,
  mean REAL,
  p50 REAL,
  p90 REAL,
  p99 REAL,
  max REAL,
  empty_pct REAL
);
CREATE TABLE device_utilization (
  id INTEGER PRIMARY KEY,
  device INTEGER NOT NULL,
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  kernel_ns INTEGER NOT NULL,
  gpu_util_pct REAL,
  sm_efficiency_pct REAL,
  occupancy_pct REAL,
  kernels_without_grid INTEGER NOT NULL,
  kernels_with_occupancy INTEGER NOT NULL,
  primary_device INTEGER NOT NULL
);
INSERT INTO device_utilization VALUES(0,1,1661938466265087000,100298000,16000,0.015952461664240562971,0.011029631697541326593,5.8125,0,3,1);
CREATE TABLE scorecard (
  id INTEGER PRIMARY KEY,
  step_id INTEGER,
  ts INTEGER,
  dur INTEGER,
  verdict TEXT,
  deciding_axis TEXT,
  data_stall_ns INTEGER,
  host_stall_ns INTEGER,
  sync_stall_ns INTEGER,
  exposed_communication_ns INTEGER,
  memory_bound_ns INTEGER,
  compute_bound_ns INTEGER,
  other_idle_ns INTEGER,
  data_stall_pct REAL,
  host_stall_pct REAL,
  sync_stall_pct REAL,
  exposed_communication_pct REAL,
  memory_bound_pct REAL,
  compute_bound_pct REAL,
  other_idle_pct REAL
);
INSERT INTO scorecard VALUES(0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO scorecard VALUES(1,NULL,1661938466265087000,100298000,'host-bound','other_idle',0,0,0,0,62000,0,100236000,0.0,0.0,0.0,0.0,0.061815788948932179347,0.0,99.938184211051066087);
CREATE TABLE findings (
  id INTEGER PRIMARY KEY,
  rule TEXT NOT NULL,
  kind TEXT NOT NULL,
  severity TEXT NOT NULL,
  title TEXT NOT NULL,
  metric TEXT NOT NULL,
  value REAL,
  threshold REAL,
  recommendation TEXT NOT NULL,
  max_gain_pct REAL
);
INSERT INTO findings VALUES(0,'unexplained_idle','performance','high','The GPU idles 99.9 % of the step for reasons the trace does not show','other_idle_pct',99.938184211051066087,10.0,'Record the host in more detail: NVTX ranges around data loading, logging and checkpointing, or record with damscope (CPU sampling) to see what the launching thread does between GPU operations.',99.938184211051066087);
INSERT INTO findings VALUES(1,'low_occupancy','performance','low','Estimated achieved occupancy is 5.8 %','occupancy_pct',5.8125,25.0,'Few warps per SM limit latency hiding. Check the top kernels'' registers per thread and shared memory in Nsight Compute''s occupancy section; larger blocks or fewer registers help only kernels that are not already bandwidth-bound.',NULL);
CREATE TABLE finding_evidence (
  id INTEGER PRIMARY KEY,
  finding_id INTEGER NOT NULL,
  event_table TEXT NOT NULL,
  event_id INTEGER NOT NULL,
  ts INTEGER,
  dur INTEGER,
  label TEXT
);
INSERT INTO finding_evidence VALUES(0,0,'gaps',9,1661938466278438000,86947000,NULL);
INSERT INTO finding_evidence VALUES(1,0,'gaps',6,1661938466265606000,10615000,NULL);
INSERT INTO finding_evidence VALUES(2,0,'gaps',7,1661938466276232000,1150000,NULL);
INSERT INTO finding_evidence VALUES(3,0,'gaps',8,1661938466277393000,1042000,NULL);
INSERT INTO finding_evidence VALUES(4,0,'gaps',3,1661938466265157000,427000,NULL);
INSERT INTO finding_evidence VALUES(5,0,'gaps',0,1661938466265087000,38000,NULL);
INSERT INTO finding_evidence VALUES(6,0,'gaps',1,1661938466265134000,6000,NULL);
INSERT INTO finding_evidence VALUES(7,0,'gaps',2,1661938466265144000,5000,NULL);
INSERT INTO finding_evidence VALUES(8,0,'gaps',4,1661938466265589000,3000,NULL);
INSERT INTO finding_evidence VALUES(9,0,'gaps',5,1661938466265597000,3000,NULL);
INSERT INTO finding_evidence VALUES(10,1,'kernels',2,1661938466265600000,6000,'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)');
INSERT INTO finding_evidence VALUES(11,1,'kernels',0,1661938466265584000,5000,'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)');
INSERT INTO finding_evidence VALUES(12,1,'kernels',1,1661938466265592000,5000,'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)');
CREATE TABLE metrics (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  value REAL
);
INSERT INTO metrics VALUES(0,'data_stall_pct',0.0);
INSERT INTO metrics VALUES(1,'host_stall_pct',0.0);
INSERT INTO metrics VALUES(2,'sync_stall_pct',0.0);
INSERT INTO metrics VALUES(3,'exposed_communication_pct',0.0);
INSERT INTO metrics VALUES(4,'memory_bound_pct',0.061815788948932179347);
INSERT INTO metrics VALUES(5,'compute_bound_pct',0.0);
INSERT INTO metrics VALUES(6,'other_idle_pct',99.938184211051066087);
INSERT INTO metrics VALUES(7,'stall_pct',99.938184211051066087);
INSERT INTO metrics VALUES(8,'gpu_util_pct',0.015952461664240562971);
INSERT INTO metrics VALUES(9,'sm_efficiency_pct',0.011029631697541326593);
INSERT INTO metrics VALUES(10,'occupancy_pct',5.8125);
INSERT INTO metrics VALUES(11,'idle_sm_pct',0.0049228299666992363786);
INSERT INTO metrics VALUES(12,'fp32_matrix_pct',0.0);
INSERT INTO metrics VALUES(13,'pageable_copy_pct',0.0);
INSERT INTO metrics VALUES(14,'lost_events_pct',0.0);
INSERT INTO metrics VALUES(15,'repaired_events_pct',0.0);
INSERT INTO metrics VALUES(16,'below_roof_pct',0.0);
INSERT INTO metrics VALUES(17,'below_roof_gain_pct',0.0);
CREATE TABLE data_loss (
  id INTEGER PRIMARY KEY,
  stats_id INTEGER NOT NULL,
  stat TEXT NOT NULL,
  kind TEXT NOT NULL,
  events INTEGER NOT NULL
);
CREATE TABLE analysis_notes (
  id INTEGER PRIMARY KEY,
  analysis TEXT,
  message TEXT,
  remedy TEXT
);
INSERT INTO analysis_notes VALUES(0,'input','no GPU operation carries a correlation id that matches a launch call: launch delays and launch-based gap causes cannot be computed',NULL);
INSERT INTO analysis_notes VALUES(1,'steps','no launch call inside a step could be matched to GPU work (missing correlation ids?): steps keep their host extent',NULL);
INSERT INTO analysis_notes VALUES(2,'window','only one step: nothing is cut from the window (HTA cuts the last of two or more steps)',NULL);
INSERT INTO analysis_notes VALUES(3,'mfu','the trace does not say what model it trains (no model annotation, no per-op FLOPs): no MFU','model');
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
  last_to_start_pct REAL,
  this_rank INTEGER NOT NULL
);
CREATE TABLE mfu_steps (
  id INTEGER PRIMARY KEY,
  step_id INTEGER NOT NULL,
  model_flops REAL,
  mfu_pct REAL,
  hardware_flops REAL,
  hfu_pct REAL
);
INSERT INTO mfu_steps VALUES(0,0,NULL,NULL,NULL,NULL);
CREATE TABLE roofline (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  name TEXT,
  category TEXT NOT NULL,
  precision TEXT NOT NULL,
  source TEXT NOT NULL,
  kernels INTEGER NOT NULL,
  time_ns INTEGER NOT NULL,
  flops REAL,
  bytes REAL,
  intensity REAL,
  achieved_flops_per_s REAL,
  ceiling_flops_per_s REAL,
  pct_of_ceiling REAL,
  memory_bound INTEGER,
  example_kernel_id INTEGER
);
CREATE TABLE roofline_ceilings (
  id INTEGER PRIMARY KEY,
  precision TEXT NOT NULL,
  peak_flops_per_s REAL,
  ridge_flops_per_byte REAL
);
INSERT INTO roofline_ceilings VALUES(0,'fp32',15700000000000.0,17.444444444444442865);
CREATE TABLE collectives (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  kernels INTEGER NOT NULL,
  time_ns INTEGER NOT NULL,
  bus_bytes REAL,
  achieved_bytes_per_s REAL,
  link_bytes_per_s REAL,
  pct_of_link REAL
);
CREATE TABLE collective_starts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  ts INTEGER NOT NULL
);
CREATE INDEX kernels_by_correlation ON kernels(correlation_id);
CREATE INDEX api_calls_by_correlation ON api_calls(correlation_id);
CREATE INDEX finding_evidence_by_finding ON finding_evidence(finding_id);
COMMIT;
