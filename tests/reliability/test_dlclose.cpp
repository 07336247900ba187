// Loading and unloading libdccuda again and again (.NET's NativeLibrary.Free,
// Python's ctypes, plugin hosts), with each round using the library on a
// thread that then exits, and a staged copy that wakes the copy pool's
// threads. Those threads run the library's code for the life of the
// process: unmapping the library under them crashed (SIGSEGV in most runs of
// 20 rounds) or orphaned them (one more thread per round). The library pins
// itself instead (-z nodelete), so every round after the first finds the same
// library, its pool and its state.
//
// This binary does not link libdccuda: it dlopens it (DCTEST_LIBDCCUDA, else
// libdccuda.so.1 on the loader's path).
#include <dirent.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "dccuda.h"

namespace {

// The calls one round makes, resolved from the loaded library.
struct Api {
  decltype(&dc_device_count) device_count;
  decltype(&dc_device_open) device_open;
  decltype(&dc_device_release) device_release;
  decltype(&dc_buffer_alloc) buffer_alloc;
  decltype(&dc_buffer_release) buffer_release;
  decltype(&dc_buffer_write) buffer_write;
  decltype(&dc_buffer_read) buffer_read;
  decltype(&dc_last_error_message) last_error_message;
};

template <class Fn>
bool resolve(void* lib, const char* name, Fn* out) {
  *out = reinterpret_cast<Fn>(dlsym(lib, name));
  return *out != nullptr;
}

bool resolve_all(void* lib, Api* a) {
  return resolve(lib, "dc_device_count", &a->device_count) && resolve(lib, "dc_device_open", &a->device_open) &&
         resolve(lib, "dc_device_release", &a->device_release) && resolve(lib, "dc_buffer_alloc", &a->buffer_alloc) &&
         resolve(lib, "dc_buffer_release", &a->buffer_release) && resolve(lib, "dc_buffer_write", &a->buffer_write) &&
         resolve(lib, "dc_buffer_read", &a->buffer_read) &&
         resolve(lib, "dc_last_error_message", &a->last_error_message);
}

int thread_count() {
  int n = 0;
  if (DIR* d = opendir("/proc/self/task")) {
    while (dirent* e = readdir(d)) n += e->d_name[0] != '.';
    closedir(d);
  }
  return n;
}

// One round's work on a thread of its own: a staged round trip of 4 MiB of
// pageable memory (large enough for the copy pool). Returns "" or what failed.
std::string use_on_a_thread(const Api& a) {
  std::string error;
  std::thread t([&] {
    dc_device device = nullptr;
    dc_buffer buffer = nullptr;
    constexpr size_t kBytes = size_t(4) << 20;
    std::vector<uint8_t> out(kBytes), back(kBytes);
    for (size_t i = 0; i < kBytes; ++i) out[i] = static_cast<uint8_t>(i * 7 + 1);
    if (a.device_open(0, &device) != DC_SUCCESS || a.buffer_alloc(device, kBytes, 0, &buffer) != DC_SUCCESS ||
        a.buffer_write(buffer, 0, out.data(), kBytes) != DC_SUCCESS ||
        a.buffer_read(buffer, 0, back.data(), kBytes) != DC_SUCCESS)
      error = a.last_error_message();
    else if (back != out)
      error = "the round trip changed the data";
    a.buffer_release(buffer);
    a.device_release(device);
  });
  t.join();
  return error;
}

TEST(Dlclose, LoadUseOnAThreadAndUnloadAHundredTimes) {
  const char* path = std::getenv("DCTEST_LIBDCCUDA");
  if (!path || !*path) path = "libdccuda.so.1";
  int threads_after_first = 0;
  constexpr int kRounds = 100;
  for (int round = 0; round < kRounds; ++round) {
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(lib, nullptr) << "round " << round << ": " << dlerror();
    Api api;
    ASSERT_TRUE(resolve_all(lib, &api)) << "round " << round << ": a dc_ function is missing";
    int32_t devices = 0;
    if (round == 0 && (api.device_count(&devices) != DC_SUCCESS || devices < 1)) {
      dlclose(lib);
      GTEST_SKIP() << "needs a CUDA device (real or fake)";
    }
    std::string error = use_on_a_thread(api);
    ASSERT_EQ(error, "") << "round " << round;
    ASSERT_EQ(dlclose(lib), 0) << "round " << round << ": " << dlerror();
    if (round == 0) threads_after_first = thread_count();
  }
  // The first round started the copy pool; later rounds must find it, not
  // leave one more pool's threads behind each time.
  int threads_now = thread_count();
  EXPECT_LE(threads_now, threads_after_first) << "threads after the first round: " << threads_after_first
                                              << ", after " << kRounds << ": " << threads_now
                                              << " (each unload orphaned the copy pool's threads)";
  std::printf("[ dccuda   ] %d load/use/unload rounds; threads after the first: %d, after the last: %d\n", kRounds,
              threads_after_first, threads_now);
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const char* driver = std::getenv("DCCUDA_DRIVER_LIBRARY");
  std::printf("[ dccuda   ] driver: %s\n", driver && std::strstr(driver, "dcfake")
                                              ? "the FAKE driver (test double, no GPU)"
                                              : "the default driver search (a REAL driver where one is installed)");
  return RUN_ALL_TESTS();
}
