// Buffers: every kind of allocation and wrapping, the queries, bad input,
// lifetimes (device kept alive, dc_device_reset), managed memory prefetch and
// advice, the pool and trimming.
#include <cstdlib>
#include <thread>
#include <vector>

#include "memory_test.h"
#include "support/host_memory.h"

namespace {

using memtest::MemoryTest;

constexpr uint64_t kMiB = 1ull << 20;

dc_buffer garbage_buffer() { return reinterpret_cast<dc_buffer>(uintptr_t(0x1234)); }

TEST_F(MemoryTest, DeviceBufferQueries) {
  dc_buffer b = alloc(kMiB);
  ASSERT_NE(b, nullptr);
  uint64_t size = 0;
  ASSERT_DC_OK(dc_buffer_size(b, &size));
  EXPECT_EQ(size, kMiB);
  int32_t kind = 0;
  ASSERT_DC_OK(dc_buffer_kind(b, &kind));
  EXPECT_EQ(kind, DC_BUFFER_DEVICE);
  uint64_t ptr = 0;
  ASSERT_DC_OK(dc_buffer_device_pointer(b, &ptr));
  EXPECT_NE(ptr, 0u);
  EXPECT_EQ(ptr % 256, 0u) << "device memory is at least 256-byte aligned";
  void* host = reinterpret_cast<void*>(1);
  EXPECT_DC_ERROR(dc_buffer_host_pointer(b, &host), DC_ERROR_NOT_SUPPORTED, "no CPU address");
  EXPECT_EQ(host, nullptr);
  dc_device d = nullptr;
  ASSERT_DC_OK(dc_buffer_device(b, &d));
  dc_device_info info = DC_DEVICE_INFO_INIT;
  ASSERT_DC_OK(dc_device_get_info(d, &info));
  EXPECT_EQ(info.ordinal, 0);
  dc_device_release(d);
  dc_buffer_release(b);
}

TEST_F(MemoryTest, AllocRefusesBadInput) {
  dc_buffer b = garbage_buffer();
  EXPECT_DC_ERROR(dc_buffer_alloc(device_, 0, 0, &b), DC_ERROR_INVALID_ARGUMENT, "size is 0");
  EXPECT_EQ(b, nullptr);
  EXPECT_DC_ERROR(dc_buffer_alloc(device_, 64, 0, nullptr), DC_ERROR_INVALID_ARGUMENT, "buffer is NULL");
  b = garbage_buffer();
  EXPECT_DC_ERROR(dc_buffer_alloc(device_, 64, DC_ALLOC_PORTABLE, &b), DC_ERROR_INVALID_ARGUMENT,
                  "flags 0x2 has bits this call does not take (0x2)");
  EXPECT_EQ(b, nullptr);
  EXPECT_DC_ERROR(dc_buffer_alloc(device_, 64, 0x80000000u, &b), DC_ERROR_INVALID_ARGUMENT, "0x80000000");
  EXPECT_DC_ERROR(dc_buffer_alloc(nullptr, 64, 0, &b), DC_ERROR_INVALID_HANDLE, "device is NULL");
  dc_device released = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &released));
  dc_device_release(released);
  EXPECT_DC_ERROR(dc_buffer_alloc(released, 64, 0, &b), DC_ERROR_INVALID_HANDLE, "was released");
  // A buffer handle where a device is expected.
  dc_buffer other = alloc(64);
  EXPECT_DC_ERROR(dc_buffer_alloc(reinterpret_cast<dc_device>(other), 64, 0, &b), DC_ERROR_INVALID_HANDLE,
                  "is a dc_buffer handle, not a dc_device");
  dc_buffer_release(other);
}

