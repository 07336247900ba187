// Taking a copy of another process's file descriptor (Linux 5.6+: pidfd_open,
// then pidfd_getfd). The kernel allows it to a process that may ptrace the
// other (the same user, and Yama's ptrace_scope permitting), and always to a
// process taking its own. Elsewhere every call fails with ENOSYS.
#pragma once

namespace dc::platform {

// A new descriptor of this process for descriptor `fd` of process `pid`
// (close it with close_fd), or -1 with `*error` set to the errno of the step
// that failed (ENOSYS: the kernel or system lacks the calls; EPERM: not
// allowed; ESRCH: no such process; EBADF: no such descriptor there).
int take_process_fd(long pid, int fd, int* error) noexcept;

// Closes a descriptor this process owns; -1 is ignored.
void close_fd(int fd) noexcept;

}  // namespace dc::platform
