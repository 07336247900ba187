#include "core/fork_guard.h"

#include "core/error.h"

namespace dc::detail {

void fail_after_fork() {
  fail(DC_ERROR_INVALID_STATE,
       "CUDA cannot be used after fork: initialise in the child or use spawn/exec (this process is a fork of "
       "process %ld, which initialised dccuda; CUDA contexts do not survive fork, and the parent's objects stay "
       "the parent's)",
       platform::initialising_process());
}

}  // namespace dc::detail
