#include "libs/nccl/comm.h"

#include "core/error.h"
#include "libs/nccl/nccl_result.h"
#include "loader/nccl.h"

namespace dc {

Ref<Comm> Comm::init_rank(Ref<Device> device, int32_t nranks, const ncclUniqueId& id, int32_t rank) {
  const NcclApi& api = require_nccl();
  ContextScope bind(*device);
  Ref<Comm> c = Ref<Comm>::adopt(new Comm(std::move(device), rank, nranks));
  check_nccl(api.ncclCommInitRank(&c->comm_, nranks, id, rank), nullptr, "ncclCommInitRank");
  return c;
}

std::vector<Ref<Comm>> Comm::init_all(const std::vector<Ref<Device>>& devices) {
  const NcclApi& api = require_nccl();
  std::vector<int> ordinals;
  for (const Ref<Device>& d : devices) ordinals.push_back(d->ordinal());
  std::vector<ncclComm_t> comms(devices.size(), nullptr);
  // NCCL binds each device itself (the runtime's primary contexts, which are
  // dccuda's); the first device's context is bound so that a thread without
  // one does not get a context NCCL picks.
  ContextScope bind(*devices.front());
  check_nccl(api.ncclCommInitAll(comms.data(), static_cast<int>(devices.size()), ordinals.data()), nullptr,
             "ncclCommInitAll");
  std::vector<Ref<Comm>> out;
  int32_t n = static_cast<int32_t>(devices.size());
  for (size_t i = 0; i < devices.size(); ++i) {
    out.push_back(Ref<Comm>::adopt(new Comm(devices[i], static_cast<int32_t>(i), n)));
    out.back()->comm_ = comms[i];
  }
  return out;
}

Ref<Comm> Comm::split(int32_t color, int32_t key) {
  const NcclApi& api = require_nccl();
  ncclComm_t parent = usable("dc_comm_split");
  require_nccl_function(reinterpret_cast<const void*>(api.ncclCommSplit), "ncclCommSplit", 21800, "dc_comm_split");
  ContextScope bind(device());
  if (color < 0) {
    // This rank joins nothing, but takes part in the split all the same.
    // NCCL writes its NULL at the group's end inside a group: into this
    // comm's own slot, which outlives the call (a local would not).
    check_nccl(api.ncclCommSplit(parent, color, key, &no_color_sink_, nullptr), parent, "ncclCommSplit");
    return {};
  }
  Ref<Comm> c = Ref<Comm>::adopt(new Comm(device_ref(), -1, -1));
  check_nccl(api.ncclCommSplit(parent, color, key, &c->comm_, nullptr), parent, "ncclCommSplit");
  return c;
}

void Comm::abort() {
  if (aborted_.exchange(true, std::memory_order_acq_rel)) return;
  const NcclApi& api = require_nccl();
  if (!current() || !comm_) return;  // the device was reset (NCCL's state went with it), or nothing was built
  ContextScope bind(device());
  check_nccl(api.ncclCommAbort(comm_), nullptr, "ncclCommAbort");
}

Comm::~Comm() {
  if (!comm_ || aborted() || !current()) return;
  const NcclState& s = nccl_state();
  if (s.status != DC_SUCCESS) return;
  const NcclApi& api = require_nccl();
  try {
    ContextScope bind(device());
    // Finalize (2.14+) flushes the comm's pending work before Destroy frees
    // it; a failure there leaves nothing better to do than destroy.
    if (api.ncclCommFinalize) api.ncclCommFinalize(comm_);
    api.ncclCommDestroy(comm_);
  } catch (...) {
    // A release reports nothing (the header's convention); the device is
    // gone or lost, and NCCL's resources with it.
  }
}

ncclComm_t Comm::usable(const char* what) const {
  if (aborted()) [[unlikely]]
    fail(DC_ERROR_INVALID_STATE, "the communicator was aborted (dc_comm_abort) and cannot run %s; release it and "
         "build a new one", what);
  check_usable();
  if (!comm_) [[unlikely]]
    fail(DC_ERROR_INVALID_STATE, "the communicator is not ready: it was made inside a group (dc_nccl_group_start) "
         "and NCCL builds it at dc_nccl_group_end; end the group first");
  return comm_;
}

int32_t Comm::ask(std::atomic<int32_t>& cache, bool rank) const {
  int32_t v = cache.load(std::memory_order_acquire);
  if (v >= 0) return v;
  const NcclApi& api = require_nccl();
  ncclComm_t c = usable(rank ? "dc_comm_rank" : "dc_comm_count");
  int n = 0;
  if (rank) check_nccl(api.ncclCommUserRank(c, &n), c, "ncclCommUserRank");
  else check_nccl(api.ncclCommCount(c, &n), c, "ncclCommCount");
  cache.store(n, std::memory_order_release);
  return n;
}

int32_t Comm::rank() const { return ask(rank_, true); }
int32_t Comm::count() const { return ask(count_, false); }

int32_t Comm::async_error() const {
  const NcclApi& api = require_nccl();
  ncclComm_t c = usable("dc_comm_async_error");
  ncclResult_t r = ncclSuccess;
  check_nccl(api.ncclCommGetAsyncError(c, &r), c, "ncclCommGetAsyncError");
  return static_cast<int32_t>(r);
}

}  // namespace dc