TEST_F(MemoryTest, HugeAllocationsAreOutOfMemoryNotACrash) {
  for (uint64_t size : {uint64_t(1) << 50, ~uint64_t(0)}) {
    for (uint32_t flags : {0u, uint32_t(DC_ALLOC_NO_POOL)}) {
      dc_buffer b = garbage_buffer();
      EXPECT_DC_ERROR(dc_buffer_alloc(device_, size, flags, &b), DC_ERROR_OUT_OF_MEMORY, "exceeds device 0's total memory");
      EXPECT_EQ(b, nullptr);
    }
  }
  dc_buffer b = garbage_buffer();
  EXPECT_DC_ERROR(dc_buffer_alloc_pinned(device_, uint64_t(1) << 50, 0, &b), DC_ERROR_OUT_OF_MEMORY,
                  "exceeds what this machine's memory can use");
  EXPECT_EQ(b, nullptr);
  b = garbage_buffer();
  EXPECT_DC_ERROR(dc_buffer_alloc_managed(device_, uint64_t(1) << 50, 0, &b), DC_ERROR_OUT_OF_MEMORY,
                  "exceeds what managed memory");
  EXPECT_EQ(b, nullptr);
  // Still fully usable.
  dc_buffer ok = alloc(4096);
  EXPECT_NE(ok, nullptr);
  dc_buffer_release(ok);
}

TEST_F(MemoryTest, NoPoolFlagUsesTheDriverAllocator) {
  auto* f = dctest::fake_driver();
  dc_buffer b = alloc(kMiB, DC_ALLOC_NO_POOL);
  ASSERT_NE(b, nullptr);
  std::vector<uint8_t> data = memtest::random_bytes(kMiB, 1), back(kMiB);
  ASSERT_DC_OK(dc_buffer_write(b, 0, data.data(), kMiB));
  ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), kMiB));
  EXPECT_EQ(memtest::first_difference(data.data(), back.data(), kMiB), -1);
  dc_buffer_release(b);
  if (f) {
    EXPECT_EQ(f->call_count("cuMemAlloc"), 1);
    EXPECT_EQ(f->call_count("cuMemFree"), 1);
    EXPECT_EQ(f->call_count("cuMemAllocFromPoolAsync"), 0);
  }
}

TEST_F(MemoryTest, PoolKeepsFreedMemoryUntilTrimmed) {
  const uint64_t size = 256 * kMiB;
  // The pool exists after a first allocation.
  dc_buffer warm = alloc(kMiB);
  dc_buffer_release(warm);
  uint64_t free0 = 0, total = 0;
  ASSERT_DC_OK(dc_device_trim_memory(device_, 0));
  ASSERT_DC_OK(dc_device_memory_info(device_, &free0, &total));
  dc_buffer b = alloc(size);
  ASSERT_NE(b, nullptr);
  dc_buffer_release(b);
  uint64_t free1 = 0;
  ASSERT_DC_OK(dc_device_memory_info(device_, &free1, &total));
  // Released, but cached by dccuda's pool: the driver still counts it as used.
  EXPECT_LE(free1 + size, free0 + 32 * kMiB) << "the pool gave memory back at release";
  if (auto* f = dctest::fake_driver()) {
    f->reset();
    dc_buffer again = alloc(size);
    dc_buffer_release(again);
    uint64_t free2 = 0;
    ASSERT_DC_OK(dc_device_memory_info(device_, &free2, &total));
    EXPECT_EQ(free2, free1) << "the cached memory was not reused";
  }
  ASSERT_DC_OK(dc_device_trim_memory(device_, 0));
  uint64_t free3 = 0;
  ASSERT_DC_OK(dc_device_memory_info(device_, &free3, &total));
  EXPECT_GE(free3 + 32 * kMiB, free1 + size) << "trimming did not give the memory back";
  EXPECT_DC_ERROR(dc_device_trim_memory(nullptr, 0), DC_ERROR_INVALID_HANDLE, "device is NULL");
}

TEST_F(MemoryTest, PooledAllocationsAreUsableFromEveryStream) {
  dc_stream s = stream();
  std::vector<uint8_t> data = memtest::random_bytes(3 * kMiB + 5, 2), back(data.size());
  for (int i = 0; i < 20; ++i) {
    dc_buffer b = alloc(data.size());
    ASSERT_DC_OK(dc_buffer_write_async(b, 0, data.data(), data.size(), s));
    ASSERT_DC_OK(dc_buffer_read_async(b, 0, back.data(), back.size(), s));
    ASSERT_DC_OK(dc_stream_synchronize(s));
    ASSERT_EQ(memtest::first_difference(data.data(), back.data(), data.size()), -1) << "iteration " << i;
    dc_buffer_release(b);
  }
  dc_stream_release(s);
}

