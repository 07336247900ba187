// dc_ calls made while a thread or the process ends: from an atexit handler,
// from a static object's destructor, and from a pthread key destructor at
// thread exit. glibc destroys a thread's thread_local objects before any of
// these run, so the per-thread last error must outlive them (it once was a
// thread_local std::string: a heap-use-after-free under AddressSanitizer).
// Each case runs in a child process (this binary with --child), since what
// is tested happens as a process ends; run the suite under ASan to see the
// difference (tests/scripts/run_sanitizers.sh asan).
#include <gtest/gtest.h>
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "dccuda.h"
#include "support/child_process.h"
#include "support/fake.h"

namespace {

dctest::ChildResult run_child(const char* what) {
  dctest::ChildOptions o;
  o.timeout_seconds = 60;
  return dctest::run_program({dctest::self_executable(), "--child", what}, o);
}

TEST(ExitPaths, CallsFromAnAtexitHandlerWork) {
  dctest::ChildResult r = run_child("atexit");
  EXPECT_EQ(r.exit_code, 0) << r.how() << "\n" << r.output;
  EXPECT_NE(r.output.find("atexit handler: ok"), std::string::npos) << r.output;
}

TEST(ExitPaths, CallsFromAStaticDestructorWork) {
  dctest::ChildResult r = run_child("static");
  EXPECT_EQ(r.exit_code, 0) << r.how() << "\n" << r.output;
  EXPECT_NE(r.output.find("static destructor: ok"), std::string::npos) << r.output;
}

TEST(ExitPaths, CallsFromAThreadExitDestructorWork) {
  dctest::ChildResult r = run_child("thread");
  EXPECT_EQ(r.exit_code, 0) << r.how() << "\n" << r.output;
  EXPECT_NE(r.output.find("key destructor: ok"), std::string::npos) << r.output;
}

// --- the child ---------------------------------------------------------------

// A failing call and its last error, checked; returns false (and says why) if
// anything is off. The message is long enough to live on the heap.
bool fail_and_check(const char* where) {
  uint64_t size = 1;
  dc_status s = dc_buffer_size(reinterpret_cast<dc_buffer>(uintptr_t(0x0200000000000001ull)), &size);
  std::string message = dc_last_error_message();
  bool ok = s == DC_ERROR_INVALID_HANDLE && dc_last_error_status() == DC_ERROR_INVALID_HANDLE && size == 0 &&
            message.find("dc_buffer_size: buffer") == 0;
  // A second call replaces the last error. It may fail: a static object
  // constructed before the driver was loaded is destroyed after the real
  // driver tore itself down (cuInit then answers CUDA_ERROR_DEINITIALIZED).
  // Either way the per-thread record must say what this call did.
  int32_t count = -1;
  dc_status second = dc_device_count(&count);
  std::string second_message = dc_last_error_message();
  bool second_ok = second == DC_SUCCESS ? second_message.empty() && dc_last_error_status() == DC_SUCCESS
                                        : dc_last_error_status() == second &&
                                              second_message.find("dc_device_count: ") == 0;
  if (ok && !second_ok) message = std::string("then dc_device_count: ") + dc_status_name(second) + ": " + second_message;
  ok = ok && second_ok;
  std::printf("%s: %s%s%s\n", where, ok ? "ok" : "WRONG (", ok ? "" : message.c_str(), ok ? "" : ")");
  std::fflush(stdout);
  return ok;
}

void at_exit() {
  if (!fail_and_check("atexit handler")) _exit(3);
}

struct CallsInItsDestructor {
  bool armed = false;
  ~CallsInItsDestructor() {
    if (armed && !fail_and_check("static destructor")) _exit(3);
  }
};
CallsInItsDestructor g_static_object;

pthread_key_t g_key;
void key_destructor(void*) {
  if (!fail_and_check("key destructor")) _exit(3);
}

void* thread_body(void*) {
  pthread_setspecific(g_key, reinterpret_cast<void*>(1));
  int32_t count = 0;
  dc_device_count(&count);  // this thread's last error exists now
  fail_and_check("thread");
  return nullptr;
}

int child(const std::string& what) {
  // Each case first makes the main thread's last error exist.
  if (!fail_and_check("main")) return 3;
  if (what == "atexit") {
    std::atexit(at_exit);
    return 0;
  }
  if (what == "static") {
    g_static_object.armed = true;
    return 0;
  }
  if (what == "thread") {
    pthread_key_create(&g_key, key_destructor);
    pthread_t t;
    if (pthread_create(&t, nullptr, thread_body, nullptr) != 0) return 4;
    pthread_join(t, nullptr);
    return 0;
  }
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "--child") return child(argv[2]);
  testing::InitGoogleTest(&argc, argv);
  std::printf("[ dccuda   ] %s (each case in a child process)\n", dctest::driver_description());
  return RUN_ALL_TESTS();
}
