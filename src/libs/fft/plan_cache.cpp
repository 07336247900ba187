#include "libs/fft/plan_cache.h"

#include <deque>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "core/config.h"

namespace dc {
namespace {

struct Idle {
  FftShape shape;
  std::unique_ptr<FftEngine> engine;
};

struct Cache {
  std::mutex mutex;
  // Per device, the most recently released first. Keyed by the Device
  // object, which every engine in the list keeps alive.
  std::map<Device*, std::deque<Idle>> idle;
};

// Never destroyed (see the header).
Cache& cache() {
  static Cache* c = new Cache;
  return *c;
}

uint32_t limit() noexcept {
  try {
    return config().fft_plan_cache;
  } catch (...) {
    return 0;  // a malformed setting: keep nothing (the next call reports it)
  }
}

}  // namespace

std::unique_ptr<FftEngine> fft_cache_take(Device& device, const FftShape& shape) {
  std::vector<std::unique_ptr<FftEngine>> stale;
  std::unique_ptr<FftEngine> found;
  {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.idle.find(&device);
    if (it == c.idle.end()) return nullptr;
    std::deque<Idle>& list = it->second;
    for (auto e = list.begin(); e != list.end();) {
      if (e->engine->generation != device.generation()) {
        stale.push_back(std::move(e->engine));
        e = list.erase(e);
      } else if (!found && e->shape == shape) {
        found = std::move(e->engine);
        e = list.erase(e);
      } else {
        ++e;
      }
    }
    if (list.empty()) c.idle.erase(it);
  }
  return found;  // `stale` destroyed here, outside the lock
}

void fft_cache_give(const FftShape& shape, std::unique_ptr<FftEngine> engine) noexcept {
  if (!engine) return;
  uint32_t max = limit();
  if (max == 0 || engine->device->generation() != engine->generation) return;  // destroyed here
  std::vector<std::unique_ptr<FftEngine>> out;
  try {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    Device* d = engine->device.get();
    std::deque<Idle>& list = c.idle[d];
    list.push_front(Idle{shape, std::move(engine)});
    while (list.size() > max) {
      out.push_back(std::move(list.back().engine));
      list.pop_back();
    }
  } catch (...) {
    // No memory for the list: the engine (if not moved yet) is destroyed.
  }
}

void fft_cache_trim(Device& device, uint32_t keep) noexcept {
  std::vector<std::unique_ptr<FftEngine>> out;
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.idle.find(&device);
  if (it == c.idle.end()) return;
  std::deque<Idle>& list = it->second;
  while (list.size() > keep) {
    out.push_back(std::move(list.back().engine));
    list.pop_back();
  }
  if (list.empty()) c.idle.erase(it);
  // Destroyed after the lock is given up: `out` is declared before `lock`.
}

uint64_t fft_cache_idle(Device& device) noexcept {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.idle.find(&device);
  return it == c.idle.end() ? 0 : it->second.size();
}

}  // namespace dc