TEST_F(MemoryTest, AllocAsyncIsStreamOrdered) {
  dc_stream s = stream();
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_async(s, 5 * kMiB + 3, 0, &b));
  std::vector<uint8_t> data = memtest::random_bytes(5 * kMiB + 3, 3), back(data.size());
  ASSERT_DC_OK(dc_buffer_write_async(b, 0, data.data(), data.size(), s));
  ASSERT_DC_OK(dc_buffer_read_async(b, 0, back.data(), back.size(), s));
  ASSERT_DC_OK(dc_stream_synchronize(s));
  EXPECT_EQ(memtest::first_difference(data.data(), back.data(), data.size()), -1);
  int32_t kind = 0;
  ASSERT_DC_OK(dc_buffer_kind(b, &kind));
  EXPECT_EQ(kind, DC_BUFFER_DEVICE);
  dc_buffer_release(b);
  // NO_POOL: a synchronous allocation.
  ASSERT_DC_OK(dc_buffer_alloc_async(s, 4096, DC_ALLOC_NO_POOL, &b));
  dc_buffer_release(b);
  b = garbage_buffer();
  EXPECT_DC_ERROR(dc_buffer_alloc_async(s, 0, 0, &b), DC_ERROR_INVALID_ARGUMENT, "size is 0");
  EXPECT_EQ(b, nullptr);
  EXPECT_DC_ERROR(dc_buffer_alloc_async(s, 64, DC_ALLOC_ATTACH_HOST, &b), DC_ERROR_INVALID_ARGUMENT, "0x10");
  EXPECT_DC_ERROR(dc_buffer_alloc_async(nullptr, 64, 0, &b), DC_ERROR_INVALID_HANDLE, "stream is NULL");
  dc_stream_release(s);
  EXPECT_DC_ERROR(dc_buffer_alloc_async(s, 64, 0, &b), DC_ERROR_INVALID_HANDLE, "was released");
}

TEST_F(MemoryTest, PinnedBuffers) {
  for (uint32_t flags : {0u, uint32_t(DC_ALLOC_PORTABLE), uint32_t(DC_ALLOC_DEVICE_MAPPED),
                         uint32_t(DC_ALLOC_PORTABLE | DC_ALLOC_DEVICE_MAPPED), uint32_t(DC_ALLOC_WRITE_COMBINED)}) {
    SCOPED_TRACE(flags);
    dc_buffer p = nullptr;
    ASSERT_DC_OK(dc_buffer_alloc_pinned(device_, 100003, flags, &p));
    int32_t kind = 0;
    ASSERT_DC_OK(dc_buffer_kind(p, &kind));
    EXPECT_EQ(kind, DC_BUFFER_PINNED);
    void* host = nullptr;
    ASSERT_DC_OK(dc_buffer_host_pointer(p, &host));
    ASSERT_NE(host, nullptr);
    // The CPU writes it directly; the library reads it back.
    std::vector<uint8_t> data = memtest::random_bytes(100003, 4), back(100003);
    std::memcpy(host, data.data(), data.size());
    ASSERT_DC_OK(dc_buffer_read(p, 0, back.data(), back.size()));
    EXPECT_EQ(memtest::first_difference(data.data(), back.data(), data.size()), -1);
    uint64_t dptr = 7;
    if (flags & DC_ALLOC_DEVICE_MAPPED) {
      ASSERT_DC_OK(dc_buffer_device_pointer(p, &dptr));
      EXPECT_NE(dptr, 0u);
    } else {
      EXPECT_DC_ERROR(dc_buffer_device_pointer(p, &dptr), DC_ERROR_NOT_SUPPORTED, "DC_ALLOC_DEVICE_MAPPED");
      EXPECT_EQ(dptr, 0u);
    }
    dc_buffer_release(p);
  }
  dc_buffer p = garbage_buffer();
  EXPECT_DC_ERROR(dc_buffer_alloc_pinned(device_, 64, DC_ALLOC_NO_POOL, &p), DC_ERROR_INVALID_ARGUMENT,
                  "DC_ALLOC_PORTABLE, DC_ALLOC_DEVICE_MAPPED and DC_ALLOC_WRITE_COMBINED");
  EXPECT_EQ(p, nullptr);
  EXPECT_DC_ERROR(dc_buffer_alloc_pinned(device_, 0, 0, &p), DC_ERROR_INVALID_ARGUMENT, "size is 0");
  EXPECT_DC_ERROR(dc_buffer_alloc_pinned(device_, 64, 0, nullptr), DC_ERROR_INVALID_ARGUMENT, "buffer is NULL");
}

