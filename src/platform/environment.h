// Reading the process environment: the one place dccuda calls getenv (and
// only core/config.cpp calls this). POSIX here; a Windows branch goes beside it.
#pragma once

namespace dc::platform {

// The value of environment variable `name`, or nullptr when it is not set.
const char* environment_value(const char* name) noexcept;

}  // namespace dc::platform
