#include "launch/one_shot.h"

#include <memory>
#include <new>

#include "core/error.h"
#include "device/cuda_check.h"
#include "loader/driver.h"
#include "launch/launch_args.h"
#include "launch/launch_driver.h"
#include "launch/launch_shape.h"
#include "memory/buffer.h"
#include "stream/capture_registry.h"

namespace dc {
namespace {

// The buffers pinned for one call, constructed only as buffer arguments are
// met: a launch with few of them pays for few (an array of kInlineArgs
// default-constructed pins cost more than the rest of the call's checks).
class CallPins {
 public:
  explicit CallPins(uint32_t capacity) {
    if (capacity > kInlineArgs) heap_ = static_cast<Pinned<Buffer>*>(::operator new(sizeof(Pinned<Buffer>) * capacity));
  }
  ~CallPins() {
    Pinned<Buffer>* p = data();
    for (uint32_t i = 0; i < count_; ++i) p[i].~Pinned<Buffer>();
    if (heap_) ::operator delete(heap_);
  }
  CallPins(const CallPins&) = delete;
  CallPins& operator=(const CallPins&) = delete;

  Buffer& add(Pinned<Buffer>&& b) {
    Pinned<Buffer>* slot = new (data() + count_) Pinned<Buffer>(std::move(b));
    ++count_;
    return **slot;
  }
  void note_use(Stream* s) {
    Pinned<Buffer>* p = data();
    for (uint32_t i = 0; i < count_; ++i) p[i]->note_use(s);
  }

 private:
  Pinned<Buffer>* data() noexcept {
    return heap_ ? heap_ : std::launder(reinterpret_cast<Pinned<Buffer>*>(inline_));
  }
  alignas(Pinned<Buffer>) unsigned char inline_[kInlineArgs * sizeof(Pinned<Buffer>)];
  Pinned<Buffer>* heap_ = nullptr;
  uint32_t count_ = 0;
};

// Before a persistent launch: a stream that does not serialise other work
// behind the kernel, no capture, and the kernel's code loaded now (a lazy load
// while the kernel runs may synchronise the context, which would never return).
void prepare_persistent(Function& f, Stream& s) {
  if (s.kind() == Stream::Kind::Legacy || s.kind() == Stream::Kind::PerThread)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s: DC_LAUNCH_PERSISTENT on a default stream would hold back all other work "
         "for as long as the kernel runs; launch it on a stream made with dc_stream_create", f.name().c_str());
  if (s.capturing())
    fail(DC_ERROR_INVALID_STATE, "%s: DC_LAUNCH_PERSISTENT on a stream that captures a graph; a persistent kernel "
         "is launched once, directly", f.name().c_str());
  int regs = 0;
  check(driver_api().cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f.cu_function()), "cuFuncGetAttribute",
        &f.device());
}

// After a persistent launch: an event right after the kernel tells when it has
// ended, without ever waiting (device/residency.h).
void register_persistent(Function& f, Stream& s) {
  const DriverApi& api = driver_api();
  CUevent done = nullptr;
  check(api.cuEventCreate(&done, CU_EVENT_DISABLE_TIMING), "cuEventCreate", &f.device());
  CUresult r = api.cuEventRecord(done, s.handle());
  if (r != CUDA_SUCCESS) {
    api.cuEventDestroy(done);
    check(r, "cuEventRecord", &f.device());
  }
  f.device().residency().add(f.name(), s.handle(), done);
}

void launch_now(Function& f, const LaunchShape& shape, Stream& s, void** params, void** extra) {
  f.check_usable();
  s.check_usable();
  ContextScope bind(f.device());
  const bool persistent = shape.flags & DC_LAUNCH_PERSISTENT;
  if (persistent) [[unlikely]]
    prepare_persistent(f, s);
  if (shape.needs_ex()) [[unlikely]] {
    LaunchAttributes attributes;
    make_launch_attributes(shape, &attributes);
    launch_on_driver(f, shape, &attributes, s.handle(), params, extra);
  } else {
    launch_on_driver(f, shape, nullptr, s.handle(), params, extra);
  }
  capture_registry::note(s.handle(), &f);
  if (persistent) [[unlikely]]
    register_persistent(f, s);
}

}  // namespace

void launch_once(Function& f, const dc_launch_config* config, const dc_arg* args, uint32_t n, Stream& s) {
  s.require_device(f.device(), "function");
  LaunchShape shape = read_launch_config(config, f, "config");
  check_arg_count(f, args, n);

  // The driver reads each value through its pointer during the call, so
  // values are passed where the caller keeps them; buffers pass a device
  // address kept here, and stay pinned until the launch is enqueued.
  void* inline_params[kInlineArgs];
  CUdeviceptr inline_addresses[kInlineArgs];
  std::unique_ptr<void*[]> heap_params;
  std::unique_ptr<CUdeviceptr[]> heap_addresses;
  void** params = inline_params;
  CUdeviceptr* addresses = inline_addresses;
  if (n > kInlineArgs) [[unlikely]] {
    heap_params.reset(new void*[n]);
    heap_addresses.reset(new CUdeviceptr[n]);
    params = heap_params.get();
    addresses = heap_addresses.get();
  }
  CallPins pins(n);
  for (uint32_t i = 0; i < n; ++i) {
    const dc_arg& a = args[i];
    check_arg(f, a, {false, i});
    if (a.kind == DC_ARG_VALUE) {
      params[i] = const_cast<void*>(a.value);
      continue;
    }
    Buffer& b = pins.add(pin_buffer_arg(a, {false, i}));
    addresses[i] = buffer_arg_address(f, b, a.offset, {false, i});
    params[i] = &addresses[i];
  }
  launch_now(f, shape, s, n ? params : nullptr, nullptr);
  pins.note_use(&s);
}

void launch_once_packed(Function& f, const dc_launch_config* config, const void* params, uint64_t size,
                        Stream& s) {
  s.require_device(f.device(), "function");
  LaunchShape shape = read_launch_config(config, f, "config");
  if (size && !params) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "params is NULL but size is %llu; pass the packed parameter block",
         static_cast<unsigned long long>(size));
  uint64_t pass = size;
  if (f.params_known()) {
    // A struct laid out like the parameters may end in padding, up to its
    // alignment (at most 16 bytes, CUDA's widest vector types): accepted, and
    // only the parameters' bytes are passed.
    uint64_t need = f.params_bytes();
    uint64_t padded = (need + 15) / 16 * 16;
    if (size < need || size > padded) [[unlikely]]
      fail(DC_ERROR_INVALID_ARGUMENT, "%s: size is %llu bytes; the kernel's parameter block is %llu bytes (%u "
           "parameter%s); pass a block laid out like the parameters (a struct of them, with at most %llu bytes "
           "including trailing padding)", f.name().c_str(), static_cast<unsigned long long>(size),
           static_cast<unsigned long long>(need), f.param_count(), f.param_count() == 1 ? "" : "s",
           static_cast<unsigned long long>(padded));
    pass = need;
  }
  if (pass == 0) {
    launch_now(f, shape, s, nullptr, nullptr);
    return;
  }
  size_t bytes = static_cast<size_t>(pass);
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, const_cast<void*>(params), CU_LAUNCH_PARAM_BUFFER_SIZE, &bytes,
                   CU_LAUNCH_PARAM_END};
  launch_now(f, shape, s, nullptr, extra);
}

}  // namespace dc
