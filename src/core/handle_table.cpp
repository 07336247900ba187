#include "core/handle_table.h"

#include <chrono>
#include <deque>
#include <mutex>

#include "core/error.h"

namespace dc {
namespace handle_layout {
std::atomic<Chunk*> g_chunks[kMaxChunks];
}  // namespace handle_layout

namespace {

using namespace handle_layout;

std::atomic<uint64_t> g_live[kHandleTypeCount];

struct FreeList {
  std::mutex mutex;
  // FIFO, so that a released slot is reused as late as possible and a stale
  // handle meets a new generation rather than a recycled one.
  std::deque<uint32_t> free;
  uint32_t next = 0;
};

uint64_t first_generation(uint32_t index) noexcept {
  static const uint64_t seed = [] {
    uint64_t x = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&g_live)) ^
                 static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    return x * 0x9E3779B97F4A7C15ull;
  }();
  uint64_t g = (seed ^ (uint64_t(index) * 0xBF58476D1CE4E5B9ull)) >> 40;
  return (g & kGenerationMask) | 1;
}

FreeList& free_list() {
  static FreeList* list = new FreeList;  // never destroyed: handles may be released during exit
  return *list;
}

void destroy(HandleSlot* slot, uint32_t index, uint64_t state) noexcept {
  Object* object = slot->object;
  slot->object = nullptr;
  uint64_t next_generation = (state >> 32) + 1;
  slot->state.store(next_generation << 32, std::memory_order_release);
  // A handle holds 24 bits of the generation: once the slot has served all
  // 2^24 of them, the next would give a handle equal to the slot's first
  // one, and any stale copy of it would name the new object. The slot is
  // retired instead (closed for ever; the table has 2^28 slots, so retiring
  // one per 2^24 handles never runs it out).
  bool exhausted = (next_generation & kGenerationMask) == first_generation(index);
  if (!exhausted) {
    FreeList& list = free_list();
    std::lock_guard<std::mutex> lock(list.mutex);
    list.free.push_back(index);
  }
  if (object) object->unref();
}

}  // namespace

const char* handle_type_name(HandleType type) noexcept {
  switch (type) {
    case HandleType::Device: return "dc_device";
    case HandleType::Buffer: return "dc_buffer";
    case HandleType::Stream: return "dc_stream";
    case HandleType::Event: return "dc_event";
    case HandleType::Program: return "dc_program";
    case HandleType::Module: return "dc_module";
    case HandleType::Function: return "dc_function";
    case HandleType::Launch: return "dc_launch";
    case HandleType::Graph: return "dc_graph";
    case HandleType::Queue: return "dc_queue";
    case HandleType::Control: return "dc_control";
    case HandleType::Pool: return "dc_pool";
    case HandleType::Library: return "dc_library";
    case HandleType::Blas: return "dc_blas";
    case HandleType::FftPlan: return "dc_fft_plan";
    case HandleType::Comm: return "dc_comm";
  }
  return "handle";
}

uint64_t HandleTable::insert(Object* object) {
  FreeList& list = free_list();
  uint32_t index;
  HandleSlot* slot;
  {
    std::lock_guard<std::mutex> lock(list.mutex);
    if (!list.free.empty()) {
      index = list.free.front();
      list.free.pop_front();
    } else {
      index = list.next;
      uint32_t c = index >> kChunkBits;
      if (c >= kMaxChunks) throw std::bad_alloc();
      if (!g_chunks[c].load(std::memory_order_relaxed)) g_chunks[c].store(new Chunk, std::memory_order_release);
      ++list.next;
    }
    slot = slot_at(index);
    if (index == list.next - 1 && slot->state.load(std::memory_order_relaxed) == 0) {
      // A fresh slot starts at an unpredictable generation, so that small or
      // made-up values (0x0100000000000000 for slot 0) do not name live objects.
      slot->state.store(first_generation(index) << 32, std::memory_order_relaxed);
    }
  }
  object->retain();
  slot->object = object;
  ThreadError& e = thread_error();
  slot->created_ns = steady_now_ns();
  slot->created_by = e.call;
  slot->thread_id = current_thread_id_cached(e);
  uint64_t generation = slot->state.load(std::memory_order_relaxed) >> 32;
  slot->slot_index = index;
  slot->state.store((generation << 32) | kOpen, std::memory_order_release);
  g_live[static_cast<int>(object->type())].fetch_add(1, std::memory_order_relaxed);
  return (static_cast<uint64_t>(object->type()) << 56) | ((generation & kGenerationMask) << 32) | index;
}

