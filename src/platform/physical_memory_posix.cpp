// physical_memory.h on POSIX systems: sysconf.
#if !defined(_WIN32)

#include "platform/physical_memory.h"

#include <unistd.h>

namespace dc::platform {

uint64_t physical_memory_bytes() noexcept {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGE_SIZE)
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
#endif
  return 0;
}

}  // namespace dc::platform

#endif  // !_WIN32
