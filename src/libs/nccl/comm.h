// A dc_comm: one rank of an NCCL communicator, on one device (which it keeps
// alive). NCCL's own rules hold: one thread uses a comm at a time, except
// abort(), which any thread may call at any time: so the NCCL handle is read
// without a lock, and abort() only marks the comm and calls ncclCommAbort
// (NCCL frees the communicator there; the handle is never used again).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "device/device.h"
#include "loader/cuda_abi/nccl_abi.h"

namespace dc {

class Comm : public DeviceObject {
 public:
  static constexpr HandleType kHandleType = HandleType::Comm;

  // ncclCommInitRank on `device` (its context bound during the call). Inside
  // a group NCCL finishes the join at group end: rank and count are read then.
  static Ref<Comm> init_rank(Ref<Device> device, int32_t nranks, const ncclUniqueId& id, int32_t rank);
  // ncclCommInitAll over the devices (distinct, checked by the entry point).
  static std::vector<Ref<Comm>> init_all(const std::vector<Ref<Device>>& devices);
  // ncclCommSplit (NCCL 2.18+); null for DC_COMM_SPLIT_NO_COLOR.
  Ref<Comm> split(int32_t color, int32_t key);
  // ncclCommAbort, once; later calls do nothing.
  void abort();

  ~Comm() override;

  // The NCCL communicator; fails with DC_ERROR_INVALID_STATE once aborted.
  ncclComm_t usable(const char* what) const;
  bool aborted() const noexcept { return aborted_.load(std::memory_order_acquire); }
  int32_t rank() const;
  int32_t count() const;
  int32_t async_error() const;

 private:
  Comm(Ref<Device> device, int32_t rank, int32_t count) noexcept
      : DeviceObject(HandleType::Comm, std::move(device)), rank_(rank), count_(count) {}
  // Asks NCCL (ncclCommUserRank / ncclCommCount) the first time, when the
  // comm was made without knowing (a split).
  int32_t ask(std::atomic<int32_t>& cache, bool rank) const;

  // NCCL writes it: at once outside a group, at the group's end inside one
  // (init and split called between dc_nccl_group_start and _end), which is
  // why the object exists before the call and NCCL is given its address.
  ncclComm_t comm_ = nullptr;
  // Where NCCL writes the (NULL) communicator of a split with no color.
  ncclComm_t no_color_sink_ = nullptr;
  std::atomic<bool> aborted_{false};
  // -1: not known yet.
  mutable std::atomic<int32_t> rank_;
  mutable std::atomic<int32_t> count_;
};

}  // namespace dc
