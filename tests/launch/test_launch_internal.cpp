// White-box: launches of a kernel whose parameter layout is unknown (a driver
// and an image that do not say; made here by hand from a real function), and
// the prepared launch's reader/writer guard.
#include <atomic>
#include <thread>
#include <vector>

#include "core/handle_table.h"
#include "launch/launch_test.h"
#include "launch/prepared_launch.h"
#include "module/function.h"

namespace {

using namespace launchtest;

class UnknownLayoutTest : public LaunchTest {
 protected:
  // A second dc_function for `known`'s kernel, without a layout.
  dc_function without_layout(dc_function known) {
    dc::Pinned<dc::Function> f = dc::pin<dc::Function>(known, "known");
    auto* copy = new dc::Function(f->code(), f->device_ref(), f->cu_function(), f->name(),
                                  dc::ParamLayout{}, f->max_dynamic_shared_bytes());
    dc::Ref<dc::Function> owner = dc::Ref<dc::Function>::adopt(copy);
    dc_function handle = dc::issue_handle<dc_function>(owner.get());
    functions_.push_back(handle);
    return handle;
  }
};

TEST_F(UnknownLayoutTest, CountAndSizesAreTheCallersButBuffersAreStillChecked) {
  REQUIRE_NVRTC();
  dc_function f = without_layout(kernel("saxpy"));
  dc_function_info info = DC_FUNCTION_INFO_INIT;
  ASSERT_DC_OK(dc_function_get_info(f, &info));
  EXPECT_EQ(info.num_params, -1);
  const int n = 300;
  std::vector<float> x = random_floats(n, 91), y = random_floats(n, 92);
  dc_buffer bx = upload(x), by = upload(y);
  float a = 2.0f;
  int count = n;
  dc_launch_config c = config_1d(3, 128);
  dc_arg args[] = {value_of(a), buffer_arg(bx), buffer_arg(by), value_of(count)};
  ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 4, stream_));
  args[2].offset = n * 4;
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 4, stream_), DC_ERROR_OUT_OF_RANGE, "args[2].offset");
  args[2].offset = 0;
  args[3].size = 0;
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, args, 4, stream_), DC_ERROR_INVALID_ARGUMENT, "args[3].size is 0");

  // Prepared: bound in any order, enqueued once every index up to the last is bound.
  dc_launch l = prepare(f, c);
  ASSERT_NE(l, nullptr);
  dc_arg last = value_of(count);
  ASSERT_DC_OK(dc_launch_set_arg(l, 3, &last));
  EXPECT_DC_ERROR(dc_launch_enqueue(l, stream_), DC_ERROR_INVALID_STATE, "argument 0 of saxpy is not bound (3 of 4");
  dc_arg first[] = {value_of(a), buffer_arg(bx), buffer_arg(by)};
  for (uint32_t i = 0; i < 3; ++i) ASSERT_DC_OK(dc_launch_set_arg(l, i, &first[i]));
  ASSERT_DC_OK(dc_launch_enqueue(l, stream_));
  dc_arg too_far = value_of(count);
  EXPECT_DC_ERROR(dc_launch_set_arg(l, dc::Launch::kMaxUnknownParams, &too_far), DC_ERROR_OUT_OF_RANGE,
                  "a launch binds at most");
  // Packed: the size is the caller's.
  struct {
    float a;
    uint64_t x, y;
    int n;
  } packed{a, 0, 0, n};
  ASSERT_DC_OK(dc_buffer_device_pointer(bx, &packed.x));
  ASSERT_DC_OK(dc_buffer_device_pointer(by, &packed.y));
  ASSERT_DC_OK(dc_launch_kernel_packed(f, &c, &packed, 28, stream_));
  sync();
  std::vector<float> got = download<float>(by, n);
  for (int i = 0; i < n; ++i) {
    float want = y[i];
    for (int k = 0; k < 3; ++k) want = a * x[i] + want;
    ASSERT_NEAR(got[i], want, 1e-4f) << i;
  }
}

// Readers share the guard, a writer excludes them: a reader never sees a
// half-written pair.
TEST(LaunchGuard, ReadersNeverSeeAHalfWrittenChange) {
  dc::LaunchGuard guard;
  uint64_t first = 0, second = 0;  // written together under the writer lock
  std::atomic<bool> stop{false};
  std::atomic<long> torn{0}, reads{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 4; ++t)
    readers.emplace_back([&] {
      while (!stop.load(std::memory_order_relaxed)) {
        guard.lock_shared();
        if (first != second) ++torn;
        guard.unlock_shared();
        ++reads;
      }
    });
  // Write while readers read: from their first read, at least 20000 times
  // and until they have read 20000 times.
  while (reads.load() == 0) std::this_thread::yield();
  for (uint64_t i = 1; i <= 20000 || reads.load() < 20000; ++i) {
    guard.lock();
    first = i;
    second = i;
    guard.unlock();
  }
  stop = true;
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(torn.load(), 0);
  EXPECT_GT(reads.load(), 0);
}

}  // namespace
