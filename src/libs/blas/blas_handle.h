// A dc_blas: one cuBLAS handle bound to a device and a stream, with a
// workspace dccuda owns (a device buffer handed to cublasSetWorkspace_v2).
//
// Thread-safety: a cuBLAS handle's stream, pointer mode and workspace are
// state that concurrent calls would change under each other, so every use
// holds the handle's mutex (BlasCall). An uncontended lock costs tens of
// nanoseconds, nothing beside a GEMM; a caller who wants parallel enqueues
// uses one handle per thread.
#pragma once

#include "loader/cuda_abi/cublas_abi.h"

#include <cstdint>
#include <mutex>

#include "dccuda.h"
#include "device/device.h"
#include "loader/cublas.h"
#include "memory/buffer.h"
#include "stream/stream.h"

namespace dc {

class Blas : public DeviceObject {
 public:
  static constexpr HandleType kHandleType = HandleType::Blas;
  static constexpr uint64_t kDefaultWorkspaceBytes = 32ull << 20;  // cuBLAS's own default on Hopper

  // The device's context must be bound; `stream` is on the device.
  static Ref<Blas> create(Ref<Device> device, Ref<Stream> stream);
  ~Blas() override;

  // Every member below needs mutex() held and the device's context bound.
  std::mutex& mutex() noexcept { return mutex_; }
  cublasHandle_t handle() const noexcept { return handle_; }
  Stream& stream() const noexcept { return *stream_; }
  const Ref<Stream>& stream_ref() const noexcept { return stream_; }
  int32_t pointer_mode() const noexcept { return pointer_mode_; }

  void set_stream(Ref<Stream> stream);
  void set_pointer_mode(int32_t mode);
  void set_math_mode(int32_t mode);
  void set_workspace_size(uint64_t bytes);
  // After work was enqueued: the workspace's release waits for it.
  void note_work() noexcept {
    if (workspace_) workspace_->note_use(stream_.get());
  }

 private:
  Blas(Ref<Device> device, Ref<Stream> stream) noexcept
      : DeviceObject(HandleType::Blas, std::move(device)), stream_(std::move(stream)) {}
  // A fresh workspace of workspace_bytes_ given to cuBLAS (the old one is
  // released in order on the stream it was last used on).
  void replace_workspace();

  std::mutex mutex_;
  cublasHandle_t handle_ = nullptr;
  Ref<Stream> stream_;
  Ref<Buffer> workspace_;
  uint64_t workspace_bytes_ = kDefaultWorkspaceBytes;
  int32_t pointer_mode_ = DC_BLAS_POINTER_HOST;
};

// Fails unless `status` is CUBLAS_STATUS_SUCCESS: ALLOC_FAILED is
// DC_ERROR_OUT_OF_MEMORY, NOT_SUPPORTED / ARCH_MISMATCH DC_ERROR_NOT_SUPPORTED,
// anything else DC_ERROR_DRIVER; the message names `entry` and the status.
void check_cublas(int status, const char* entry);

}  // namespace dc
