// The first check of every fallible entry point, after its out-pointers are
// cleared: in a child forked from a process that initialised dccuda, the call
// is refused with DC_ERROR_INVALID_STATE ("CUDA cannot be used after fork")
// before it takes any lock. The parent's CUDA contexts are not usable in the
// child, and a lock another parent thread held at the fork (the staging
// mutex of a copy in flight, the copy pool's) would never be released there:
// so no lock inherited from the parent is ever taken in the child, and the
// release functions do nothing there (core/handle_table.h).
#pragma once

#include "platform/process.h"

namespace dc {

namespace detail {
[[noreturn]] void fail_after_fork();
}

inline void forbid_after_fork() {
  if (platform::forked_child()) [[unlikely]]
    detail::fail_after_fork();
}

}  // namespace dc
