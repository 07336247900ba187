// Two devices (DCFAKE_DEVICES=2 on the fake; skipped on a machine with one
// GPU): copies between devices, copy paths, and streams and events of the
// wrong device.
#include "memory_test.h"

namespace {

using memtest::MemoryTest;

constexpr uint64_t kMiB = 1ull << 20;

class MultiDeviceTest : public MemoryTest {
 protected:
  void SetUp() override {
    if (dctest::device_count() < 2) GTEST_SKIP() << "needs two devices";
    MemoryTest::SetUp();
    ASSERT_DC_OK(dc_device_open(1, &device1_));
  }
  void TearDown() override {
    dc_device_release(device1_);
    MemoryTest::TearDown();
  }
  dc_device device1_ = nullptr;
};

TEST_F(MultiDeviceTest, CopiesBetweenDevices) {
  dc_stream s0 = stream(), s1 = nullptr;
  ASSERT_DC_OK(dc_stream_create(device1_, 0, 0, &s1));
  for (uint64_t size : {uint64_t(1), uint64_t(4097), 3 * kMiB + 1, 17 * kMiB + 3}) {
    SCOPED_TRACE(size);
    dc_buffer a = alloc(size + 8), b = nullptr;
    ASSERT_DC_OK(dc_buffer_alloc(device1_, size + 8, 0, &b));
    std::vector<uint8_t> data = memtest::random_bytes(size, static_cast<uint32_t>(size)), back(size);
    ASSERT_DC_OK(dc_buffer_write(a, 3, data.data(), size));
    ASSERT_DC_OK(dc_buffer_copy(b, 5, a, 3, size));
    ASSERT_DC_OK(dc_buffer_read(b, 5, back.data(), size));
    EXPECT_EQ(memtest::first_difference(data.data(), back.data(), size), -1);
    // Back again, in stream order on either device's stream.
    for (dc_stream s : {s0, s1}) {
      std::fill(back.begin(), back.end(), uint8_t(0));
      ASSERT_DC_OK(dc_buffer_fill(a, 0, size + 8, 0, 1));
      ASSERT_DC_OK(dc_buffer_copy_async(a, 1, b, 5, size, s));
      ASSERT_DC_OK(dc_stream_synchronize(s));
      ASSERT_DC_OK(dc_buffer_read(a, 1, back.data(), size));
      EXPECT_EQ(memtest::first_difference(data.data(), back.data(), size), -1);
    }
    dc_buffer_release(a);
    dc_buffer_release(b);
  }
  if (auto* f = dctest::fake_driver()) {
    EXPECT_EQ(f->live("pools"), 2) << "one pool per device";
  }
  dc_stream_release(s0);
  dc_stream_release(s1);
}

// A tile of a matrix on device 0 into a tile of a pitched matrix on device 1
// and back (cuMemcpy3DPeerAsync), synchronously and on either device's stream,
// odd widths and pitches, against the CPU; with and without peer access.
TEST_F(MultiDeviceTest, TilesMoveBetweenDevicesIn2D) {
  const uint64_t pitch0 = 1001, rows0 = 70, width = 333, height = 41;
  uint64_t pitch1 = 0;
  dc_buffer a = alloc(pitch0 * rows0), b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_pitched(device1_, 700, 50, 4, 0, &pitch1, &b));
  dc_stream s0 = stream(), s1 = nullptr;
  ASSERT_DC_OK(dc_stream_create(device1_, 0, 0, &s1));
  std::vector<uint8_t> data = memtest::random_bytes(pitch0 * rows0, 41);
  for (int peer = 0; peer < 2; ++peer) {
    int32_t can = 0;
    ASSERT_DC_OK(dc_device_can_access_peer(device_, device1_, &can));
    if (peer && !can) break;
    if (peer) ASSERT_DC_OK(dc_device_enable_peer_access(device1_, device_));
    for (dc_stream s : {static_cast<dc_stream>(nullptr), s0, s1}) {
      SCOPED_TRACE(std::string(peer ? "peer access" : "no peer access") + (s ? " async" : ""));
      ASSERT_DC_OK(dc_buffer_write(a, 0, data.data(), data.size()));
      uint64_t from = 7 * pitch0 + 11, to = 3 * pitch1 + 5;
      if (s) {
        ASSERT_DC_OK(dc_buffer_copy_2d_async(b, to, pitch1, a, from, pitch0, width, height, s));
        ASSERT_DC_OK(dc_stream_synchronize(s));
        ASSERT_DC_OK(dc_buffer_fill(a, 0, pitch0 * rows0, 0, 1));
        ASSERT_DC_OK(dc_buffer_copy_2d_async(a, from, pitch0, b, to, pitch1, width, height, s));
        ASSERT_DC_OK(dc_stream_synchronize(s));
      } else {
        ASSERT_DC_OK(dc_buffer_copy_2d(b, to, pitch1, a, from, pitch0, width, height));
        ASSERT_DC_OK(dc_buffer_fill(a, 0, pitch0 * rows0, 0, 1));
        ASSERT_DC_OK(dc_buffer_copy_2d(a, from, pitch0, b, to, pitch1, width, height));
      }
      std::vector<uint8_t> got(data.size()), want(data.size(), 0);
      for (uint64_t r = 0; r < height; ++r)
        std::memcpy(&want[from + r * pitch0], &data[from + r * pitch0], width);
      ASSERT_DC_OK(dc_buffer_read(a, 0, got.data(), got.size()));
      EXPECT_EQ(memtest::first_difference(got.data(), want.data(), got.size()), -1);
    }
    if (peer) ASSERT_DC_OK(dc_device_disable_peer_access(device1_, device_));
  }
  dc_stream_release(s0);
  dc_stream_release(s1);
  dc_buffer_release(a);
  dc_buffer_release(b);
}

