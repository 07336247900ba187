// 2D and 3D copies, 2D fills and pitched allocation: tiles copied between every
// pair of memory kinds (device, pitched device, pinned, managed, registered,
// and pageable host memory for writes and reads) with odd sizes, offsets and
// pitches, checked byte for byte against a CPU reference that also shows the
// bytes around the tile untouched; the region checks and their messages.
// Built into test_copy and test_copy_tuned (every pageable copy staged, small
// chunks): the staged 2D paths run in CI either way.
#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "memory/memory_test.h"

namespace {

using namespace memtest;

// A matrix of `rows` rows `pitch` bytes apart, in one kind of memory.
enum class Kind { Device, Pitched, Pinned, Managed, Registered };
const char* name_of(Kind k) {
  switch (k) {
    case Kind::Device: return "device";
    case Kind::Pitched: return "pitched";
    case Kind::Pinned: return "pinned";
    case Kind::Managed: return "managed";
    case Kind::Registered: return "registered";
  }
  return "?";
}
constexpr Kind kKinds[] = {Kind::Device, Kind::Pitched, Kind::Pinned, Kind::Managed, Kind::Registered};

struct Matrix {
  dc_buffer buffer = nullptr;
  uint64_t pitch = 0, rows = 0, size = 0;
  std::vector<uint8_t> registered;  // the caller's memory of a registered buffer
};

class Copy2dTest : public MemoryTest {
 protected:
  void TearDown() override {
    for (auto& m : matrices_) dc_buffer_release(m->buffer);
    matrices_.clear();
    MemoryTest::TearDown();
  }

  // A matrix of `rows` x `width` bytes with the given pitch (the driver's for
  // Kind::Pitched), filled with random bytes (kept in `*contents`).
  Matrix& matrix(Kind kind, uint64_t width, uint64_t rows, uint64_t pitch, uint32_t seed,
                 std::vector<uint8_t>* contents) {
    auto m = std::make_unique<Matrix>();
    m->rows = rows;
    m->pitch = pitch;
    m->size = pitch * rows;
    switch (kind) {
      case Kind::Device: EXPECT_DC_OK(dc_buffer_alloc(device_, m->size, 0, &m->buffer)); break;
      case Kind::Pitched:
        EXPECT_DC_OK(dc_buffer_alloc_pitched(device_, width, rows, 4, 0, &m->pitch, &m->buffer));
        m->size = m->pitch * rows;
        break;
      case Kind::Pinned: EXPECT_DC_OK(dc_buffer_alloc_pinned(device_, m->size, DC_ALLOC_DEVICE_MAPPED, &m->buffer)); break;
      case Kind::Managed: EXPECT_DC_OK(dc_buffer_alloc_managed(device_, m->size, 0, &m->buffer)); break;
      case Kind::Registered:
        m->registered.resize(m->size);
        EXPECT_DC_OK(dc_buffer_register_host(device_, m->registered.data(), m->size, DC_ALLOC_DEVICE_MAPPED,
                                             &m->buffer));
        break;
    }
    *contents = random_bytes(m->size, seed);
    if (m->buffer) EXPECT_DC_OK(dc_buffer_write(m->buffer, 0, contents->data(), m->size));
    matrices_.push_back(std::move(m));
    return *matrices_.back();
  }

  std::vector<uint8_t> contents_of(const Matrix& m) {
    std::vector<uint8_t> v(m.size);
    EXPECT_DC_OK(dc_buffer_read(m.buffer, 0, v.data(), m.size));
    return v;
  }

