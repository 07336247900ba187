#include "memory/copy_batch.h"

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/handle_table.h"
#include "device/cuda_check.h"
#include "loader/driver.h"
#include "memory/buffer.h"
#include "memory/transfer.h"

namespace dc {
namespace {

// One copy, checked and pinned.
struct CheckedCopy {
  uint32_t kind;
  Pinned<Buffer> dst, src;  // the buffers the kind uses
  uint64_t dst_offset, src_offset;
  void* host;
  uint64_t size;
  bool batched = false;  // goes to the driver in the one cuMemcpyBatchAsync
};

// A range of memory one copy reads or writes, in the one unified address
// space (device addresses and host pointers do not collide).
struct Touched {
  uint64_t start, end;
  bool write;
  uint32_t index;
};

uint64_t address_of(const void* p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); }

Pinned<Buffer> pin_at(dc_buffer handle, uint32_t index, const char* field) {
  Pinned<Buffer> b = try_pin<Buffer>(handle);
  if (!b) [[unlikely]]
    fail_invalid_handle(handle, HandleType::Buffer, strf("ops[%u].%s", index, field).c_str());
  return b;
}

// The checks of the single call of the copy's kind (api_copy.cpp), naming
// the fields plainly: the caller puts "ops[i]: " in front.
CheckedCopy check_one(const dc_copy_op& op, uint32_t i, const Stream& stream) {
  if (op.kind < DC_COPY_BUFFER_TO_BUFFER || op.kind > DC_COPY_BUFFER_TO_HOST)
    fail(DC_ERROR_INVALID_ARGUMENT, "ops[%u].kind is %u; use DC_COPY_BUFFER_TO_BUFFER (1), DC_COPY_HOST_TO_BUFFER (2) "
         "or DC_COPY_BUFFER_TO_HOST (3)", i, op.kind);
  if (op.reserved)
    fail(DC_ERROR_INVALID_ARGUMENT, "ops[%u].reserved is %u; it must be 0", i, op.reserved);
  CheckedCopy c{op.kind, {}, {}, op.dst_offset, op.src_offset, op.host, op.size};
  if (op.kind != DC_COPY_BUFFER_TO_HOST) c.dst = pin_at(op.dst, i, "dst");
  if (op.kind != DC_COPY_HOST_TO_BUFFER) c.src = pin_at(op.src, i, "src");
  if (op.kind == DC_COPY_BUFFER_TO_BUFFER) {
    if (&stream.device() != &c.dst->device() && &stream.device() != &c.src->device())
      fail(DC_ERROR_INVALID_ARGUMENT, "stream is on device %d, but dst is on device %d and src on device %d; use a "
           "stream of either buffer's device", stream.device().ordinal(), c.dst->device().ordinal(),
           c.src->device().ordinal());
    check_range(*c.dst, op.dst_offset, op.size, "dst", "dst_offset");
    check_range(*c.src, op.src_offset, op.size, "src", "src_offset");
    c.dst->check_usable();
    c.src->check_usable();
    uint64_t to = c.dst->address() + op.dst_offset, from = c.src->address() + op.src_offset;
    if (op.size && to < from + op.size && from < to + op.size)
      fail(DC_ERROR_INVALID_ARGUMENT,
           "the ranges overlap: dst_offset %" PRIu64 " and src_offset %" PRIu64 " with size %" PRIu64
           " address the same memory; copy through a temporary buffer",
           op.dst_offset, op.src_offset, op.size);
    return c;
  }
  Buffer& b = op.kind == DC_COPY_HOST_TO_BUFFER ? *c.dst : *c.src;
  const char* name = op.kind == DC_COPY_HOST_TO_BUFFER ? "dst" : "src";
  const char* offset_name = op.kind == DC_COPY_HOST_TO_BUFFER ? "dst_offset" : "src_offset";
  uint64_t offset = op.kind == DC_COPY_HOST_TO_BUFFER ? op.dst_offset : op.src_offset;
  stream.require_device(b.device(), name);
  if (!op.host && op.size)
    fail(DC_ERROR_INVALID_ARGUMENT, "host is NULL with size %" PRIu64 "; pass the host memory to copy %s", op.size,
         op.kind == DC_COPY_HOST_TO_BUFFER ? "from" : "to");
  check_range(b, offset, op.size, name, offset_name);
  b.check_usable();
  uint64_t at = b.address() + offset, h = address_of(op.host);
  if (op.size && at < h + op.size && h < at + op.size)
    fail(DC_ERROR_INVALID_ARGUMENT, "host %p and %s %" PRIu64 " with size %" PRIu64 " overlap: the host range is the "
         "buffer's own memory; copy through a temporary buffer", op.host, offset_name, offset, op.size);
  return c;
}

// The ranges copy `i` reads and writes.
void note_ranges(const CheckedCopy& c, uint32_t i, std::vector<Touched>& out) {
  if (!c.size) return;
  uint64_t to = c.kind == DC_COPY_BUFFER_TO_HOST ? address_of(c.host) : c.dst->address() + c.dst_offset;
  uint64_t from = c.kind == DC_COPY_HOST_TO_BUFFER ? address_of(c.host) : c.src->address() + c.src_offset;
  out.push_back({to, to + c.size, true, i});
  out.push_back({from, from + c.size, false, i});
}

// The two ranges of two different copies that reach furthest (a copy's own
// ranges never conflict with each other: they are checked on their own).
struct Furthest {
  const Touched* first = nullptr;   // reaches furthest
  const Touched* second = nullptr;  // reaches furthest among the other copies
  void add(const Touched& r) {
    if (!first || r.end > first->end) {
      if (first && first->index != r.index) second = first;
      first = &r;
    } else if (r.index != first->index && (!second || r.end > second->end)) {
      second = &r;
    }
  }
  // The range of another copy than `index` that reaches furthest.
  const Touched* other_than(uint32_t index) const { return first && first->index != index ? first : second; }
};

// Fails naming both copies where one writes memory another copy reads or
// writes. Sorted by start, a range overlaps an earlier one exactly when it
// starts before the end of the earlier range that reaches furthest (of any
// range, for a write; of a write, for a read).
void refuse_dependent_copies(std::vector<Touched>& ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const Touched& a, const Touched& b) { return a.start < b.start; });
  Furthest any, writes;
  for (const Touched& r : ranges) {
    const Touched* other = (r.write ? any : writes).other_than(r.index);
    if (other && other->end > r.start) [[unlikely]] {
      uint32_t a = std::min(other->index, r.index), b = std::max(other->index, r.index);
      fail(DC_ERROR_INVALID_ARGUMENT, "ops[%u] and ops[%u] overlap: one writes memory the other %s, and the copies of "
           "one batch are not ordered among themselves; put them in two batches (the second runs after the first)",
           a, b, r.write && other->write ? "writes too" : "reads");
    }
    any.add(r);
    if (r.write) writes.add(r);
  }
}

