#include "stream/capture_registry.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace dc {
namespace capture_registry {
namespace {

std::mutex& mutex() {
  static auto* m = new std::mutex;
  return *m;
}
struct Capture {
  const Device* device = nullptr;
  std::vector<Ref<Object>> kept;
};
std::map<CUstream, Capture>& captures() {
  static auto* c = new std::map<CUstream, Capture>;
  return *c;
}

}  // namespace

std::atomic<int> g_active{0};

bool note_slow(CUstream stream, Object* keep) {
  std::lock_guard<std::mutex> g(mutex());
  auto it = captures().find(stream);
  if (it == captures().end()) return false;
  std::vector<Ref<Object>>& kept = it->second.kept;
  if (std::none_of(kept.begin(), kept.end(), [&](const Ref<Object>& r) { return r.get() == keep; }))
    kept.push_back(Ref<Object>::share(keep));
  return true;
}

void begin(CUstream stream, const Device& device) {
  std::lock_guard<std::mutex> g(mutex());
  auto [it, fresh] = captures().try_emplace(stream);
  if (fresh) g_active.fetch_add(1, std::memory_order_relaxed);
  else it->second.kept.clear();  // left over from a capture ended by someone else
  it->second.device = &device;
}

int active_on(const Device& device) {
  if (g_active.load(std::memory_order_relaxed) == 0) return 0;
  std::lock_guard<std::mutex> g(mutex());
  int n = 0;
  for (const auto& [stream, capture] : captures()) n += capture.device == &device;
  return n;
}

std::vector<Ref<Object>> end(CUstream stream) {
  std::vector<Ref<Object>> kept;
  std::lock_guard<std::mutex> g(mutex());
  auto it = captures().find(stream);
  if (it == captures().end()) return kept;
  kept = std::move(it->second.kept);
  captures().erase(it);
  g_active.fetch_sub(1, std::memory_order_relaxed);
  return kept;
}

}  // namespace capture_registry
}  // namespace dc