TEST_F(MemoryTest, ManagedBuffers) {
  dc_buffer m = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_managed(device_, 65536, 0, &m));
  int32_t kind = 0;
  ASSERT_DC_OK(dc_buffer_kind(m, &kind));
  EXPECT_EQ(kind, DC_BUFFER_MANAGED);
  void* host = nullptr;
  uint64_t dptr = 0;
  ASSERT_DC_OK(dc_buffer_host_pointer(m, &host));
  ASSERT_DC_OK(dc_buffer_device_pointer(m, &dptr));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(host), dptr) << "managed memory has one address";
  std::vector<uint8_t> data = memtest::random_bytes(65536, 5), back(65536);
  ASSERT_DC_OK(dc_buffer_write(m, 0, data.data(), data.size()));
  ASSERT_DC_OK(dc_device_synchronize(device_));
  EXPECT_EQ(std::memcmp(host, data.data(), data.size()), 0) << "the CPU sees what was written";
  static_cast<uint8_t*>(host)[17] ^= 0xFF;
  data[17] ^= 0xFF;
  ASSERT_DC_OK(dc_buffer_read(m, 0, back.data(), back.size()));
  EXPECT_EQ(memtest::first_difference(data.data(), back.data(), data.size()), -1);
  dc_buffer_release(m);

  ASSERT_DC_OK(dc_buffer_alloc_managed(device_, 4096, DC_ALLOC_ATTACH_HOST, &m));
  dc_buffer_release(m);
  m = garbage_buffer();
  EXPECT_DC_ERROR(dc_buffer_alloc_managed(device_, 64, DC_ALLOC_NO_POOL, &m), DC_ERROR_INVALID_ARGUMENT,
                  "DC_ALLOC_ATTACH_HOST only");
  EXPECT_EQ(m, nullptr);
}

