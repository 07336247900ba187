// The no-hang rule for persistent kernels (DC_LAUNCH_PERSISTENT): with a
// kernel that does not end until told to (spin_until, polling a flag in mapped
// pinned memory), every dccuda call that used to wait for it returns at once:
// device-wide waits refuse naming the kernel, releases of the buffers it was
// given are deferred until it has ended, queries answer not-ready. On the fake
// driver the kernel runs on a thread of its own until the flag is written
// (fake_kernels.h); on a GPU it is a real kernel. Every call that could hang
// runs under a time limit: past it the test releases the kernel (so the call
// can return) and fails.
#include <future>
#include <string>

#include "queue_test.h"

namespace {

using queuetest::QueueTest;

const char* const kSpinSource = R"(
extern "C" __global__ void spin_until(const volatile unsigned* flag, unsigned* a, unsigned* b, unsigned* c) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    while (*flag == 0) {
    }
    if (a) a[0] = 1;
    if (b) b[0] = 2;
    if (c) c[0] = 3;
  }
}
)";

class PersistentTest : public QueueTest {
 protected:
  void SetUp() override {
    QueueTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SKIP_WITHOUT_NVRTC();
    ASSERT_DC_OK(dc_module_compile_and_load(device_, kSpinSource, "spin.cu", nullptr, &module_));
    ASSERT_DC_OK(dc_module_get_function(module_, "spin_until", &function_));
    ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &stream_));
    ASSERT_DC_OK(dc_buffer_alloc_pinned(device_, 64, DC_ALLOC_DEVICE_MAPPED, &flag_));
    ASSERT_DC_OK(dc_buffer_host_pointer(flag_, reinterpret_cast<void**>(&flag_host_)));
    __atomic_store_n(flag_host_, 0u, __ATOMIC_RELEASE);
  }
  void TearDown() override {
    if (flag_host_) release_kernel();
    if (stream_) {
      dc_stream_synchronize(stream_);
      dc_stream_release(stream_);
    }
    dc_buffer_release(flag_);
    dc_function_release(function_);
    dc_module_release(module_);
    QueueTest::TearDown();
  }

  dc_status launch(dc_buffer a, dc_buffer b, dc_buffer c, uint32_t flags = DC_LAUNCH_PERSISTENT,
                   dc_stream on = nullptr) {
    dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
    config.flags = flags;
    dc_arg args[4] = {DC_ARG_BUFFER_OF(flag_), DC_ARG_BUFFER_OF(a), DC_ARG_BUFFER_OF(b), DC_ARG_BUFFER_OF(c)};
    return dc_launch_kernel(function_, &config, args, 4, on ? on : stream_);
  }
  void release_kernel() { __atomic_store_n(flag_host_, 1u, __ATOMIC_RELEASE); }

  // Runs `call` on another thread; if it has not returned within 10 s (it
  // hangs behind the kernel), releases the kernel so that it can return, and
  // fails. The status and message of the call.
  std::pair<dc_status, std::string> bounded(const char* what, std::function<dc_status()> call) {
    auto f = std::async(std::launch::async, [call] {
      dc_status s = call();
      return std::make_pair(s, std::string(dc_last_error_message()));
    });
    if (f.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
      ADD_FAILURE() << what << " did not return within 10 s while the persistent kernel ran: it waits for the kernel";
      release_kernel();
    }
    return f.get();
  }

  dc_module module_ = nullptr;
  dc_function function_ = nullptr;
  dc_stream stream_ = nullptr;
  dc_buffer flag_ = nullptr;
  unsigned* flag_host_ = nullptr;
};

TEST_F(PersistentTest, DeviceWideWaitsRefuseNamingTheKernel) {
  // Pool memory in use, so that trimming has a pool to wait for.
  dc_buffer pooled = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device_, 4096, 0, &pooled));
  ASSERT_DC_OK(launch(flag_, flag_, flag_));
  auto [sync, sync_message] = bounded("dc_device_synchronize", [this] { return dc_device_synchronize(device_); });
  EXPECT_EQ(sync, DC_ERROR_INVALID_STATE) << sync_message;
  EXPECT_NE(sync_message.find("persistent kernel spin_until"), std::string::npos) << sync_message;
  auto [trim, trim_message] = bounded("dc_device_trim_memory", [this] { return dc_device_trim_memory(device_, 0); });
  EXPECT_EQ(trim, DC_ERROR_INVALID_STATE) << trim_message;
  EXPECT_NE(trim_message.find("spin_until"), std::string::npos) << trim_message;
  // Still running: its stream is not done.
  EXPECT_EQ(dc_stream_query(stream_), DC_NOT_READY);
  // Other work proceeds beside it on other streams.
  dc_stream other = nullptr;
  ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &other));
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device_, 4096, 0, &b));
  ASSERT_DC_OK(dc_buffer_fill_async(b, 0, 4096, 7, 1, other));
  auto [other_sync, other_message] = bounded("dc_stream_synchronize (another stream)",
                                             [other] { return dc_stream_synchronize(other); });
  EXPECT_EQ(other_sync, DC_SUCCESS) << other_message;
  // Told to end, it ends; then the device-wide waits work again.
  release_kernel();
  auto [own, own_message] = bounded("dc_stream_synchronize", [this] { return dc_stream_synchronize(stream_); });
  EXPECT_EQ(own, DC_SUCCESS) << own_message;
  EXPECT_DC_OK(dc_device_synchronize(device_));
  EXPECT_DC_OK(dc_device_trim_memory(device_, 0));
  dc_buffer_release(b);
  dc_buffer_release(pooled);
  dc_stream_release(other);
}

