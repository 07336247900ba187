// physical_memory.h on Windows: GlobalMemoryStatusEx.
#if defined(_WIN32)

#include "platform/physical_memory.h"

#include <windows.h>

namespace dc::platform {

uint64_t physical_memory_bytes() noexcept {
  MEMORYSTATUSEX status{};
  status.dwLength = sizeof status;
  return ::GlobalMemoryStatusEx(&status) ? status.ullTotalPhys : 0;
}

}  // namespace dc::platform

#endif  // _WIN32