// Whether the driver's batch can take this copy on `stream`: two buffers, not
// managed (their pages move), not device memory of two devices (a peer copy).
bool batchable(const CheckedCopy& c, const Stream& stream) {
  if (c.kind != DC_COPY_BUFFER_TO_BUFFER || !c.size) return false;
  const Buffer& d = *c.dst;
  const Buffer& s = *c.src;
  if (d.kind() == DC_BUFFER_MANAGED || s.kind() == DC_BUFFER_MANAGED) return false;
  return (d.is_host() || &d.device() == &stream.device()) && (s.is_host() || &s.device() == &stream.device());
}

// A stream cuMemcpyBatchAsync takes: not a default stream (the driver refuses
// the legacy one) and not capturing (the capture's graph gets single copies).
// The context must be bound.
bool stream_takes_batches(const Stream& stream) {
  if (stream.kind() == Stream::Kind::Legacy || stream.kind() == Stream::Kind::PerThread) return false;
  CUstream h = stream.handle();
  if (h == nullptr || h == CU_STREAM_LEGACY || h == CU_STREAM_PER_THREAD) return false;
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  check(driver_api().cuStreamIsCapturing(h, &status), "cuStreamIsCapturing", &stream.device());
  return status == CU_STREAM_CAPTURE_STATUS_NONE;
}