TEST_F(MultiDeviceTest, CopyPaths) {
  dc_buffer a = alloc(64), b = nullptr, a2 = alloc(64), pinned = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device1_, 64, 0, &b));
  ASSERT_DC_OK(dc_buffer_alloc_pinned(device1_, 64, 0, &pinned));
  int32_t path = 0;
  ASSERT_DC_OK(dc_buffer_copy_path(a2, a, &path));
  EXPECT_EQ(path, DC_COPY_PATH_SAME_DEVICE);
  ASSERT_DC_OK(dc_buffer_copy_path(a, pinned, &path));
  EXPECT_EQ(path, DC_COPY_PATH_HOST);
  ASSERT_DC_OK(dc_buffer_copy_path(pinned, b, &path));
  EXPECT_EQ(path, DC_COPY_PATH_HOST);
  // Peer access is not enabled: the driver stages through host memory.
  ASSERT_DC_OK(dc_buffer_copy_path(b, a, &path));
  EXPECT_EQ(path, DC_COPY_PATH_STAGED);
  path = 9;
  EXPECT_DC_ERROR(dc_buffer_copy_path(b, a, nullptr), DC_ERROR_INVALID_ARGUMENT, "path is NULL");
  EXPECT_DC_ERROR(dc_buffer_copy_path(nullptr, a, &path), DC_ERROR_INVALID_HANDLE, "dst is NULL");
  EXPECT_EQ(path, 0);
  dc_buffer_release(a);
  dc_buffer_release(a2);
  dc_buffer_release(b);
  dc_buffer_release(pinned);
}

TEST_F(MultiDeviceTest, StreamsAndEventsOfTheWrongDevice) {
  dc_buffer a = alloc(4096);
  dc_stream s1 = nullptr, s0 = stream();
  ASSERT_DC_OK(dc_stream_create(device1_, 0, 0, &s1));
  std::vector<uint8_t> host(4096);
  EXPECT_DC_ERROR(dc_buffer_write_async(a, 0, host.data(), 64, s1), DC_ERROR_INVALID_ARGUMENT,
                  "stream is on device 1, dst is on device 0");
  EXPECT_DC_ERROR(dc_buffer_read_async(a, 0, host.data(), 64, s1), DC_ERROR_INVALID_ARGUMENT,
                  "stream is on device 1, src is on device 0");
  EXPECT_DC_ERROR(dc_buffer_fill_async(a, 0, 64, 0, 1, s1), DC_ERROR_INVALID_ARGUMENT,
                  "stream is on device 1, buffer is on device 0");
  dc_event e0 = nullptr, e1 = nullptr;
  ASSERT_DC_OK(dc_event_create(device_, 0, &e0));
  ASSERT_DC_OK(dc_event_create(device1_, 0, &e1));
  EXPECT_DC_ERROR(dc_event_record(e0, s1), DC_ERROR_INVALID_ARGUMENT, "stream is on device 1, event is on device 0");
  ASSERT_DC_OK(dc_event_record(e0, s0));
  ASSERT_DC_OK(dc_event_record(e1, s1));
  float ms = 0;
  EXPECT_DC_ERROR(dc_event_elapsed_ms(e0, e1, &ms), DC_ERROR_INVALID_ARGUMENT, "start is on device 0, end on device 1");
  // Waiting on another device's event is allowed.
  EXPECT_DC_OK(dc_stream_wait_event(s1, e0));
  EXPECT_DC_OK(dc_stream_synchronize(s1));
  // A buffer used on another device's stream is freed safely.
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device1_, 4096, 0, &b));
  ASSERT_DC_OK(dc_buffer_copy_async(b, 0, a, 0, 4096, s0));
  dc_buffer_release(b);
  EXPECT_DC_OK(dc_stream_synchronize(s0));
  dc_event_release(e0);
  dc_event_release(e1);
  dc_stream_release(s0);
  dc_stream_release(s1);
  dc_buffer_release(a);
}

}  // namespace