  std::vector<std::unique_ptr<Matrix>> matrices_;
};

// What a 2D copy does, on the CPU.
void reference_copy(std::vector<uint8_t>& dst, uint64_t dst_offset, uint64_t dst_pitch, const std::vector<uint8_t>& src,
                    uint64_t src_offset, uint64_t src_pitch, uint64_t width, uint64_t height) {
  for (uint64_t r = 0; r < height; ++r)
    std::memcpy(&dst[dst_offset + r * dst_pitch], &src[src_offset + r * src_pitch], width);
}

void expect_same(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  long at = first_difference(got.data(), want.data(), got.size());
  EXPECT_EQ(at, -1) << what << ": first wrong byte at " << at;
}

TEST_F(Copy2dTest, PitchedAllocationPadsRowsAndChecksItsArguments) {
  uint64_t pitch = 0;
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_pitched(device_, 1001, 37, 4, 0, &pitch, &b));
  EXPECT_GE(pitch, 1001u);
  uint64_t size = 0;
  EXPECT_DC_OK(dc_buffer_size(b, &size));
  EXPECT_EQ(size, pitch * 37);
  int32_t kind = 0;
  EXPECT_DC_OK(dc_buffer_kind(b, &kind));
  EXPECT_EQ(kind, DC_BUFFER_DEVICE);
  dc_buffer_release(b);

  b = reinterpret_cast<dc_buffer>(1);
  pitch = 7;
  EXPECT_DC_ERROR(dc_buffer_alloc_pitched(device_, 0, 4, 4, 0, &pitch, &b), DC_ERROR_INVALID_ARGUMENT,
                  "width 0 and height 4 must both be above 0");
  EXPECT_EQ(b, nullptr);
  EXPECT_EQ(pitch, 0u);
  EXPECT_DC_ERROR(dc_buffer_alloc_pitched(device_, 64, 4, 2, 0, &pitch, &b), DC_ERROR_INVALID_ARGUMENT,
                  "element_size 2 is not 4, 8 or 16");
  EXPECT_DC_ERROR(dc_buffer_alloc_pitched(device_, 64, 4, 4, 1, &pitch, &b), DC_ERROR_INVALID_ARGUMENT,
                  "flags 0x1: this call takes no flags");
  EXPECT_DC_ERROR(dc_buffer_alloc_pitched(device_, 64, 4, 4, 0, nullptr, &b), DC_ERROR_INVALID_ARGUMENT, "pitch");
  EXPECT_DC_ERROR(dc_buffer_alloc_pitched(device_, uint64_t(1) << 40, uint64_t(1) << 40, 4, 0, &pitch, &b),
                  DC_ERROR_OUT_OF_MEMORY, "exceed device 0's total memory");
}

// The common case: a tile of one matrix into a tile of another, for every pair
// of memory kinds, synchronously and in stream order.
TEST_F(Copy2dTest, TilesMoveBetweenEveryPairOfMemoryKinds) {
  dc_stream s = stream();
  uint32_t seed = 1;
  for (Kind from : kKinds)
    for (Kind to : kKinds)
      for (bool async : {false, true}) {
        SCOPED_TRACE(std::string(name_of(from)) + " -> " + name_of(to) + (async ? " async" : ""));
        std::vector<uint8_t> src_data, dst_data;
        // Odd widths and pitches; the pitched kind gets the driver's pitch.
        Matrix& src = matrix(from, 301, 29, 333, seed++, &src_data);
        Matrix& dst = matrix(to, 257, 23, 263, seed++, &dst_data);
        ASSERT_NE(src.buffer, nullptr);
        ASSERT_NE(dst.buffer, nullptr);
        const uint64_t width = 97, height = 17;
        uint64_t src_offset = 5 * src.pitch + 13, dst_offset = 3 * dst.pitch + 151;
        if (async) {
          ASSERT_DC_OK(dc_buffer_copy_2d_async(dst.buffer, dst_offset, dst.pitch, src.buffer, src_offset, src.pitch,
                                               width, height, s));
          ASSERT_DC_OK(dc_stream_synchronize(s));
        } else {
          ASSERT_DC_OK(dc_buffer_copy_2d(dst.buffer, dst_offset, dst.pitch, src.buffer, src_offset, src.pitch, width,
                                         height));
        }
        reference_copy(dst_data, dst_offset, dst.pitch, src_data, src_offset, src.pitch, width, height);
        expect_same(contents_of(dst), dst_data, "destination");
        expect_same(contents_of(src), src_data, "source untouched");
      }
  dc_stream_release(s);
}

