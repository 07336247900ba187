// Sharing buffers and events with other processes (dc_buffer_export_ipc,
// dc_buffer_import_ipc, dc_event_export_ipc, dc_event_import_ipc): what may
// be exported and what is refused, bytes that are not an export, and, on the
// fake driver (which models IPC inside one process: fake_ipc.cpp), the whole
// path from export to a released import. Two real processes on a GPU:
// test_ipc_processes.cpp.
#include <vector>

#include "memory/memory_test.h"

namespace {

using namespace memtest;

class IpcTest : public MemoryTest {};

TEST_F(IpcTest, OnlyDeviceMemoryFromCuMemAllocIsExported) {
  uint8_t handle[DC_IPC_HANDLE_SIZE] = {};
  dc_buffer pooled = alloc(4096);
  EXPECT_DC_ERROR(dc_buffer_export_ipc(pooled, handle, sizeof handle), DC_ERROR_NOT_SUPPORTED, "DC_ALLOC_NO_POOL");
  dc_pool pool = nullptr;
  ASSERT_DC_OK(dc_pool_create(device_, 0, 0, &pool));
  dc_buffer from_pool = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_from_pool(pool, nullptr, 4096, &from_pool));
  EXPECT_DC_ERROR(dc_buffer_export_ipc(from_pool, handle, sizeof handle), DC_ERROR_NOT_SUPPORTED,
                  "without DC_POOL_EXPORTABLE");
  dc_buffer pinned = nullptr, managed = nullptr, growable = nullptr, wrapped = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_pinned(device_, 4096, DC_ALLOC_DEVICE_MAPPED, &pinned));
  EXPECT_DC_ERROR(dc_buffer_export_ipc(pinned, handle, sizeof handle), DC_ERROR_NOT_SUPPORTED, "host memory");
  ASSERT_DC_OK(dc_buffer_alloc_managed(device_, 4096, 0, &managed));
  EXPECT_DC_ERROR(dc_buffer_export_ipc(managed, handle, sizeof handle), DC_ERROR_NOT_SUPPORTED, "managed memory");
  ASSERT_DC_OK(dc_buffer_alloc_growable(device_, 1 << 30, 1, &growable));
  EXPECT_DC_ERROR(dc_buffer_export_ipc(growable, handle, sizeof handle), DC_ERROR_NOT_SUPPORTED, "growable");
  dc_buffer plain = alloc(4096, DC_ALLOC_NO_POOL);
  uint64_t address = 0;
  ASSERT_DC_OK(dc_buffer_device_pointer(plain, &address));
  ASSERT_DC_OK(dc_buffer_wrap_device(device_, address, 4096, &wrapped));
  EXPECT_DC_ERROR(dc_buffer_export_ipc(wrapped, handle, sizeof handle), DC_ERROR_NOT_SUPPORTED,
                  "does not own its memory");
  EXPECT_DC_ERROR(dc_buffer_export_ipc(plain, handle, DC_IPC_HANDLE_SIZE - 1), DC_ERROR_INVALID_ARGUMENT,
                  "below DC_IPC_HANDLE_SIZE");
  EXPECT_DC_OK(dc_buffer_export_ipc(plain, handle, sizeof handle));
  for (dc_buffer b : {wrapped, plain, growable, managed, pinned, from_pool, pooled}) dc_buffer_release(b);
  dc_pool_release(pool);
}

TEST_F(IpcTest, OnlyInterprocessEventsAreExported) {
  uint8_t handle[DC_IPC_HANDLE_SIZE] = {};
  dc_event plain = nullptr, shared = nullptr;
  EXPECT_DC_ERROR(dc_event_create(device_, DC_EVENT_INTERPROCESS, &shared), DC_ERROR_INVALID_ARGUMENT,
                  "DC_EVENT_INTERPROCESS without DC_EVENT_DISABLE_TIMING");
  ASSERT_DC_OK(dc_event_create(device_, DC_EVENT_DISABLE_TIMING, &plain));
  EXPECT_DC_ERROR(dc_event_export_ipc(plain, handle, sizeof handle), DC_ERROR_INVALID_ARGUMENT,
                  "without DC_EVENT_INTERPROCESS");
  ASSERT_DC_OK(dc_event_create(device_, DC_EVENT_INTERPROCESS | DC_EVENT_DISABLE_TIMING, &shared));
  EXPECT_DC_OK(dc_event_export_ipc(shared, handle, sizeof handle));
  dc_event_release(shared);
  dc_event_release(plain);
}