void enqueue_driver_batch(std::vector<CheckedCopy>& copies, Stream& stream) {
  std::vector<CUdeviceptr> to, from;
  std::vector<size_t> sizes;
  for (CheckedCopy& c : copies) {
    if (!c.batched) continue;
    to.push_back(c.dst->address() + c.dst_offset);
    from.push_back(c.src->address() + c.src_offset);
    sizes.push_back(static_cast<size_t>(c.size));
    // Noted before anything is enqueued, as copy() notes them.
    c.dst->note_use(&stream);
    c.src->note_use(&stream);
  }
  CUmemcpyAttributes attributes{};
  attributes.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  size_t first = 0;
  Device& d = stream.device();
  const DriverApi& api = driver_api();
  // CUDA 13.0's entry point, else 12.8's (whose failIdx is not needed: the
  // message names the whole batch, of which nothing was enqueued).
  size_t failed = SIZE_MAX;
  CUresult r = present(api.cuMemcpyBatchAsync)
                   ? api.cuMemcpyBatchAsync(to.data(), from.data(), sizes.data(), to.size(), &attributes, &first, 1,
                                            stream.handle())
                   : api.cuMemcpyBatchAsync_v12080(to.data(), from.data(), sizes.data(), to.size(), &attributes, &first,
                                                   1, &failed, stream.handle());
  if (r != CUDA_SUCCESS) [[unlikely]] {
    try {
      check(r, "cuMemcpyBatchAsync", &d);
    } catch (const Failure& e) {
      fail_again_with_prefix(e, strf("the %zu buffer-to-buffer copies (one cuMemcpyBatchAsync; nothing of them was "
                                     "enqueued): ", to.size()));
    }
  }
}

}  // namespace

void copy_batch(const dc_copy_op* ops, uint32_t count, Stream& stream) {
  if (count && !ops)
    fail(DC_ERROR_INVALID_ARGUMENT, "ops is NULL with count %u; pass an array of %u dc_copy_op (or count 0)", count,
         count);
  stream.check_usable();
  if (count == 0) return;
  // First pass: every check, nothing enqueued.
  std::vector<CheckedCopy> copies;
  copies.reserve(count);
  std::vector<Touched> ranges;
  if (count > 1) ranges.reserve(2 * static_cast<size_t>(count));
  for (uint32_t i = 0; i < count; ++i) {
    try {
      copies.push_back(check_one(ops[i], i, stream));
    } catch (const Failure& e) {
      // Messages that name the field already carry "ops[i]"; the rest get it in front.
      if (thread_error().message.find(strf("ops[%u]", i)) != std::string::npos) throw;
      fail_again_with_prefix(e, strf("ops[%u]: ", i));
    }
    if (count > 1) note_ranges(copies.back(), i, ranges);
  }
  if (count > 1) refuse_dependent_copies(ranges);
  // Second pass: the batch for the driver, where it has one and two or more
  // copies go there; then the others, each as its single call.
  uint32_t in_batch = 0;
  if (present(driver_api().cuMemcpyBatchAsync) || present(driver_api().cuMemcpyBatchAsync_v12080)) {
    for (CheckedCopy& c : copies) in_batch += (c.batched = batchable(c, stream));
  }
  if (in_batch >= 2) {
    ContextScope bind(stream.device());
    if (stream_takes_batches(stream)) {
      enqueue_driver_batch(copies, stream);
    } else {
      in_batch = 0;
    }
  }
  if (in_batch < 2)
    for (CheckedCopy& c : copies) c.batched = false;
  for (uint32_t i = 0; i < count; ++i) {
    CheckedCopy& c = copies[i];
    if (c.batched) continue;
    try {
      if (c.kind == DC_COPY_BUFFER_TO_BUFFER) copy(*c.dst, c.dst_offset, *c.src, c.src_offset, c.size, &stream);
      else if (c.kind == DC_COPY_HOST_TO_BUFFER) write(*c.dst, c.dst_offset, c.host, c.size, &stream);
      else read(*c.src, c.src_offset, c.host, c.size, &stream);
    } catch (const Failure& e) {
      fail_again_with_prefix(e, strf("ops[%u]: the driver refused this copy (others of the batch may be enqueued: "
                                     "synchronise the stream and redo the batch): ", i));
    }
  }
}

}  // namespace dc
