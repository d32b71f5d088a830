// How the model tells data parallel (dist/gradient_sync.h) that parameter
// gradients are final during the backward pass, so that their all-reduce can
// start while the rest of the backward pass runs (PyTorch DDP's bucketed
// overlap: Li et al., "PyTorch Distributed: Experiences on Accelerating Data
// Parallel Training", VLDB 2020, section 3.2).
#pragma once

#include "reference_workloads/gpt2/model/op_sites.h"

namespace damscope::gpt2 {

class GradientListener {
 public:
  virtual ~GradientListener() = default;
  // Called after the backward op at (site, layer) was issued, for the sites
  // that finish parameter gradients (paramGradientsFinished(site) is not
  // empty), in backward order. The gradients are final once the op has run:
  // on an asynchronous backend, "issued" orders later work after it.
  virtual void gradientsReady(OpSite site, int layer) = 0;
};

}  // namespace damscope::gpt2
