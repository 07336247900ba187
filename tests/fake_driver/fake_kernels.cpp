// The fake driver's kernel emulators (a test double): see fake_kernels.h for
// the registry and the CUDA source each one follows.
#include "fake_kernels.h"

#include "fake_graph.h"
#include <chrono>
#include <thread>

#include "echo_kernel.cuh"

#include <cstring>
#include <functional>
#include <map>

#include "fake_memory.h"
#include "fake_module.h"

namespace fake {
namespace {

// Checked access to "device" memory: every load and store must lie inside a
// live allocation or module global. A few recently used ranges are cached,
// because each lookup walks the allocation map.
class DeviceMemory {
 public:
  template <class T>
  bool load(uint64_t address, T* value) {
    if (!reachable(address, sizeof(T))) return false;
    std::memcpy(value, reinterpret_cast<const void*>(static_cast<uintptr_t>(address)), sizeof(T));
    return true;
  }
  template <class T>
  bool store(uint64_t address, T value) {
    if (!reachable(address, sizeof(T))) return false;
    std::memcpy(reinterpret_cast<void*>(static_cast<uintptr_t>(address)), &value, sizeof(T));
    return true;
  }

 private:
  struct Range {
    uint64_t lo = 0, hi = 0;
  };
  bool reachable(uint64_t p, uint64_t n) {
    if (p + n < p) return false;
    for (const Range& r : cache_)
      if (p >= r.lo && p + n <= r.hi) return true;
    Range found;
    if (Allocation* a = allocation_containing(static_cast<uintptr_t>(p))) {
      found = {a->base, a->base + a->size};
    } else {
      CUdeviceptr base = 0;
      size_t size = 0;
      if (!module_global_range(p, &base, &size)) return false;
      found = {base, base + size};
    }
    if (p + n > found.hi) return false;
    cache_[next_++ % kCache] = found;
    return true;
  }
  static constexpr int kCache = 4;
  Range cache_[kCache];
  unsigned next_ = 0;
};

struct Dim3 {
  unsigned x = 0, y = 0, z = 0;
};

// A kernel's parameters, read from the packed block by index.
class Args {
 public:
  explicit Args(const KernelRun& run) : run_(run) {}
  template <class T>
  T get(size_t index) const {
    T v{};
    if (index < run_.params.size() && run_.params[index].size == sizeof(T) &&
        run_.params[index].offset + sizeof(T) <= run_.args.size())
      std::memcpy(&v, run_.args.data() + run_.params[index].offset, sizeof(T));
    return v;
  }
  const uint8_t* raw(size_t index) const {
    if (index >= run_.params.size() || run_.params[index].offset + run_.params[index].size > run_.args.size())
      return nullptr;
    return run_.args.data() + run_.params[index].offset;
  }

