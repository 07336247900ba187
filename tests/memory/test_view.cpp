// Sub-buffer views (dc_buffer_view): the parent's bytes through the view's own
// range, bounds checked against the view, composition of views, lifetime (a
// view keeps its parent's memory, frees nothing), and views in copies, 2D
// copies, fills and prefetches. Views as kernel arguments: test_launch.
#include <vector>

#include "memory/memory_test.h"

namespace {

using namespace memtest;

class ViewTest : public MemoryTest {};

TEST_F(ViewTest, AViewIsTheParentsBytesWithinItsOwnRange) {
  std::vector<uint8_t> data = random_bytes(4096, 1);
  dc_buffer parent = alloc(4096);
  ASSERT_DC_OK(dc_buffer_write(parent, 0, data.data(), data.size()));
  dc_buffer v = nullptr;
  ASSERT_DC_OK(dc_buffer_view(parent, 1000, 517, &v));
  uint64_t size = 0;
  EXPECT_DC_OK(dc_buffer_size(v, &size));
  EXPECT_EQ(size, 517u);
  int32_t kind = 0;
  EXPECT_DC_OK(dc_buffer_kind(v, &kind));
  EXPECT_EQ(kind, DC_BUFFER_DEVICE);
  uint64_t base = 0, at = 0;
  EXPECT_DC_OK(dc_buffer_device_pointer(parent, &base));
  EXPECT_DC_OK(dc_buffer_device_pointer(v, &at));
  EXPECT_EQ(at, base + 1000);
  std::vector<uint8_t> got(517);
  ASSERT_DC_OK(dc_buffer_read(v, 0, got.data(), got.size()));
  EXPECT_EQ(first_difference(got.data(), data.data() + 1000, got.size()), -1);
  // Writes land in the parent, at the view's offset.
  std::vector<uint8_t> patch = random_bytes(17, 2);
  ASSERT_DC_OK(dc_buffer_write(v, 500, patch.data(), patch.size()));
  std::memcpy(&data[1500], patch.data(), patch.size());
  std::vector<uint8_t> all(4096);
  ASSERT_DC_OK(dc_buffer_read(parent, 0, all.data(), all.size()));
  EXPECT_EQ(first_difference(all.data(), data.data(), all.size()), -1);
  // The view's own range bounds it, although the parent has room.
  EXPECT_DC_ERROR(dc_buffer_write(v, 500, patch.data(), 18), DC_ERROR_OUT_OF_RANGE,
                  "dst_offset 500 + size 18 exceeds dst's size 517");
  EXPECT_DC_ERROR(dc_buffer_fill(v, 512, 8, 0, 4), DC_ERROR_OUT_OF_RANGE, "exceeds buffer's size 517");
  // A view of a view is a view of the same memory.
  dc_buffer vv = nullptr;
  ASSERT_DC_OK(dc_buffer_view(v, 10, 20, &vv));
  EXPECT_DC_OK(dc_buffer_device_pointer(vv, &at));
  EXPECT_EQ(at, base + 1010);
  ASSERT_DC_OK(dc_buffer_read(vv, 0, got.data(), 20));
  EXPECT_EQ(first_difference(got.data(), data.data() + 1010, 20), -1);
  // Copies between a view and its parent are checked for overlap by address.
  EXPECT_DC_ERROR(dc_buffer_copy(parent, 1005, v, 0, 64), DC_ERROR_INVALID_ARGUMENT, "overlap");
  EXPECT_DC_OK(dc_buffer_copy(parent, 0, v, 0, 64));
  dc_buffer_release(vv);
  dc_buffer_release(v);
  dc_buffer_release(parent);
}

TEST_F(ViewTest, ArgumentsAreChecked) {
  dc_buffer parent = alloc(256);
  dc_buffer v = reinterpret_cast<dc_buffer>(1);
  EXPECT_DC_ERROR(dc_buffer_view(parent, 0, 0, &v), DC_ERROR_INVALID_ARGUMENT, "size is 0");
  EXPECT_EQ(v, nullptr);
  EXPECT_DC_ERROR(dc_buffer_view(parent, 200, 57, &v), DC_ERROR_OUT_OF_RANGE,
                  "offset 200 + size 57 runs past the end of parent (256 bytes)");
  EXPECT_DC_ERROR(dc_buffer_view(parent, UINT64_MAX, 2, &v), DC_ERROR_OUT_OF_RANGE, "offset");
  EXPECT_DC_ERROR(dc_buffer_view(parent, 1, UINT64_MAX, &v), DC_ERROR_OUT_OF_RANGE, "size");
  EXPECT_DC_ERROR(dc_buffer_view(nullptr, 0, 1, &v), DC_ERROR_INVALID_HANDLE, "parent");
  EXPECT_DC_ERROR(dc_buffer_view(parent, 0, 1, nullptr), DC_ERROR_INVALID_ARGUMENT, "view");
  dc_buffer_release(parent);
}

TEST_F(ViewTest, AViewKeepsItsParentsMemoryAndFreesNothing) {
  dc_buffer parent = alloc(1024);
  std::vector<uint8_t> data = random_bytes(1024, 3);
  ASSERT_DC_OK(dc_buffer_write(parent, 0, data.data(), data.size()));
  dc_buffer v = nullptr, w = nullptr;
  ASSERT_DC_OK(dc_buffer_view(parent, 512, 512, &v));
  ASSERT_DC_OK(dc_buffer_view(v, 0, 16, &w));
  dc_buffer_release(parent);  // the memory lives on in the views
  dc_stream s = stream();
  std::vector<uint8_t> got(512);
  ASSERT_DC_OK(dc_buffer_read_async(v, 0, got.data(), got.size(), s));
  ASSERT_DC_OK(dc_stream_synchronize(s));
  EXPECT_EQ(first_difference(got.data(), data.data() + 512, got.size()), -1);
  dc_buffer_release(v);  // frees nothing: w still uses the memory
  ASSERT_DC_OK(dc_buffer_fill_async(w, 0, 16, 0xAB, 1, s));
  ASSERT_DC_OK(dc_buffer_read(w, 0, got.data(), 16));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(got[i], 0xAB);
  dc_buffer_release(w);  // the last: now the memory goes, in order on s
  dc_stream_release(s);
  ASSERT_DC_OK(dc_device_synchronize(device_));
}

TEST_F(ViewTest, ViewsWorkInTwoDimensionalCopiesFillsAndPrefetches) {
  // A 16 x 16 matrix (pitch 16) whose rows 4..11 are a view; a 2D copy of a
  // tile through the view lands at the right place of the parent.
  std::vector<uint8_t> data = random_bytes(256, 4);
  dc_buffer m = alloc(256), v = nullptr;
  ASSERT_DC_OK(dc_buffer_write(m, 0, data.data(), data.size()));
  ASSERT_DC_OK(dc_buffer_view(m, 64, 128, &v));
  std::vector<uint8_t> tile = random_bytes(3 * 5, 5);
  ASSERT_DC_OK(dc_buffer_write_2d(v, 2 * 16 + 7, 16, tile.data(), tile.size(), 5, 5, 3));
  for (int r = 0; r < 3; ++r) std::memcpy(&data[64 + (2 + r) * 16 + 7], &tile[r * 5], 5);
  ASSERT_DC_OK(dc_buffer_fill_2d(v, 7 * 16, 16, 4, 1, 0x11, 1));
  std::memset(&data[64 + 7 * 16], 0x11, 4);
  std::vector<uint8_t> got(256);
  ASSERT_DC_OK(dc_buffer_read(m, 0, got.data(), got.size()));
  EXPECT_EQ(first_difference(got.data(), data.data(), 256), -1);
  // A row past the view's end is refused, although the parent has it.
  EXPECT_DC_ERROR(dc_buffer_write_2d(v, 6 * 16, 16, tile.data(), tile.size(), 5, 5, 3), DC_ERROR_OUT_OF_RANGE,
                  "dst: row 2 (of 3) spans bytes [128, 133), past dst's size 128");
  dc_buffer_release(v);
  dc_buffer_release(m);

  int32_t managed = 0, concurrent = 0;
  dc_device_attribute(device_, 83 /* CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY */, &managed);
  dc_device_attribute(device_, 89 /* CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS */, &concurrent);
  if (!managed || !concurrent) return;
  dc_buffer mm = nullptr, mv = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_managed(device_, 1 << 20, 0, &mm));
  ASSERT_DC_OK(dc_buffer_view(mm, 4096, 8192, &mv));
  int32_t kind = 0;
  EXPECT_DC_OK(dc_buffer_kind(mv, &kind));
  EXPECT_EQ(kind, DC_BUFFER_MANAGED);
  dc_stream s = stream();
  EXPECT_DC_OK(dc_buffer_prefetch(mv, 0, 8192, 0, s));
  EXPECT_DC_ERROR(dc_buffer_prefetch(mv, 4096, 8192, 0, s), DC_ERROR_OUT_OF_RANGE, "");
  ASSERT_DC_OK(dc_stream_synchronize(s));
  void* host = nullptr, *root = nullptr;
  EXPECT_DC_OK(dc_buffer_host_pointer(mv, &host));
  EXPECT_DC_OK(dc_buffer_host_pointer(mm, &root));
  EXPECT_EQ(static_cast<char*>(host), static_cast<char*>(root) + 4096);
  dc_stream_release(s);
  dc_buffer_release(mv);
  dc_buffer_release(mm);
}

TEST_F(ViewTest, AViewOfHostMemoryFollowsItsParentsMapping) {
  dc_buffer pinned = nullptr, v = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_pinned(device_, 4096, 0, &pinned));
  ASSERT_DC_OK(dc_buffer_view(pinned, 100, 200, &v));
  uint64_t address = 0;
  EXPECT_DC_ERROR(dc_buffer_device_pointer(v, &address), DC_ERROR_NOT_SUPPORTED, "DC_ALLOC_DEVICE_MAPPED");
  void* host = nullptr, *root = nullptr;
  EXPECT_DC_OK(dc_buffer_host_pointer(v, &host));
  EXPECT_DC_OK(dc_buffer_host_pointer(pinned, &root));
  EXPECT_EQ(static_cast<char*>(host), static_cast<char*>(root) + 100);
  dc_buffer_release(v);
  dc_buffer_release(pinned);
}

}  // namespace
