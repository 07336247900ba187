#include "support/fake.h"

#include <cstdlib>
#include <string>

#include "support/shared_library.h"

namespace dctest {

const FakeDriver* fake_driver() {
  static const FakeDriver* driver = []() -> const FakeDriver* {
    const char* path = std::getenv("DCCUDA_DRIVER_LIBRARY");
    if (!path || !*path) return nullptr;
    void* lib = open_library(path);
    if (!lib || !library_symbol(lib, "dcfake_reset")) return nullptr;
    static FakeDriver d;
    d.reset = reinterpret_cast<void (*)()>(library_symbol(lib, "dcfake_reset"));
    d.inject = reinterpret_cast<void (*)(const char*, int, int, int)>(library_symbol(lib, "dcfake_inject"));
    d.call_count = reinterpret_cast<long (*)(const char*)>(library_symbol(lib, "dcfake_call_count"));
    d.live = reinterpret_cast<long (*)(const char*)>(library_symbol(lib, "dcfake_live"));
    d.legacy_calls = reinterpret_cast<long (*)()>(library_symbol(lib, "dcfake_legacy_calls"));
    d.break_context = reinterpret_cast<void (*)(int, int)>(library_symbol(lib, "dcfake_break_context"));
    d.last_link_input = reinterpret_cast<long (*)(int)>(library_symbol(lib, "dcfake_last_link_input"));
    return &d;
  }();
  return driver;
}

bool real_driver() {
  int32_t v = 0;
  return !fake_driver() && dc_driver_version(&v) == DC_SUCCESS;
}

int32_t device_count() {
  int32_t n = 0;
  if (dc_device_count(&n) != DC_SUCCESS) return 0;
  return n;
}

uint64_t live_handles() {
  uint64_t total = 0;
  for (int32_t t = DC_HANDLE_DEVICE; t <= DC_HANDLE_COMM; ++t) {
    uint64_t n = 0;
    dc_handle_count(t, &n);
    total += n;
  }
  return total;
}

const char* driver_description() {
  static std::string text = [] {
    if (fake_driver()) return std::string("driver: the FAKE driver (test double, no GPU)");
    int32_t v = 0;
    if (dc_driver_version(&v) != DC_SUCCESS) return std::string("driver: none");
    return "driver: a REAL driver, CUDA " + std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10) +
           ", " + std::to_string(device_count()) + " device(s)";
  }();
  return text.c_str();
}

std::string nvrtc_unavailable() {
  int32_t major = 0, minor = 0;
  if (dc_nvrtc_version(&major, &minor) == DC_SUCCESS) return {};
  return dc_last_error_message();
}

}  // namespace dctest
