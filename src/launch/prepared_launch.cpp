#include "launch/prepared_launch.h"

#include <cstring>
#include <mutex>
#include <thread>

#include "core/error.h"
#include "launch/launch_args.h"
#include "launch/launch_driver.h"
#include "stream/capture_registry.h"

namespace dc {

void LaunchGuard::lock() noexcept {
  uint32_t s = state_.load(std::memory_order_relaxed);
  for (;;) {
    if (s & kWriter) {
      std::this_thread::yield();
      s = state_.load(std::memory_order_relaxed);
      continue;
    }
    if (state_.compare_exchange_weak(s, s | kWriter, std::memory_order_acquire, std::memory_order_relaxed)) break;
  }
  // New readers now back off; wait for those already in.
  while (state_.load(std::memory_order_acquire) & ~kWriter) std::this_thread::yield();
}

void LaunchGuard::wait_while_writer() noexcept {
  while (state_.load(std::memory_order_relaxed) & kWriter) std::this_thread::yield();
}

Launch::Launch(Ref<Function> function)
    : Object(kHandleType), function_(std::move(function)), known_(function_->params_known()) {
  if (!known_) return;
  const Function& f = *function_;
  uint32_t n = f.param_count();
  block_.reset(new uint64_t[(f.params_bytes() + 7) / 8 + 1]());
  pointers_.resize(n);
  for (uint32_t i = 0; i < n; ++i) pointers_[i] = reinterpret_cast<uint8_t*>(block_.get()) + f.param(i).offset;
  buffers_.resize(n);
  bound_.assign(n, 0);
  unbound_ = n;
}

Ref<Launch> Launch::create(Ref<Function> function, const dc_launch_config* config) {
  Ref<Launch> l = Ref<Launch>::adopt(new Launch(std::move(function)));
  l->use_shape(l->checked_shape(config));
  return l;
}

LaunchShape Launch::checked_shape(const dc_launch_config* config) const {
  LaunchShape s = read_launch_config(config, *function_, "config");
  if (s.flags & DC_LAUNCH_PERSISTENT)
    fail(DC_ERROR_INVALID_ARGUMENT, "config->flags has DC_LAUNCH_PERSISTENT: a persistent kernel is launched once; "
         "launch it with dc_launch_kernel or dc_launch_kernel_packed");
  // Checked once here, rather than explained after a refused enqueue.
  check_kernel_resources(*function_, s);
  return s;
}

void Launch::use_shape(const LaunchShape& s) {
  shape_ = s;
  use_ex_ = s.needs_ex();
  if (use_ex_) make_launch_attributes(s, &attributes_);
}

void Launch::set_config(const dc_launch_config* config) {
  LaunchShape s = checked_shape(config);
  std::lock_guard<LaunchGuard> g(guard_);
  use_shape(s);
}

Ref<Buffer> Launch::store(uint32_t index, const dc_arg& arg, Ref<Buffer> buffer, CUdeviceptr address) {
  const void* src = arg.kind == DC_ARG_VALUE ? arg.value : &address;
  uint32_t size = arg.kind == DC_ARG_VALUE ? arg.size : 8;
  if (known_) {
    std::memcpy(pointers_[index], src, size);
  } else {
    if (index >= pointers_.size()) {
      unbound_ += static_cast<uint32_t>(index + 1 - pointers_.size());
      pointers_.resize(index + 1, nullptr);
      slots_.resize(index + 1);
      buffers_.resize(index + 1);
      bound_.resize(index + 1, 0);
    }
    slots_[index].reset(new uint64_t[(size + 7) / 8]());
    std::memcpy(slots_[index].get(), src, size);
    pointers_[index] = slots_[index].get();
  }
  if (!bound_[index]) {
    bound_[index] = 1;
    --unbound_;
  }
  std::swap(buffers_[index], buffer);
  return buffer;
}

void Launch::refresh_buffers() {
  used_.clear();
  for (const Ref<Buffer>& b : buffers_)
    if (b) used_.push_back(b.get());
}

void Launch::set_arg(uint32_t index, const dc_arg& arg) {
  const Function& f = *function_;
  if (known_ && index >= f.param_count())
    fail(DC_ERROR_OUT_OF_RANGE, "index %u is past %s's parameters (it has %u%s); parameters count from 0", index,
         f.name().c_str(), f.param_count(), f.param_count() ? strf(": 0..%u", f.param_count() - 1).c_str() : "");
  if (!known_ && index >= kMaxUnknownParams)
    fail(DC_ERROR_OUT_OF_RANGE, "index %u: a launch binds at most %u arguments", index, kMaxUnknownParams);
  ArgName where{true, index};
  check_arg(f, arg, where);
  Ref<Buffer> buffer;
  CUdeviceptr address = 0;
  if (arg.kind == DC_ARG_BUFFER) {
    Pinned<Buffer> b = pin_buffer_arg(arg, where);
    address = buffer_arg_address(f, *b, arg.offset, where);
    buffer = b.share();
  }
  Ref<Buffer> replaced;
  {
    std::lock_guard<LaunchGuard> g(guard_);
    replaced = store(index, arg, std::move(buffer), address);
    refresh_buffers();
  }
  // `replaced` goes now, outside the lock: it may be the last reference.
}

void Launch::set_args(const dc_arg* args, uint32_t n) {
  const Function& f = *function_;
  check_arg_count(f, args, n);
  if (!known_ && n > kMaxUnknownParams)
    fail(DC_ERROR_OUT_OF_RANGE, "num_args is %u: a launch binds at most %u arguments", n, kMaxUnknownParams);
  // Everything is checked before anything changes.
  std::vector<Ref<Buffer>> buffers(n);
  std::vector<CUdeviceptr> addresses(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    check_arg(f, args[i], {false, i});
    if (args[i].kind != DC_ARG_BUFFER) continue;
    Pinned<Buffer> b = pin_buffer_arg(args[i], {false, i});
    addresses[i] = buffer_arg_address(f, *b, args[i].offset, {false, i});
    buffers[i] = b.share();
  }
  std::vector<Ref<Buffer>> replaced;
  replaced.reserve(n + buffers_.size());
  {
    std::lock_guard<LaunchGuard> g(guard_);
    if (!known_) {
      // The kernel takes exactly these arguments.
      for (Ref<Buffer>& b : buffers_) replaced.push_back(std::move(b));
      pointers_.assign(n, nullptr);
      slots_.clear();
      slots_.resize(n);
      buffers_.clear();
      buffers_.resize(n);
      bound_.assign(n, 0);
      unbound_ = n;
    }
    for (uint32_t i = 0; i < n; ++i) replaced.push_back(store(i, args[i], std::move(buffers[i]), addresses[i]));
    refresh_buffers();
  }
}

void Launch::fail_unbound() const {
  uint32_t first = 0;
  while (first < bound_.size() && bound_[first]) ++first;
  fail(DC_ERROR_INVALID_STATE, "argument %u of %s is not bound (%u of %zu unbound); bind every argument with "
       "dc_launch_set_arg or dc_launch_set_args before enqueueing", first, function_->name().c_str(), unbound_,
       bound_.size());
}

void Launch::node_params(CUDA_KERNEL_NODE_PARAMS_v2* out) const {
  if (unbound_) fail_unbound();
  if (shape_.needs_ex())
    fail(DC_ERROR_NOT_SUPPORTED, "config asks for %s, which a kernel node built here cannot carry yet; capture such "
         "a launch into the graph instead (dc_stream_begin_capture)",
         (shape_.flags & DC_LAUNCH_COOPERATIVE) ? "a cooperative launch"
         : shape_.has_cluster()                 ? "clusters"
         : shape_.priority                      ? "a priority"
                                                : "programmatic serialisation");
  *out = CUDA_KERNEL_NODE_PARAMS_v2{};
  out->func = function_->cu_function();
  out->gridDimX = shape_.grid[0];
  out->gridDimY = shape_.grid[1];
  out->gridDimZ = shape_.grid[2];
  out->blockDimX = shape_.block[0];
  out->blockDimY = shape_.block[1];
  out->blockDimZ = shape_.block[2];
  out->sharedMemBytes = shape_.shared;
  out->kernelParams = pointers_.empty() ? nullptr : const_cast<void**>(pointers_.data());
}

std::vector<Ref<Object>> Launch::bound_buffers() const {
  std::vector<Ref<Object>> out;
  for (const Ref<Buffer>& b : buffers_)
    if (b) out.push_back(Ref<Object>::share(b.get()));
  return out;
}

void Launch::enqueue(Stream& s) {
  Function& f = *function_;
  if (&s.device() != &f.device()) [[unlikely]]
    s.require_device(f.device(), "the launch's function");
  guard_.lock_shared();
  struct Release {
    LaunchGuard& guard;
    ~Release() { guard.unlock_shared(); }
  } release{guard_};
  if (unbound_) [[unlikely]]
    fail_unbound();
  check_shared_memory(shape_, f);
  f.check_usable();
  s.check_usable();
  ContextScope bind(f.device());
  launch_on_driver(f, shape_, use_ex_ ? &attributes_ : nullptr, s.handle(), pointers_.empty() ? nullptr : pointers_.data(),
                   nullptr);
  for (Buffer* b : used_) b->note_use(&s);
  capture_registry::note(s.handle(), &f);
}

}  // namespace dc