// Pageable host memory on one side: written from and read into, every kind,
// both directions, with odd pitches on the host side too.
TEST_F(Copy2dTest, PageableHostRegionsWriteAndRead) {
  dc_stream s = stream();
  uint32_t seed = 100;
  for (Kind kind : kKinds)
    for (bool async : {false, true}) {
      SCOPED_TRACE(std::string(name_of(kind)) + (async ? " async" : ""));
      std::vector<uint8_t> data;
      Matrix& m = matrix(kind, 500, 41, 517, seed++, &data);
      ASSERT_NE(m.buffer, nullptr);
      const uint64_t width = 211, height = 33, host_pitch = 223;
      std::vector<uint8_t> host = random_bytes(host_pitch * (height + 2), seed++);
      uint64_t offset = 4 * m.pitch + 77;
      // Write the host region (starting at row 1 of the host memory) into the buffer.
      const uint8_t* from = host.data() + host_pitch;
      uint64_t from_size = host.size() - host_pitch;
      if (async) {
        ASSERT_DC_OK(dc_buffer_write_2d_async(m.buffer, offset, m.pitch, from, from_size, host_pitch, width, height, s));
        ASSERT_DC_OK(dc_stream_synchronize(s));
      } else {
        ASSERT_DC_OK(dc_buffer_write_2d(m.buffer, offset, m.pitch, from, from_size, host_pitch, width, height));
      }
      reference_copy(data, offset, m.pitch, host, host_pitch, host_pitch, width, height);
      expect_same(contents_of(m), data, "after write_2d");
      // Read another region back into fresh host memory.
      std::vector<uint8_t> back(host_pitch * height, 0xA5), want = back;
      uint64_t read_offset = 2 * m.pitch + 3;
      if (async) {
        ASSERT_DC_OK(dc_buffer_read_2d_async(m.buffer, read_offset, m.pitch, back.data(), back.size(), host_pitch,
                                             width, height, s));
        ASSERT_DC_OK(dc_stream_synchronize(s));
      } else {
        ASSERT_DC_OK(
            dc_buffer_read_2d(m.buffer, read_offset, m.pitch, back.data(), back.size(), host_pitch, width, height));
      }
      reference_copy(want, 0, host_pitch, data, read_offset, m.pitch, width, height);
      expect_same(back, want, "after read_2d");
    }
  dc_stream_release(s);
}

// Large enough to be staged by default (4 MiB to the device, 256 KiB back),
// rows of an odd width.
TEST_F(Copy2dTest, LargePageableRegionsAreStagedRowsIntact) {
  const uint64_t width = 3001, height = 2003, pitch = 3011;  // about 6 MiB
  std::vector<uint8_t> host = random_bytes(pitch * height, 7);
  uint64_t dev_pitch = 0;
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_pitched(device_, width, height, 4, 0, &dev_pitch, &b));
  dc_stream s = stream();
  for (bool async : {false, true}) {
    std::vector<uint8_t> back(pitch * height, 0), want(pitch * height, 0);
    if (async) {
      ASSERT_DC_OK(dc_buffer_write_2d_async(b, 0, dev_pitch, host.data(), host.size(), pitch, width, height, s));
      ASSERT_DC_OK(dc_buffer_read_2d_async(b, 0, dev_pitch, back.data(), back.size(), pitch, width, height, s));
      ASSERT_DC_OK(dc_stream_synchronize(s));
    } else {
      ASSERT_DC_OK(dc_buffer_write_2d(b, 0, dev_pitch, host.data(), host.size(), pitch, width, height));
      ASSERT_DC_OK(dc_buffer_read_2d(b, 0, dev_pitch, back.data(), back.size(), pitch, width, height));
    }
    reference_copy(want, 0, pitch, host, 0, pitch, width, height);
    expect_same(back, want, async ? "async round trip" : "round trip");
  }
  dc_stream_release(s);
  dc_buffer_release(b);
}

