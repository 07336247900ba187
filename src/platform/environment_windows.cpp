// environment.h on Windows: _wgetenv, the value converted to UTF-8 (the "A"
// getenv would give it in the ANSI code page, mangling paths outside it).
// Windows has no set-user-ID or file capabilities: a process's environment
// is its own user's, elevated or not, so no process counts as privileged.
#if defined(_WIN32)

#include "platform/environment.h"

#include <cstdlib>
#include <list>
#include <mutex>
#include <string>

#include "platform/utf16.h"

namespace dc::platform {
namespace {

std::mutex g_mutex;

// The converted values handed out, kept for the life of the process (a
// value's text stays valid, as getenv's does; each distinct value is kept
// once).
const char* keep(const std::string& value) {
  static auto* kept = new std::list<std::string>;
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const std::string& s : *kept)
    if (s == value) return s.c_str();
  kept->push_back(value);
  return kept->back().c_str();
}

}  // namespace

const char* environment_value(const char* name) noexcept {
  try {
    std::wstring wide_name = widen(name);
    const wchar_t* v = ::_wgetenv(wide_name.c_str());
    if (!v) return nullptr;
    return keep(narrow(v));
  } catch (...) {
    return nullptr;  // out of memory: as if unset
  }
}

bool process_is_privileged() noexcept { return false; }

bool environment_has(const char* name) noexcept { return environment_value(name) != nullptr; }

}  // namespace dc::platform

#endif  // _WIN32
