#if defined(_WIN32)
#include "platform/process_barrier.h"

#include <windows.h>

namespace dc::platform {

// FlushProcessWriteBuffers (Windows Vista and later) makes every processor
// running a thread of the process pass a barrier; it cannot fail.
bool process_barrier_available() noexcept { return true; }

bool process_barrier() noexcept {
  ::FlushProcessWriteBuffers();
  return true;
}

}  // namespace dc::platform
#endif  // _WIN32
