// process.h on Windows: there is no fork() (a new process starts afresh,
// as after exec), so no process is ever a forked child; the initialising
// process is remembered for messages only. Once initialised, dccuda.dll
// pins itself in the process (GET_MODULE_HANDLE_EX_FLAG_PIN: FreeLibrary no
// longer unloads it), as -z nodelete keeps libdccuda mapped on Linux: its
// copy threads, the driver's callbacks and its thread-exit destructors run
// its code until the process ends.
#if defined(_WIN32)

#include "platform/process.h"

#include <windows.h>

namespace dc::platform {

namespace detail {
std::atomic<bool> g_forked_child{false};
}

namespace {
std::atomic<long> g_pid{0};
}

void note_initialised() noexcept {
  long expected = 0;
  if (!g_pid.compare_exchange_strong(expected, static_cast<long>(::GetCurrentProcessId()), std::memory_order_relaxed))
    return;
  HMODULE self = nullptr;
  ::GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
                       reinterpret_cast<LPCWSTR>(&note_initialised), &self);
}

long initialising_process() noexcept { return g_pid.load(std::memory_order_relaxed); }

unsigned long long current_thread_id() noexcept { return ::GetCurrentThreadId(); }

}  // namespace dc::platform

#endif  // _WIN32
