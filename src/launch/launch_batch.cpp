#include "launch/launch_batch.h"

#include <string>
#include <vector>

#include "core/error.h"
#include "core/handle_table.h"
#include "launch/launch_args.h"
#include "launch/launch_driver.h"
#include "launch/prepared_launch.h"
#include "stream/capture_registry.h"

namespace dc {
namespace {

// Holds a launch's guard shared for one scope (as enqueue does).
class SharedGuard {
 public:
  explicit SharedGuard(LaunchGuard& g) noexcept : g_(g) { g_.lock_shared(); }
  ~SharedGuard() { g_.unlock_shared(); }
  SharedGuard(const SharedGuard&) = delete;
  SharedGuard& operator=(const SharedGuard&) = delete;

 private:
  LaunchGuard& g_;
};

// Re-raises the current failure with "launches[i]: " in front (and, while
// enqueueing, how many launches went before), keeping its status and CUresult.
[[noreturn]] void fail_at(const Failure& failure, uint32_t index, bool enqueueing) {
  std::string prefix = strf("launches[%u]: ", index);
  if (enqueueing)
    prefix += strf("%u launches before it were enqueued (they stay enqueued); this one and those after it were "
                   "not: ", index);
  fail_again_with_prefix(failure, prefix);
}

}  // namespace

void Launch::check_enqueue(const Stream& s) {
  Function& f = *function_;
  if (&s.device() != &f.device()) [[unlikely]]
    s.require_device(f.device(), "the launch's function");
  SharedGuard g(guard_);
  if (unbound_) [[unlikely]]
    fail_unbound();
  check_shared_memory(shape_, f);
  f.check_usable();
}

void Launch::enqueue_bound(Stream& s) {
  Function& f = *function_;
  SharedGuard g(guard_);
  // Checked again under this hold of the guard: a change since the first pass
  // (set_args, a lowered shared memory limit) is caught, not launched.
  if (unbound_) [[unlikely]]
    fail_unbound();
  check_shared_memory(shape_, f);
  launch_on_driver(f, shape_, use_ex_ ? &attributes_ : nullptr, s.handle(), pointers_.empty() ? nullptr : pointers_.data(),
                   nullptr);
  for (Buffer* b : used_) b->note_use(&s);
  capture_registry::note(s.handle(), &f);
}

void enqueue_batch(const dc_launch* launches, uint32_t count, Stream& stream) {
  if (count && !launches)
    fail(DC_ERROR_INVALID_ARGUMENT, "launches is NULL with count %u; pass an array of %u dc_launch handles (or count 0)",
         count, count);
  stream.check_usable();
  if (count == 0) return;
  // First pass: pin and check every launch; nothing is enqueued yet.
  std::vector<Pinned<Launch>> pinned;
  pinned.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    Pinned<Launch> l = try_pin<Launch>(launches[i]);
    if (!l) [[unlikely]]
      fail_invalid_handle(launches[i], HandleType::Launch, strf("launches[%u]", i).c_str());
    try {
      l->check_enqueue(stream);
    } catch (const Failure& e) {
      fail_at(e, i, false);
    }
    pinned.push_back(std::move(l));
  }
  // Second pass: the launches, in order, under one binding of the context
  // (every function is on the stream's device: checked above).
  ContextScope bind(stream.device());
  for (uint32_t i = 0; i < count; ++i) {
    try {
      pinned[i]->enqueue_bound(stream);
    } catch (const Failure& e) {
      fail_at(e, i, true);
    }
  }
}

}  // namespace dc