TEST_F(MemoryTest, PrefetchAndAdvice) {
  dc_buffer m = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_managed(device_, 8 * kMiB, 0, &m));
  dc_device_info info = DC_DEVICE_INFO_INIT;
  ASSERT_DC_OK(dc_device_get_info(device_, &info));
  dc_stream s = stream();
  std::vector<uint8_t> data = memtest::random_bytes(8 * kMiB, 6), back(8 * kMiB);
  ASSERT_DC_OK(dc_buffer_write(m, 0, data.data(), data.size()));
  for (int32_t advice = DC_ADVISE_SET_READ_MOSTLY; advice <= DC_ADVISE_UNSET_ACCESSED_BY; ++advice)
    EXPECT_DC_OK(dc_buffer_advise(m, 0, 8 * kMiB, advice, advice <= 2 ? DC_LOCATION_HOST : 0));
  EXPECT_DC_OK(dc_buffer_advise(m, 4096, 4096, DC_ADVISE_SET_PREFERRED_LOCATION, DC_LOCATION_HOST));
  if (info.concurrent_managed_access) {
    ASSERT_DC_OK(dc_buffer_prefetch(m, 0, 8 * kMiB, 0, s));
    ASSERT_DC_OK(dc_buffer_prefetch(m, kMiB, kMiB, DC_LOCATION_HOST, s));
    ASSERT_DC_OK(dc_buffer_prefetch(m, 0, 0, 0, s));
    ASSERT_DC_OK(dc_stream_synchronize(s));
    if (auto* f = dctest::fake_driver()) {
      EXPECT_EQ(f->call_count("cuMemPrefetchAsync"), 2) << "the location-based entry point of 12.2+";
      EXPECT_EQ(f->call_count("cuMemPrefetchAsync_v8000"), 0);
      EXPECT_EQ(f->call_count("cuMemAdvise"), 7);
    }
  } else {
    EXPECT_DC_ERROR(dc_buffer_prefetch(m, 0, 8 * kMiB, 0, s), DC_ERROR_NOT_SUPPORTED, "concurrent managed access");
  }
  ASSERT_DC_OK(dc_buffer_read(m, 0, back.data(), back.size()));
  EXPECT_EQ(memtest::first_difference(data.data(), back.data(), data.size()), -1) << "prefetching changed the data";

  EXPECT_DC_ERROR(dc_buffer_prefetch(m, 0, 64, 99, s), DC_ERROR_INVALID_ARGUMENT, "location 99");
  EXPECT_DC_ERROR(dc_buffer_prefetch(m, 0, 64, -2, s), DC_ERROR_INVALID_ARGUMENT, "location -2");
  EXPECT_DC_ERROR(dc_buffer_prefetch(m, 8 * kMiB - 8, 64, 0, s), DC_ERROR_OUT_OF_RANGE,
                  "offset 8388600 + size 64 exceeds buffer's size 8388608");
  EXPECT_DC_ERROR(dc_buffer_prefetch(m, 0, 64, 0, nullptr), DC_ERROR_INVALID_HANDLE, "stream is NULL");
  EXPECT_DC_ERROR(dc_buffer_advise(m, 0, 64, 0, 0), DC_ERROR_INVALID_ARGUMENT, "advice 0");
  EXPECT_DC_ERROR(dc_buffer_advise(m, 0, 64, 7, 0), DC_ERROR_INVALID_ARGUMENT, "advice 7");
  EXPECT_DC_ERROR(dc_buffer_advise(m, 0, 64, DC_ADVISE_SET_ACCESSED_BY, 42), DC_ERROR_INVALID_ARGUMENT, "location 42");
  EXPECT_DC_ERROR(dc_buffer_advise(m, 9 * kMiB, 0, DC_ADVISE_SET_READ_MOSTLY, 0), DC_ERROR_OUT_OF_RANGE,
                  "past the end");
  // Wrong kind of buffer.
  dc_buffer d = alloc(4096);
  EXPECT_DC_ERROR(dc_buffer_prefetch(d, 0, 64, 0, s), DC_ERROR_INVALID_ARGUMENT, "not managed memory");
  EXPECT_DC_ERROR(dc_buffer_advise(d, 0, 64, DC_ADVISE_SET_READ_MOSTLY, 0), DC_ERROR_INVALID_ARGUMENT,
                  "not managed memory");
  dc_buffer_release(d);
  dc_buffer_release(m);
  dc_stream_release(s);
}

TEST_F(MemoryTest, WrappedDeviceMemoryIsBorrowed) {
  // From cuMemAlloc: memory another library would hand over.
  dc_buffer owner = alloc(kMiB, DC_ALLOC_NO_POOL);
  uint64_t ptr = 0;
  ASSERT_DC_OK(dc_buffer_device_pointer(owner, &ptr));
  dc_buffer w = nullptr;
  ASSERT_DC_OK(dc_buffer_wrap_device(device_, ptr + 4096, 8192, &w));
  int32_t kind = 0;
  ASSERT_DC_OK(dc_buffer_kind(w, &kind));
  EXPECT_EQ(kind, DC_BUFFER_WRAPPED_DEVICE);
  uint64_t wptr = 0, wsize = 0;
  ASSERT_DC_OK(dc_buffer_device_pointer(w, &wptr));
  ASSERT_DC_OK(dc_buffer_size(w, &wsize));
  EXPECT_EQ(wptr, ptr + 4096);
  EXPECT_EQ(wsize, 8192u);
  // Writing through the wrapper shows in the owner at the same place.
  std::vector<uint8_t> data = memtest::random_bytes(8192, 7), back(8192);
  ASSERT_DC_OK(dc_buffer_write(w, 0, data.data(), data.size()));
  ASSERT_DC_OK(dc_buffer_read(owner, 4096, back.data(), back.size()));
  EXPECT_EQ(memtest::first_difference(data.data(), back.data(), data.size()), -1);
  // Bounds come from the wrapper's size.
  EXPECT_DC_ERROR(dc_buffer_write(w, 8000, data.data(), 400), DC_ERROR_OUT_OF_RANGE,
                  "dst_offset 8000 + size 400 exceeds dst's size 8192");
  // Releasing the wrapper frees nothing.
  dc_buffer_release(w);
  ASSERT_DC_OK(dc_buffer_read(owner, 4096, back.data(), back.size()));
  EXPECT_EQ(memtest::first_difference(data.data(), back.data(), data.size()), -1);

  // A size past the allocation the driver knows is refused.
  w = garbage_buffer();
  EXPECT_DC_ERROR(dc_buffer_wrap_device(device_, ptr + 4096, 4 * kMiB, &w), DC_ERROR_OUT_OF_RANGE,
                  "runs past the allocation");
  EXPECT_EQ(w, nullptr);
  EXPECT_DC_ERROR(dc_buffer_wrap_device(device_, 0, 64, &w), DC_ERROR_INVALID_ARGUMENT, "device_pointer is 0");
  EXPECT_DC_ERROR(dc_buffer_wrap_device(device_, ptr, 0, &w), DC_ERROR_INVALID_ARGUMENT, "size is 0");
  EXPECT_DC_ERROR(dc_buffer_wrap_device(device_, ~uint64_t(0) - 8, 64, &w), DC_ERROR_OUT_OF_RANGE,
                  "wraps around");
  EXPECT_DC_ERROR(dc_buffer_wrap_device(device_, ptr, 64, nullptr), DC_ERROR_INVALID_ARGUMENT, "buffer is NULL");
  dc_buffer_release(owner);
}

