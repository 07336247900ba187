#include "launch/launch_args.h"

#include <cinttypes>
#include <cstdio>

#include "core/error.h"

namespace dc {
namespace {

// "args[2]" or "arg", in a buffer that lives for the failing call.
struct Label {
  char text[32];
  explicit Label(ArgName w) {
    if (w.single) std::snprintf(text, sizeof text, "arg");
    else std::snprintf(text, sizeof text, "args[%u]", w.index);
  }
};

}  // namespace

void check_arg_count(const Function& f, const dc_arg* args, uint32_t num_args) {
  if (num_args && !args) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "args is NULL but num_args is %u; pass an array of num_args dc_arg", num_args);
  if (f.params_known() && num_args != f.param_count()) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "%s takes %u parameter%s, %u argument%s given; pass one dc_arg per parameter",
         f.name().c_str(), f.param_count(), f.param_count() == 1 ? "" : "s", num_args,
         num_args == 1 ? " was" : "s were");
}

void check_arg(const Function& f, const dc_arg& arg, ArgName where) {
  const bool known = f.params_known();
  if (arg.kind == DC_ARG_VALUE) [[likely]] {
    if (known && arg.size != f.param(where.index).size) [[unlikely]]
      fail(DC_ERROR_INVALID_ARGUMENT, "%s: parameter %u is %u bytes, argument is %u bytes (%s; parameters count from "
           "0); pass a value of the parameter's size", f.name().c_str(), where.index, f.param(where.index).size,
           arg.size, Label(where).text);
    if (!arg.value || arg.size == 0) [[unlikely]] {
      if (arg.size == 0)
        fail(DC_ERROR_INVALID_ARGUMENT, "%s.size is 0; give the size of the value in bytes", Label(where).text);
      fail(DC_ERROR_INVALID_ARGUMENT, "%s.value is NULL; point it at the argument's %u bytes", Label(where).text,
           arg.size);
    }
    return;
  }
  if (arg.kind == DC_ARG_BUFFER) [[likely]] {
    if (known && f.param(where.index).size != 8) [[unlikely]]
      fail(DC_ERROR_INVALID_ARGUMENT, "%s: parameter %u is %u bytes, argument is a buffer, which passes an 8-byte "
           "device pointer (%s; parameters count from 0)", f.name().c_str(), where.index, f.param(where.index).size,
           Label(where).text);
    return;
  }
  fail(DC_ERROR_INVALID_ARGUMENT, "%s.kind is %u; use DC_ARG_VALUE (%d) or DC_ARG_BUFFER (%d)", Label(where).text,
       arg.kind, DC_ARG_VALUE, DC_ARG_BUFFER);
}

Pinned<Buffer> pin_buffer_arg(const dc_arg& arg, ArgName where) {
  Pinned<Buffer> b = try_pin<Buffer>(arg.buffer);
  if (!b) [[unlikely]] {
    char name[48];
    std::snprintf(name, sizeof name, "%s.buffer", Label(where).text);
    fail_invalid_handle(arg.buffer, HandleType::Buffer, name);
  }
  return b;
}

CUdeviceptr buffer_arg_address(const Function& f, const Buffer& b, uint64_t offset, ArgName where) {
  b.check_usable();
  const Device& kernel_device = f.device();
  const Device& memory_device = b.device();
  CUdeviceptr address = b.device_address();
  if (b.is_host()) {
    // The contract (dccuda.h, dc_arg): host memory is the device's only when
    // asked for with DC_ALLOC_DEVICE_MAPPED, as dc_buffer_device_pointer says,
    // even where unified addressing would map it anyway.
    if (!(b.flags() & DC_ALLOC_DEVICE_MAPPED) || !address) [[unlikely]]
      fail(DC_ERROR_INVALID_ARGUMENT, "%s.buffer is host memory without a device mapping (%s without "
           "DC_ALLOC_DEVICE_MAPPED); %s it with DC_ALLOC_DEVICE_MAPPED, or copy the data into device memory",
           Label(where).text, b.kind() == DC_BUFFER_PINNED ? "pinned" : "registered",
           b.kind() == DC_BUFFER_PINNED ? "allocate" : "register");
    if (&memory_device != &kernel_device && !(b.flags() & DC_ALLOC_PORTABLE)) [[unlikely]]
      fail(DC_ERROR_INVALID_ARGUMENT, "%s.buffer is host memory of device %d, mapped for that device's context only, "
           "and %s runs on device %d; allocate or register it with DC_ALLOC_PORTABLE to use it from every device",
           Label(where).text, memory_device.ordinal(), f.name().c_str(), kernel_device.ordinal());
  } else if (&memory_device != &kernel_device && b.kind() != DC_BUFFER_MANAGED &&
             !kernel_device.peer_enabled(memory_device.ordinal())) [[unlikely]] {
    fail(DC_ERROR_INVALID_ARGUMENT, "%s.buffer is on device %d and %s runs on device %d, which has no peer access to "
         "device %d; call dc_device_enable_peer_access(device %d, device %d) or copy the data to device %d",
         Label(where).text, memory_device.ordinal(), f.name().c_str(), kernel_device.ordinal(),
         memory_device.ordinal(), kernel_device.ordinal(), memory_device.ordinal(), kernel_device.ordinal());
  }
  if (offset >= b.size()) [[unlikely]]
    fail(DC_ERROR_OUT_OF_RANGE, "%s.offset %" PRIu64 " is not inside the buffer (%" PRIu64 " bytes); pass an offset "
         "below the buffer's size", Label(where).text, offset, b.size());
  return address + offset;
}

}  // namespace dc
