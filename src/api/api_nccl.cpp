// Entry points: NCCL communicators and collectives (dc_comm, dc_nccl_*).
#include "dccuda.h"

#include <cstring>
#include <vector>

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "libs/nccl/collectives.h"
#include "libs/nccl/comm.h"
#include "libs/nccl/nccl_result.h"
#include "loader/nccl.h"
#include "memory/buffer.h"
#include "stream/host_callback.h"
#include "stream/stream.h"

using namespace dc;

namespace {

void require_id_size(uint64_t size, const char* name) {
  if (size != DC_NCCL_UNIQUE_ID_BYTES) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is %llu; an NCCL unique id is DC_NCCL_UNIQUE_ID_BYTES (%d) bytes", name,
         static_cast<unsigned long long>(size), DC_NCCL_UNIQUE_ID_BYTES);
}

// A buffer argument: pinned when given, else null (where the header allows NULL).
Pinned<Buffer> optional_buffer(dc_buffer b, const char* name) {
  if (!b) return {};
  return pin<Buffer>(b, name);
}

// The shared prologue of the collectives: the comm, the stream, the last
// error rules of the section.
template <class Body>
dc_status collective(const char* call, dc_comm comm, dc_stream stream, Body&& body) {
  return guarded(call, [&] {
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Comm> c = pin<Comm>(comm, "comm");
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    CollectiveArgs a;
    a.call = call;
    a.comm = c.get();
    a.stream = s.get();
    body(a);
    return DC_SUCCESS;
  });
}

}  // namespace