TEST_F(Copy2dTest, BoxesMoveIn3d) {
  // A 7 x 5 x 3 box out of a 20 x 9 x 4 volume (rows of 23 bytes' pitch) into
  // a 11 x 6 x 5 volume (pitch 13), both with planes padded.
  const uint64_t sp = 23, srows = 9, splanes = 4, dp = 13, drows = 8, dplanes = 5;
  std::vector<uint8_t> src_data, dst_data;
  Matrix& src = matrix(Kind::Device, 20, srows * splanes, sp, 11, &src_data);
  Matrix& dst = matrix(Kind::Managed, 11, drows * dplanes, dp, 12, &dst_data);
  const uint64_t width = 7, height = 5, depth = 3;
  uint64_t src_offset = (1 * srows + 2) * sp + 4, dst_offset = (2 * drows + 1) * dp + 3;
  for (bool async : {false, true}) {
    if (async) {
      dc_stream s = stream();
      ASSERT_DC_OK(dc_buffer_copy_3d_async(dst.buffer, dst_offset, dp, drows, src.buffer, src_offset, sp, srows, width,
                                           height, depth, s));
      ASSERT_DC_OK(dc_stream_synchronize(s));
      dc_stream_release(s);
    } else {
      ASSERT_DC_OK(dc_buffer_copy_3d(dst.buffer, dst_offset, dp, drows, src.buffer, src_offset, sp, srows, width,
                                     height, depth));
    }
    for (uint64_t z = 0; z < depth; ++z)
      reference_copy(dst_data, dst_offset + z * drows * dp, dp, src_data, src_offset + z * srows * sp, sp, width,
                     height);
    expect_same(contents_of(dst), dst_data, "3D destination");
  }
}

TEST_F(Copy2dTest, RegionsAreCheckedNamingTheRowThatOverruns) {
  dc_buffer a = alloc(1000), b = alloc(1000);
  // 10 rows of 64 bytes, 100 apart, from offset 50: row 9 ends at 1014.
  EXPECT_DC_ERROR(dc_buffer_copy_2d(a, 50, 100, b, 0, 100, 64, 10), DC_ERROR_OUT_OF_RANGE,
                  "dst: row 9 (of 10) spans bytes [950, 1014), past dst's size 1000");
  EXPECT_DC_ERROR(dc_buffer_copy_2d(a, 0, 100, b, 300, 100, 64, 10), DC_ERROR_OUT_OF_RANGE,
                  "src: row 7 (of 10) spans bytes [1000, 1064), past src's size 1000");
  EXPECT_DC_ERROR(dc_buffer_copy_2d(a, 2000, 100, b, 0, 100, 64, 2), DC_ERROR_OUT_OF_RANGE,
                  "dst: row 0 (of 2) spans bytes [2000, 2064)");
  EXPECT_DC_ERROR(dc_buffer_copy_2d(a, 0, 63, b, 0, 100, 64, 2), DC_ERROR_INVALID_ARGUMENT,
                  "dst_pitch 63 is less than width 64");
  // A single row needs no pitch.
  EXPECT_DC_OK(dc_buffer_copy_2d(a, 0, 0, b, 0, 0, 1000, 1));
  // Huge values never wrap around.
  EXPECT_DC_ERROR(dc_buffer_copy_2d(a, 0, UINT64_MAX, b, 0, 100, 64, 3), DC_ERROR_OUT_OF_RANGE, "dst: row 1 (of 3)");
  EXPECT_DC_ERROR(dc_buffer_copy_2d(a, UINT64_MAX, 100, b, 0, 100, 64, 3), DC_ERROR_OUT_OF_RANGE, "dst: row 0");
  // 3D, planes 4 rows apart, 3 rows each: plane 2's row 2 (linear row 10) is the first past the end.
  EXPECT_DC_ERROR(dc_buffer_copy_3d(a, 0, 100, 4, b, 0, 10, 3, 50, 3, 3), DC_ERROR_OUT_OF_RANGE,
                  "dst: row 2 of plane 2 (of 3 rows x 3 planes) spans bytes [1000, 1050), past dst's size 1000");
  // Planes 5 rows apart from offset 90: linear row 9 (between planes) ends past 1000, so plane 2's row 0 is named.
  EXPECT_DC_ERROR(dc_buffer_copy_3d(a, 90, 100, 5, b, 0, 10, 3, 50, 3, 3), DC_ERROR_OUT_OF_RANGE,
                  "dst: row 0 of plane 2 (of 3 rows x 3 planes) spans bytes [1090, 1140)");
  EXPECT_DC_ERROR(dc_buffer_copy_3d(a, 0, 100, 2, b, 0, 10, 3, 50, 3, 2), DC_ERROR_INVALID_ARGUMENT,
                  "dst_rows_per_plane 2 is less than height 3");
  // Host memory is checked against its size.
  std::vector<uint8_t> host(500);
  EXPECT_DC_ERROR(dc_buffer_write_2d(a, 0, 100, host.data(), host.size(), 100, 64, 6), DC_ERROR_OUT_OF_RANGE,
                  "src: row 5 (of 6) spans bytes [500, 564), past src_size 500");
  EXPECT_DC_ERROR(dc_buffer_read_2d(a, 0, 100, host.data(), 463, 100, 64, 5), DC_ERROR_OUT_OF_RANGE,
                  "dst: row 4 (of 5) spans bytes [400, 464), past dst_size 463");
  EXPECT_DC_ERROR(dc_buffer_write_2d(a, 0, 100, nullptr, 0, 100, 64, 6), DC_ERROR_INVALID_ARGUMENT,
                  "src is NULL with a 64 x 6 region");
  // Empty regions copy nothing, and still check the handles.
  EXPECT_DC_OK(dc_buffer_copy_2d(a, 5000, 0, b, 5000, 0, 0, 9));
  EXPECT_DC_OK(dc_buffer_write_2d(a, 0, 0, nullptr, 0, 0, 64, 0));
  EXPECT_DC_ERROR(dc_buffer_copy_2d(nullptr, 0, 0, b, 0, 0, 0, 0), DC_ERROR_INVALID_HANDLE, "dst");
  EXPECT_DC_ERROR(dc_buffer_copy_2d_async(a, 0, 0, b, 0, 0, 0, 0, nullptr), DC_ERROR_INVALID_HANDLE, "stream");
  dc_buffer_release(a);
  dc_buffer_release(b);
}

