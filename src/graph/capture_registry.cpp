#include "graph/capture_registry.h"

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
std::map<CUstream, std::vector<Ref<Object>>>& captures() {
  static auto* c = new std::map<CUstream, std::vector<Ref<Object>>>;
  return *c;
}

}  // namespace

std::atomic<int> g_active{0};

void note_slow(CUstream stream, Object* keep) {
  std::lock_guard<std::mutex> g(mutex());
  auto it = captures().find(stream);
  if (it == captures().end()) return;
  std::vector<Ref<Object>>& kept = it->second;
  if (std::none_of(kept.begin(), kept.end(), [&](const Ref<Object>& r) { return r.get() == keep; }))
    kept.push_back(Ref<Object>::share(keep));
}

void begin(CUstream stream) {
  std::lock_guard<std::mutex> g(mutex());
  auto [it, fresh] = captures().try_emplace(stream);
  if (fresh) g_active.fetch_add(1, std::memory_order_relaxed);
  else it->second.clear();  // left over from a capture ended by someone else
}

std::vector<Ref<Object>> end(CUstream stream) {
  std::vector<Ref<Object>> kept;
  std::lock_guard<std::mutex> g(mutex());
  auto it = captures().find(stream);
  if (it == captures().end()) return kept;
  kept = std::move(it->second);
  captures().erase(it);
  g_active.fetch_sub(1, std::memory_order_relaxed);
  return kept;
}

}  // namespace capture_registry
}  // namespace dc