TEST_F(IpcTest, BytesThatAreNoExportAreRefusedBeforeTheDriver) {
  uint8_t junk[DC_IPC_HANDLE_SIZE];
  for (size_t i = 0; i < sizeof junk; ++i) junk[i] = static_cast<uint8_t>(i * 7);
  dc_buffer b = nullptr;
  dc_event e = nullptr;
  EXPECT_DC_ERROR(dc_buffer_import_ipc(device_, junk, sizeof junk, &b), DC_ERROR_INVALID_ARGUMENT,
                  "not the bytes of an exported buffer");
  EXPECT_DC_ERROR(dc_event_import_ipc(device_, junk, sizeof junk, &e), DC_ERROR_INVALID_ARGUMENT,
                  "not the bytes of an exported event");
  EXPECT_DC_ERROR(dc_buffer_import_ipc(device_, junk, 64, &b), DC_ERROR_INVALID_ARGUMENT, "size 64 is below");
  // An event's bytes are not a buffer's.
  dc_event shared = nullptr;
  ASSERT_DC_OK(dc_event_create(device_, DC_EVENT_INTERPROCESS | DC_EVENT_DISABLE_TIMING, &shared));
  uint8_t handle[DC_IPC_HANDLE_SIZE] = {};
  ASSERT_DC_OK(dc_event_export_ipc(shared, handle, sizeof handle));
  EXPECT_DC_ERROR(dc_buffer_import_ipc(device_, handle, sizeof handle, &b), DC_ERROR_INVALID_ARGUMENT,
                  "not the bytes of an exported buffer");
  EXPECT_EQ(b, nullptr);
  dc_event_release(shared);
}

// The fake models IPC inside one process (a real driver refuses the exporting
// process): the import is the exporter's memory, a view exports its own range,
// and the import's release closes it.
TEST_F(IpcTest, AnImportIsTheExportersMemoryOnTheFake) {
  REQUIRE_FAKE_DRIVER();
  auto* fake = dctest::fake_driver();
  dc_buffer owner = alloc(8192, DC_ALLOC_NO_POOL);
  std::vector<uint8_t> data = random_bytes(8192, 9);
  ASSERT_DC_OK(dc_buffer_write(owner, 0, data.data(), data.size()));
  dc_buffer view = nullptr;
  ASSERT_DC_OK(dc_buffer_view(owner, 1000, 3000, &view));
  uint8_t handle[DC_IPC_HANDLE_SIZE] = {};
  ASSERT_DC_OK(dc_buffer_export_ipc(view, handle, sizeof handle));
  dc_buffer imported = nullptr;
  ASSERT_DC_OK(dc_buffer_import_ipc(device_, handle, sizeof handle, &imported));
  EXPECT_EQ(fake->live("ipc_opens"), 1);
  uint64_t size = 0;
  int32_t kind = 0;
  ASSERT_DC_OK(dc_buffer_size(imported, &size));
  EXPECT_EQ(size, 3000u);
  ASSERT_DC_OK(dc_buffer_kind(imported, &kind));
  EXPECT_EQ(kind, DC_BUFFER_WRAPPED_DEVICE);
  std::vector<uint8_t> got(3000);
  ASSERT_DC_OK(dc_buffer_read(imported, 0, got.data(), got.size()));
  EXPECT_EQ(first_difference(got.data(), data.data() + 1000, got.size()), -1);
  // Writes through the import land in the exporter's buffer.
  std::vector<uint8_t> patch = random_bytes(100, 10);
  ASSERT_DC_OK(dc_buffer_write(imported, 2900, patch.data(), patch.size()));
  ASSERT_DC_OK(dc_buffer_read(owner, 3900, got.data(), 100));
  EXPECT_EQ(first_difference(got.data(), patch.data(), 100), -1);
  EXPECT_DC_ERROR(dc_buffer_read(imported, 2950, got.data(), 100), DC_ERROR_OUT_OF_RANGE, "exceeds");
  // An import is not exported again.
  EXPECT_DC_ERROR(dc_buffer_export_ipc(imported, handle, sizeof handle), DC_ERROR_NOT_SUPPORTED,
                  "does not own its memory");
  dc_buffer_release(imported);
  EXPECT_EQ(fake->live("ipc_opens"), 0) << "releasing the import closes it";

  // Events: the importer waits on the exporter's record.
  dc_event shared = nullptr, opened = nullptr;
  ASSERT_DC_OK(dc_event_create(device_, DC_EVENT_INTERPROCESS | DC_EVENT_DISABLE_TIMING, &shared));
  dc_stream s = stream();
  ASSERT_DC_OK(dc_event_record(shared, s));
  ASSERT_DC_OK(dc_event_export_ipc(shared, handle, sizeof handle));
  ASSERT_DC_OK(dc_event_import_ipc(device_, handle, sizeof handle, &opened));
  dc_stream other = stream();
  ASSERT_DC_OK(dc_stream_wait_event(other, opened));
  ASSERT_DC_OK(dc_event_synchronize(opened));
  float ms = 0;
  EXPECT_DC_ERROR(dc_event_elapsed_ms(opened, opened, &ms), DC_ERROR_INVALID_ARGUMENT, "DC_EVENT_DISABLE_TIMING");
  dc_event_release(opened);
  dc_event_release(shared);
  dc_stream_release(other);
  dc_stream_release(s);
  dc_buffer_release(view);
  dc_buffer_release(owner);
}

}  // namespace
