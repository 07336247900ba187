// environment.h on Linux and other POSIX systems (environment_windows.cpp on Windows).
#if !defined(_WIN32)

#include "platform/environment.h"

#include <sys/auxv.h>

#include <cstdlib>

namespace dc::platform {

const char* environment_value(const char* name) noexcept { return ::secure_getenv(name); }

bool process_is_privileged() noexcept { return ::getauxval(AT_SECURE) != 0; }

bool environment_has(const char* name) noexcept { return std::getenv(name) != nullptr; }

}  // namespace dc::platform

#endif  // !_WIN32
