// An owning handle to backend memory (Backend::allocate/release), typed,
// move-only.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

#include "reference_workloads/gpt2/model/backend.h"
#include "base/result.h"

namespace damscope::gpt2 {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : backend_(std::exchange(o.backend_, nullptr)), data_(std::exchange(o.data_, nullptr)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      backend_ = std::exchange(o.backend_, nullptr);
      data_ = std::exchange(o.data_, nullptr);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  // count zero-initialised elements; `what` names the buffer in the error.
  static Result<DeviceBuffer> allocate(Backend& backend, size_t count, const std::string& what) {
    DeviceBuffer b;
    b.backend_ = &backend;
    b.data_ = static_cast<T*>(backend.allocate(count * sizeof(T)));
    if (!b.data_ && count > 0) {
      return Error("cannot allocate " + std::to_string(count * sizeof(T)) + " bytes for " + what +
                       " on the " + backend.name() + " backend",
                   ErrorCode::kFailure);
    }
    return b;
  }

  T* get() const { return data_; }

 private:
  void reset() {
    if (backend_ && data_) backend_->release(data_);
    data_ = nullptr;
  }
  Backend* backend_ = nullptr;
  T* data_ = nullptr;
};

}  // namespace damscope::gpt2
