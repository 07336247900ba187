#include "platform/environment.h"

#include <cstdlib>

namespace dc::platform {

const char* environment_value(const char* name) noexcept { return std::getenv(name); }

}  // namespace dc::platform
