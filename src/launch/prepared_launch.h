// A prepared launch (dc_launch): a function, a checked configuration and
// bound arguments kept ready for the driver, so that an enqueue is the raw
// cuLaunchKernel plus a few loads and compares.
//
// The parameters are stored as the kernel lays them out (one block, each
// parameter at its offset, when the layout is known; one slot per argument
// otherwise), next to the array of pointers the driver reads them through.
// Everything is checked when set (dc_launch_create / set_config / set_arg);
// the enqueue pins the launch and the stream (one compare-and-swap each),
// checks that the stream is on the function's device (a pointer compare),
// that the objects are usable and that the kernel's shared memory limit
// still holds, binds the context and calls the driver; no allocation, no map
// lookup, no driver query. It then notes the stream on each bound buffer.
//
// Threads: enqueues run in parallel with each other; a change (set_config,
// set_arg) waits until the enqueues in flight have passed the driver call and
// holds new ones off while it runs, so that an enqueue sees the arguments
// before or after a change, never half of it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/object.h"
#include "dccuda.h"
#include "launch/launch_shape.h"
#include "memory/buffer.h"
#include "module/function.h"
#include "stream/stream.h"

namespace dc {

// Readers (enqueues) share; a writer (a change) excludes them. Spins with
// yields: changes are short, and readers hold it only across one driver call.
class LaunchGuard {
 public:
  void lock_shared() noexcept {
    for (;;) {
      if (!(state_.fetch_add(1, std::memory_order_acquire) & kWriter)) [[likely]]
        return;
      state_.fetch_sub(1, std::memory_order_relaxed);
      wait_while_writer();
    }
  }
  void unlock_shared() noexcept { state_.fetch_sub(1, std::memory_order_release); }
  void lock() noexcept;
  void unlock() noexcept { state_.fetch_and(~kWriter, std::memory_order_release); }

 private:
  static constexpr uint32_t kWriter = 1u << 31;
  void wait_while_writer() noexcept;
  std::atomic<uint32_t> state_{0};
};

class Launch : public Object {
 public:
  static constexpr HandleType kHandleType = HandleType::Launch;

  // Most parameters a launch of a kernel with an unknown layout may bind
  // (the driver's own limit is 32764 bytes of parameters).
  static constexpr uint32_t kMaxUnknownParams = 4096;

  // The function's context must be bound (the kernel's limits are read).
  static Ref<Launch> create(Ref<Function> function, const dc_launch_config* config);

  Function& function() const noexcept { return *function_; }

  void set_config(const dc_launch_config* config);
  void set_arg(uint32_t index, const dc_arg& arg);
  void set_args(const dc_arg* args, uint32_t num_args);

  // The hot path (see the top of this file).
  void enqueue(Stream& stream);
  // A batch's two passes (launch/launch_batch.cpp): every check of enqueue,
  // enqueueing nothing; then enqueue's work with the function's context
  // already bound by the caller.
  void check_enqueue(const Stream& stream);
  void enqueue_bound(Stream& stream);

  // For a graph's kernel node (launch/kernel_node.h): the driver's parameters,
  // pointing into this launch's storage (valid while it lives unchanged).
  // Fails as an enqueue does while an argument is unbound, and with
  // DC_ERROR_NOT_SUPPORTED for a shape that needs launch attributes.
  void node_params(CUDA_KERNEL_NODE_PARAMS_v2* out) const;
  // The bound buffers, for the graph to keep.
  std::vector<Ref<Object>> bound_buffers() const;

 private:
  explicit Launch(Ref<Function> function);
  LaunchShape checked_shape(const dc_launch_config* config) const;
  void use_shape(const LaunchShape& shape);
  // Under the writer lock: stores one checked argument; returns the buffer
  // reference it replaces (dropped by the caller after unlocking).
  Ref<Buffer> store(uint32_t index, const dc_arg& arg, Ref<Buffer> buffer, CUdeviceptr address);
  void refresh_buffers();
  [[noreturn]] void fail_unbound() const;

  Ref<Function> function_;
  bool known_;                        // the kernel's layout is known
  LaunchShape shape_;
  LaunchAttributes attributes_;
  bool use_ex_ = false;

  // Known layout: one block, params_bytes long (8-byte aligned storage).
  std::unique_ptr<uint64_t[]> block_;
  // Unknown layout: one slot per argument.
  std::vector<std::unique_ptr<uint64_t[]>> slots_;
  std::vector<void*> pointers_;       // what the driver reads each parameter through
  std::vector<Ref<Buffer>> buffers_;  // per parameter: the bound buffer, or empty
  std::vector<uint8_t> bound_;        // per parameter: 1 once set
  uint32_t unbound_ = 0;              // parameters not yet set
  std::vector<Buffer*> used_;         // the bound buffers, for note_use at enqueue
  LaunchGuard guard_;
};

}  // namespace dc
