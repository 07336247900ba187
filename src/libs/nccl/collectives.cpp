#include "libs/nccl/collectives.h"

#include <cinttypes>
#include <limits>

#include "core/error.h"
#include "libs/nccl/nccl_result.h"
#include "loader/nccl.h"

namespace dc {
namespace {

struct TypeInfo {
  ncclDataType_t nccl;
  uint32_t size;
  const char* name;
};

// Indexed by DC_NCCL_* - 1.
constexpr TypeInfo kTypes[] = {
    {ncclInt8, 1, "DC_NCCL_INT8"},         {ncclUint8, 1, "DC_NCCL_UINT8"},
    {ncclInt32, 4, "DC_NCCL_INT32"},       {ncclUint32, 4, "DC_NCCL_UINT32"},
    {ncclInt64, 8, "DC_NCCL_INT64"},       {ncclUint64, 8, "DC_NCCL_UINT64"},
    {ncclFloat16, 2, "DC_NCCL_FLOAT16"},   {ncclFloat32, 4, "DC_NCCL_FLOAT32"},
    {ncclFloat64, 8, "DC_NCCL_FLOAT64"},   {ncclBfloat16, 2, "DC_NCCL_BFLOAT16"},
};
constexpr int32_t kTypeCount = sizeof(kTypes) / sizeof(kTypes[0]);
static_assert(DC_NCCL_INT8 == 1 && DC_NCCL_BFLOAT16 == kTypeCount);

// Indexed by DC_NCCL_* op - 1.
constexpr ncclRedOp_t kOps[] = {ncclSum, ncclProd, ncclMin, ncclMax, ncclAvg};
static_assert(DC_NCCL_SUM == 1 && DC_NCCL_AVG == 5);

// bfloat16 and avg came with NCCL 2.10.
constexpr int32_t kNccl210 = 21000;

const TypeInfo& type_of(int32_t datatype) {
  if (datatype < 1 || datatype > kTypeCount) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "datatype %d is not a DC_NCCL_* datatype (DC_NCCL_INT8 %d .. DC_NCCL_BFLOAT16 %d)",
         datatype, DC_NCCL_INT8, DC_NCCL_BFLOAT16);
  const TypeInfo& t = kTypes[datatype - 1];
  if (t.nccl == ncclBfloat16 && nccl_state().version < kNccl210) [[unlikely]]
    fail(DC_ERROR_NOT_SUPPORTED, "DC_NCCL_BFLOAT16 needs NCCL 2.10 or newer; the NCCL loaded is %d.%d.%d (%s)",
         nccl_state().major, nccl_state().minor, nccl_state().patch, nccl_state().path.c_str());
  return t;
}

ncclRedOp_t op_of(int32_t op) {
  if (op < DC_NCCL_SUM || op > DC_NCCL_AVG) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "op %d is not a DC_NCCL_* reduction (DC_NCCL_SUM %d .. DC_NCCL_AVG %d)", op,
         DC_NCCL_SUM, DC_NCCL_AVG);
  if (op == DC_NCCL_AVG && nccl_state().version < kNccl210) [[unlikely]]
    fail(DC_ERROR_NOT_SUPPORTED, "DC_NCCL_AVG needs NCCL 2.10 or newer; the NCCL loaded is %d.%d.%d (%s); use "
         "DC_NCCL_SUM and divide", nccl_state().major, nccl_state().minor, nccl_state().patch,
         nccl_state().path.c_str());
  return kOps[op - 1];
}

// How many bytes a buffer must hold from its offset: `count` elements of
// `size` bytes, `blocks` times (the rank count where the collective says so).
struct Extent {
  const char* count_name;  // "count", "send_count", "recv_count"
  uint64_t count;
  uint32_t size;
  uint64_t blocks;
};

// The extent's bytes, or DC_ERROR_OUT_OF_RANGE when they do not fit 64 bits.
uint64_t bytes_of(const Extent& e) {
  uint64_t max = std::numeric_limits<uint64_t>::max();
  if (e.count != 0 && (e.blocks > max / e.count || e.count * e.blocks > max / e.size)) [[unlikely]]
    fail(DC_ERROR_OUT_OF_RANGE, "%s %" PRIu64 " x %u bytes%s overflows 64 bits; pass a count that fits the buffers",
         e.count_name, e.count, e.size, e.blocks > 1 ? strf(" x %" PRIu64 " ranks", e.blocks).c_str() : "");
  return e.count * e.blocks * e.size;
}

