// Creating the NCCL communicator where it cannot work fails with a clear
// error value, never a crash: NCCL missing, a library that is not NCCL, a GPU
// that does not exist, and (on this machine without one) no GPU at all.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "reference_workloads/gpt2/dist/nccl_communicator.h"

namespace damscope::gpt2 {
namespace {

// Sets DAMSCOPE_NCCL_LIBRARY for one test and restores it after.
class NcclLibraryOverride {
 public:
  explicit NcclLibraryOverride(const char* path) {
    if (const char* old = std::getenv(kName)) old_ = old;
    setenv(kName, path, 1);
  }
  ~NcclLibraryOverride() {
    if (old_)
      setenv(kName, old_->c_str(), 1);
    else
      unsetenv(kName);
  }

 private:
  static constexpr const char* kName = "DAMSCOPE_NCCL_LIBRARY";
  std::optional<std::string> old_;
};

std::string creationError(int device) {
  const auto comm = createNcclCommunicator(RankEnvironment(), device, nullptr);
  EXPECT_FALSE(comm.ok());
  return comm.ok() ? std::string() : comm.error().message();
}

bool ncclLoadable() {
  // An impossible device fails after loading NCCL and before anything else.
  return creationError(1 << 20).rfind("NCCL could not be loaded", 0) != 0;
}

TEST(NcclCommunicator, MissingLibraryIsNamedWithTheRemedy) {
  NcclLibraryOverride missing("/nonexistent/libnccl.so.2");
  const std::string error = creationError(0);
  EXPECT_EQ(error.rfind("NCCL could not be loaded (/nonexistent/libnccl.so.2: ", 0), 0) << error;
  EXPECT_NE(error.find("set DAMSCOPE_NCCL_LIBRARY"), std::string::npos) << error;
}

TEST(NcclCommunicator, LibraryThatIsNotNccl) {
  NcclLibraryOverride not_nccl("libm.so.6");
  const std::string error = creationError(0);
  EXPECT_EQ(error.rfind("NCCL could not be loaded (libm.so.6 has no ncclGetVersion", 0), 0)
      << error;
}

TEST(NcclCommunicator, DeviceThatDoesNotExist) {
  if (!ncclLoadable()) GTEST_SKIP() << "NCCL (libnccl.so.2) cannot be loaded here";
  const std::string error = creationError(4096);
  EXPECT_EQ(error.rfind("nccl: rank 0 on GPU 4096: cudaSetDevice: ", 0), 0) << error;
}

TEST(NcclCommunicator, NoGpuFailsAtTheDevice) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0)
    GTEST_SKIP() << "this machine has a GPU";
  if (!ncclLoadable()) GTEST_SKIP() << "NCCL (libnccl.so.2) cannot be loaded here";
  const std::string error = creationError(0);
  EXPECT_EQ(error.rfind("nccl: rank 0 on GPU 0: cudaSetDevice: ", 0), 0) << error;
}

}  // namespace
}  // namespace damscope::gpt2
