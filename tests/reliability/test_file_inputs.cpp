// Files that are not module images: dc_module_load_file("/dev/zero") read
// without limit until memory ran out, and a FIFO blocked open() for ever. A
// module file must be a regular file (a symbolic link to one is fine) of at
// most 2 GiB, and is refused unread otherwise. Each case runs in a child
// process with a time limit (and, outside sanitizer builds, an address-space
// limit), so that the old behaviour fails the test instead of the machine.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "dccuda.h"
#include "support/child_process.h"
#include "support/fake.h"
#include "support/files.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define DCTEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DCTEST_SANITIZED 1
#endif

namespace {

struct Loaded {
  std::string status, message, rest;
  dctest::ChildResult child;
};

// dc_module_load_file(path) in a child; parses "status=...\nmessage=...".
Loaded load_in_child(const std::string& path) {
  dctest::ChildOptions o;
  o.timeout_seconds = 30;
  Loaded l;
  l.child = dctest::run_program({dctest::self_executable(), "--child-load", path}, o);
  const std::string& out = l.child.output;
  size_t s = out.find("status="), m = out.find("\nmessage=");
  if (s != std::string::npos && m != std::string::npos) {
    l.status = out.substr(s + 7, m - s - 7);
    size_t end = out.find('\n', m + 9);
    l.message = out.substr(m + 9, end - m - 9);
    l.rest = out.substr(end + 1);
  }
  return l;
}

class FileInputs : public testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    dir_ = dctest::make_temp_dir("file-inputs");
    ASSERT_FALSE(dir_.empty());
  }
  void TearDown() override { dctest::remove_tree(dir_); }
  std::string dir_;
};

TEST_F(FileInputs, DevZeroIsRefusedUnread) {
  Loaded l = load_in_child("/dev/zero");
  ASSERT_FALSE(l.child.timed_out) << "dc_module_load_file(\"/dev/zero\") never returned";
  EXPECT_EQ(l.status, "DC_ERROR_IO") << l.child.how() << "\n" << l.child.output;
  EXPECT_NE(l.message.find("/dev/zero is not a regular file"), std::string::npos) << l.message;
}

TEST_F(FileInputs, ASymbolicLinkToADeviceIsRefusedToo) {
  std::string link = dir_ + "/kernels.cubin";
  ASSERT_EQ(symlink("/dev/zero", link.c_str()), 0);
  Loaded l = load_in_child(link);
  ASSERT_FALSE(l.child.timed_out);
  EXPECT_EQ(l.status, "DC_ERROR_IO") << l.child.output;
  EXPECT_NE(l.message.find("is not a regular file"), std::string::npos) << l.message;
}

TEST_F(FileInputs, AFifoIsRefusedWithoutBlocking) {
  std::string fifo = dir_ + "/kernels.ptx";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  Loaded l = load_in_child(fifo);
  ASSERT_FALSE(l.child.timed_out) << "opening a FIFO with no writer blocked for ever";
  EXPECT_EQ(l.status, "DC_ERROR_IO") << l.child.output;
  EXPECT_NE(l.message.find("is not a regular file"), std::string::npos) << l.message;
}

// A sparse file larger than any module: refused by its size, never read.
TEST_F(FileInputs, AFileOverTheLimitIsRefusedUnread) {
  std::string big = dir_ + "/huge.fatbin";
  int fd = open(big.c_str(), O_CREAT | O_WRONLY, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, (off_t(2) << 30) + 1), 0);
  close(fd);
  Loaded l = load_in_child(big);
  ASSERT_FALSE(l.child.timed_out);
  EXPECT_EQ(l.status, "DC_ERROR_INVALID_IMAGE") << l.child.how() << "\n" << l.child.output;
  EXPECT_NE(l.message.find("file too large"), std::string::npos) << l.message;
  // What the child read (rchar of /proc/self/io) stays far below the file.
  size_t at = l.rest.find("read=");
  ASSERT_NE(at, std::string::npos) << l.child.output;
  EXPECT_LT(std::stoull(l.rest.substr(at + 5)), uint64_t(64) << 20) << "the file was read";
}

// --- the child ---------------------------------------------------------------

uint64_t bytes_read_so_far() {
  std::ifstream io("/proc/self/io");
  std::string key;
  uint64_t value = 0;
  while (io >> key >> value)
    if (key == "rchar:") return value;
  return 0;
}

#ifndef DCTEST_SANITIZED
// The process's address space now, in bytes (VmSize of /proc/self/status).
uint64_t address_space_in_use() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmSize:") {
      uint64_t kib = 0;
      status >> kib;
      return kib * 1024;
    }
    status.ignore(4096, '\n');
  }
  return 0;
}
#endif

int child_load(const char* path) {
  dc_device d = nullptr;
  if (dc_device_open(0, &d) != DC_SUCCESS) {
    std::printf("status=setup\nmessage=%s\n", dc_last_error_message());
    return 0;
  }
#ifndef DCTEST_SANITIZED
  // The old code read /dev/zero until memory ran out: let it run out early.
  // The limit is set after the device is open and counts from the address
  // space in use then: a real driver reserves tens of GiB of address space
  // at cuInit, which a fixed limit would refuse (cuInit: out of memory).
  uint64_t in_use = address_space_in_use();
  struct rlimit limit = {in_use + (uint64_t(3) << 30), in_use + (uint64_t(3) << 30)};
  setrlimit(RLIMIT_AS, &limit);
#endif
  uint64_t before = bytes_read_so_far();
  dc_module m = nullptr;
  dc_status s = dc_module_load_file(d, path, nullptr, &m);
  std::printf("status=%s\nmessage=%s\nread=%llu\n", dc_status_name(s), dc_last_error_message(),
              static_cast<unsigned long long>(bytes_read_so_far() - before));
  dc_module_release(m);
  dc_device_release(d);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "--child-load") return child_load(argv[2]);
  testing::InitGoogleTest(&argc, argv);
  std::printf("[ dccuda   ] %s (each case in a child process)\n", dctest::driver_description());
  return RUN_ALL_TESTS();
}
