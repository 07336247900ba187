// fork() after dccuda was initialised. CUDA contexts do not survive fork, and
// the child inherits the parent's locks in whatever state the parent's other
// threads held them: a child forked during a staged copy deadlocked on the
// staging mutex (20 of 20 children hung), and a child of a quiet parent got
// DC_SUCCESS on the parent's handles. Every call in such a child answers
// DC_ERROR_INVALID_STATE ("CUDA cannot be used after fork: initialise in the
// child or use spawn/exec") before it takes any lock, and releases do
// nothing there. A child that execs, or a process spawned afresh, works.
//
// Runs on the fake driver in CI and on a real GPU (tests/gpu/run.sh).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "dccuda.h"
#include "support/child_process.h"
#include "support/fake.h"

namespace {

constexpr const char* kForkMessage = "CUDA cannot be used after fork: initialise in the child or use spawn/exec";

// Runs `body` in a forked child, which reports through a pipe and _exits;
// waits at most `seconds` (then kills it: a hang). Returns what it wrote, or
// "HUNG"/"DIED" when it did not finish.
template <class Body>
std::string in_forked_child(Body&& body, double seconds = 20) {
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string report = body();
    ssize_t ignored = write(fds[1], report.data(), report.size());
    (void)ignored;
    _exit(0);
  }
  close(fds[1]);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  bool done = false;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      done = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (!done) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    close(fds[0]);
    return "HUNG";
  }
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  if (!WIFEXITED(status)) return "DIED (signal " + std::to_string(WTERMSIG(status)) + ")";
  return out;
}

// "" when `s` is the refusal of `call`, else what is wrong.
std::string refused(const char* call, dc_status s) {
  std::string message = dc_last_error_message();
  if (s != DC_ERROR_INVALID_STATE) return std::string(call) + " returned " + dc_status_name(s) + " (" + message + "); ";
  if (message.rfind(std::string(call) + ": " + kForkMessage, 0) != 0)
    return std::string(call) + ": wrong message: " + message + "; ";
  return "";
}

class ForkTest : public testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    ASSERT_DC_OK(dc_device_open(0, &device_));
    ASSERT_DC_OK(dc_buffer_alloc(device_, kBytes, 0, &buffer_));
    host_.assign(kBytes, 7);
  }
  void TearDown() override {
    dc_buffer_release(buffer_);
    dc_device_release(device_);
    EXPECT_EQ(dctest::live_handles(), 0u);
  }
  static constexpr size_t kBytes = size_t(8) << 20;  // staged: pageable and large
  dc_device device_ = nullptr;
  dc_buffer buffer_ = nullptr;
  std::vector<uint8_t> host_;
};

TEST_F(ForkTest, AChildOfAQuietParentIsRefusedEveryCall) {
  std::string report = in_forked_child([&] {
    std::string r;
    r += refused("dc_buffer_write", dc_buffer_write(buffer_, 0, host_.data(), 4096));
    int32_t count = 5;
    r += refused("dc_device_count", dc_device_count(&count));
    if (count != 0) r += "dc_device_count left its out-pointer set; ";
    dc_buffer b = reinterpret_cast<dc_buffer>(uintptr_t(1));
    r += refused("dc_buffer_alloc", dc_buffer_alloc(device_, 64, 0, &b));
    if (b != nullptr) r += "dc_buffer_alloc left its out-pointer set; ";
    uint64_t size = 5;
    r += refused("dc_buffer_size", dc_buffer_size(buffer_, &size));
    if (size != 0) r += "dc_buffer_size left its out-pointer set; ";
    r += refused("dc_init", dc_init(nullptr));
    // Releases do nothing in the child (the parent's objects are the parent's).
    dc_buffer_release(buffer_);
    dc_device_release(device_);
    // The version and status names still answer.
    if (dc_version() != DCCUDA_VERSION) r += "dc_version; ";
    return r.empty() ? std::string("ok") : r;
  });
  EXPECT_EQ(report, "ok");
  // The parent is untouched, the child's releases included.
  EXPECT_DC_OK(dc_buffer_write(buffer_, 0, host_.data(), 4096));
}

// The parent keeps a staged copy running on another thread while it forks.
TEST_F(ForkTest, ChildrenForkedDuringAStagedCopyNeverHang) {
  std::atomic<bool> stop{false};
  std::atomic<long> copies{0};
  std::thread copier([&] {
    std::vector<uint8_t> data(kBytes, 3);
    while (!stop.load()) {
      if (dc_buffer_write(buffer_, 0, data.data(), kBytes) != DC_SUCCESS) break;
      copies.fetch_add(1);
    }
  });
  while (copies.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  int hung = 0, wrong = 0;
  std::string first_problem;
  for (int i = 0; i < 20 && hung == 0; ++i) {
    std::string report = in_forked_child([&] {
      std::string r = refused("dc_buffer_write", dc_buffer_write(buffer_, 0, host_.data(), kBytes));
      return r.empty() ? std::string("ok") : r;
    }, 10);
    if (report == "HUNG") ++hung;
    else if (report != "ok") ++wrong;
    if (report != "ok" && first_problem.empty()) first_problem = report;
  }
  stop = true;
  copier.join();
  EXPECT_EQ(hung, 0) << "children hung (killed after 10 s): the inherited staging lock";
  EXPECT_EQ(wrong, 0) << first_problem;
  EXPECT_GT(copies.load(), 0);
}

// The ways that work: exec after fork, and a freshly spawned process.
TEST_F(ForkTest, AChildThatExecsAndASpawnedProcessWork) {
  std::string exe = dctest::self_executable();
  std::string report = in_forked_child([&] {
    // fork + exec: the new image starts afresh.
    execl(exe.c_str(), exe.c_str(), "--child-work", static_cast<char*>(nullptr));
    return std::string("exec failed");
  }, 120);
  EXPECT_EQ(report, "") << "the exec'd child failed (it prints nothing on success)";
  dctest::ChildResult spawned = dctest::run_program({exe, "--child-work"});
  EXPECT_EQ(spawned.exit_code, 0) << spawned.how() << "\n" << spawned.output;
  EXPECT_NE(spawned.output.find("child work: ok"), std::string::npos) << spawned.output;
}

// A fresh process (spawned, or exec'd after fork): real work on device 0.
int child_work() {
  dc_device d = nullptr;
  dc_buffer b = nullptr;
  std::vector<uint32_t> out(1 << 16), back(1 << 16);
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint32_t>(i * 2654435761u);
  bool ok = dc_device_open(0, &d) == DC_SUCCESS && dc_buffer_alloc(d, out.size() * 4, 0, &b) == DC_SUCCESS &&
            dc_buffer_write(b, 0, out.data(), out.size() * 4) == DC_SUCCESS &&
            dc_buffer_read(b, 0, back.data(), back.size() * 4) == DC_SUCCESS && back == out;
  if (!ok) std::fprintf(stderr, "child work failed: %s\n", dc_last_error_message());
  dc_buffer_release(b);
  dc_device_release(d);
  if (ok) std::printf("child work: ok\n");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--child-work") return child_work();
  testing::InitGoogleTest(&argc, argv);
  std::printf("[ dccuda   ] %s\n", dctest::driver_description());
  return RUN_ALL_TESTS();
}
