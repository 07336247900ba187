// Knowing that this process is a fork of the one that initialised dccuda.
// CUDA contexts do not survive fork(), and a child inherits the parent's
// locks in whatever state the parent's other threads held them. So dccuda
// remembers the process that initialised it and, through pthread_atfork, a
// forked child learns that it is one: every call there is refused before it
// takes any lock (core/fork_guard.h). exec() starts afresh; posix_spawn does
// not run fork handlers and execs at once. POSIX here; Windows has no fork.
#pragma once

#include <atomic>

namespace dc::platform {

namespace detail {
extern std::atomic<bool> g_forked_child;
}

// Called once dccuda holds state of this process (its settings are fixed):
// remembers the process id and installs the fork handler. Idempotent.
void note_initialised() noexcept;

// True in a process forked (and not exec'd) from one that initialised
// dccuda. One relaxed load: cheap enough for every call.
inline bool forked_child() noexcept { return detail::g_forked_child.load(std::memory_order_relaxed); }

// The id of the process that initialised dccuda (0 before), for messages.
long initialising_process() noexcept;

// The operating system's id of the calling thread (Linux: gettid, as top,
// gdb and /proc show it; Windows: GetCurrentThreadId). A system call: cache it.
unsigned long long current_thread_id() noexcept;

}  // namespace dc::platform
