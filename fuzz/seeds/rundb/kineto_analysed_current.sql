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
INSERT INTO meta VALUES(12,'analysis_schema_version','10');
INSERT INTO meta VALUES(13,'analysis_options','damscope 0.1.0; window=hta; tokens_per_step=nan; samples_per_step=nan; thresholds=; model=; params=nan; layers=0; seq=0; d_model=0; heads=0; gpu=; peak_tflops=nan; peak_bw_gbs=nan; precision=');
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
CREATE TABLE summary (
  id INTEGER PRIMARY KEY,
  source TEXT,
  rank INTEGER,
  world_size INTEGER,
  device INTEGER,
  device_name TEXT,
  device_kind TEXT,
  framework TEXT,
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
  hardware_flops_window REAL,
  hfu_pct REAL,
  op_shapes_coverage_pct REAL,
  roofline_kernels INTEGER NOT NULL,
  roofline_time_pct REAL,
  measured_kernels INTEGER NOT NULL,
  annotated_kernels INTEGER NOT NULL,
  estimated_kernels INTEGER NOT NULL,
  measured_time_pct REAL,
  annotated_time_pct REAL,
  estimated_time_pct REAL,
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
INSERT INTO summary VALUES(0,'seed.db',0,2,0,'NVIDIA A100-SXM4-40GB','gpu','pytorch','data-bound',1,20.0,0,'hta',0,NULL,5,1700000000000020000,1700000000000570000,1700000000000000000,1700000000001000000,0,1,1000000.0,'profiler_step',NULL,NULL,NULL,2,400000,300000,0,300000,2,1,0,0,0,0,1,1,0,1000000.0,400000.0,30000.0,3000.0,5000.0,300000.0,252000.0,10000.0,14,1,0,0,'profiler_ops',NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'fp32','kernel_names',100.0,'trace_device','A100 SXM4 40GB (matched by name "NVIDIA A100-SXM4-40GB")',19500000000000.0,1555000000000.0,2097152.0,2097152000.0,0.01075462564102564085,NULL,NULL,NULL,NULL,NULL,NULL,1,100.0,0,0,1,0.0,0.0,0.0,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
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
  samples_per_s REAL,
  critical_path_ns INTEGER,
  path_cpu_ns INTEGER,
  path_data_ns INTEGER,
  path_kernel_ns INTEGER,
  path_communication_ns INTEGER,
  path_launch_delay_ns INTEGER,
  path_kernel_gap_ns INTEGER,
  path_without_cpu_ns INTEGER,
  path_without_data_ns INTEGER,
  path_without_kernel_ns INTEGER,
  path_without_communication_ns INTEGER,
  path_without_launch_delay_ns INTEGER,
  path_without_kernel_gap_ns INTEGER
);
INSERT INTO steps VALUES(0,1,'ProfilerStep#1',0,1700000000000000000,1000000,1700000000000000000,1000000,1,1,1,NULL,NULL,340000,40000,300000,0,0,0,0,310000,315000,340000,340000,340000,340000);
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
INSERT INTO breakdown VALUES(0,NULL,1700000000000020000,550000,97000,300000,153000,100000,100000,0,33000,17.636363636363636686,54.545454545454546747,27.818181818181816566,0.0);
INSERT INTO breakdown VALUES(1,0,1700000000000000000,1000000,547000,300000,153000,100000,100000,0,33000,54.700000000000002843,30.0,15.30000000000000071,0.0);
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
INSERT INTO gaps VALUES(0,1700000000000000000,20000,0,NULL,0,1,'host_launch',0,15000,0,0,5000,NULL,'kernels',0,0,'api_calls',0);
INSERT INTO gaps VALUES(1,1700000000000320000,10000,0,NULL,0,1,'other',0,0,0,0,10000,NULL,'kernels',1,NULL,'kernels',1);
INSERT INTO gaps VALUES(2,1700000000000430000,70000,0,NULL,0,1,'other',0,0,0,0,70000,NULL,'memcpys',0,NULL,'memcpys',0);
INSERT INTO gaps VALUES(3,1700000000000530000,10000,0,NULL,0,1,'other',0,0,0,0,10000,NULL,'memsets',0,NULL,'memsets',0);
INSERT INTO gaps VALUES(4,1700000000000543000,457000,0,NULL,0,1,'data_loading',300000,0,0,0,157000,NULL,NULL,NULL,NULL,'ranges',5);
INSERT INTO gaps VALUES(5,1700000000000320000,180000,0,7,0,1,'other',0,0,0,0,180000,'other','memcpys',0,NULL,'memcpys',0);
INSERT INTO gaps VALUES(6,1700000000000530000,10000,0,7,0,1,'other',0,0,0,0,10000,'kernel_wait','memsets',0,NULL,'memsets',0);
CREATE TABLE kernel_categories (
  id INTEGER PRIMARY KEY,
  category TEXT NOT NULL,
  bound TEXT NOT NULL,
  kernels INTEGER NOT NULL,
  total_ns INTEGER NOT NULL,
  pct REAL
);
INSERT INTO kernel_categories VALUES(0,'gemm','compute',1,300000,75.0);
INSERT INTO kernel_categories VALUES(1,'communication','communication',1,100000,25.0);
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
INSERT INTO top_kernels VALUES(0,'ampere_sgemm_128x64_nn','gemm',1,300000,300000,300000,300000,75.0,0);
INSERT INTO top_kernels VALUES(1,'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)','communication',1,100000,100000,100000,100000,25.0,1);
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
INSERT INTO launch_stats VALUES(0,'launch_delay_ns',1,10000.0,10000.0,10000.0,10000.0,10000.0);
INSERT INTO launch_stats VALUES(1,'launch_cost_ns',1,5000.0,5000.0,5000.0,5000.0,5000.0);
INSERT INTO launch_stats VALUES(2,'kernel_duration_ns',2,200000.0,100000.0,300000.0,300000.0,300000.0);
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
INSERT INTO launch_queues VALUES(0,0,7,1,1,1.0,1.0,1.0,1.0,1.0,0.0);
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
INSERT INTO device_utilization VALUES(0,0,1700000000000000000,1000000,400000,40.0,30.0,25.0,1,1,1);
CREATE TABLE scorecard (
  id INTEGER PRIMARY KEY,
  step_id INTEGER,
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  verdict TEXT NOT NULL,
  deciding_axis TEXT NOT NULL,
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
INSERT INTO scorecard VALUES(0,0,1700000000000000000,1000000,'data-bound','data_stall',330000,15000,0,100000,3000,300000,252000,33.0,1.5,0.0,10.0,0.29999999999999998889,30.0,25.199999999999999288);
INSERT INTO scorecard VALUES(1,NULL,1700000000000000000,1000000,'data-bound','data_stall',330000,15000,0,100000,3000,300000,252000,33.0,1.5,0.0,10.0,0.29999999999999998889,30.0,25.199999999999999288);
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
  max_gain_pct REAL,
  critical_path_pct REAL,
  step_ns INTEGER,
  projected_step_ns INTEGER
);
INSERT INTO findings VALUES(0,'data_loading','performance','high','The GPU waits for input data 33.0 % of the step','data_stall_pct',33.0,5.0,'Feed the GPU faster: raise DataLoader num_workers (with persistent_workers=True), prefetch batches (prefetch_factor, or a side-stream prefetcher), use pin_memory=True with .to(device, non_blocking=True), and move decoding/augmentation out of the training process (pre-processed data, GPU decoding with DALI).',33.0,88.235294117647057989,1000000,975000);
INSERT INTO findings VALUES(1,'kernels_below_roof','performance','high','Kernels reaching under 60 % of their roofline ceiling take 30.0 % of the step','below_roof_pct',30.0,10.0,'These kernels are held back by neither the arithmetic nor the memory roof but by latency: too little work per launch, low occupancy, uncoalesced or bank-conflicted memory access, or a naive implementation. Prefer the library or fused version (cuBLAS/cuDNN, FlashAttention through torch.nn.functional.scaled_dot_product_attention, torch.compile''s fused kernels), give each launch more work (a larger batch), and profile the largest one with Nsight Compute (Scheduler and Warp State Statistics).',29.98924537435897264,NULL,NULL,NULL);
INSERT INTO findings VALUES(2,'fp32_matrix_math','performance','high','GEMMs and convolutions in FP32 without tensor cores take 30.0 % of the step','fp32_matrix_pct',30.0,10.0,'Run matrix math on tensor cores: mixed precision (torch.autocast with bf16, or fp16 with GradScaler), or TF32 on Ampere and newer (torch.backends.cuda.matmul.allow_tf32 = True, torch.backends.cudnn.allow_tf32 = True); keep batch, channel and hidden sizes multiples of 8, and of 64 for the best tiles.',26.25,NULL,NULL,NULL);
INSERT INTO findings VALUES(3,'unexplained_idle','performance','high','The GPU idles 25.2 % of the step for reasons the trace does not show','other_idle_pct',25.199999999999999288,10.0,'Record the host in more detail: NVTX ranges around data loading, logging and checkpointing, or record with damscope (CPU sampling) to see what the launching thread does between GPU operations.',25.199999999999999288,NULL,NULL,NULL);
INSERT INTO findings VALUES(4,'low_mfu','performance','high','The run turns 0.0 % of the device''s peak into model progress (MFU)','mfu_pct',0.01075462564102564085,30.0,'Under 30 % MFU the step has an addressable bottleneck: the verdict and the findings above say which. For scale, well-tuned large-model training reaches 40-55 % (PaLM 540B: 46.2 %; Megatron-LM''s GPT-3 175B on A100s: 52 %), and 55-65 % is a practical ceiling: beyond it gains come from needing fewer FLOPs, not from running them faster.',NULL,NULL,NULL,NULL);
INSERT INTO findings VALUES(5,'lost_events','trace_quality','high','6.7 % of the trace''s events were lost on the way in','lost_events_pct',6.6666666666666669627,0.10000000000000000555,'Every figure above is computed without them, so a stall or a kernel class can be under- or over-counted. Record again with more headroom: more or larger CUPTI buffers, fewer NVTX ranges per second or a shorter capture window, a faster disk for the trace. The stats table of the trace names what was lost.',NULL,NULL,NULL,NULL);
INSERT INTO findings VALUES(6,'exposed_communication','performance','medium','Communication that computation does not hide takes 10.0 % of the step','exposed_communication_pct',10.0,5.0,'Overlap collectives with computation: let DDP bucket gradients (tune bucket_cap_mb) and start all-reduce during backward, communicate less often (no_sync() with gradient accumulation), prefetch with FSDP/ZeRO for sharded models, and check the NCCL transport (NVLink/InfiniBand, NCCL_DEBUG=INFO).',10.0,NULL,NULL,NULL);
INSERT INTO findings VALUES(7,'low_sm_efficiency','performance','medium','For 10.0 % of the step the GPU is busy with kernels too small to fill its SMs','idle_sm_pct',10.0,10.0,'Give each kernel more parallel work: a larger batch (with gradient accumulation if memory is short), fused kernels instead of many small ones, fewer per-sample ops.',10.0,NULL,NULL,NULL);
INSERT INTO findings VALUES(8,'pageable_copies','performance','medium','Copies to or from pageable host memory take 3.0 % of the step','pageable_copy_pct',3.0,1.0,'Use pinned host memory: DataLoader(pin_memory=True) or tensor.pin_memory(), then .to(device, non_blocking=True). Pinned copies run asynchronously at full PCIe/NVLink bandwidth; pageable ones are staged through a bounce buffer and block the host.',3.0,NULL,NULL,NULL);
INSERT INTO findings VALUES(9,'low_occupancy','performance','low','Estimated achieved occupancy is 25.0 %','occupancy_pct',25.0,25.0,'Few warps per SM limit latency hiding. Check the top kernels'' registers per thread and shared memory in Nsight Compute''s occupancy section; larger blocks or fewer registers help only kernels that are not already bandwidth-bound.',NULL,NULL,NULL,NULL);
CREATE TABLE finding_evidence (
  id INTEGER PRIMARY KEY,
  finding_id INTEGER NOT NULL,
  event_table TEXT NOT NULL,
  event_id INTEGER NOT NULL,
  ts INTEGER,
  dur INTEGER,
  label TEXT,
  detail TEXT,
  op TEXT,
  module TEXT
);
INSERT INTO finding_evidence VALUES(0,0,'gaps',4,1700000000000543000,457000,NULL,NULL,NULL,NULL);
INSERT INTO finding_evidence VALUES(1,0,'ranges',5,1700000000000600000,300000,'enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__',NULL,NULL,NULL);
INSERT INTO finding_evidence VALUES(2,1,'kernels',0,1700000000000020000,300000,'ampere_sgemm_128x64_nn',NULL,'aten::mm',NULL);
INSERT INTO finding_evidence VALUES(3,2,'kernels',0,1700000000000020000,300000,'ampere_sgemm_128x64_nn',NULL,'aten::mm',NULL);
INSERT INTO finding_evidence VALUES(4,3,'gaps',4,1700000000000543000,457000,NULL,NULL,NULL,NULL);
INSERT INTO finding_evidence VALUES(5,3,'gaps',2,1700000000000430000,70000,NULL,NULL,NULL,NULL);
INSERT INTO finding_evidence VALUES(6,3,'gaps',1,1700000000000320000,10000,NULL,NULL,NULL,NULL);
INSERT INTO finding_evidence VALUES(7,3,'gaps',3,1700000000000530000,10000,NULL,NULL,NULL,NULL);
INSERT INTO finding_evidence VALUES(8,3,'gaps',0,1700000000000000000,20000,NULL,NULL,NULL,NULL);
INSERT INTO finding_evidence VALUES(9,5,'stats',2,NULL,NULL,'kineto.unsupported_phase_events',NULL,NULL,NULL);
INSERT INTO finding_evidence VALUES(10,6,'kernels',1,1700000000000330000,100000,'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)',NULL,NULL,NULL);
INSERT INTO finding_evidence VALUES(11,8,'memcpys',0,1700000000000500000,30000,NULL,NULL,NULL,NULL);
CREATE TABLE metrics (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  value REAL
);
INSERT INTO metrics VALUES(0,'data_stall_pct',33.0);
INSERT INTO metrics VALUES(1,'host_stall_pct',1.5);
INSERT INTO metrics VALUES(2,'sync_stall_pct',0.0);
INSERT INTO metrics VALUES(3,'exposed_communication_pct',10.0);
INSERT INTO metrics VALUES(4,'memory_bound_pct',0.29999999999999998889);
INSERT INTO metrics VALUES(5,'compute_bound_pct',30.0);
INSERT INTO metrics VALUES(6,'other_idle_pct',25.199999999999999288);
INSERT INTO metrics VALUES(7,'stall_pct',69.700000000000002843);
INSERT INTO metrics VALUES(8,'gpu_util_pct',40.0);
INSERT INTO metrics VALUES(9,'sm_efficiency_pct',30.0);
INSERT INTO metrics VALUES(10,'occupancy_pct',25.0);
INSERT INTO metrics VALUES(11,'idle_sm_pct',10.0);
INSERT INTO metrics VALUES(12,'fp32_matrix_pct',30.0);
INSERT INTO metrics VALUES(13,'pageable_copy_pct',3.0);
INSERT INTO metrics VALUES(14,'short_kernel_pct',0.0);
INSERT INTO metrics VALUES(15,'peak_memory_pct',0.0049338631068844354676);
INSERT INTO metrics VALUES(16,'lost_events_pct',6.6666666666666669627);
INSERT INTO metrics VALUES(17,'repaired_events_pct',0.0);
INSERT INTO metrics VALUES(18,'mfu_pct',0.01075462564102564085);
INSERT INTO metrics VALUES(19,'below_roof_pct',30.0);
INSERT INTO metrics VALUES(20,'below_roof_gain_pct',29.98924537435897264);
INSERT INTO metrics VALUES(21,'wave_tail_pct',0.0);
INSERT INTO metrics VALUES(22,'wave_tail_gain_pct',0.0);
INSERT INTO metrics VALUES(23,'materialized_attention_pct',0.0);
INSERT INTO metrics VALUES(24,'materialized_attention_gain_pct',0.0);
INSERT INTO metrics VALUES(25,'elementwise_chain_pct',0.0);
INSERT INTO metrics VALUES(26,'elementwise_chain_gain_pct',0.0);
CREATE TABLE data_loss (
  id INTEGER PRIMARY KEY,
  stats_id INTEGER NOT NULL,
  stat TEXT NOT NULL,
  kind TEXT NOT NULL,
  events INTEGER NOT NULL
);
INSERT INTO data_loss VALUES(0,2,'kineto.unsupported_phase_events','lost',1);
CREATE TABLE analysis_notes (
  id INTEGER PRIMARY KEY,
  analysis TEXT,
  message TEXT,
  remedy TEXT
);
INSERT INTO analysis_notes VALUES(0,'window','only one step: nothing is cut from the window (HTA cuts the last of two or more steps)',NULL);
INSERT INTO analysis_notes VALUES(1,'utilization','device 0: 1 kernel(s) without a grid size or SM count: est. SM efficiency counts them as 0',NULL);
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
  peer_wait_ns INTEGER NOT NULL,
  waiting_pct REAL NOT NULL,
  transfer_pct REAL NOT NULL,
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
INSERT INTO mfu_steps VALUES(0,0,2097152.0,0.01075462564102564085,NULL,NULL);
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
INSERT INTO roofline VALUES(0,'kernel','ampere_sgemm_128x64_nn','gemm','fp32','estimated',1,300000,2097152.0,NULL,NULL,6990506666.6666660309,19500000000000.0,0.035848752136752135011,NULL,0);
INSERT INTO roofline VALUES(1,'class','gemm','gemm','fp32','estimated',1,300000,2097152.0,NULL,NULL,6990506666.6666660309,19500000000000.0,0.035848752136752135011,NULL,0);
CREATE TABLE roofline_ceilings (
  id INTEGER PRIMARY KEY,
  precision TEXT NOT NULL,
  peak_flops_per_s REAL,
  ridge_flops_per_byte REAL
);
INSERT INTO roofline_ceilings VALUES(0,'fp32',19500000000000.0,12.540192926045016008);
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
CREATE TABLE top_ops (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  calls INTEGER NOT NULL,
  gpu_ops INTEGER NOT NULL,
  shapes TEXT,
  gpu_ns INTEGER NOT NULL,
  gpu_self_ns INTEGER NOT NULL,
  gpu_pct REAL NOT NULL,
  cpu_pct REAL NOT NULL,
  cpu_total_ns INTEGER,
  cpu_self_ns INTEGER,
  flops REAL,
  flop_time_ns INTEGER NOT NULL,
  unplaced_ns INTEGER NOT NULL,
  achieved_flops_per_s REAL,
  intensity REAL,
  ceiling_flops_per_s REAL,
  pct_of_ceiling REAL,
  memory_bound INTEGER
);
INSERT INTO top_ops VALUES(0,'aten::mm',1,1,NULL,300000,300000,30.0,4.0,40000,40000,2097152.0,300000,0,6990506666.6666660309,NULL,19500000000000.0,0.035848752136752135011,NULL);
INSERT INTO top_ops VALUES(1,'ProfilerStep#1',1,0,NULL,0,0,0.0,96.0,960000,960000,0.0,0,0,NULL,NULL,NULL,NULL,NULL);
CREATE TABLE collective_starts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  ts INTEGER NOT NULL
);
INSERT INTO collective_starts VALUES(0,'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)',1700000000000330000);
CREATE INDEX kernels_by_ts ON kernels(ts);
CREATE INDEX kernels_by_correlation ON kernels(correlation_id);
CREATE INDEX memcpys_by_ts ON memcpys(ts);
CREATE INDEX memsets_by_ts ON memsets(ts);
CREATE INDEX api_calls_by_ts ON api_calls(ts);
CREATE INDEX api_calls_by_correlation ON api_calls(correlation_id);
CREATE INDEX ranges_by_ts ON ranges(ts);
CREATE INDEX syncs_by_ts ON syncs(ts);
CREATE INDEX counters_by_ts ON counters(ts);
CREATE INDEX finding_evidence_by_finding ON finding_evidence(finding_id);
COMMIT;