TEST_F(Copy2dTest, TilesOfOneMatrixMayMoveUnlessTheyShareBytes) {
  const uint64_t pitch = 101, rows = 20;
  std::vector<uint8_t> data = random_bytes(pitch * rows, 3);
  dc_buffer m = alloc(pitch * rows);
  ASSERT_DC_OK(dc_buffer_write(m, 0, data.data(), data.size()));
  // Side by side (columns 0..39 to 50..89): the spans overlap, no row does.
  ASSERT_DC_OK(dc_buffer_copy_2d(m, 50, pitch, m, 0, pitch, 40, rows));
  reference_copy(data, 50, pitch, std::vector<uint8_t>(data), 0, pitch, 40, rows);
  std::vector<uint8_t> got(data.size());
  ASSERT_DC_OK(dc_buffer_read(m, 0, got.data(), got.size()));
  expect_same(got, data, "side-by-side tiles");
  // One row down and 10 bytes right: row r of the source meets row r - 1 of the destination.
  EXPECT_DC_ERROR(dc_buffer_copy_2d(m, pitch + 10, pitch, m, 0, pitch, 40, 5), DC_ERROR_INVALID_ARGUMENT,
                  "the dst and src regions share bytes");
  // Below one another without sharing a row: fine.
  EXPECT_DC_OK(dc_buffer_copy_2d(m, 10 * pitch, pitch, m, 0, pitch, 40, 10));
  dc_buffer_release(m);
}

