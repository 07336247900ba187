// The bytes dccuda gives out for interprocess sharing (dc_buffer_export_ipc,
// dc_event_export_ipc, dc_pool_export_ipc): a fixed layout of DC_IPC_HANDLE_SIZE bytes, checked
// field by field when imported (a caller may hand in anything). The driver's
// own 64-byte handle travels inside, with what dccuda adds: the kind, the
// exporting process, and for memory the byte offset (a view) and the size.
// A pool travels as the exporter's file descriptor (the importer takes a copy
// with pidfd_getfd); memory of a pool as cuMemPoolExportPointer's 64 bytes.
#pragma once

#include <cstdint>
#include <cstring>

#include "dccuda.h"

namespace dc {

struct IpcBlob {
  static constexpr char kMagic[8] = {'d', 'c', 'c', 'u', 'd', 'a', 'I', '1'};
  static constexpr uint32_t kMemory = 1;
  static constexpr uint32_t kEvent = 2;
  static constexpr uint32_t kPool = 3;          // driver: unused; offset: the exporter's descriptor
  static constexpr uint32_t kPoolMemory = 4;    // driver: CUmemPoolPtrExportData; offset, size as kMemory

  char magic[8];
  uint32_t kind;         // kMemory, kEvent, kPool or kPoolMemory
  uint32_t process;      // the exporter's process id (for messages)
  uint64_t offset;       // memory: the first byte, from the start of the driver's allocation; pool: the descriptor
  uint64_t size;         // memory: the bytes shared
  uint8_t driver[64];    // CUipcMemHandle / CUipcEventHandle / CUmemPoolPtrExportData
  uint8_t unused[DC_IPC_HANDLE_SIZE - 96];

  bool valid() const noexcept { return std::memcmp(magic, kMagic, sizeof magic) == 0; }
};
static_assert(sizeof(IpcBlob) == DC_IPC_HANDLE_SIZE);

}  // namespace dc