TEST_F(MemoryTest, RegisteredHostMemory) {
  const size_t n = 3 * kMiB;
  void* mem = dctest::aligned_host_alloc(4096, n);
  ASSERT_NE(mem, nullptr);
  std::vector<uint8_t> data = memtest::random_bytes(n, 8), back(n);
  std::memcpy(mem, data.data(), n);
  dc_buffer r = nullptr;
  ASSERT_DC_OK(dc_buffer_register_host(device_, mem, n, DC_ALLOC_PORTABLE, &r));
  int32_t kind = 0;
  ASSERT_DC_OK(dc_buffer_kind(r, &kind));
  EXPECT_EQ(kind, DC_BUFFER_REGISTERED_HOST);
  void* host = nullptr;
  ASSERT_DC_OK(dc_buffer_host_pointer(r, &host));
  EXPECT_EQ(host, mem);
  uint64_t dptr = 1;
  EXPECT_DC_ERROR(dc_buffer_device_pointer(r, &dptr), DC_ERROR_NOT_SUPPORTED, "register it with DC_ALLOC_DEVICE_MAPPED");
  // To the device and back through the registered memory.
  dc_buffer d = alloc(n);
  ASSERT_DC_OK(dc_buffer_copy(d, 0, r, 0, n));
  std::memset(mem, 0, n);
  ASSERT_DC_OK(dc_buffer_copy(r, 0, d, 0, n));
  EXPECT_EQ(memtest::first_difference(static_cast<uint8_t*>(mem), data.data(), n), -1);
  // The registered range as a plain host pointer takes the driver's direct path.
  ASSERT_DC_OK(dc_buffer_read(d, 0, mem, n));
  EXPECT_EQ(memtest::first_difference(static_cast<uint8_t*>(mem), data.data(), n), -1);
  // Registering the same memory twice is refused.
  dc_buffer again = garbage_buffer();
  EXPECT_DC_ERROR(dc_buffer_register_host(device_, static_cast<char*>(mem) + 4096, 4096, 0, &again),
                  DC_ERROR_INVALID_ARGUMENT, "already registered");
  EXPECT_EQ(again, nullptr);
  dc_buffer_release(r);
  // Released: it can be registered again (read-only this time, mapped).
  ASSERT_DC_OK(dc_buffer_register_host(device_, mem, n, DC_ALLOC_READ_ONLY | DC_ALLOC_DEVICE_MAPPED, &r));
  ASSERT_DC_OK(dc_buffer_device_pointer(r, &dptr));
  EXPECT_NE(dptr, 0u);
  ASSERT_DC_OK(dc_buffer_copy(d, 0, r, 0, n));
  ASSERT_DC_OK(dc_buffer_read(d, 0, back.data(), n));
  EXPECT_EQ(memtest::first_difference(back.data(), data.data(), n), -1);
  dc_buffer_release(r);
  dc_buffer_release(d);

  r = garbage_buffer();
  EXPECT_DC_ERROR(dc_buffer_register_host(device_, nullptr, 64, 0, &r), DC_ERROR_INVALID_ARGUMENT, "host is NULL");
  EXPECT_EQ(r, nullptr);
  EXPECT_DC_ERROR(dc_buffer_register_host(device_, mem, 0, 0, &r), DC_ERROR_INVALID_ARGUMENT, "size is 0");
  EXPECT_DC_ERROR(dc_buffer_register_host(device_, mem, 64, DC_ALLOC_WRITE_COMBINED, &r), DC_ERROR_INVALID_ARGUMENT,
                  "DC_ALLOC_READ_ONLY");
  dctest::aligned_host_free(mem);
}

