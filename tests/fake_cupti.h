// Controls of the stand-in libcupti (fake_cupti.cc), which tests load
// through the collector's own seam (CollectorConfig::cupti_path, that is
// DAMSCOPE_CUPTI_PATH) and then open themselves with dlopen on the same path
// to reach these functions. C linkage, so that dlsym finds them by name; the
// FakeCupti* types are the pointer types to cast dlsym's result to.
#pragma once

#include <cstddef>

extern "C" {

// Back to the state of a freshly loaded libcupti: nothing subscribed, no
// callbacks, no buffers, no counts, no probe, no gate.
void fakeCuptiReset();
using FakeCuptiReset = void (*)();

// Called on CUPTI's worker thread during every CUPTI entry point the
// collector makes, while the calling thread waits inside that entry point
// (holding the fake's internal lock). `function` is the entry point's name.
void fakeCuptiSetProbe(void (*probe)(void* arg, const char* function), void* arg);
using FakeCuptiSetProbe = void (*)(void (*)(void*, const char*), void*);

// What cuInit does for an injected tool: takes the driver's lock (here the
// fake's internal lock) and, holding it, calls the injection's entry point
// (InitializeInjection -> Collector::onCudaInitialized).
void fakeCudaInit(void (*initialize)(void* arg), void* arg);
using FakeCudaInit = void (*)(void (*)(void*), void*);

// `count` kernels run on the calling (application) thread: their records go
// into the buffer CUPTI holds, requested from the collector when needed; a
// record that finds no buffer is dropped and counted.
void fakeCuptiLaunchKernels(int count);
using FakeCuptiLaunchKernels = void (*)(int);

// Adds to the count cuptiActivityGetNumDroppedRecords reports (and resets).
void fakeCuptiAddDroppedRecords(size_t count);
using FakeCuptiAddDroppedRecords = void (*)(size_t);

// How often the named CUPTI entry point was called since the last reset.
int fakeCuptiCalls(const char* function);
using FakeCuptiCalls = int (*)(const char*);

// While closed, cuptiActivityEnable blocks (inside CUPTI, holding its lock)
// until the gate opens; fakeCuptiGateReached says whether a call is waiting.
void fakeCuptiSetGate(bool closed);
using FakeCuptiSetGate = void (*)(bool);
bool fakeCuptiGateReached();
using FakeCuptiGateReached = bool (*)();

}  // extern "C"
