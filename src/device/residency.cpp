#include "device/residency.h"

#include "loader/driver.h"

namespace dc {

void Residency::add(std::string kernel, CUstream stream, CUevent done) {
  std::lock_guard<std::mutex> g(mutex_);
  kernels_.push_back(Kernel{std::move(kernel), stream, done, {}});
  any_.store(true, std::memory_order_release);
}

void Residency::prune() noexcept {
  if (!any_.load(std::memory_order_acquire)) return;
  std::vector<std::function<void()>> ready;
  {
    std::lock_guard<std::mutex> g(mutex_);
    const DriverApi& api = driver_api();
    for (auto it = kernels_.begin(); it != kernels_.end();) {
      CUresult r = api.cuEventQuery(it->done);
      if (r == CUDA_ERROR_NOT_READY) {
        ++it;
        continue;
      }
      // Ended (or the context broke, which ends every kernel in it).
      api.cuEventDestroy(it->done);
      for (auto& f : it->deferred) ready.push_back(std::move(f));
      it = kernels_.erase(it);
    }
    any_.store(!kernels_.empty(), std::memory_order_release);
  }
  // Outside the lock: a free may release a stream, which may look here.
  for (auto& f : ready) {
    try {
      f();
    } catch (...) {
    }
  }
}

bool Residency::running(std::string* kernel) noexcept {
  prune();
  if (!any_.load(std::memory_order_acquire)) return false;
  std::lock_guard<std::mutex> g(mutex_);
  if (kernels_.empty()) return false;
  if (kernel) {
    try {
      *kernel = kernels_.front().name;
    } catch (...) {
    }
  }
  return true;
}

bool Residency::defer(CUstream stream, std::function<void()> free) noexcept {
  prune();
  if (!any_.load(std::memory_order_acquire)) return false;
  std::lock_guard<std::mutex> g(mutex_);
  for (Kernel& k : kernels_) {
    if (k.stream != stream) continue;
    try {
      k.deferred.push_back(std::move(free));
    } catch (...) {
      return false;
    }
    return true;
  }
  return false;
}

size_t Residency::deferred_count() noexcept {
  std::lock_guard<std::mutex> g(mutex_);
  size_t n = 0;
  for (const Kernel& k : kernels_) n += k.deferred.size();
  return n;
}

}  // namespace dc