// Releasing buffers the kernel was given (pinned, managed, device memory
// outside the pool: the kinds whose release waited for the stream) returns at
// once; the memory is freed after the kernel has ended, never under it.
TEST_F(PersistentTest, ReleasesOfItsBuffersAreDeferredNotWaited) {
  dc_buffer pinned = nullptr, managed = nullptr, device = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_pinned(device_, 4096, DC_ALLOC_DEVICE_MAPPED, &pinned));
  ASSERT_DC_OK(dc_buffer_alloc_managed(device_, 4096, 0, &managed));
  ASSERT_DC_OK(dc_buffer_alloc(device_, 4096, DC_ALLOC_NO_POOL, &device));
  unsigned* pinned_host = nullptr;
  ASSERT_DC_OK(dc_buffer_host_pointer(pinned, reinterpret_cast<void**>(&pinned_host)));
  long host_allocations = dctest::fake_driver() ? dctest::fake_driver()->live("host_allocations") : 0;
  ASSERT_DC_OK(launch(pinned, managed, device));
  for (dc_buffer b : {pinned, managed, device}) {
    auto [s, m] = bounded("dc_buffer_release", [b] {
      dc_buffer_release(b);
      return DC_SUCCESS;
    });
    (void)s;
  }
  if (auto* f = dctest::fake_driver()) {
    EXPECT_EQ(f->live("host_allocations"), host_allocations) << "the pinned memory was freed under the kernel";
    EXPECT_EQ(f->call_count("cuMemFreeHost"), 0);
  }
  // The kernel still writes what it was given when it ends: the memory is alive.
  release_kernel();
  auto [own, own_message] = bounded("dc_stream_synchronize", [this] { return dc_stream_synchronize(stream_); });
  EXPECT_EQ(own, DC_SUCCESS) << own_message;
  // The next call that looks (here a device-wide wait) frees what waited.
  EXPECT_DC_OK(dc_device_synchronize(device_));
  if (auto* f = dctest::fake_driver()) {
    EXPECT_EQ(f->live("host_allocations"), host_allocations - 1) << "the deferred free never ran";
    EXPECT_EQ(f->call_count("cuMemFreeHost"), 1);
  }
}

TEST_F(PersistentTest, RefusedWhereItWouldHoldOtherWorkOrCannotWork) {
  dc_stream legacy = nullptr;
  ASSERT_DC_OK(dc_stream_get_default(device_, DC_STREAM_LEGACY, &legacy));
  EXPECT_DC_ERROR(launch(flag_, flag_, flag_, DC_LAUNCH_PERSISTENT, legacy), DC_ERROR_INVALID_ARGUMENT,
                  "on a default stream would hold back all other work");
  dc_stream_release(legacy);
  dc_launch prepared = nullptr;
  dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
  config.flags = DC_LAUNCH_PERSISTENT;
  EXPECT_DC_ERROR(dc_launch_create(function_, &config, &prepared), DC_ERROR_INVALID_ARGUMENT,
                  "launch it with dc_launch_kernel");
  EXPECT_EQ(prepared, nullptr);
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_THREAD_LOCAL));
  EXPECT_DC_ERROR(launch(flag_, flag_, flag_), DC_ERROR_INVALID_STATE, "captures a graph");
  dc_graph g = nullptr;
  ASSERT_DC_OK(dc_stream_end_capture(stream_, &g));
  dc_graph_release(g);
}

// Without the flag dccuda cannot know the kernel never ends: a device-wide
// wait waits for it (here released after 200 ms, as the kernel's owner would).
TEST_F(PersistentTest, WithoutTheFlagAWaitWaitsForTheKernel) {
  ASSERT_DC_OK(launch(flag_, flag_, flag_, 0));
  auto releaser = std::async(std::launch::async, [this] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    release_kernel();
  });
  auto start = std::chrono::steady_clock::now();
  auto [s, m] = bounded("dc_device_synchronize", [this] { return dc_device_synchronize(device_); });
  EXPECT_EQ(s, DC_SUCCESS) << m;
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(150));
  releaser.get();
}

}  // namespace
