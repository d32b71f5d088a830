#!/usr/bin/python3
"""HolisticTraceAnalysis's first analysis of one trace, the reference issue 13
compares damscope's with: HTA's load (TraceAnalysis over a folder holding the
trace) and its temporal breakdown, timed inside the process.

  hta_first_analysis.py HTA_SOURCE TRACE_DIR

HTA_SOURCE is a checkout of https://github.com/facebookresearch/HolisticTraceAnalysis
(its folder holding hta/); TRACE_DIR a folder holding the one trace. Run it
with Debian's python3 and its python3-pandas, python3-plotly, python3-psutil,
python3-networkx and python3-yaml (scripts/install-deps.sh --hta), under
/usr/bin/time for the peak RSS: bench/first_analysis_bench.sh does.

Prints one line: "hta <load s> <breakdown s> <idle %> <compute %> <non-compute %>",
the percentages being HTA's own, so that the caller can check them against
the figures HTA is known to give (../shared/traces/README.md).
"""
import sys
import time

if len(sys.argv) != 3:
    sys.exit("usage: hta_first_analysis.py HTA_SOURCE TRACE_DIR")
sys.path.insert(0, sys.argv[1])

from hta.trace_analysis import TraceAnalysis  # noqa: E402  (after the path is set)

start = time.perf_counter()
analysis = TraceAnalysis(trace_dir=sys.argv[2])
loaded = time.perf_counter()
breakdown = analysis.get_temporal_breakdown(visualize=False)
done = time.perf_counter()

row = breakdown.iloc[0]
print(f"hta {loaded - start:.3f} {done - loaded:.3f} {row['idle_time_pctg']} "
      f"{row['compute_time_pctg']} {row['non_compute_time_pctg']}")
