// Faults in the two driver calls dccuda makes once per process, when it loads
// the driver: cuInit and cuDriverGetVersion (fake driver only). Each case runs
// in a forked child, so that the library loads afresh; this binary has its
// own main, which never initialises dccuda in the parent. A failure here is
// final for the process (the driver's own cuInit behaves so): every call that
// needs the driver reports DC_ERROR_NO_DRIVER with the raw CUresult and a
// message naming the entry point; nothing crashes, and calls that need no
// driver keep working.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "dccuda.h"
#include "support/fake.h"

namespace {

struct ChildReport {
  dc_status status = 0;
  int32_t cuda = 0;
  dc_status again = 0;        // the same call once more
  dc_status no_driver_needed = 0;  // dc_handle_count, which needs no driver
  int32_t devices = -1;
  char message[1024] = {};
};

// Runs `entry` failing with `code` at its first call, then dc_device_count, in a child.
ChildReport in_child(const char* entry, int code) {
  ChildReport r;
  int fds[2];
  if (pipe(fds) != 0) return r;
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    dctest::fake_driver()->inject(entry, 1, code, 1);
    ChildReport c;
    c.status = dc_device_count(&c.devices);
    c.cuda = dc_last_error_cuda();
    std::snprintf(c.message, sizeof c.message, "%s", dc_last_error_message());
    int32_t n = -1;
    c.again = dc_device_count(&n);
    uint64_t handles = 0;
    c.no_driver_needed = dc_handle_count(DC_HANDLE_BUFFER, &handles);
    ssize_t w = write(fds[1], &c, sizeof c);
    _exit(w == static_cast<ssize_t>(sizeof c) ? 0 : 1);
  }
  close(fds[1]);
  ssize_t got = read(fds[0], &r, sizeof r);
  close(fds[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  EXPECT_TRUE(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) << "the child crashed or failed (" << wstatus << ")";
  EXPECT_EQ(got, static_cast<ssize_t>(sizeof r));
  return r;
}

class InitFaults : public testing::TestWithParam<int> {
 protected:
  void SetUp() override { REQUIRE_FAKE_DRIVER(); }
};

TEST_P(InitFaults, CuInitFailing) {
  ChildReport r = in_child("cuInit", GetParam());
  EXPECT_EQ(r.status, DC_ERROR_NO_DRIVER) << r.message;
  EXPECT_EQ(r.cuda, GetParam()) << r.message;
  EXPECT_EQ(r.devices, 0) << "the out-pointer was not cleared";
  EXPECT_EQ(std::string(r.message).rfind("dc_device_count: cuInit failed", 0), 0u) << r.message;
  EXPECT_EQ(r.again, DC_ERROR_NO_DRIVER);
  EXPECT_EQ(r.no_driver_needed, DC_SUCCESS);
}

TEST_P(InitFaults, CuDriverGetVersionFailing) {
  ChildReport r = in_child("cuDriverGetVersion", GetParam());
  EXPECT_EQ(r.status, DC_ERROR_NO_DRIVER) << r.message;
  EXPECT_EQ(r.cuda, GetParam()) << r.message;
  EXPECT_EQ(std::string(r.message).rfind("dc_device_count: cuDriverGetVersion failed", 0), 0u) << r.message;
  EXPECT_EQ(r.again, DC_ERROR_NO_DRIVER);
  EXPECT_EQ(r.no_driver_needed, DC_SUCCESS);
}

// Out of memory, invalid value, a sticky launch failure, illegal address, not ready, unknown.
INSTANTIATE_TEST_SUITE_P(Codes, InitFaults, testing::Values(2, 1, 719, 700, 600, 999));

// A driver that works but sees no device is not a failure.
TEST(InitNoDevice, CuInitSayingNoDeviceMeansZeroDevices) {
  REQUIRE_FAKE_DRIVER();
  ChildReport r = in_child("cuInit", 100);  // CUDA_ERROR_NO_DEVICE
  EXPECT_EQ(r.status, DC_SUCCESS) << r.message;
  EXPECT_EQ(r.devices, 0);
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  // Not dctest's main: it would initialise dccuda in this process.
  std::printf("[ dccuda   ] driver: %s\n", dctest::fake_driver() ? "the FAKE driver (test double, no GPU)"
                                                                  : "not the fake driver (these tests skip)");
  return RUN_ALL_TESTS();
}
