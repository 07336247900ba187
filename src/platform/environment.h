// Reading the process environment: the one place dccuda calls getenv (and
// only core/config.cpp calls this). POSIX (glibc) here; a Windows branch,
// where there is no set-user-ID, goes beside it.
#pragma once

namespace dc::platform {

// The value of environment variable `name`, or nullptr when it is not set,
// and always nullptr in a privileged process (secure_getenv): there the
// environment belongs to the unprivileged caller, who must not choose which
// library dccuda loads or where its kernel cache is.
const char* environment_value(const char* name) noexcept;

// Whether this process runs with privileges its caller may not have:
// set-user-ID, set-group-ID or file capabilities (the kernel's AT_SECURE).
bool process_is_privileged() noexcept;

// Whether `name` is in the environment at all, privileged or not: only to say
// that a variable was ignored, never to use its value.
bool environment_has(const char* name) noexcept;

}  // namespace dc::platform
