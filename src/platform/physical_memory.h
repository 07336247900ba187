// The machine's physical memory: a request for more pinned or managed host
// memory than there is can never succeed, and is refused with a clear
// message before the driver's varying answer (memory/buffer.cpp). POSIX
// (sysconf) in physical_memory_posix.cpp, Windows (GlobalMemoryStatusEx) in
// physical_memory_windows.cpp.
#pragma once

#include <cstdint>

namespace dc::platform {

// In bytes; 0 if the system cannot say.
uint64_t physical_memory_bytes() noexcept;

}  // namespace dc::platform
