// How the model reports each op invocation to whoever watches: the NVTX
// annotations (train/nvtx_tracer.h), or a test that collects the sites. The
// model calls beginOp/endOp around every backend call; an implementation
// must be cheap (a few nanoseconds) because a step makes hundreds of calls.
#pragma once

#include "reference_workloads/gpt2/model/op_sites.h"

namespace damscope::gpt2 {

class OpTracer {
 public:
  virtual ~OpTracer() = default;
  // layer: the block index for per-layer sites, -1 otherwise.
  virtual void beginOp(OpSite site, int layer) = 0;
  virtual void endOp() = 0;
};

// Opens a tracer scope for one op invocation; a null tracer costs a branch.
class OpScope {
 public:
  OpScope(OpTracer* tracer, OpSite site, int layer = -1) : tracer_(tracer) {
    if (tracer_) tracer_->beginOp(site, layer);
  }
  ~OpScope() {
    if (tracer_) tracer_->endOp();
  }
  OpScope(const OpScope&) = delete;
  OpScope& operator=(const OpScope&) = delete;

 private:
  OpTracer* tracer_;
};

}  // namespace damscope::gpt2
