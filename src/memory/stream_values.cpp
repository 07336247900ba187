#include "memory/stream_values.h"

#include <cinttypes>
#include <vector>

#include "device/cuda_check.h"
#include "core/error.h"
#include "core/handle_table.h"
#include "loader/driver.h"
#include "memory/buffer.h"

namespace dc {
namespace {

// "ops[3]: " where the operation came from a batch, "" for a single call.
struct Where {
  bool batch;
  uint32_t index;
  char text[24];
  Where(bool b, uint32_t i) : batch(b), index(i) {
    if (batch) std::snprintf(text, sizeof text, "ops[%u].", i);
    else text[0] = 0;
  }
};

unsigned wait_flags(int32_t compare, uint32_t flags, const Where& w) {
  unsigned f = 0;
  switch (compare) {
    case DC_COMPARE_GEQ: f = CU_STREAM_WAIT_VALUE_GEQ; break;
    case DC_COMPARE_EQ: f = CU_STREAM_WAIT_VALUE_EQ; break;
    case DC_COMPARE_AND: f = CU_STREAM_WAIT_VALUE_AND; break;
    case DC_COMPARE_NOR: f = CU_STREAM_WAIT_VALUE_NOR; break;
    default:
      fail(DC_ERROR_INVALID_ARGUMENT, "%scompare is %d; use DC_COMPARE_GEQ, _EQ, _AND or _NOR", w.text, compare);
  }
  if (flags & ~DC_VALUE_FLUSH)
    fail(DC_ERROR_INVALID_ARGUMENT, "%sflags 0x%x: a wait takes DC_VALUE_FLUSH only", w.text, flags);
  if (flags & DC_VALUE_FLUSH) f |= CU_STREAM_WAIT_VALUE_FLUSH;
  return f;
}

unsigned write_flags(int32_t compare, uint32_t flags, const Where& w) {
  if (w.batch && compare != 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "%scompare is %d; a write compares nothing: pass 0", w.text, compare);
  if (flags & ~DC_VALUE_NO_MEMORY_BARRIER)
    fail(DC_ERROR_INVALID_ARGUMENT, "%sflags 0x%x: a write takes DC_VALUE_NO_MEMORY_BARRIER only", w.text, flags);
  // DC_VALUE_NO_MEMORY_BARRIER only permits the write to pass earlier writes;
  // the driver's current entry points (cuStreamWriteValue*_v2) refuse the flag
  // (CUDA_ERROR_INVALID_VALUE, seen on an H200 with CUDA 13.0), so the write
  // keeps its barrier: stronger ordering than asked, never weaker.
  return CU_STREAM_WRITE_VALUE_DEFAULT;
}

// Where a buffer's memory came from (a view's: its root buffer's).
Buffer::Memory root_memory(const Buffer& b) noexcept {
  const Buffer* root = b.view_parent();
  return (root ? *root : b).memory();
}

// The device address of the value, after every check.
CUdeviceptr value_address(const Stream& s, const Buffer& b, uint64_t offset, uint32_t size, const Where& w) {
  b.check_usable();
  const Device& sd = s.device();
  const Device& bd = b.device();
  CUdeviceptr address = b.device_address();
  if (b.is_host()) {
    if (!address)
      fail(DC_ERROR_NOT_SUPPORTED, "%sbuffer is host memory the device cannot address; allocate or register it with "
           "DC_ALLOC_DEVICE_MAPPED", w.text);
    if (&bd != &sd && !(b.flags() & DC_ALLOC_PORTABLE))
      fail(DC_ERROR_INVALID_ARGUMENT, "%sbuffer is host memory mapped for device %d only and the stream is on device "
           "%d; allocate it with DC_ALLOC_PORTABLE", w.text, bd.ordinal(), sd.ordinal());
  } else if (b.kind() == DC_BUFFER_MANAGED) {
    fail(DC_ERROR_NOT_SUPPORTED, "%sbuffer is managed memory, which the driver's stream memory operations do not "
         "accept; use device memory allocated with DC_ALLOC_NO_POOL or pinned memory allocated with "
         "DC_ALLOC_DEVICE_MAPPED", w.text);
  } else if (root_memory(b) == Buffer::Memory::Pool) {
    fail(DC_ERROR_NOT_SUPPORTED, "%sbuffer is memory of dccuda's stream-ordered pool, which the driver's stream "
         "memory operations refuse (CUDA_ERROR_INVALID_VALUE); allocate the buffer with DC_ALLOC_NO_POOL, or use "
         "pinned memory allocated with DC_ALLOC_DEVICE_MAPPED", w.text);
  } else if (&bd != &sd && !sd.peer_enabled(bd.ordinal())) {
    fail(DC_ERROR_INVALID_ARGUMENT, "%sbuffer is on device %d and the stream on device %d, which has no peer access "
         "to it; call dc_device_enable_peer_access(device %d, device %d)", w.text, bd.ordinal(), sd.ordinal(),
         sd.ordinal(), bd.ordinal());
  }
  if (offset % size)
    fail(DC_ERROR_INVALID_ARGUMENT, "%soffset %" PRIu64 " is not a multiple of %u: a %u-bit value must be aligned "
         "to its size", w.text, offset, size, size * 8);
  if (offset > b.size() || b.size() - offset < size)
    fail(DC_ERROR_OUT_OF_RANGE, "%soffset %" PRIu64 " + %u bytes exceeds the buffer's size %" PRIu64, w.text, offset,
         size, b.size());
  return address + offset;
}

}  // namespace

void enqueue_mem_ops(Stream& stream, const dc_stream_mem_op* ops, uint32_t count, bool batch) {

  // A single operation (the dc_stream_wait/write_value* calls) needs no heap:
  // its pin and parameters live here; only a batch of several allocates.
  Pinned<Buffer> first_pin;
  std::vector<Pinned<Buffer>> more_pins;
  CUstreamBatchMemOpParams first_params{};
  std::vector<CUstreamBatchMemOpParams> batch_params;
  CUstreamBatchMemOpParams* params = &first_params;
  if (count > 1) {
    more_pins.reserve(count - 1);
    batch_params.resize(count);
    params = batch_params.data();
  }
  for (uint32_t i = 0; i < count; ++i) {
    const dc_stream_mem_op& op = ops[i];
    Where w(batch, i);
    Pinned<Buffer> b = try_pin<Buffer>(op.buffer);
    if (!b) {
      char name[32];
      std::snprintf(name, sizeof name, "%sbuffer", batch ? w.text : "");
      fail_invalid_handle(op.buffer, HandleType::Buffer, name);
    }
    if (batch && op.reserved != 0)
      fail(DC_ERROR_INVALID_ARGUMENT, "%sreserved is %u; set it to 0", w.text, op.reserved);
    if (op.kind < DC_MEM_OP_WAIT32 || op.kind > DC_MEM_OP_WRITE64)
      fail(DC_ERROR_INVALID_ARGUMENT, "%skind is %u; use DC_MEM_OP_WAIT32, _WAIT64, _WRITE32 or _WRITE64", w.text,
           op.kind);
    CUstreamBatchMemOpParams& p = params[i];
    p = {};
    bool wide = op.kind == DC_MEM_OP_WAIT64 || op.kind == DC_MEM_OP_WRITE64;
    if (!wide && op.value > UINT32_MAX)
      fail(DC_ERROR_INVALID_ARGUMENT, "%svalue 0x%" PRIx64 " does not fit a 32-bit operation", w.text, op.value);
    switch (op.kind) {
      case DC_MEM_OP_WAIT32:
      case DC_MEM_OP_WAIT64:
        p.waitValue.operation = wide ? CU_STREAM_MEM_OP_WAIT_VALUE_64 : CU_STREAM_MEM_OP_WAIT_VALUE_32;
        p.waitValue.flags = wait_flags(op.compare, op.flags, w);
        p.waitValue.address = value_address(stream, *b, op.offset, wide ? 8 : 4, w);
        p.waitValue.value64 = op.value;
        break;
      case DC_MEM_OP_WRITE32:
      case DC_MEM_OP_WRITE64:
        p.writeValue.operation = wide ? CU_STREAM_MEM_OP_WRITE_VALUE_64 : CU_STREAM_MEM_OP_WRITE_VALUE_32;
        p.writeValue.flags = write_flags(op.compare, op.flags, w);
        p.writeValue.address = value_address(stream, *b, op.offset, wide ? 8 : 4, w);
        p.writeValue.value64 = op.value;
        break;
      default:
        fail(DC_ERROR_INVALID_ARGUMENT, "%skind is %u; use DC_MEM_OP_WAIT32, _WAIT64, _WRITE32 or _WRITE64", w.text,
             op.kind);
    }
    if (i == 0) first_pin = std::move(b);
    else more_pins.push_back(std::move(b));
  }
  stream.check_usable();
  ContextScope bind(stream.device());
  const DriverApi& api = driver_api();
  CUstream h = stream.handle();
  if (!batch) {
    const CUstreamBatchMemOpParams& p = params[0];
    switch (ops[0].kind) {
      case DC_MEM_OP_WAIT32:
        check(api.cuStreamWaitValue32(h, p.waitValue.address, static_cast<cuuint32_t>(p.waitValue.value64),
                                      p.waitValue.flags),
              "cuStreamWaitValue32", &stream.device());
        break;
      case DC_MEM_OP_WAIT64:
        check(api.cuStreamWaitValue64(h, p.waitValue.address, p.waitValue.value64, p.waitValue.flags),
              "cuStreamWaitValue64", &stream.device());
        break;
      case DC_MEM_OP_WRITE32:
        check(api.cuStreamWriteValue32(h, p.writeValue.address, static_cast<cuuint32_t>(p.writeValue.value64),
                                       p.writeValue.flags),
              "cuStreamWriteValue32", &stream.device());
        break;
      default:
        check(api.cuStreamWriteValue64(h, p.writeValue.address, p.writeValue.value64, p.writeValue.flags),
              "cuStreamWriteValue64", &stream.device());
        break;
    }
  } else {
    check(api.cuStreamBatchMemOp(h, count, params, 0), "cuStreamBatchMemOp", &stream.device());
  }
  first_pin->note_use(&stream);
  for (Pinned<Buffer>& b : more_pins) b->note_use(&stream);
}

}  // namespace dc