 private:
  const KernelRun& run_;
};

// Calls f(blockIdx, threadIdx) for every thread of the grid, block by block;
// stops at the first fault.
template <class F>
CUresult each_thread(const KernelRun& r, F&& f) {
  Dim3 b, t;
  for (b.z = 0; b.z < r.grid[2]; ++b.z)
    for (b.y = 0; b.y < r.grid[1]; ++b.y)
      for (b.x = 0; b.x < r.grid[0]; ++b.x)
        for (t.z = 0; t.z < r.block[2]; ++t.z)
          for (t.y = 0; t.y < r.block[1]; ++t.y)
            for (t.x = 0; t.x < r.block[0]; ++t.x)
              if (!f(b, t)) return CUDA_ERROR_ILLEGAL_ADDRESS;
  return CUDA_SUCCESS;
}

// Calls f(blockIdx) for every block.
template <class F>
CUresult each_block(const KernelRun& r, F&& f) {
  Dim3 b;
  for (b.z = 0; b.z < r.grid[2]; ++b.z)
    for (b.y = 0; b.y < r.grid[1]; ++b.y)
      for (b.x = 0; b.x < r.grid[0]; ++b.x)
        if (!f(b)) return CUDA_ERROR_ILLEGAL_ADDRESS;
  return CUDA_SUCCESS;
}

// i = blockIdx.x * blockDim.x + threadIdx.x in 32-bit unsigned arithmetic, as
// the CUDA source computes it.
unsigned index_x(const KernelRun& r, Dim3 b, Dim3 t) { return b.x * r.block[0] + t.x; }

CUresult saxpy(const KernelRun& r) {
  Args a(r);
  float alpha = a.get<float>(0);
  uint64_t x = a.get<uint64_t>(1), y = a.get<uint64_t>(2);
  int n = a.get<int>(3);
  DeviceMemory m;
  return each_thread(r, [&](Dim3 b, Dim3 t) {
    int i = static_cast<int>(index_x(r, b, t));
    if (i >= n) return true;
    float xi, yi;
    uint64_t off = static_cast<uint64_t>(i) * 4;
    return m.load(x + off, &xi) && m.load(y + off, &yi) && m.store(y + off, alpha * xi + yi);
  });
}

CUresult vector_add(const KernelRun& r) {
  Args a(r);
  uint64_t pa = a.get<uint64_t>(0), pb = a.get<uint64_t>(1), pc = a.get<uint64_t>(2);
  int n = a.get<int>(3);
  DeviceMemory m;
  return each_thread(r, [&](Dim3 b, Dim3 t) {
    int i = static_cast<int>(index_x(r, b, t));
    if (i >= n) return true;
    float x, y;
    uint64_t off = static_cast<uint64_t>(i) * 4;
    return m.load(pa + off, &x) && m.load(pb + off, &y) && m.store(pc + off, x + y);
  });
}

CUresult fill_u32(const KernelRun& r) {
  Args a(r);
  uint64_t p = a.get<uint64_t>(0);
  uint32_t value = a.get<uint32_t>(1);
  uint64_t n = a.get<uint64_t>(2);
  DeviceMemory m;
  return each_thread(r, [&](Dim3 b, Dim3 t) {
    uint64_t i = static_cast<uint64_t>(b.x) * r.block[0] + t.x;
    return i >= n || m.store(p + i * 4, value);
  });
}

// halve_until(float* x, float limit, unsigned long long condition): one
// thread: x[0] *= 0.5f; cudaGraphSetConditional(condition, x[0] > limit).
CUresult halve_until(const KernelRun& r) {
  Args a(r);
  uint64_t x = a.get<uint64_t>(0);
  float limit = a.get<float>(1);
  uint64_t condition = a.get<uint64_t>(2);
  DeviceMemory m;
  float v = 0;
  if (!m.load(x, &v)) return CUDA_ERROR_ILLEGAL_ADDRESS;
  v *= 0.5f;
  if (!m.store(x, v)) return CUDA_ERROR_ILLEGAL_ADDRESS;
  return set_condition(condition, v > limit ? 1u : 0u);
}

CUresult reduce_sum(const KernelRun& r) {
  Args a(r);
  uint64_t in = a.get<uint64_t>(0), out = a.get<uint64_t>(1);
  uint32_t n = a.get<uint32_t>(2);
  unsigned threads = r.grid[0] * r.block[0];
  if (r.block[0] > 1024) return CUDA_ERROR_ILLEGAL_ADDRESS;  // partial[1024] overflows
  DeviceMemory m;
  std::vector<float> partial(r.block[0]);
  return each_block(r, [&](Dim3 b) {
    // Every (y, z) copy of a block computes the same as its x: the source
    // uses only the x dimension.
    for (unsigned t = 0; t < r.block[0]; ++t) {
      float s = 0.0f;
      for (unsigned i = b.x * r.block[0] + t; i < n; i += threads) {
        float v;
        if (!m.load(in + static_cast<uint64_t>(i) * 4, &v)) return false;
        s += v;
      }
      partial[t] = s;
    }
    for (unsigned stride = 1; stride < r.block[0]; stride *= 2)
      for (unsigned t = 0; t < r.block[0]; ++t)
        if (t % (2 * stride) == 0 && t + stride < r.block[0]) partial[t] += partial[t + stride];
    // One add per thread of the block's (y, z) plane with threadIdx.x == 0.
    for (unsigned k = 0; k < r.block[1] * r.block[2]; ++k) {
      float total;
      if (!m.load(out, &total) || !m.store(out, total + partial[0])) return false;
    }
    return true;
  });
}

template <class T>
CUresult scale(const KernelRun& r) {
  Args a(r);
  uint64_t p = a.get<uint64_t>(0);
  T factor = a.get<T>(1);
  int n = a.get<int>(2);
  DeviceMemory m;
  return each_thread(r, [&](Dim3 b, Dim3 t) {
    int i = static_cast<int>(index_x(r, b, t));
    if (i >= n) return true;
    T v;
    uint64_t off = static_cast<uint64_t>(i) * sizeof(T);
    return m.load(p + off, &v) && m.store(p + off, v * factor);
  });
}

// Both grid-sync kernels: phase one everywhere, the barrier, phase two.
CUresult grid_sync_reverse(const KernelRun& r, bool with_counter) {
  Args a(r);
  uint64_t in = a.get<uint64_t>(0), tmp = a.get<uint64_t>(1), out = a.get<uint64_t>(2);
  uint32_t n = a.get<uint32_t>(3);
  uint64_t counter = with_counter ? a.get<uint64_t>(4) : 0;
  uint64_t threads = static_cast<uint64_t>(r.grid[0]) * r.grid[1] * r.grid[2] * r.block[0] * r.block[1] * r.block[2];
  DeviceMemory m;
  auto rank = [&](Dim3 b, Dim3 t) {
    uint64_t block = b.x + static_cast<uint64_t>(r.grid[0]) * (b.y + static_cast<uint64_t>(r.grid[1]) * b.z);
    uint64_t thread = t.x + static_cast<uint64_t>(r.block[0]) * (t.y + static_cast<uint64_t>(r.block[1]) * t.z);
    return block * r.block[0] * r.block[1] * r.block[2] + thread;
  };
  CUresult res = each_thread(r, [&](Dim3 b, Dim3 t) {
    for (uint64_t i = rank(b, t); i < n; i += threads) {
      int v;
      if (!m.load(in + i * 4, &v) || !m.store(tmp + i * 4, v * 2)) return false;
    }
    return true;
  });
  if (res != CUDA_SUCCESS) return res;
  if (with_counter) {
    res = each_block(r, [&](Dim3) {
      uint32_t c;
      return m.load(counter, &c) && m.store(counter, c + 1);
    });
    if (res != CUDA_SUCCESS) return res;
  }
  return each_thread(r, [&](Dim3 b, Dim3 t) {
    for (uint64_t i = rank(b, t); i < n; i += threads) {
      int v;
      if (!m.load(tmp + (n - 1 - i) * 4, &v) || !m.store(out + i * 4, v)) return false;
    }
    return true;
  });
}

CUresult cluster_rank(const KernelRun& r) {
  Args a(r);
  uint64_t out = a.get<uint64_t>(0);
  const unsigned* c = r.cluster;
  DeviceMemory m;
  return each_block(r, [&](Dim3 b) {
    uint32_t rank = (b.x % c[0]) + c[0] * ((b.y % c[1]) + c[1] * (b.z % c[2]));
    uint32_t size = c[0] * c[1] * c[2];
    uint64_t linear = b.x + static_cast<uint64_t>(r.grid[0]) * (b.y + static_cast<uint64_t>(r.grid[1]) * b.z);
    return m.store(out + linear * 4, rank + 1000u * size);
  });
}

CUresult grid3d_index(const KernelRun& r) {
  Args a(r);
  uint64_t out = a.get<uint64_t>(0);
  uint32_t nx = a.get<uint32_t>(1), ny = a.get<uint32_t>(2), nz = a.get<uint32_t>(3);
  DeviceMemory m;
  return each_thread(r, [&](Dim3 b, Dim3 t) {
    unsigned x = b.x * r.block[0] + t.x, y = b.y * r.block[1] + t.y, z = b.z * r.block[2] + t.z;
    if (x >= nx || y >= ny || z >= nz) return true;
    uint64_t i = (static_cast<uint64_t>(z) * ny + y) * nx + x;
    return m.store(out + i * 4, x + 1000u * y + 1000000u * z);
  });
}

CUresult mixed(const KernelRun& r) {
  Args a(r);
  // struct S { double a; int b; char c[5]; } and struct alignas(16) F4 { float x, y, z, w; }.
  char c = a.get<char>(0);
  const uint8_t* s = a.raw(1);
  int16_t h = a.get<int16_t>(2);
  double d = a.get<double>(3);
  const uint8_t* v = a.raw(4);
  uint64_t out = a.get<uint64_t>(5);
  if (!s || !v || !out) return CUDA_SUCCESS;
  int32_t sb;
  char sc4;
  float vw;
  std::memcpy(&sb, s + 8, 4);
  std::memcpy(&sc4, s + 16, 1);
  std::memcpy(&vw, v + 12, 4);
  size_t size = 0;
  int32_t answer = 0;
  float table3 = 0;
  if (void* g = module_global(r.module, "answer", &size); g && size >= 4) std::memcpy(&answer, g, 4);
  if (void* g = module_global(r.module, "table", &size); g && size >= 16) std::memcpy(&table3, static_cast<char*>(g) + 12, 4);
  int32_t value = c + sb + sc4 + h + static_cast<int>(d) + static_cast<int>(vw) + answer + static_cast<int>(table3);
  DeviceMemory m;
  // Every thread of the grid stores the same value.
  return each_thread(r, [&](Dim3, Dim3) { return m.store(out, value); });
}

CUresult write_out_of_bounds(const KernelRun& r) {
  Args a(r);
  uint64_t p = a.get<uint64_t>(0), index = a.get<uint64_t>(1);
  DeviceMemory m;
  return m.store(p + index * 4, int32_t{1}) ? CUDA_SUCCESS : CUDA_ERROR_ILLEGAL_ADDRESS;
}

// heap_probe(unsigned long long bytes, int* ok): thread 0 of block 0 mallocs
// `bytes` from the device heap, writes ok[0] = (it got memory), frees it.
// The heap is the context's DC_LIMIT_MALLOC_HEAP_SIZE, less the allocator's
// own bookkeeping (so a request of the whole heap fails, as on a GPU).
CUresult heap_probe(const KernelRun& r) {
  Args a(r);
  uint64_t bytes = a.get<uint64_t>(0), ok = a.get<uint64_t>(1);
  Context* ctx = current_context();
  ctx->heap_used = true;
  int32_t got = bytes < ctx->limits[CU_LIMIT_MALLOC_HEAP_SIZE] ? 1 : 0;
  DeviceMemory m;
  return m.store(ok, got) ? CUDA_SUCCESS : CUDA_ERROR_ILLEGAL_ADDRESS;
}

using Emulator = std::function<CUresult(const KernelRun&)>;

// bench_queue's launch + synchronize side: the echo actor's answer, once.
CUresult echo_once(const KernelRun& r) {
  Args a(r);
  uint64_t in = a.get<uint64_t>(0), out = a.get<uint64_t>(1);
  uint32_t n = a.get<uint32_t>(2);
  DeviceMemory m;
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t v;
    if (!m.load(in + i, &v) || !m.store(out + i, uint8_t(i < 8 ? v : v + 1))) return CUDA_ERROR_ILLEGAL_ADDRESS;
  }
  return CUDA_SUCCESS;
}

const std::map<std::string, Emulator>& registry() {
  static const auto* r = new std::map<std::string, Emulator>{
      {"saxpy", saxpy},
      {"vector_add", vector_add},
      {"fill_u32", fill_u32},
      {"reduce_sum", reduce_sum},
      {"halve_until", halve_until},
      {"_Z5scaleIfEvPT_S0_i", scale<float>},
      {"_Z5scaleIdEvPT_S0_i", scale<double>},
      {"grid_sync_reverse", [](const KernelRun& r) { return grid_sync_reverse(r, true); }},
      {"cg_grid_sync_reverse", [](const KernelRun& r) { return grid_sync_reverse(r, false); }},
      {"cluster_rank", cluster_rank},
      {"grid3d_index", grid3d_index},
      {"mixed", mixed},
      {"write_out_of_bounds", write_out_of_bounds},
      {"heap_probe", heap_probe},
      {"trap", [](const KernelRun&) { return CUDA_ERROR_LAUNCH_FAILED; }},
      {"echo_once", echo_once},
  };
  return *r;
}

}  // namespace

