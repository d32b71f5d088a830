// The CPU's measured ceilings, probed at start-up in well under 0.2 s: what
// the trainer's MFU divides by, and what the model annotation tells damscope's
// roofline (peak_tflops, bandwidth_gbs).
//
// Peak FP32 FLOP/s: every thread runs a loop of independent fused
// multiply-add chains on vector registers (the widest of AVX-512, AVX2+FMA,
// SSE2 that the CPU has; 12 chains, enough to cover FMA latency x FMA ports
// on current cores, e.g. 4 cycles x 2 ports). Nothing else runs, no memory
// is touched: it is the arithmetic ceiling, the figure datasheets quote as
// cores x FMA ports x lanes x 2 x clock, at the clock the chip holds with
// all these threads busy.
// The FMA loop is timed by each thread's CPU time, summed over threads, so
// that other work on a shared machine (time slices this process does not
// get) does not lower it: it is what the cores can do, and MFU, computed
// with wall-clock step times, shows what the run made of it. Two SMT
// threads of one core both run all the time and each gets half, so their sum
// is still the core's throughput.
// Memory bandwidth: STREAM's triad a[i] = b[i] + s c[i] (McCalpin, "Memory
// Bandwidth and Machine Balance in Current High Performance Computers", IEEE
// TCCA Newsletter, 1995; https://www.cs.virginia.edu/stream/) on all
// threads, over arrays 1.5x the last-level cache each, best of four
// repetitions by the wall clock (the memory system is shared: the threads
// must stream at the same time), counted as STREAM counts it: 3 x 4 bytes
// per element (two reads, one write; the write-allocate read is not counted).
#pragma once

#include <string>

namespace damscope::gpt2 {

struct PeakProbe {
  double flops_per_s = 0;  // fp32
  double bytes_per_s = 0;
  std::string isa;         // "avx512f", "avx2+fma", "sse2"
  size_t array_bytes = 0;  // each of the triad's three arrays
  double seconds = 0;      // the whole probe
};

// Runs both probes on `threads` OpenMP threads, one per core the run uses.
PeakProbe probePeak(int threads);

}  // namespace damscope::gpt2
