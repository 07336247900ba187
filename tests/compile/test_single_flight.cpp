// Compiling one source at once from many threads or processes: each used to
// run NVRTC (8 threads: 8 misses; 92-105 of 128 concurrent compiles in
// several processes were misses). Now one compiles and the others wait and
// hit: in one process through an in-process flight per key, across
// processes through an advisory lock file per key in the cache directory
// (released by the kernel if its holder dies; a waiter never waits longer
// than a bound, then compiles itself).
//
// Its own main gives the process a fresh cache directory; the processes of
// the second case are this binary with --child.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "support/child_process.h"
#include "support/fake.h"
#include "support/files.h"

namespace {

std::string kernel_named(const std::string& name) {
  return dctest::unique_source("extern \"C\" __global__ void " + name + "(float* p, int n) {\n"
                               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "  if (i < n) p[i] = p[i] * 5.0f + 1.0f;\n}\n");
}

// Compiles `source` for sm_90; returns where it came from (DC_CACHE_*), -1 on failure.
int32_t compile(const std::string& source) {
  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  o.arch = 90;
  dc_program p = nullptr;
  if (dc_compile(source.c_str(), "flight.cu", &o, nullptr, &p) != DC_SUCCESS) {
    std::fprintf(stderr, "%s\n", dc_last_error_message());
    return -1;
  }
  int32_t from = -1;
  dc_program_cache_source(p, &from);
  dc_program_release(p);
  return from;
}

class SingleFlight : public testing::Test {
 protected:
  void SetUp() override {
    int32_t major = 0, minor = 0;
    if (dc_nvrtc_version(&major, &minor) != DC_SUCCESS) GTEST_SKIP() << "no NVRTC";
    const char* d = nullptr;
    ASSERT_DC_OK(dc_cache_directory(&d));
    dir_ = d;
    ASSERT_FALSE(dir_.empty());
  }
  std::string dir_;
};

TEST_F(SingleFlight, EightThreadsCompilingOneSourceRunNvrtcOnce) {
  std::string source = kernel_named("threads_kernel");
  constexpr int kThreads = 8;
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<int32_t> from(kThreads, -1);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load()) std::this_thread::yield();
      from[static_cast<size_t>(t)] = compile(source);
    });
  }
  while (ready.load() < kThreads) std::this_thread::yield();
  go = true;
  for (std::thread& t : threads) t.join();
  std::map<int32_t, int> count;
  for (int32_t f : from) ++count[f];
  EXPECT_EQ(count[DC_CACHE_MISS], 1) << "NVRTC ran " << count[DC_CACHE_MISS] << " times for one source";
  EXPECT_EQ(count[-1], 0) << "a compile failed";
  EXPECT_EQ(count[DC_CACHE_MEMORY] + count[DC_CACHE_DISK], kThreads - 1);
}

