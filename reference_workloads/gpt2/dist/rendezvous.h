// The ranks of a job meet once, before their first collective: rank 0 hands
// every other rank a small blob (NCCL's 128-byte ncclUniqueId, which
// ncclCommInitRank needs on every rank; nccl.h: "ncclGetUniqueId should be
// called once and the Id should be distributed to all ranks in the
// communicator before calling ncclCommInitRank"). Plain TCP (IPv4) at
// MASTER_ADDR:MASTER_PORT, as torchrun's TCPStore: rank 0 listens on every
// interface, the others connect, retrying while rank 0 is not yet up.
//
// Wire format, all integers 32-bit big-endian: a rank sends "DMSR", its rank
// and its world size; rank 0 answers "DMSR", its world size, the blob's
// length and the blob, then closes. Both sides check the world sizes agree,
// so that two jobs that collide on a port fail instead of mixing.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "reference_workloads/gpt2/dist/rank_environment.h"
#include "base/result.h"

namespace damscope::gpt2 {

struct RendezvousOptions {
  // How long rank 0 waits for every other rank to connect, and how long the
  // others keep trying to reach rank 0. torchrun's default rendezvous timeout
  // is far longer (900 s); 60 s is ample for ranks started together.
  std::chrono::milliseconds timeout{60'000};
  // The pause between a rank's attempts to connect.
  std::chrono::milliseconds retry_interval{100};
};

// On rank 0, sends `blob` (at most 64 KiB) to ranks 1..world_size-1 and
// returns it; on the others, `blob` is ignored and rank 0's is returned. One
// rank alone returns `blob` without touching the network. Blocks until done
// or the timeout; errors name MASTER_ADDR:MASTER_PORT and say what was
// missing, e.g. "rendezvous: rank 1 could not reach rank 0 at
// 10.0.0.1:29500 within 60 s (Connection refused)".
Result<std::vector<uint8_t>> shareFromRankZero(const RankEnvironment& env,
                                               const std::vector<uint8_t>& blob,
                                               const RendezvousOptions& options = {});

}  // namespace damscope::gpt2