void HandleTable::destroy_unpinned(HandleSlot* slot, uint64_t state) noexcept {
  destroy(slot, slot->slot_index, state);
}

bool HandleTable::close(uint64_t handle, HandleType type) noexcept {
  HandleSlot* slot = pin(handle, type);
  if (!slot) return false;
  uint64_t state = slot->state.load(std::memory_order_relaxed);
  for (;;) {
    if (!(state & kOpen)) {
      unpin(slot);
      return false;
    }
    if (slot->state.compare_exchange_weak(state, state & ~kOpen, std::memory_order_acq_rel, std::memory_order_relaxed))
      break;
  }
  g_live[static_cast<int>(type)].fetch_sub(1, std::memory_order_relaxed);
  unpin(slot);
  return true;
}

uint64_t HandleTable::live_count(HandleType type) noexcept {
  return g_live[static_cast<int>(type)].load(std::memory_order_relaxed);
}

uint64_t steady_now_ns() noexcept {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

std::vector<LiveHandle> HandleTable::live_handles() {
  uint32_t slots;
  {
    FreeList& list = free_list();
    std::lock_guard<std::mutex> lock(list.mutex);
    slots = list.next;
  }
  std::vector<LiveHandle> out;
  for (uint32_t index = 0; index < slots; ++index) {
    HandleSlot* slot = slot_at(index);
    if (!slot) continue;
    // Pinned as pin() does, by slot instead of by handle value.
    uint64_t state = slot->state.load(std::memory_order_relaxed);
    bool pinned = false;
    while ((state & kOpen) && (state & kPinMask) != kPinMask) {
      if (slot->state.compare_exchange_weak(state, state + 1, std::memory_order_acquire, std::memory_order_relaxed)) {
        pinned = true;
        break;
      }
    }
    if (!pinned) continue;
    Object* object = slot->object;
    LiveHandle h;
    h.type = object->type();
    h.handle = (static_cast<uint64_t>(h.type) << 56) | (((state >> 32) & kGenerationMask) << 32) | index;
    h.created_ns = slot->created_ns;
    h.created_by = slot->created_by;
    h.thread_id = slot->thread_id;
    object->describe(h.description);
    try {
      out.push_back(h);
    } catch (...) {
      unpin(slot);
      throw;
    }
    unpin(slot);
  }
  return out;
}

void fail_invalid_handle(const void* handle, HandleType expected, const char* argument) {
  const char* want = handle_type_name(expected);
  if (!handle) fail(DC_ERROR_INVALID_HANDLE, "%s is NULL; pass a %s", argument, want);
  uint64_t value = reinterpret_cast<uintptr_t>(handle);
  uint64_t type_bits = value >> 56;
  if (type_bits != static_cast<uint64_t>(expected) && type_bits >= 1 && type_bits < kHandleTypeCount)
    fail(DC_ERROR_INVALID_HANDLE, "%s (%p) is a %s handle, not a %s", argument, handle,
         handle_type_name(static_cast<HandleType>(type_bits)), want);
  fail(DC_ERROR_INVALID_HANDLE,
       "%s (%p) is not a valid %s: it was released, or never came from dccuda; use a handle from a successful call "
       "and do not use it after its release",
       argument, handle, want);
}

}  // namespace dc
