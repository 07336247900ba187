#include "memory_pairs.h"

#include "random_bytes.h"

namespace bench {

MemoryEnv& memory_env() {
  static MemoryEnv env;
  return env;
}

bool open_memory_env(std::string* why) {
  MemoryEnv& env = memory_env();
  int32_t count = 0;
  if (dc_device_count(&count) != DC_SUCCESS) {
    *why = dc_last_error_message();
    return false;
  }
  if (count < 1) {
    *why = "the driver reports no CUDA device";
    return false;
  }
  if (dc_device_open(0, &env.device) != DC_SUCCESS) {
    *why = dc_last_error_message();
    return false;
  }
  void* ctx = nullptr;
  dc_device_native(env.device, nullptr, &ctx);
  env.context = static_cast<CUcontext>(ctx);
  env.raw = raw_driver(why);
  if (!env.raw) return false;
  dc_device_info info = DC_DEVICE_INFO_INIT;
  dc_device_get_info(env.device, &info);
  env.name = info.name;
  return true;
}

void close_memory_env() {
  dc_device_release(memory_env().device);
  memory_env().device = nullptr;
}

void bind_memory_env() { memory_env().raw->cuCtxSetCurrent(memory_env().context); }

void report_pairs(benchmark::State& state, uint64_t bytes, const PairedSamples& samples) {
  double dc = samples.dc().median(), raw = samples.raw().median();
  if (dc <= 0 || raw <= 0) return;
  state.counters["dc_us"] = dc * 1e6;
  state.counters["raw_us"] = raw * 1e6;
  state.counters["speedup"] = raw / dc;
  state.counters["samples"] = static_cast<double>(samples.size());
  if (bytes) {
    state.counters["dc_GB/s"] = static_cast<double>(bytes) / dc / 1e9;
    state.counters["raw_GB/s"] = static_cast<double>(bytes) / raw / 1e9;
  }
}

HostMemory::HostMemory(uint64_t size, bool use_pinned) {
  if (use_pinned) {
    if (dc_buffer_alloc_pinned(memory_env().device, size, 0, &pinned) == DC_SUCCESS) dc_buffer_host_pointer(pinned, &p);
  } else {
    pageable.reset(new char[size]);
    p = pageable.get();
  }
  if (p) fill_random_nonzero(p, size);
}

HostMemory::~HostMemory() { dc_buffer_release(pinned); }

DeviceMemory::DeviceMemory(uint64_t size) {
  if (dc_buffer_alloc(memory_env().device, size, 0, &buffer) == DC_SUCCESS) dc_buffer_device_pointer(buffer, &address);
}

DeviceMemory::~DeviceMemory() { dc_buffer_release(buffer); }

bool fill_from(benchmark::State& state, const DeviceMemory& dev, const HostMemory& host, uint64_t size) {
  return dc_ok(state, dc_buffer_write(dev.buffer, 0, host.p, size));
}

namespace {

void write_pairs(benchmark::State& state, bool pinned, bool raw_synced) {
  const RawDriver& raw = *memory_env().raw;
  uint64_t size = static_cast<uint64_t>(state.range(0));
  HostMemory host(size, pinned);
  DeviceMemory dev(size);
  if (!host.p || !dev.address) {
    state.SkipWithError(dc_last_error_message());
    return;
  }
  compare_pairs(
      state, size, [&] { return dc_ok(state, dc_buffer_write(dev.buffer, 0, host.p, size)); },
      [&] {
        return raw_ok(state, raw.cuMemcpyHtoD(dev.address, host.p, size), "cuMemcpyHtoD") &&
               (!raw_synced || raw_ok(state, raw.cuStreamSynchronize(CU_STREAM_LEGACY), "cuStreamSynchronize"));
      });
}

}  // namespace

void host_to_device(benchmark::State& state, bool pinned) { write_pairs(state, pinned, false); }
void host_to_device_raw_synced(benchmark::State& state) { write_pairs(state, false, true); }

void device_to_host(benchmark::State& state, bool pinned) {
  const RawDriver& raw = *memory_env().raw;
  uint64_t size = static_cast<uint64_t>(state.range(0));
  HostMemory host(size, pinned);
  DeviceMemory dev(size);
  if (!host.p || !dev.address) {
    state.SkipWithError(dc_last_error_message());
    return;
  }
  if (!fill_from(state, dev, host, size)) return;  // the copies then read back what is already there
  compare_pairs(
      state, size, [&] { return dc_ok(state, dc_buffer_read(dev.buffer, 0, host.p, size)); },
      [&] { return raw_ok(state, raw.cuMemcpyDtoH(host.p, dev.address, size), "cuMemcpyDtoH"); });
}

}  // namespace bench
