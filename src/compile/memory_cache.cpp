#include "compile/memory_cache.h"

#include <cstring>
#include <list>
#include <mutex>
#include <unordered_map>

#include "core/config.h"

namespace dc {
namespace {

struct DigestHash {
  size_t operator()(const Digest& d) const noexcept {
    size_t h;
    std::memcpy(&h, d.data(), sizeof h);  // already a cryptographic hash
    return h;
  }
};

struct Entry {
  Digest key;
  std::shared_ptr<const CompiledOutput> output;
  size_t bytes;
};

struct Cache {
  std::mutex mutex;
  std::list<Entry> lru;  // most recently used first
  std::unordered_map<Digest, std::list<Entry>::iterator, DigestHash> index;
  size_t bytes = 0;
};

Cache& cache() {
  static Cache* c = new Cache;  // never destroyed: used until the process ends
  return *c;
}

}  // namespace

uint64_t cache_max_bytes() {
  uint64_t configured = config().cache_max_bytes;
  return configured ? configured : (uint64_t(1) << 30);
}

size_t memory_cache_limit() {
  uint64_t limit = cache_max_bytes();
  constexpr uint64_t kCap = uint64_t(256) << 20;
  return static_cast<size_t>(limit < kCap ? limit : kCap);
}

std::shared_ptr<const CompiledOutput> memory_cache_find(const Digest& key) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.index.find(key);
  if (it == c.index.end()) return nullptr;
  c.lru.splice(c.lru.begin(), c.lru, it->second);
  return it->second->output;
}

void memory_cache_insert(const Digest& key, std::shared_ptr<const CompiledOutput> output) {
  size_t bytes = output->footprint();
  size_t limit = memory_cache_limit();
  if (bytes > limit) return;
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.index.find(key);
  if (it != c.index.end()) {
    c.bytes -= it->second->bytes;
    c.lru.erase(it->second);
    c.index.erase(it);
  }
  c.lru.push_front(Entry{key, std::move(output), bytes});
  c.index[key] = c.lru.begin();
  c.bytes += bytes;
  while (c.bytes > limit && !c.lru.empty()) {
    Entry& last = c.lru.back();
    c.bytes -= last.bytes;
    c.index.erase(last.key);
    c.lru.pop_back();
  }
}

void memory_cache_clear() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.index.clear();
  c.lru.clear();
  c.bytes = 0;
}

size_t memory_cache_entries() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.lru.size();
}

}  // namespace dc
