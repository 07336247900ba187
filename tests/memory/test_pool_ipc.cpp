// Sharing pools and their memory with other processes (dc_pool_export_ipc,
// dc_pool_import_ipc, dc_pool_export_fd, dc_pool_import_fd,
// dc_buffer_export_ipc of pool memory, dc_buffer_import_ipc_from_pool): what
// is refused, bytes of the wrong kind, and on the fake driver (which models
// the sharing inside one process, fake_ipc.cpp: an import is the exporter's
// own memory) the whole path and the release orders. Taking one's own
// descriptor with pidfd_getfd is allowed, so the one-process round trip goes
// through the same system calls as two processes do. Two real processes on a
// GPU: test_ipc_processes.cpp.
#include <cstdio>
#include <cstring>
#include <vector>

#if !defined(_WIN32)
#include <fcntl.h>
#include <unistd.h>
#endif

#include "memory/memory_test.h"

namespace {

using namespace memtest;

class PoolIpcTest : public MemoryTest {
 protected:
  dc_pool make_pool(uint32_t flags) {
    dc_pool p = nullptr;
    EXPECT_EQ(dc_pool_create(device_, 0, flags, &p), DC_SUCCESS) << dc_last_error_message();
    return p;
  }
  dc_buffer alloc_from(dc_pool pool, uint64_t size) {
    dc_buffer b = nullptr;
    EXPECT_EQ(dc_buffer_alloc_from_pool(pool, nullptr, size, &b), DC_SUCCESS) << dc_last_error_message();
    return b;
  }
};

#if defined(__linux__)

TEST_F(PoolIpcTest, OnlyExportablePoolsAndTheirMemoryAreExported) {
  uint8_t handle[DC_IPC_HANDLE_SIZE] = {};
  int32_t fd = 7;
  dc_pool plain = make_pool(0);
  EXPECT_DC_ERROR(dc_pool_export_ipc(plain, handle, sizeof handle), DC_ERROR_NOT_SUPPORTED, "DC_POOL_EXPORTABLE");
  EXPECT_DC_ERROR(dc_pool_export_fd(plain, &fd), DC_ERROR_NOT_SUPPORTED, "DC_POOL_EXPORTABLE");
  EXPECT_EQ(fd, 0) << "a failed call clears its out value";
  dc_buffer from_plain = alloc_from(plain, 4096);
  EXPECT_DC_ERROR(dc_buffer_export_ipc(from_plain, handle, sizeof handle), DC_ERROR_NOT_SUPPORTED,
                  "without DC_POOL_EXPORTABLE");
  dc_buffer own_pool = alloc(4096);
  EXPECT_DC_ERROR(dc_buffer_export_ipc(own_pool, handle, sizeof handle), DC_ERROR_NOT_SUPPORTED,
                  "dccuda's own stream-ordered pool");

  dc_pool shared = make_pool(DC_POOL_EXPORTABLE);
  EXPECT_DC_ERROR(dc_pool_export_ipc(shared, nullptr, sizeof handle), DC_ERROR_INVALID_ARGUMENT, "handle is NULL");
  EXPECT_DC_ERROR(dc_pool_export_ipc(shared, handle, DC_IPC_HANDLE_SIZE - 1), DC_ERROR_INVALID_ARGUMENT,
                  "below DC_IPC_HANDLE_SIZE");
  EXPECT_DC_ERROR(dc_pool_export_fd(shared, nullptr), DC_ERROR_INVALID_ARGUMENT, "fd is NULL");
  EXPECT_DC_ERROR(dc_pool_export_ipc(nullptr, handle, sizeof handle), DC_ERROR_INVALID_HANDLE, "pool");
  EXPECT_DC_OK(dc_pool_export_ipc(shared, handle, sizeof handle));
  // One descriptor per pool, made at the first export and the pool's own.
  int32_t first = -1, second = -1;
  ASSERT_DC_OK(dc_pool_export_fd(shared, &first));
  ASSERT_DC_OK(dc_pool_export_fd(shared, &second));
  EXPECT_GE(first, 0);
  EXPECT_EQ(first, second);
  EXPECT_NE(fcntl(first, F_GETFD), -1) << "the pool's descriptor is open";
  dc_buffer from_shared = alloc_from(shared, 4096);
  EXPECT_DC_OK(dc_buffer_export_ipc(from_shared, handle, sizeof handle));
  for (dc_buffer b : {from_shared, own_pool, from_plain}) dc_buffer_release(b);
  dc_pool_release(shared);
  EXPECT_EQ(fcntl(first, F_GETFD), -1) << "destroying the pool closes its descriptor";
  dc_pool_release(plain);
}

// Export, import through pidfd_getfd (this process taking its own
// descriptor), read and write through the import, a view's range.
TEST_F(PoolIpcTest, ARoundTripThroughPidfdGetfdIsTheExportersMemoryOnTheFake) {
  REQUIRE_FAKE_DRIVER();
  auto* fake = dctest::fake_driver();
  dc_pool pool = make_pool(DC_POOL_EXPORTABLE);
  dc_buffer owner = alloc_from(pool, 8192);
  std::vector<uint8_t> data = random_bytes(8192, 21);
  ASSERT_DC_OK(dc_buffer_write(owner, 0, data.data(), data.size()));
  dc_buffer view = nullptr;
  ASSERT_DC_OK(dc_buffer_view(owner, 1000, 3000, &view));
  uint8_t pool_bytes[DC_IPC_HANDLE_SIZE] = {}, whole[DC_IPC_HANDLE_SIZE] = {}, part[DC_IPC_HANDLE_SIZE] = {};
  ASSERT_DC_OK(dc_pool_export_ipc(pool, pool_bytes, sizeof pool_bytes));
  ASSERT_DC_OK(dc_buffer_export_ipc(owner, whole, sizeof whole));
  ASSERT_DC_OK(dc_buffer_export_ipc(view, part, sizeof part));

  dc_pool imported = nullptr;
  ASSERT_DC_OK(dc_pool_import_ipc(device_, pool_bytes, sizeof pool_bytes, &imported));
  ASSERT_NE(imported, nullptr);
  dc_buffer in_whole = nullptr, in_part = nullptr;
  ASSERT_DC_OK(dc_buffer_import_ipc_from_pool(imported, whole, sizeof whole, &in_whole));
  ASSERT_DC_OK(dc_buffer_import_ipc_from_pool(imported, part, sizeof part, &in_part));
  EXPECT_EQ(fake->live("pool_imports"), 2);
  uint64_t size = 0;
  int32_t kind = 0;
  ASSERT_DC_OK(dc_buffer_size(in_part, &size));
  EXPECT_EQ(size, 3000u);
  ASSERT_DC_OK(dc_buffer_kind(in_part, &kind));
  EXPECT_EQ(kind, DC_BUFFER_WRAPPED_DEVICE);
  std::vector<uint8_t> got(8192);
  ASSERT_DC_OK(dc_buffer_read(in_whole, 0, got.data(), 8192));
  EXPECT_EQ(first_difference(got.data(), data.data(), 8192), -1);
  ASSERT_DC_OK(dc_buffer_read(in_part, 0, got.data(), 3000));
  EXPECT_EQ(first_difference(got.data(), data.data() + 1000, 3000), -1);
  // Writes through the import land in the exporter's buffer.
  std::vector<uint8_t> patch = random_bytes(100, 22);
  ASSERT_DC_OK(dc_buffer_write(in_part, 2900, patch.data(), patch.size()));
  ASSERT_DC_OK(dc_buffer_read(owner, 3900, got.data(), 100));
  EXPECT_EQ(first_difference(got.data(), patch.data(), 100), -1);
  EXPECT_DC_ERROR(dc_buffer_read(in_part, 2950, got.data(), 100), DC_ERROR_OUT_OF_RANGE, "exceeds");

  // An imported pool holds only imports, and is not exported again; nor are its buffers.
  dc_buffer refused = nullptr;
  EXPECT_DC_ERROR(dc_buffer_alloc_from_pool(imported, nullptr, 64, &refused), DC_ERROR_INVALID_ARGUMENT,
                  "dc_buffer_import_ipc_from_pool");
  EXPECT_EQ(refused, nullptr);
  uint8_t again[DC_IPC_HANDLE_SIZE];
  int32_t fd = 0;
  EXPECT_DC_ERROR(dc_pool_export_ipc(imported, again, sizeof again), DC_ERROR_NOT_SUPPORTED, "imported");
  EXPECT_DC_ERROR(dc_pool_export_fd(imported, &fd), DC_ERROR_NOT_SUPPORTED, "imported");
  EXPECT_DC_ERROR(dc_buffer_export_ipc(in_whole, again, sizeof again), DC_ERROR_NOT_SUPPORTED,
                  "does not own its memory");

  // The importer frees first (the driver's rule), then the exporter.
  dc_buffer_release(in_part);
  dc_buffer_release(in_whole);
  EXPECT_EQ(fake->live("pool_imports"), 0) << "releasing an import frees it (cuMemFree)";
  EXPECT_EQ(fake->live("pool_imports_orphaned"), 0);
  dc_pool_release(imported);
  dc_buffer_release(view);
  dc_buffer_release(owner);
  dc_pool_release(pool);
}

// The way out where pidfd_getfd is refused: the caller sends the descriptor
// itself; dc_pool_import_fd does not take it.
TEST_F(PoolIpcTest, ARoundTripThroughExportFdAndImportFdOnTheFake) {
  REQUIRE_FAKE_DRIVER();
  dc_pool pool = make_pool(DC_POOL_EXPORTABLE);
  dc_buffer owner = alloc_from(pool, 4096);
  std::vector<uint8_t> data = random_bytes(4096, 23);
  ASSERT_DC_OK(dc_buffer_write(owner, 0, data.data(), data.size()));
  int32_t fd = -1;
  ASSERT_DC_OK(dc_pool_export_fd(pool, &fd));
  // What a receiver of SCM_RIGHTS holds: a descriptor of its own for the same file.
  int received = dup(fd);
  ASSERT_GE(received, 0);
  dc_pool imported = nullptr;
  EXPECT_DC_ERROR(dc_pool_import_fd(device_, -1, &imported), DC_ERROR_INVALID_ARGUMENT, "fd is -1");
  EXPECT_DC_ERROR(dc_pool_import_fd(device_, received, nullptr), DC_ERROR_INVALID_ARGUMENT, "pool is NULL");
  ASSERT_DC_OK(dc_pool_import_fd(device_, received, &imported));
  EXPECT_NE(fcntl(received, F_GETFD), -1) << "dc_pool_import_fd does not close the caller's descriptor";
  close(received);
  uint8_t bytes[DC_IPC_HANDLE_SIZE];
  ASSERT_DC_OK(dc_buffer_export_ipc(owner, bytes, sizeof bytes));
  dc_buffer in = nullptr;
  ASSERT_DC_OK(dc_buffer_import_ipc_from_pool(imported, bytes, sizeof bytes, &in));
  std::vector<uint8_t> got(4096);
  ASSERT_DC_OK(dc_buffer_read(in, 0, got.data(), got.size()));
  EXPECT_EQ(first_difference(got.data(), data.data(), got.size()), -1);
  // A descriptor that is not a pool's.
  int null_file = open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(null_file, 0);
  dc_pool not_pool = nullptr;
  EXPECT_DC_ERROR(dc_pool_import_fd(device_, null_file, &not_pool), DC_ERROR_INVALID_ARGUMENT,
                  "cuMemPoolImportFromShareableHandle");
  EXPECT_EQ(not_pool, nullptr);
  close(null_file);
  dc_buffer_release(in);
  dc_pool_release(imported);
  dc_buffer_release(owner);
  dc_pool_release(pool);
}

TEST_F(PoolIpcTest, BytesOfTheWrongKindAreRefusedWithTheWayOut) {
  dc_pool pool = make_pool(DC_POOL_EXPORTABLE);
  dc_buffer from_pool = alloc_from(pool, 4096);
  dc_buffer plain = alloc(4096, DC_ALLOC_NO_POOL);
  uint8_t pool_bytes[DC_IPC_HANDLE_SIZE], pool_memory[DC_IPC_HANDLE_SIZE], memory[DC_IPC_HANDLE_SIZE];
  ASSERT_DC_OK(dc_pool_export_ipc(pool, pool_bytes, sizeof pool_bytes));
  ASSERT_DC_OK(dc_buffer_export_ipc(from_pool, pool_memory, sizeof pool_memory));
  ASSERT_DC_OK(dc_buffer_export_ipc(plain, memory, sizeof memory));
  dc_buffer b = nullptr;
  dc_pool p = nullptr;
  // Pool memory given to the cuMemAlloc import: the message names the right calls.
  EXPECT_DC_ERROR(dc_buffer_import_ipc(device_, pool_memory, sizeof pool_memory, &b), DC_ERROR_INVALID_ARGUMENT,
                  "import the pool first (dc_pool_import_ipc) and the buffer with dc_buffer_import_ipc_from_pool");
  EXPECT_DC_ERROR(dc_pool_import_ipc(device_, memory, sizeof memory, &p), DC_ERROR_INVALID_ARGUMENT,
                  "not the bytes of an exported pool");
  EXPECT_DC_ERROR(dc_pool_import_ipc(device_, pool_memory, sizeof pool_memory, &p), DC_ERROR_INVALID_ARGUMENT,
                  "not the bytes of an exported pool");
  EXPECT_DC_ERROR(dc_pool_import_ipc(device_, pool_bytes, 64, &p), DC_ERROR_INVALID_ARGUMENT, "size 64 is below");
  EXPECT_DC_ERROR(dc_pool_import_ipc(device_, nullptr, sizeof pool_bytes, &p), DC_ERROR_INVALID_ARGUMENT,
                  "handle is NULL");
  EXPECT_DC_ERROR(dc_pool_import_ipc(device_, pool_bytes, sizeof pool_bytes, nullptr), DC_ERROR_INVALID_ARGUMENT,
                  "pool is NULL");
  EXPECT_EQ(p, nullptr);
  // The checks of the bytes come before the driver: they need an imported
  // pool, which the fake makes in the exporting process (a real driver may not).
  dc_status imported = dc_pool_import_ipc(device_, pool_bytes, sizeof pool_bytes, &p);
  if (imported != DC_SUCCESS) {
    ASSERT_EQ(dctest::fake_driver(), nullptr) << dc_last_error_message();
    std::printf("the driver refused to import the pool in its own process: %s\n", dc_last_error_message());
    ASSERT_DC_OK(dc_pool_create(device_, 0, 0, &p));  // what follows checks the bytes, refused before the pool is used
  }
  EXPECT_DC_ERROR(dc_buffer_import_ipc_from_pool(p, memory, sizeof memory, &b), DC_ERROR_INVALID_ARGUMENT,
                  "not the bytes of an exported buffer of an exportable pool");
  EXPECT_DC_ERROR(dc_buffer_import_ipc_from_pool(p, pool_bytes, sizeof pool_bytes, &b), DC_ERROR_INVALID_ARGUMENT,
                  "not the bytes of an exported buffer of an exportable pool");
  EXPECT_DC_ERROR(dc_buffer_import_ipc_from_pool(p, pool_memory, 100, &b), DC_ERROR_INVALID_ARGUMENT,
                  "size 100 is below");
  EXPECT_DC_ERROR(dc_buffer_import_ipc_from_pool(p, pool_memory, sizeof pool_memory, nullptr),
                  DC_ERROR_INVALID_ARGUMENT, "buffer is NULL");
  EXPECT_DC_ERROR(dc_buffer_import_ipc_from_pool(nullptr, pool_memory, sizeof pool_memory, &b),
                  DC_ERROR_INVALID_HANDLE, "pool");
  // Into a pool of this process instead of the import.
  EXPECT_DC_ERROR(dc_buffer_import_ipc_from_pool(pool, pool_memory, sizeof pool_memory, &b),
                  DC_ERROR_INVALID_ARGUMENT, "pass the pool imported from the exporter");
  EXPECT_EQ(b, nullptr);
  // The pool's bytes with an exporter that does not run (the process field, bytes 12..15, of core/ipc_blob.h).
  uint8_t gone[DC_IPC_HANDLE_SIZE];
  std::memcpy(gone, pool_bytes, sizeof gone);
  uint32_t no_process = 0x7ffffff0u;
  std::memcpy(gone + 12, &no_process, 4);
  dc_pool q = nullptr;
  EXPECT_DC_ERROR(dc_pool_import_ipc(device_, gone, sizeof gone, &q), DC_ERROR_INVALID_ARGUMENT, "no longer runs");
  dc_pool_release(p);
  dc_buffer_release(plain);
  dc_buffer_release(from_pool);
  dc_pool_release(pool);
}

// The pool's bytes after the exporter released the pool: its descriptor is
// gone (EBADF), or its number names another file by now (in one process,
// the pidfd opened to take it), which the driver refuses.
TEST_F(PoolIpcTest, APoolReleasedByTheExporterIsNoLongerImported) {
  dc_pool pool = make_pool(DC_POOL_EXPORTABLE);
  uint8_t bytes[DC_IPC_HANDLE_SIZE];
  ASSERT_DC_OK(dc_pool_export_ipc(pool, bytes, sizeof bytes));
  dc_pool_release(pool);
  dc_pool p = nullptr;
  if (dctest::fake_driver()) {
    EXPECT_DC_ERROR(dc_pool_import_ipc(device_, bytes, sizeof bytes, &p), DC_ERROR_INVALID_ARGUMENT, "descriptor");
  } else {
    // A real driver handed another file may answer with another failure than the fake's.
    dc_status s = dc_pool_import_ipc(device_, bytes, sizeof bytes, &p);
    EXPECT_TRUE(s == DC_ERROR_INVALID_ARGUMENT || s == DC_ERROR_DRIVER) << dc_status_name(s) << ": "
                                                                         << dc_last_error_message();
  }
  EXPECT_EQ(p, nullptr);
}

// Handles released in any order: imported buffers keep their imported pool,
// the exporter's buffers keep its pool (and so its descriptor).
TEST_F(PoolIpcTest, ReleaseOrdersOnTheFake) {
  REQUIRE_FAKE_DRIVER();
  auto* fake = dctest::fake_driver();
  // dccuda's own pool on the device, if made already, counts too.
  dc_buffer warm = alloc(64);
  dc_buffer_release(warm);
  const long own = fake->live("pools");
  dc_pool pool = make_pool(DC_POOL_EXPORTABLE);
  dc_buffer owner = alloc_from(pool, 4096);
  uint8_t pool_bytes[DC_IPC_HANDLE_SIZE], memory[DC_IPC_HANDLE_SIZE];
  ASSERT_DC_OK(dc_pool_export_ipc(pool, pool_bytes, sizeof pool_bytes));
  ASSERT_DC_OK(dc_buffer_export_ipc(owner, memory, sizeof memory));
  // The exporter drops its pool handle first: the buffer keeps the pool and its descriptor.
  dc_pool_release(pool);
  dc_pool imported = nullptr;
  ASSERT_DC_OK(dc_pool_import_ipc(device_, pool_bytes, sizeof pool_bytes, &imported));
  dc_buffer in = nullptr;
  ASSERT_DC_OK(dc_buffer_import_ipc_from_pool(imported, memory, sizeof memory, &in));
  // The importer drops its pool handle before the buffer: the buffer keeps the import.
  dc_pool_release(imported);
  EXPECT_EQ(fake->live("pools"), own + 2) << "the exporter's pool and the import, each kept by its buffer";
  uint32_t value = 0x5a5a5a5au;
  ASSERT_DC_OK(dc_buffer_write(in, 0, &value, 4));
  dc_buffer_release(in);
  EXPECT_EQ(fake->live("pools"), own + 1) << "the import went with its last buffer";
  EXPECT_EQ(fake->live("pool_imports"), 0);
  uint32_t back = 0;
  ASSERT_DC_OK(dc_buffer_read(owner, 0, &back, 4));
  EXPECT_EQ(back, value);
  dc_buffer_release(owner);
  EXPECT_EQ(fake->live("pools"), own);
  EXPECT_EQ(fake->live("pool_imports_orphaned"), 0) << "the importer freed first, as the driver requires";
}

#else

TEST_F(PoolIpcTest, PoolsAreSharedOnLinuxOnly) {
  uint8_t handle[DC_IPC_HANDLE_SIZE] = {};
  int32_t fd = 0;
  dc_pool pool = make_pool(0);
  EXPECT_DC_ERROR(dc_pool_export_ipc(pool, handle, sizeof handle), DC_ERROR_NOT_SUPPORTED, "Linux");
  EXPECT_DC_ERROR(dc_pool_export_fd(pool, &fd), DC_ERROR_NOT_SUPPORTED, "Linux");
  dc_pool_release(pool);
}

#endif

}  // namespace