TEST_F(Copy2dTest, FillsOf2dRegionsLeaveTheRestAlone) {
  dc_stream s = stream();
  for (Kind kind : kKinds)
    for (uint32_t element : {1u, 2u, 4u})
      for (bool async : {false, true}) {
        SCOPED_TRACE(std::string(name_of(kind)) + " element " + std::to_string(element) + (async ? " async" : ""));
        std::vector<uint8_t> data;
        Matrix& m = matrix(kind, 200, 15, 212, 50 + element, &data);
        ASSERT_NE(m.buffer, nullptr);
        uint32_t value = element == 1 ? 0x5Au : element == 2 ? 0xBEEFu : 0xDEADBEEFu;
        uint64_t offset = 2 * m.pitch + 8, width = 24 * element, height = 9;
        if (async)
          ASSERT_DC_OK(dc_buffer_fill_2d_async(m.buffer, offset, m.pitch, width, height, value, element, s));
        else
          ASSERT_DC_OK(dc_buffer_fill_2d(m.buffer, offset, m.pitch, width, height, value, element));
        if (async) ASSERT_DC_OK(dc_stream_synchronize(s));
        for (uint64_t r = 0; r < height; ++r)
          for (uint64_t i = 0; i < width; i += element)
            std::memcpy(&data[offset + r * m.pitch + i], &value, element);
        expect_same(contents_of(m), data, "filled");
      }
  dc_buffer b = alloc(1000);
  EXPECT_DC_ERROR(dc_buffer_fill_2d(b, 2, 100, 8, 3, 0, 4), DC_ERROR_INVALID_ARGUMENT,
                  "offset 2, width 8 and pitch 100 must be multiples of element_size 4");
  EXPECT_DC_ERROR(dc_buffer_fill_2d(b, 0, 100, 8, 11, 0, 4), DC_ERROR_OUT_OF_RANGE,
                  "buffer: row 10 (of 11) spans bytes [1000, 1008), past the buffer's size 1000");
  EXPECT_DC_ERROR(dc_buffer_fill_2d(b, 0, 100, 8, 3, 0x100, 1), DC_ERROR_INVALID_ARGUMENT, "value 0x100");
  EXPECT_DC_ERROR(dc_buffer_fill_2d(b, 0, 4, 8, 3, 0, 4), DC_ERROR_INVALID_ARGUMENT, "pitch 4 is less than width 8");
  dc_buffer_release(b);
  dc_stream_release(s);
}

// Random regions of random odd sizes, 1 byte to a few hundred KiB per row,
// between device memory and pageable host memory, against the CPU (on a GPU
// with DCTEST_LARGE=1, also one 64 MiB row).
TEST_F(Copy2dTest, RandomRegionsMatchTheCpuReference) {
  std::mt19937_64 rng(2026);
  auto pick = [&](uint64_t lo, uint64_t hi) { return lo + rng() % (hi - lo + 1); };
  for (int round = 0; round < 40; ++round) {
    uint64_t width = round % 4 == 0 ? pick(1, 8) : pick(1, uint64_t(1) << (8 + round % 11));
    uint64_t height = pick(1, 64);
    uint64_t dpitch = width + pick(0, 77), hpitch = width + pick(0, 33);
    uint64_t doff = pick(0, 99);
    SCOPED_TRACE("round " + std::to_string(round) + ": " + std::to_string(width) + " x " + std::to_string(height));
    dc_buffer b = alloc(doff + dpitch * height);
    std::vector<uint8_t> host = random_bytes(hpitch * height, static_cast<uint32_t>(round));
    ASSERT_DC_OK(dc_buffer_write_2d(b, doff, dpitch, host.data(), host.size(), hpitch, width, height));
    std::vector<uint8_t> back(hpitch * height, 0), want(hpitch * height, 0);
    ASSERT_DC_OK(dc_buffer_read_2d(b, doff, dpitch, back.data(), back.size(), hpitch, width, height));
    reference_copy(want, 0, hpitch, host, 0, hpitch, width, height);
    expect_same(back, want, "round trip");
    dc_buffer_release(b);
  }
  if (!large_tests()) return;
  const uint64_t width = uint64_t(64) << 20, height = 2, pitch = width + 1;
  std::vector<uint8_t> host = random_bytes(pitch * height, 9), back(pitch * height, 0), want(pitch * height, 0);
  dc_buffer b = alloc(pitch * height);
  ASSERT_DC_OK(dc_buffer_write_2d(b, 0, pitch, host.data(), host.size(), pitch, width, height));
  ASSERT_DC_OK(dc_buffer_read_2d(b, 0, pitch, back.data(), back.size(), pitch, width, height));
  reference_copy(want, 0, pitch, host, 0, pitch, width, height);
  expect_same(back, want, "64 MiB rows");
  dc_buffer_release(b);
}

}  // namespace