TEST_F(MemoryTest, HandleMisuseIsAnErrorNeverACrash) {
  dc_buffer b = alloc(64);
  dc_buffer_release(b);
  uint64_t size = 5;
  EXPECT_DC_ERROR(dc_buffer_size(b, &size), DC_ERROR_INVALID_HANDLE, "was released");
  EXPECT_EQ(size, 0u);
  uint8_t byte = 0;
  EXPECT_DC_ERROR(dc_buffer_write(b, 0, &byte, 1), DC_ERROR_INVALID_HANDLE, "dc_buffer_write: dst");
  EXPECT_DC_ERROR(dc_buffer_read(b, 0, &byte, 1), DC_ERROR_INVALID_HANDLE, "dc_buffer_read: src");
  dc_buffer_release(b);  // twice: ignored
  dc_buffer_release(nullptr);
  dc_stream s = stream();
  EXPECT_DC_ERROR(dc_buffer_size(reinterpret_cast<dc_buffer>(s), &size), DC_ERROR_INVALID_HANDLE,
                  "is a dc_stream handle, not a dc_buffer");
  dc_buffer_release(reinterpret_cast<dc_buffer>(s));  // a stream handle: not released by the wrong call
  EXPECT_DC_OK(dc_stream_synchronize(s));
  dc_stream_release(s);
  for (uintptr_t junk : {uintptr_t(1), uintptr_t(0xdeadbeef), ~uintptr_t(0)}) {
    EXPECT_DC_ERROR(dc_buffer_kind(reinterpret_cast<dc_buffer>(junk), nullptr), DC_ERROR_INVALID_HANDLE, "buffer");
    dc_buffer_release(reinterpret_cast<dc_buffer>(junk));
  }
  b = alloc(64);
  EXPECT_DC_ERROR(dc_buffer_size(b, nullptr), DC_ERROR_INVALID_ARGUMENT, "size is NULL");
  EXPECT_DC_ERROR(dc_buffer_kind(b, nullptr), DC_ERROR_INVALID_ARGUMENT, "kind is NULL");
  EXPECT_DC_ERROR(dc_buffer_device(b, nullptr), DC_ERROR_INVALID_ARGUMENT, "device is NULL");
  EXPECT_DC_ERROR(dc_buffer_device_pointer(b, nullptr), DC_ERROR_INVALID_ARGUMENT, "device_pointer is NULL");
  EXPECT_DC_ERROR(dc_buffer_host_pointer(b, nullptr), DC_ERROR_INVALID_ARGUMENT, "host_pointer is NULL");
  dc_buffer_release(b);
}

TEST_F(MemoryTest, ReleasesNeverTouchTheLastError) {
  dc_stream s = stream();
  dc_buffer used = alloc(1 << 20), pinned = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_pinned(device_, 4096, 0, &pinned));
  dc_event e = nullptr;
  ASSERT_DC_OK(dc_event_create(device_, 0, &e));
  ASSERT_DC_OK(dc_buffer_fill_async(used, 0, 1 << 20, 1, 1, s));
  dc_buffer b = nullptr;
  ASSERT_EQ(dc_buffer_alloc(device_, 0, 0, &b), DC_ERROR_INVALID_ARGUMENT);
  std::string message = dc_last_error_message();
  dc_buffer_release(used);
  dc_buffer_release(pinned);
  dc_event_release(e);
  dc_stream_release(s);
  EXPECT_EQ(dc_last_error_status(), DC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(message, dc_last_error_message());
}