// The buffer is on the comm's device, device memory, and holds the extent
// from its offset (each failure naming the buffer, its offset and the count);
// returns the device address there.
void* checked_address(const CollectiveArgs& a, const CommBuffer& b, const Extent& e) {
  Device& device = a.comm->device();
  if (&b.buffer->device() != &device) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is on device %d, but the communicator is on device %d; use a buffer of the "
         "comm's device", b.name, b.buffer->device().ordinal(), device.ordinal());
  if (b.buffer->is_host() || b.buffer->device_address() == 0) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is host memory; NCCL works on device memory: allocate it with "
         "dc_buffer_alloc", b.name);
  uint64_t bytes = bytes_of(e), have = b.buffer->size();
  if (b.offset > have) [[unlikely]]
    fail(DC_ERROR_OUT_OF_RANGE, "%s %" PRIu64 " is past the end of %s (size %" PRIu64 ")", b.offset_name, b.offset,
         b.name, have);
  if (bytes > have - b.offset) [[unlikely]]
    fail(DC_ERROR_OUT_OF_RANGE, "%s %" PRIu64 " x %u bytes%s = %" PRIu64 " bytes from %s %" PRIu64 " exceeds %s's "
         "size %" PRIu64 "; pass a smaller %s or a larger buffer", e.count_name, e.count, e.size,
         e.blocks > 1 ? strf(" x %" PRIu64 " ranks", e.blocks).c_str() : "", bytes, b.offset_name, b.offset, b.name,
         have, e.count_name);
  b.buffer->check_usable();
  return reinterpret_cast<void*>(static_cast<uintptr_t>(b.buffer->device_address() + b.offset));
}

void check_stream(const CollectiveArgs& a) {
  if (&a.stream->device() != &a.comm->device()) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "stream is on device %d, but the communicator is on device %d; use a stream of "
         "the comm's device", a.stream->device().ordinal(), a.comm->device().ordinal());
  a.stream->check_usable();
}

void check_rank(const CollectiveArgs& a, const char* name, int32_t nranks) {
  if (a.rank_arg < 0 || a.rank_arg >= nranks) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "%s %d is not a rank of the communicator (0..%d)", name, a.rank_arg, nranks - 1);
}

void note(const CommBuffer& b, Stream* stream) {
  if (b.buffer) b.buffer->note_use(stream);
}

// The common part of every call: the library, the comm, the stream.
struct Prepared {
  const NcclApi& api;
  ncclComm_t comm;
  CUstream stream;
};

Prepared prepare(const CollectiveArgs& a) {
  const NcclApi& api = require_nccl();
  ncclComm_t c = a.comm->usable(a.call);
  check_stream(a);
  return {api, c, a.stream->handle()};
}

}  // namespace

uint32_t nccl_element_size(int32_t datatype) { return type_of(datatype).size; }

void all_reduce(const CollectiveArgs& a) {
  Prepared p = prepare(a);
  const TypeInfo& t = type_of(a.datatype);
  ncclRedOp_t op = op_of(a.op);
  Extent e{"count", a.count, t.size, 1};
  const void* s = checked_address(a, a.send, e);
  void* r = checked_address(a, a.recv, e);
  ContextScope bind(a.comm->device());
  note(a.send, a.stream);
  note(a.recv, a.stream);
  check_nccl(p.api.ncclAllReduce(s, r, a.count, t.nccl, op, p.comm, p.stream), p.comm, "ncclAllReduce");
}

void broadcast(const CollectiveArgs& a) {
  Prepared p = prepare(a);
  const TypeInfo& t = type_of(a.datatype);
  check_rank(a, "root", a.comm->count());
  Extent e{"count", a.count, t.size, 1};
  bool root = a.comm->rank() == a.rank_arg;
  if (root && !a.send.buffer) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "send is NULL on the root (rank %d); the root broadcasts from send", a.rank_arg);
  const void* s = a.send.buffer ? checked_address(a, a.send, e) : nullptr;
  void* r = checked_address(a, a.recv, e);
  ContextScope bind(a.comm->device());
  note(a.send, a.stream);
  note(a.recv, a.stream);
  check_nccl(p.api.ncclBroadcast(root ? s : r, r, a.count, t.nccl, a.rank_arg, p.comm, p.stream), p.comm,
             "ncclBroadcast");
}

