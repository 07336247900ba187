// What a graph must keep alive: the functions (so their modules stay loaded)
// launched into a capture, and the graphs launched into it as child graphs.
// The driver's graph refers to the kernels by CUfunction only; without this,
// releasing a module would leave a graph that launches unloaded code.
//
// Captures begun with dc_stream_begin_capture are registered by CUstream. A
// launch asks whether any capture is in progress with one relaxed load of a
// global counter; only then does it look the stream up (under a mutex).
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <atomic>
#include <vector>

#include "core/object.h"

namespace dc {
class Device;
namespace capture_registry {

extern std::atomic<int> g_active;  // captures registered now

// True if `stream` is in a registered capture, which now keeps `keep`.
bool note_slow(CUstream stream, Object* keep);

// After work that uses `keep` was enqueued on `stream`: if the stream is
// capturing, the graph it records keeps `keep` alive.
inline void note(CUstream stream, Object* keep) {
  if (g_active.load(std::memory_order_relaxed) != 0) [[unlikely]]
    note_slow(stream, keep);
}

// As note, answering whether the graph will keep `keep` (false: no capture
// begun with dc_stream_begin_capture is in progress on `stream`).
inline bool keep(CUstream stream, Object* keep) {
  return g_active.load(std::memory_order_relaxed) != 0 && note_slow(stream, keep);
}

void begin(CUstream stream, const Device& device);
// How many registered captures are in progress on `device`'s streams. A
// context-wide synchronisation then would fail and invalidate them all, in
// whichever thread they were begun.
int active_on(const Device& device);
// Ends the registration and hands over what the capture used.
std::vector<Ref<Object>> end(CUstream stream);

}  // namespace capture_registry
}  // namespace dc
