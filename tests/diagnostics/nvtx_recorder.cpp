// A profiler's NVTX injection library for the tests: what Nsight Systems'
// injection does, reduced to recording. NVTX_INJECTION64_PATH names it; the
// instrumented library (dccuda) calls InitializeInjectionNvtx2 with NVTX's
// export-table getter; this library asks for the callback table, takes the
// core and CUDA modules' function tables and fills the slots it records
// (RangePushA, RangePop, MarkA, NameCuStreamA). Its values are NVTX v3's
// (nvtxDetail/nvtxTypes.h). The test reads the record through
// nvtx_recorder_log (dlopen of the same path gives the same library).
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

// CUstream as cuda.h declares it: NVTX's nvtxNameCuStreamA takes a CUstream, and a
// call through a slot of another type is undefined (UBSan's function check).
struct CUstream_st;

namespace {

using FunctionPointer = void (*)();
using FunctionTable = FunctionPointer**;
using GetExportTable = const void* (*)(uint32_t);

struct ExportTableCallbacks {
  size_t struct_size;
  int (*GetModuleFunctionTable)(int module, FunctionTable* out_table, unsigned int* out_size);
};
struct ExportTableVersionInfo {
  size_t struct_size;
  uint32_t version;
  uint32_t reserved0;
  void (*SetInjectionNvtxVersion)(uint32_t version);
};

std::mutex g_mutex;
std::string g_log;
thread_local int t_depth = 0;

void record(const std::string& line) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_log += line + "\n";
}

int range_push_a(const char* message) {
  record("push " + std::string(message));
  return t_depth++;
}
int range_pop() {
  if (t_depth == 0) {
    record("pop (none open)");
    return -1;
  }
  record("pop");
  return --t_depth;
}
void mark_a(const char* message) { record("mark " + std::string(message)); }
void name_cu_stream_a(CUstream_st* stream, const char* name) {
  record("stream " + std::to_string(reinterpret_cast<uintptr_t>(stream)) + " " + name);
}

bool fill(const ExportTableCallbacks* callbacks, int module, int slot, FunctionPointer fn) {
  FunctionTable table = nullptr;
  unsigned int size = 0;
  if (!callbacks->GetModuleFunctionTable(module, &table, &size) || !table) return false;
  if (static_cast<unsigned>(slot) >= size || !table[slot]) return false;
  *table[slot] = fn;
  return true;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(GetExportTable get) {
  auto* version = static_cast<const ExportTableVersionInfo*>(get(3));  // NVTX_ETID_VERSIONINFO
  if (!version || version->struct_size < sizeof(ExportTableVersionInfo) || version->version < 2) return 0;
  auto* callbacks = static_cast<const ExportTableCallbacks*>(get(1));  // NVTX_ETID_CALLBACKS
  if (!callbacks || callbacks->struct_size < sizeof(ExportTableCallbacks)) return 0;
  bool ok = fill(callbacks, 1, 9, reinterpret_cast<FunctionPointer>(&range_push_a)) &&  // CORE, RangePushA
            fill(callbacks, 1, 11, reinterpret_cast<FunctionPointer>(&range_pop)) &&    // CORE, RangePop
            fill(callbacks, 1, 2, reinterpret_cast<FunctionPointer>(&mark_a)) &&        // CORE, MarkA
            fill(callbacks, 2, 5, reinterpret_cast<FunctionPointer>(&name_cu_stream_a));  // CUDA, NameCuStreamA
  record(ok ? "attached" : "refused: a table was not as NVTX's");
  return ok ? 1 : 0;
}

extern "C" __attribute__((visibility("default"))) const char* nvtx_recorder_log() {
  static std::string copy;
  std::lock_guard<std::mutex> lock(g_mutex);
  copy = g_log;
  return copy.c_str();
}