TEST_F(MemoryTest, BuffersKeepTheirDeviceAlive) {
  dc_buffer b = alloc(kMiB);
  dc_device_release(device_);
  device_ = nullptr;
  std::vector<uint8_t> data = memtest::random_bytes(kMiB, 9), back(kMiB);
  ASSERT_DC_OK(dc_buffer_write(b, 0, data.data(), data.size()));
  ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), back.size()));
  EXPECT_EQ(memtest::first_difference(data.data(), back.data(), data.size()), -1);
  dc_device d = nullptr;
  ASSERT_DC_OK(dc_buffer_device(b, &d));
  dc_device_release(d);
  if (auto* f = dctest::fake_driver()) {
    EXPECT_GT(f->live("primary_retains"), 0);
  }
  dc_buffer_release(b);
  // The last object is gone: so are the pool, the internal stream and the context.
}

TEST_F(MemoryTest, ObjectsMadeBeforeAResetAreDead) {
  auto* f = dctest::fake_driver();
  dc_buffer old_device = alloc(kMiB);
  dc_buffer old_pinned = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_pinned(device_, 4096, 0, &old_pinned));
  dc_stream old_stream = stream();
  std::vector<uint8_t> data(4096, 0x5a);
  ASSERT_DC_OK(dc_buffer_write_async(old_device, 0, data.data(), data.size(), old_stream));
  ASSERT_DC_OK(dc_device_reset(device_));
  EXPECT_DC_ERROR(dc_buffer_write(old_device, 0, data.data(), data.size()), DC_ERROR_CONTEXT_LOST,
                  "before dc_device_reset");
  EXPECT_DC_ERROR(dc_buffer_read(old_pinned, 0, data.data(), data.size()), DC_ERROR_CONTEXT_LOST,
                  "before dc_device_reset");
  EXPECT_DC_ERROR(dc_buffer_fill(old_device, 0, 64, 0, 1), DC_ERROR_CONTEXT_LOST, "dc_buffer");
  EXPECT_DC_ERROR(dc_stream_synchronize(old_stream), DC_ERROR_CONTEXT_LOST, "dc_stream");
  uint64_t ptr = 1;
  EXPECT_DC_ERROR(dc_buffer_device_pointer(old_device, &ptr), DC_ERROR_CONTEXT_LOST, "dc_device_reset");
  EXPECT_EQ(ptr, 0u);
  // Queries that need no driver still answer.
  uint64_t size = 0;
  EXPECT_DC_OK(dc_buffer_size(old_device, &size));
  EXPECT_EQ(size, kMiB);
  if (f) f->reset();
  // Release frees nothing on the new context.
  dc_buffer_release(old_device);
  dc_buffer_release(old_pinned);
  dc_stream_release(old_stream);
  if (f) {
    EXPECT_EQ(f->call_count("cuMemFreeAsync"), 0);
    EXPECT_EQ(f->call_count("cuMemFreeHost"), 0);
    EXPECT_EQ(f->call_count("cuStreamDestroy"), 0);
  }
  // The device works as new: a fresh pool and internal stream.
  dc_buffer b = alloc(kMiB);
  ASSERT_NE(b, nullptr);
  ASSERT_DC_OK(dc_buffer_write(b, 0, data.data(), data.size()));
  std::vector<uint8_t> back(4096);
  ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), back.size()));
  EXPECT_EQ(back, data);
  if (f) {
    EXPECT_EQ(f->call_count("cuMemPoolCreate"), 1) << "the pool was not made again after the reset";
  }
  dc_buffer_release(b);
}

TEST_F(MemoryTest, ManyThreadsAllocateAndFree) {
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<uint8_t> data = memtest::random_bytes(70001, 100 + t), back(70001);
      for (int i = 0; i < 50; ++i) {
        dc_buffer b = nullptr;
        if (dc_buffer_alloc(device_, 70001, i % 5 == 0 ? DC_ALLOC_NO_POOL : 0, &b) != DC_SUCCESS ||
            dc_buffer_write(b, 0, data.data(), data.size()) != DC_SUCCESS ||
            dc_buffer_read(b, 0, back.data(), back.size()) != DC_SUCCESS || back != data)
          ++failures;
        dc_buffer_release(b);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
