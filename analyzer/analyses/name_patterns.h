// Names that mean something to the analyses, as data: which host ranges are
// training steps, which are data loading or collective communication, and
// which CUDA/HIP API calls block the host until the GPU catches up.
//
// Sources: PyTorch profiler names (torch/profiler/profiler.py records
// "ProfilerStep#N"; torch/utils/data/dataloader.py records
// "enumerate(DataLoader)#<iter>.__next__"; torch.distributed records
// "nccl:all_reduce", "c10d::allreduce_", "record_param_comms"), the damscope
// workload annotations (DESIGN.md: ranges named "step", "data",
// "dataloader"), and the CUDA Runtime API reference, "API synchronization
// behavior" (which calls block the host).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace damscope {

// N of "ProfilerStep#N", if `name` is one.
std::optional<int64_t> profilerStepNumber(std::string_view name);

// Whether `name` names a training step in a user or trainer annotation:
// "step", "train_step", "training_step", "iteration", "iter", "train step",
// optionally followed by a number ("step 12", "step_12", "iteration#3"),
// case-insensitive. `number` receives the number when there is one.
bool isStepAnnotationName(std::string_view name, std::optional<int64_t>* number);

// A host range during which the host waits for or produces input data:
// DataLoader/DataPipe iteration, the trainer's "data"/"dataloader" ranges and
// the usual user names for them; `category` is ranges.category (the 2021
// Kineto format has its own "dataloader" category).
bool isDataLoadingRange(std::string_view name, std::string_view category);

// A host range that runs or waits for a collective (NCCL, Gloo, MPI, c10d).
bool isCommunicationRange(std::string_view name);

// A host range that is framework work on the CPU (an ATen op), as opposed to
// a container annotation (a step, "forward", a Python function) that spans
// idle time too: the host is busy only inside the former.
bool isFrameworkOpCategory(std::string_view category);

// An API call that blocks the calling thread until GPU work completes:
// device/stream/event/context synchronize, the synchronous memcpy family
// (cudaMemcpy, cudaMemcpy2D, cuMemcpyDtoH, hipMemcpy, ...), and cudaFree,
// which synchronizes the device before releasing memory.
bool isSynchronizingApi(std::string_view name);

}  // namespace damscope