extern "C" {

DC_API dc_status dc_nccl_library_version(int32_t* version) {
  return guarded("dc_nccl_library_version", [&] {
    clear_out(version);
    forbid_after_fork();
    require_arg(version, "version");
    require_nccl();
    *version = nccl_state().version;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_nccl_unique_id(uint8_t* bytes, uint64_t size) {
  return guarded("dc_nccl_unique_id", [&] {
    forbid_after_fork();
    forbid_in_host_callback();
    require_arg(bytes, "bytes");
    require_id_size(size, "size");
    const NcclApi& api = require_nccl();
    ncclUniqueId id;
    check_nccl(api.ncclGetUniqueId(&id), nullptr, "ncclGetUniqueId");
    std::memcpy(bytes, id.internal, sizeof id.internal);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_comm_init_rank(dc_device device, int32_t nranks, const uint8_t* id, uint64_t id_size,
                                   int32_t rank, dc_comm* comm) {
  return guarded("dc_comm_init_rank", [&] {
    clear_out(comm);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(id, "id");
    require_arg(comm, "comm");
    require_id_size(id_size, "id_size");
    if (nranks < 1)
      fail(DC_ERROR_INVALID_ARGUMENT, "nranks %d is not a rank count; pass the number of ranks (1 or more)", nranks);
    if (rank < 0 || rank >= nranks)
      fail(DC_ERROR_INVALID_ARGUMENT, "rank %d is not in 0..%d (nranks %d); pass this process's rank", rank,
           nranks - 1, nranks);
    d->check_usable();
    ncclUniqueId uid;
    std::memcpy(uid.internal, id, sizeof uid.internal);
    Ref<Comm> c = Comm::init_rank(d.share(), nranks, uid, rank);
    *comm = issue_handle<dc_comm>(c.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_comm_init_all(const int32_t* ordinals, int32_t count, dc_comm* comms) {
  return guarded("dc_comm_init_all", [&] {
    // comms[0] exists whenever count >= 1; the rest are cleared once the
    // count is known to be a device count (below).
    if (comms && count >= 1) comms[0] = nullptr;
    forbid_after_fork();
    forbid_in_host_callback();
    require_arg(comms, "comms");
    // The count is checked before anything is written to comms: a count that
    // cannot be right may not be the array's length either.
    int32_t devices = device_count();
    if (count < 1 || count > devices)
      fail(DC_ERROR_INVALID_ARGUMENT, "count %d is not a device count; pass 1 .. %d devices (the driver reports %d)",
           count, devices < 1 ? 1 : devices, devices);
    std::memset(comms, 0, sizeof(dc_comm) * static_cast<size_t>(count));
    require_arg(ordinals, "ordinals");
    for (int32_t i = 0; i < count; ++i)
      for (int32_t j = 0; j < i; ++j)
        if (ordinals[i] == ordinals[j])
          fail(DC_ERROR_INVALID_ARGUMENT, "ordinals[%d] and ordinals[%d] are the same device (%d); each rank needs "
               "its own GPU", j, i, ordinals[i]);
    std::vector<Ref<Device>> list;
    for (int32_t i = 0; i < count; ++i) {
      Ref<Device> d = Device::open(ordinals[i]);
      d->check_usable();
      list.push_back(std::move(d));
    }
    std::vector<Ref<Comm>> made = Comm::init_all(list);
    // Handles are issued only once all exist: a failure leaves none behind.
    for (int32_t i = 0; i < count; ++i) comms[i] = issue_handle<dc_comm>(made[i].get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_comm_split(dc_comm comm, int32_t color, int32_t key, dc_comm* out) {
  return guarded("dc_comm_split", [&] {
    clear_out(out);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Comm> c = pin<Comm>(comm, "comm");
    require_arg(out, "out");
    if (color < DC_COMM_SPLIT_NO_COLOR)
      fail(DC_ERROR_INVALID_ARGUMENT, "color %d is negative; pass a color of 0 or more, or DC_COMM_SPLIT_NO_COLOR "
           "(-1) to join no new communicator", color);
    Ref<Comm> n = c->split(color, key);
    if (n) *out = issue_handle<dc_comm>(n.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_comm_abort(dc_comm comm) {
  return guarded("dc_comm_abort", [&] {
    forbid_after_fork();
    Pinned<Comm> c = pin<Comm>(comm, "comm");
    c->abort();
    return DC_SUCCESS;
  });
}

DC_API void dc_comm_release(dc_comm comm) { close_handle<Comm>(comm); }

DC_API dc_status dc_comm_async_error(dc_comm comm, int32_t* nccl_result) {
  return guarded("dc_comm_async_error", [&] {
    clear_out(nccl_result);
    forbid_after_fork();
    Pinned<Comm> c = pin<Comm>(comm, "comm");
    require_arg(nccl_result, "nccl_result");
    *nccl_result = c->async_error();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_comm_rank(dc_comm comm, int32_t* rank) {
  return guarded("dc_comm_rank", [&] {
    clear_out(rank);
    forbid_after_fork();
    Pinned<Comm> c = pin<Comm>(comm, "comm");
    require_arg(rank, "rank");
    *rank = c->rank();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_comm_count(dc_comm comm, int32_t* count) {
  return guarded("dc_comm_count", [&] {
    clear_out(count);
    forbid_after_fork();
    Pinned<Comm> c = pin<Comm>(comm, "comm");
    require_arg(count, "count");
    *count = c->count();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_comm_device_ordinal(dc_comm comm, int32_t* ordinal) {
  return guarded("dc_comm_device_ordinal", [&] {
    clear_out(ordinal);
    forbid_after_fork();
    Pinned<Comm> c = pin<Comm>(comm, "comm");
    require_arg(ordinal, "ordinal");
    *ordinal = c->device().ordinal();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_comm_all_reduce(dc_comm comm, dc_buffer send, uint64_t send_offset, dc_buffer recv,
                                    uint64_t recv_offset, uint64_t count, int32_t datatype, int32_t op,
                                    dc_stream stream) {
  return collective("dc_comm_all_reduce", comm, stream, [&](CollectiveArgs& a) {
    Pinned<Buffer> s = pin<Buffer>(send, "send");
    Pinned<Buffer> r = pin<Buffer>(recv, "recv");
    a.send.buffer = s.get(), a.send.offset = send_offset;
    a.recv.buffer = r.get(), a.recv.offset = recv_offset;
    a.count = count, a.datatype = datatype, a.op = op;
    all_reduce(a);
  });
}

DC_API dc_status dc_comm_broadcast(dc_comm comm, dc_buffer send, uint64_t send_offset, dc_buffer recv,
                                   uint64_t recv_offset, uint64_t count, int32_t datatype, int32_t root,
                                   dc_stream stream) {
  return collective("dc_comm_broadcast", comm, stream, [&](CollectiveArgs& a) {
    Pinned<Buffer> s = optional_buffer(send, "send");
    Pinned<Buffer> r = pin<Buffer>(recv, "recv");
    a.send.buffer = s.get(), a.send.offset = send_offset;
    a.recv.buffer = r.get(), a.recv.offset = recv_offset;
    a.count = count, a.datatype = datatype, a.rank_arg = root;
    broadcast(a);
  });
}

DC_API dc_status dc_comm_reduce(dc_comm comm, dc_buffer send, uint64_t send_offset, dc_buffer recv,
                                uint64_t recv_offset, uint64_t count, int32_t datatype, int32_t op, int32_t root,
                                dc_stream stream) {
  return collective("dc_comm_reduce", comm, stream, [&](CollectiveArgs& a) {
    Pinned<Buffer> s = pin<Buffer>(send, "send");
    Pinned<Buffer> r = optional_buffer(recv, "recv");
    a.send.buffer = s.get(), a.send.offset = send_offset;
    a.recv.buffer = r.get(), a.recv.offset = recv_offset;
    a.count = count, a.datatype = datatype, a.op = op, a.rank_arg = root;
    reduce(a);
  });
}

DC_API dc_status dc_comm_all_gather(dc_comm comm, dc_buffer send, uint64_t send_offset, dc_buffer recv,
                                    uint64_t recv_offset, uint64_t send_count, int32_t datatype, dc_stream stream) {
  return collective("dc_comm_all_gather", comm, stream, [&](CollectiveArgs& a) {
    Pinned<Buffer> s = pin<Buffer>(send, "send");
    Pinned<Buffer> r = pin<Buffer>(recv, "recv");
    a.send.buffer = s.get(), a.send.offset = send_offset;
    a.recv.buffer = r.get(), a.recv.offset = recv_offset;
    a.count = send_count, a.datatype = datatype;
    all_gather(a);
  });
}

DC_API dc_status dc_comm_reduce_scatter(dc_comm comm, dc_buffer send, uint64_t send_offset, dc_buffer recv,
                                        uint64_t recv_offset, uint64_t recv_count, int32_t datatype, int32_t op,
                                        dc_stream stream) {
  return collective("dc_comm_reduce_scatter", comm, stream, [&](CollectiveArgs& a) {
    Pinned<Buffer> s = pin<Buffer>(send, "send");
    Pinned<Buffer> r = pin<Buffer>(recv, "recv");
    a.send.buffer = s.get(), a.send.offset = send_offset;
    a.recv.buffer = r.get(), a.recv.offset = recv_offset;
    a.count = recv_count, a.datatype = datatype, a.op = op;
    reduce_scatter(a);
  });
}

DC_API dc_status dc_comm_send(dc_comm comm, dc_buffer send_buffer, uint64_t send_offset, uint64_t count,
                              int32_t datatype, int32_t peer, dc_stream stream) {
  return collective("dc_comm_send", comm, stream, [&](CollectiveArgs& a) {
    Pinned<Buffer> s = pin<Buffer>(send_buffer, "send");
    a.send.buffer = s.get(), a.send.offset = send_offset;
    a.count = count, a.datatype = datatype, a.rank_arg = peer;
    dc::send(a);
  });
}

DC_API dc_status dc_comm_recv(dc_comm comm, dc_buffer recv_buffer, uint64_t recv_offset, uint64_t count,
                              int32_t datatype, int32_t peer, dc_stream stream) {
  return collective("dc_comm_recv", comm, stream, [&](CollectiveArgs& a) {
    Pinned<Buffer> r = pin<Buffer>(recv_buffer, "recv");
    a.recv.buffer = r.get(), a.recv.offset = recv_offset;
    a.count = count, a.datatype = datatype, a.rank_arg = peer;
    dc::recv(a);
  });
}

DC_API dc_status dc_nccl_group_start(void) {
  return guarded("dc_nccl_group_start", [&] {
    forbid_after_fork();
    forbid_in_host_callback();
    group_start();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_nccl_group_end(void) {
  return guarded("dc_nccl_group_end", [&] {
    forbid_after_fork();
    forbid_in_host_callback();
    group_end();
    return DC_SUCCESS;
  });
}

}  // extern "C"