TEST_F(SingleFlight, EightProcessesCompilingOneSourceRunNvrtcOnce) {
  std::string scratch = dctest::make_temp_dir("flight");
  std::string source = scratch + "/k.cu";
  ASSERT_TRUE(dctest::write_file(source, kernel_named("processes_kernel")));
  constexpr int kProcesses = 8;
  std::vector<dctest::ChildResult> results(kProcesses);
  std::vector<std::thread> runners;
  for (int i = 0; i < kProcesses; ++i) {
    runners.emplace_back([&, i] {
      dctest::ChildOptions o;
      o.timeout_seconds = 120;
      results[static_cast<size_t>(i)] = dctest::run_program(
          {dctest::self_executable(), "--child", source, scratch + "/ready" + std::to_string(i), scratch + "/go"}, o);
    });
  }
  // Every child has loaded NVRTC and waits: start them together.
  for (int i = 0; i < kProcesses; ++i)
    while (access((scratch + "/ready" + std::to_string(i)).c_str(), F_OK) != 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(dctest::write_file(scratch + "/go", "go"));
  for (std::thread& t : runners) t.join();
  std::map<std::string, int> count;
  for (const dctest::ChildResult& r : results) {
    ASSERT_EQ(r.exit_code, 0) << r.how() << "\n" << r.output;
    ++count[r.output.substr(0, r.output.find('\n'))];
  }
  EXPECT_EQ(count["source=0"], 1) << "NVRTC ran in " << count["source=0"] << " of " << kProcesses << " processes";
  EXPECT_EQ(count["source=2"], kProcesses - 1) << "the others should have found the entry on disk";
  dctest::remove_tree(scratch);
}

// A holder of an entry's lock that dies: the kernel releases its lock, and
// the compile that waited for it goes on at once (long before the bound a
// waiter gives a live holder, and before this test's time limit).
TEST_F(SingleFlight, ALockHeldByAProcessThatDiedDoesNotBlock) {
  std::string source = kernel_named("crashed_holder_kernel");
  std::set<std::string> before = dctest::files_in(dir_, ".dcc");
  ASSERT_EQ(compile(source), DC_CACHE_MISS);
  std::string entry;
  for (const std::string& e : dctest::files_in(dir_, ".dcc"))
    if (!before.count(e)) entry = e;
  ASSERT_EQ(entry.size(), 68u);
  ASSERT_DC_OK(dc_cache_clear(DC_CACHE_CLEAR_DISK | DC_CACHE_CLEAR_MEMORY));
  std::string lock = dir_ + "/" + entry.substr(0, 64) + ".lock";

  // The holder: a child that takes the entry's lock and never lets go.
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t holder = fork();
  if (holder == 0) {
    int fd = open(lock.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0 || flock(fd, LOCK_EX) != 0) _exit(1);
    ssize_t ignored = write(fds[1], "held", 4);
    (void)ignored;
    for (;;) pause();
  }
  char buf[4];
  ASSERT_EQ(read(fds[0], buf, 4), 4) << "the holder did not take the lock";
  close(fds[0]);
  close(fds[1]);

  std::string scratch = dctest::make_temp_dir("flight-holder");
  std::string file = scratch + "/k.cu";
  ASSERT_TRUE(dctest::write_file(file, source));
  dctest::ChildResult waiter;
  std::thread compiling([&] {
    dctest::ChildOptions o;
    o.timeout_seconds = 30;
    waiter = dctest::run_program({dctest::self_executable(), "--child", file, "", ""}, o);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  kill(holder, SIGKILL);  // dies holding the lock
  waitpid(holder, nullptr, 0);
  compiling.join();
  EXPECT_FALSE(waiter.timed_out) << "the compile kept waiting for a lock whose holder died";
  EXPECT_EQ(waiter.exit_code, 0) << waiter.how() << "\n" << waiter.output;
  EXPECT_EQ(waiter.output.substr(0, 8), "source=0") << waiter.output;
  dctest::remove_tree(scratch);
}

// --- the child ----------------------------------------------------------------

// --child <source file> <ready file> <go file>: loads NVRTC, says it is
// ready, waits for the go file, compiles once and prints "source=<n>".
int child(const char* source_file, const char* ready, const char* go) {
  std::string source = dctest::read_file(source_file);
  int32_t major = 0, minor = 0;
  if (dc_nvrtc_version(&major, &minor) != DC_SUCCESS) return 3;
  if (*ready) dctest::write_file(ready, "ready");
  if (*go)
    while (access(go, F_OK) != 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
  int32_t from = compile(source);
  std::printf("source=%d\n", from);
  return from < 0 ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 5 && std::string(argv[1]) == "--child") return child(argv[2], argv[3], argv[4]);
  std::string dir = dctest::make_temp_dir("flight-cache");
  if (dir.empty()) return 71;
  setenv("DCCUDA_CACHE_DIR", dir.c_str(), 1);
  testing::InitGoogleTest(&argc, argv);
  std::printf("[ dccuda   ] %s\n", dctest::driver_description());
  int result = RUN_ALL_TESTS();
  dctest::remove_tree(dir);
  return result;
}