CUresult emulate_kernel(const KernelRun& run) {
  auto it = registry().find(run.name);
  return it == registry().end() ? CUDA_SUCCESS : it->second(run);
}

bool kernel_is_emulated(const std::string& name) { return registry().count(name) != 0; }

bool kernel_is_resident(const std::string& name) {
  return name == "spin_until" || name == "dc_echo" || name == "dc_echo_cursor" || name == "dc_relay_source" ||
         name == "dc_relay_echo";
}

std::function<void()> resident_body(const KernelRun& run) {
  Args a(run);
  if (run.name == "spin_until") {
    uint64_t flag = a.get<uint64_t>(0);
    if (!device_range_ok(flag, 4)) return {};
    auto* p = reinterpret_cast<const unsigned*>(static_cast<uintptr_t>(flag));
    return [p] {
      while (__atomic_load_n(p, __ATOMIC_ACQUIRE) == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
    };
  }
  uint64_t in = a.get<uint64_t>(0), out = a.get<uint64_t>(1), control = a.get<uint64_t>(2);
  if (!device_range_ok(in, sizeof(dc_queue_ring)) || !device_range_ok(out, sizeof(dc_queue_ring)) ||
      !device_range_ok(control, sizeof(dc_control_block)))
    return {};
  auto* i = reinterpret_cast<dc_queue_ring*>(static_cast<uintptr_t>(in));
  auto* o = reinterpret_cast<dc_queue_ring*>(static_cast<uintptr_t>(out));
  auto* c = reinterpret_cast<dc_control_block*>(static_cast<uintptr_t>(control));
  if (run.name == "dc_echo_cursor") return [i, o, c] { dc_echo_cursor_run(i, o, c); };
  if (run.name == "dc_relay_source" || run.name == "dc_relay_echo") {
    uint64_t count = a.get<uint64_t>(3);
    uint32_t max = a.get<uint32_t>(4);
    if (run.name == "dc_relay_source") return [i, o, c, count, max] { dc_relay_source_run(i, o, c, count, max); };
    return [i, o, c, count, max] { dc_relay_echo_run(i, o, c, count, max); };
  }
  return [i, o, c] { dc_echo_run(i, o, c); };
}

}  // namespace fake