void reduce(const CollectiveArgs& a) {
  Prepared p = prepare(a);
  const TypeInfo& t = type_of(a.datatype);
  ncclRedOp_t op = op_of(a.op);
  check_rank(a, "root", a.comm->count());
  Extent e{"count", a.count, t.size, 1};
  bool root = a.comm->rank() == a.rank_arg;
  if (root && !a.recv.buffer) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "recv is NULL on the root (rank %d); the root receives the result in recv",
         a.rank_arg);
  const void* s = checked_address(a, a.send, e);
  void* r = a.recv.buffer ? checked_address(a, a.recv, e) : nullptr;
  ContextScope bind(a.comm->device());
  note(a.send, a.stream);
  note(a.recv, a.stream);
  check_nccl(p.api.ncclReduce(s, r, a.count, t.nccl, op, a.rank_arg, p.comm, p.stream), p.comm, "ncclReduce");
}

void all_gather(const CollectiveArgs& a) {
  Prepared p = prepare(a);
  const TypeInfo& t = type_of(a.datatype);
  uint64_t n = static_cast<uint64_t>(a.comm->count());
  // The larger extent first: an overflow is named as such, not as a range.
  bytes_of(Extent{"send_count", a.count, t.size, n});
  const void* s = checked_address(a, a.send, Extent{"send_count", a.count, t.size, 1});
  void* r = checked_address(a, a.recv, Extent{"send_count", a.count, t.size, n});
  ContextScope bind(a.comm->device());
  note(a.send, a.stream);
  note(a.recv, a.stream);
  check_nccl(p.api.ncclAllGather(s, r, a.count, t.nccl, p.comm, p.stream), p.comm, "ncclAllGather");
}

void reduce_scatter(const CollectiveArgs& a) {
  Prepared p = prepare(a);
  const TypeInfo& t = type_of(a.datatype);
  ncclRedOp_t op = op_of(a.op);
  uint64_t n = static_cast<uint64_t>(a.comm->count());
  const void* s = checked_address(a, a.send, Extent{"recv_count", a.count, t.size, n});
  void* r = checked_address(a, a.recv, Extent{"recv_count", a.count, t.size, 1});
  ContextScope bind(a.comm->device());
  note(a.send, a.stream);
  note(a.recv, a.stream);
  check_nccl(p.api.ncclReduceScatter(s, r, a.count, t.nccl, op, p.comm, p.stream), p.comm, "ncclReduceScatter");
}

void send(const CollectiveArgs& a) {
  Prepared p = prepare(a);
  require_nccl_function(reinterpret_cast<const void*>(p.api.ncclSend), "ncclSend", 20700, a.call);
  const TypeInfo& t = type_of(a.datatype);
  check_rank(a, "peer", a.comm->count());
  const void* s = checked_address(a, a.send, Extent{"count", a.count, t.size, 1});
  ContextScope bind(a.comm->device());
  note(a.send, a.stream);
  check_nccl(p.api.ncclSend(s, a.count, t.nccl, a.rank_arg, p.comm, p.stream), p.comm, "ncclSend");
}

void recv(const CollectiveArgs& a) {
  Prepared p = prepare(a);
  require_nccl_function(reinterpret_cast<const void*>(p.api.ncclRecv), "ncclRecv", 20700, a.call);
  const TypeInfo& t = type_of(a.datatype);
  check_rank(a, "peer", a.comm->count());
  void* r = checked_address(a, a.recv, Extent{"count", a.count, t.size, 1});
  ContextScope bind(a.comm->device());
  note(a.recv, a.stream);
  check_nccl(p.api.ncclRecv(r, a.count, t.nccl, a.rank_arg, p.comm, p.stream), p.comm, "ncclRecv");
}

void group_start() { check_nccl(require_nccl().ncclGroupStart(), nullptr, "ncclGroupStart"); }

void group_end() { check_nccl(require_nccl().ncclGroupEnd(), nullptr, "ncclGroupEnd"); }

}  // namespace dc
