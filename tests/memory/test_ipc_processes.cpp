// Two real processes on one GPU share a buffer and an event (needs a GPU and
// NVRTC; skipped on the fake driver, whose memory is its own process's). The
// parent allocates with DC_ALLOC_NO_POOL, fills the buffer on a stream,
// records an interprocess event after the fill, and runs this binary again as
// the child with both exports in its environment. The child imports them,
// waits for the event, reads the parent's values, launches a kernel that adds
// 1 to every element of the imported buffer, and synchronises. The parent
// then reads 42 everywhere.
//
// The same with memory of an exportable pool (IpcPoolProcessesTest): the
// parent exports the pool, a buffer allocated from it and the event; the
// child imports the pool, either through pidfd_getfd (dc_pool_import_ipc) or
// from a descriptor it inherited (dc_pool_import_fd, what a receiver of
// SCM_RIGHTS holds), then the buffer into it (dc_buffer_import_ipc_from_pool),
// waits, checks, adds 1 with a kernel and releases the import before it
// exits (the importer frees first).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>
#endif

#include "memory/memory_test.h"
#include "support/child_process.h"

namespace {

using namespace memtest;

constexpr const char* kChildEnv = "DCTEST_IPC_CHILD";
constexpr const char* kPoolChildEnv = "DCTEST_IPC_POOL_CHILD";
// The descriptor the pool child inherited (then it imports with dc_pool_import_fd).
constexpr const char* kPoolFdEnv = "DCTEST_IPC_POOL_FD";
constexpr uint32_t kCount = 1u << 20;
constexpr const char* kAddOne =
    "extern \"C\" __global__ void add_one(unsigned* p, unsigned n) {\n"
    "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) p[i] += 1u;\n"
    "}\n";

std::string to_hex(const uint8_t* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

bool from_hex(const std::string& s, uint8_t* p, size_t n) {
  if (s.size() != 2 * n) return false;
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(std::stoul(s.substr(2 * i, 2), nullptr, 16));
  return true;
}

bool nvrtc_present() {
  int32_t major = 0, minor = 0;
  return dc_nvrtc_version(&major, &minor) == DC_SUCCESS;
}

class IpcProcessesTest : public MemoryTest {};

TEST_F(IpcProcessesTest, OneProcessWritesTheOtherReadsAndLaunchesOnIt) {
  if (std::getenv(kChildEnv)) GTEST_SKIP() << "the child runs IpcChild only";
  if (dctest::fake_driver()) GTEST_SKIP() << "the fake driver's memory is its own process's (fake_ipc.cpp)";
  if (!nvrtc_present()) GTEST_SKIP() << "the child compiles its kernel with NVRTC: " << dctest::nvrtc_unavailable();
  dc_buffer shared = alloc(kCount * sizeof(uint32_t), DC_ALLOC_NO_POOL);
  dc_event written = nullptr;
  ASSERT_DC_OK(dc_event_create(device_, DC_EVENT_INTERPROCESS | DC_EVENT_DISABLE_TIMING, &written));
  dc_stream s = stream();
  ASSERT_DC_OK(dc_buffer_fill_async(shared, 0, kCount * sizeof(uint32_t), 41, 4, s));
  ASSERT_DC_OK(dc_event_record(written, s));
  uint8_t memory[DC_IPC_HANDLE_SIZE], event[DC_IPC_HANDLE_SIZE];
  ASSERT_DC_OK(dc_buffer_export_ipc(shared, memory, sizeof memory));
  ASSERT_DC_OK(dc_event_export_ipc(written, event, sizeof event));

  dctest::ChildOptions options;
  options.set_env.push_back(std::string(kChildEnv) + "=" + to_hex(memory, sizeof memory) + ":" +
                            to_hex(event, sizeof event));
  options.timeout_seconds = 120;
  dctest::ChildResult child = dctest::run_program(
      {dctest::self_executable(), "--gtest_filter=IpcChild.*", "--gtest_brief=0"}, options);
  ASSERT_EQ(child.exit_code, 0) << "the child " << child.how() << ":\n" << child.output;
  EXPECT_NE(child.output.find("[  PASSED  ] 1 test"), std::string::npos) << child.output;

  std::vector<uint32_t> got(kCount);
  ASSERT_DC_OK(dc_buffer_read(shared, 0, got.data(), got.size() * sizeof(uint32_t)));
  for (uint32_t i = 0; i < kCount; ++i)
    ASSERT_EQ(got[i], 42u) << "element " << i << ": the child's kernel did not run on the shared memory";
  dc_stream_release(s);
  dc_event_release(written);
  dc_buffer_release(shared);
}

// The child's side (runs only when the parent starts it).
TEST(IpcChild, ImportsWaitsReadsAndLaunches) {
  const char* exports = std::getenv(kChildEnv);
  if (!exports) GTEST_SKIP() << "runs as the child of IpcProcessesTest";
  std::string text(exports);
  size_t colon = text.find(':');
  ASSERT_NE(colon, std::string::npos);
  uint8_t memory[DC_IPC_HANDLE_SIZE], event[DC_IPC_HANDLE_SIZE];
  ASSERT_TRUE(from_hex(text.substr(0, colon), memory, sizeof memory));
  ASSERT_TRUE(from_hex(text.substr(colon + 1), event, sizeof event));
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  dc_buffer shared = nullptr;
  dc_event written = nullptr;
  ASSERT_DC_OK(dc_buffer_import_ipc(device, memory, sizeof memory, &shared));
  ASSERT_DC_OK(dc_event_import_ipc(device, event, sizeof event, &written));
  uint64_t size = 0;
  ASSERT_DC_OK(dc_buffer_size(shared, &size));
  ASSERT_EQ(size, kCount * sizeof(uint32_t));

  // Read what the parent wrote, once its fill has completed.
  ASSERT_DC_OK(dc_event_synchronize(written));
  uint32_t first = 0, last = 0;
  ASSERT_DC_OK(dc_buffer_read(shared, 0, &first, 4));
  ASSERT_DC_OK(dc_buffer_read(shared, size - 4, &last, 4));
  EXPECT_EQ(first, 41u);
  EXPECT_EQ(last, 41u);

  // A kernel on the imported memory, ordered after the parent's event.
  dc_module module = nullptr;
  dc_function add_one = nullptr;
  ASSERT_DC_OK(dc_module_compile_and_load(device, kAddOne, "ipc_add_one.cu", nullptr, &module));
  ASSERT_DC_OK(dc_module_get_function(module, "add_one", &add_one));
  dc_stream s = nullptr;
  ASSERT_DC_OK(dc_stream_create(device, 0, 0, &s));
  ASSERT_DC_OK(dc_stream_wait_event(s, written));
  uint32_t n = kCount;
  dc_arg args[] = {DC_ARG_BUFFER_OF(shared), DC_ARG_VALUE_OF(&n)};
  dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
  config.block[0] = 256;
  config.grid[0] = (kCount + 255) / 256;
  ASSERT_DC_OK(dc_launch_kernel(add_one, &config, args, 2, s));
  ASSERT_DC_OK(dc_stream_synchronize(s));
  dc_stream_release(s);
  dc_function_release(add_one);
  dc_module_release(module);
  dc_event_release(written);
  dc_buffer_release(shared);
  dc_device_release(device);
}

// Adds 1 to every element of `shared` after `written`, on device; the child's half of both tests.
void add_one_after(dc_device device, dc_buffer shared, dc_event written) {
  dc_module module = nullptr;
  dc_function add_one = nullptr;
  ASSERT_DC_OK(dc_module_compile_and_load(device, kAddOne, "ipc_add_one.cu", nullptr, &module));
  ASSERT_DC_OK(dc_module_get_function(module, "add_one", &add_one));
  dc_stream s = nullptr;
  ASSERT_DC_OK(dc_stream_create(device, 0, 0, &s));
  ASSERT_DC_OK(dc_stream_wait_event(s, written));
  uint32_t n = kCount;
  dc_arg args[] = {DC_ARG_BUFFER_OF(shared), DC_ARG_VALUE_OF(&n)};
  dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
  config.block[0] = 256;
  config.grid[0] = (kCount + 255) / 256;
  ASSERT_DC_OK(dc_launch_kernel(add_one, &config, args, 2, s));
  ASSERT_DC_OK(dc_stream_synchronize(s));
  dc_stream_release(s);
  dc_function_release(add_one);
  dc_module_release(module);
}

#if defined(__linux__)

class IpcPoolProcessesTest : public MemoryTest {
 protected:
  // Runs the child with the pool, the buffer and the event exported; with
  // `pass_fd` the child also inherits the pool's descriptor and imports that.
  void run_pool_round_trip(bool pass_fd) {
    if (std::getenv(kChildEnv) || std::getenv(kPoolChildEnv)) GTEST_SKIP() << "the child runs its own test only";
    if (dctest::fake_driver()) GTEST_SKIP() << "the fake driver's memory is its own process's (fake_ipc.cpp)";
    if (!nvrtc_present()) GTEST_SKIP() << "the child compiles its kernel with NVRTC: " << dctest::nvrtc_unavailable();
    // Yama's ptrace_scope 1 lets a process take descriptors of its descendants only: allow the child.
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    dc_pool pool = nullptr;
    ASSERT_DC_OK(dc_pool_create(device_, 0, DC_POOL_EXPORTABLE, &pool));
    dc_buffer shared = nullptr;
    ASSERT_DC_OK(dc_buffer_alloc_from_pool(pool, nullptr, kCount * sizeof(uint32_t), &shared));
    dc_event written = nullptr;
    ASSERT_DC_OK(dc_event_create(device_, DC_EVENT_INTERPROCESS | DC_EVENT_DISABLE_TIMING, &written));
    dc_stream s = stream();
    ASSERT_DC_OK(dc_buffer_fill_async(shared, 0, kCount * sizeof(uint32_t), 41, 4, s));
    ASSERT_DC_OK(dc_event_record(written, s));
    uint8_t pool_bytes[DC_IPC_HANDLE_SIZE], memory[DC_IPC_HANDLE_SIZE], event[DC_IPC_HANDLE_SIZE];
    ASSERT_DC_OK(dc_pool_export_ipc(pool, pool_bytes, sizeof pool_bytes));
    ASSERT_DC_OK(dc_buffer_export_ipc(shared, memory, sizeof memory));
    ASSERT_DC_OK(dc_event_export_ipc(written, event, sizeof event));

    dctest::ChildOptions options;
    options.set_env.push_back(std::string(kPoolChildEnv) + "=" + to_hex(pool_bytes, sizeof pool_bytes) + ":" +
                              to_hex(memory, sizeof memory) + ":" + to_hex(event, sizeof event));
    int inherited = -1;
    if (pass_fd) {
      int32_t fd = -1;
      ASSERT_DC_OK(dc_pool_export_fd(pool, &fd));
      // A copy the child inherits (no FD_CLOEXEC), as SCM_RIGHTS would give it one.
      inherited = fcntl(fd, F_DUPFD, 100);
      ASSERT_GE(inherited, 0);
      options.set_env.push_back(std::string(kPoolFdEnv) + "=" + std::to_string(inherited));
    }
    options.timeout_seconds = 120;
    dctest::ChildResult child = dctest::run_program(
        {dctest::self_executable(), "--gtest_filter=IpcPoolChild.*", "--gtest_brief=0"}, options);
    if (inherited >= 0) close(inherited);
    ASSERT_EQ(child.exit_code, 0) << "the child " << child.how() << ":\n" << child.output;
    EXPECT_NE(child.output.find("[  PASSED  ] 1 test"), std::string::npos) << child.output;

    std::vector<uint32_t> got(kCount);
    ASSERT_DC_OK(dc_buffer_read(shared, 0, got.data(), got.size() * sizeof(uint32_t)));
    for (uint32_t i = 0; i < kCount; ++i)
      ASSERT_EQ(got[i], 42u) << "element " << i << ": the child's kernel did not run on the shared pool memory";
    dc_stream_release(s);
    dc_event_release(written);
    // The child released its import before it exited: the exporter frees now.
    dc_buffer_release(shared);
    dc_pool_release(pool);
  }
};

TEST_F(IpcPoolProcessesTest, PoolMemoryThroughPidfdGetfd) { run_pool_round_trip(false); }

TEST_F(IpcPoolProcessesTest, PoolMemoryThroughAnInheritedDescriptor) { run_pool_round_trip(true); }

// The child's side (runs only when the parent starts it).
TEST(IpcPoolChild, ImportsThePoolAndTheBufferWaitsReadsAndLaunches) {
  const char* exports = std::getenv(kPoolChildEnv);
  if (!exports) GTEST_SKIP() << "runs as the child of IpcPoolProcessesTest";
  std::string text(exports);
  size_t first = text.find(':'), second = text.find(':', first + 1);
  ASSERT_NE(second, std::string::npos);
  uint8_t pool_bytes[DC_IPC_HANDLE_SIZE], memory[DC_IPC_HANDLE_SIZE], event[DC_IPC_HANDLE_SIZE];
  ASSERT_TRUE(from_hex(text.substr(0, first), pool_bytes, sizeof pool_bytes));
  ASSERT_TRUE(from_hex(text.substr(first + 1, second - first - 1), memory, sizeof memory));
  ASSERT_TRUE(from_hex(text.substr(second + 1), event, sizeof event));
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  dc_pool pool = nullptr;
  if (const char* fd = std::getenv(kPoolFdEnv)) {
    int inherited = std::atoi(fd);
    ASSERT_DC_OK(dc_pool_import_fd(device, inherited, &pool));
    close(inherited);  // the caller's: dc_pool_import_fd does not take it
  } else {
    ASSERT_DC_OK(dc_pool_import_ipc(device, pool_bytes, sizeof pool_bytes, &pool));
  }
  // An imported pool holds imports only.
  dc_buffer refused = nullptr;
  EXPECT_EQ(dc_buffer_alloc_from_pool(pool, nullptr, 64, &refused), DC_ERROR_INVALID_ARGUMENT);
  dc_buffer shared = nullptr;
  dc_event written = nullptr;
  ASSERT_DC_OK(dc_buffer_import_ipc_from_pool(pool, memory, sizeof memory, &shared));
  // The pool-memory bytes are refused by the cuMemAlloc import, naming the right call.
  dc_buffer wrong = nullptr;
  EXPECT_EQ(dc_buffer_import_ipc(device, memory, sizeof memory, &wrong), DC_ERROR_INVALID_ARGUMENT);
  ASSERT_DC_OK(dc_event_import_ipc(device, event, sizeof event, &written));
  uint64_t size = 0;
  ASSERT_DC_OK(dc_buffer_size(shared, &size));
  ASSERT_EQ(size, kCount * sizeof(uint32_t));
  ASSERT_DC_OK(dc_event_synchronize(written));
  uint32_t head = 0, tail = 0;
  ASSERT_DC_OK(dc_buffer_read(shared, 0, &head, 4));
  ASSERT_DC_OK(dc_buffer_read(shared, size - 4, &tail, 4));
  EXPECT_EQ(head, 41u);
  EXPECT_EQ(tail, 41u);
  add_one_after(device, shared, written);
  // Released before the exporter frees (it waits for this process to exit): the driver's order.
  dc_buffer_release(shared);
  dc_pool_release(pool);
  dc_event_release(written);
  dc_device_release(device);
}

#endif

}  // namespace
