// Compilation and the kernel cache: NVRTC (raw and through dccuda), the
// in-process cache hit, the disk cache hit in this process and in a new
// process, a kernel including the toolkit's CCCL and cooperative groups
// headers with and without NVRTC's precompiled headers (--pch), linking two programs' LTO-IR with nvJitLink (uncached, a memory
// hit, and a linked module's disk hit in a new process), and loading a module
// from CUBIN against PTX JIT (raw and dccuda).
//
//   bench_compile [--benchmark_filter=...]
//
// The goal's figures in one run, two passes (the new-process hit and load
// through dccuda, and the raw driver loading the same CUBIN in a new process):
//
//   bench_compile --benchmark_filter='NewProcess_(DiskHit|RawLoad|RawLoadLogs)/|ModuleLoad_Cubin' --benchmark_repetitions=2
//
// Every iteration is timed on its own with the steady clock, and the figure
// to read is the median over iterations: "median_us" (per operation) for the
// in-process benchmarks; "compile_us" and "load_us" (medians of what each
// child process measured of itself) for the new-process ones. Google
// Benchmark's own Time column is manual time, the mean of the same samples.
// Warm-up: each in-process benchmark runs its operation once untimed (the
// cache-hit ones compile once more before that, so that the entry exists);
// the new-process ones spawn a fresh process per iteration, which is the
// point, and take the median over those processes.
//
// Unless DCCUDA_CACHE_DIR is set, the run uses a fresh cache directory of its
// own. On a machine without a device the module benchmarks are skipped; with
// DCCUDA_DRIVER_LIBRARY pointing at the test double their numbers mean nothing.
#include <benchmark/benchmark.h>
#include "loader/cuda_abi/driver_abi.h"
#include <dirent.h>
#include <dlfcn.h>
#include "loader/cuda_abi/nvrtc_abi.h"
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "announce.h"
#include "compile_source.h"
#include "dccuda.h"
#include "samples.h"

extern char** environ;

namespace {

const char* const kSource = dcbench::kCompileSource;

std::string g_self;
dc_device g_device = nullptr;
int32_t g_arch = 90;

// Runs `operation` (false on failure, after marking the state skipped) once
// untimed to warm up, then times it on its own in each iteration, `prepare`
// running untimed before every run, and reports the median as median_us.
// Register the benchmark with UseManualTime().
template <class Operation, class Prepare>
void time_each(benchmark::State& state, Operation&& operation, Prepare&& prepare) {
  prepare();
  if (!operation()) return;  // warm: first-use costs (NVRTC's builtins, the driver's module loader)
  bench::Samples samples;
  samples.reserve(bench::expected_samples(state));
  for (auto _ : state) {
    prepare();
    double seconds = 0;
    if (!bench::time_once(operation, &seconds)) return;
    state.SetIterationTime(seconds);
    samples.add(seconds);
  }
  state.counters["median_us"] = samples.median() * 1e6;
  state.counters["samples"] = static_cast<double>(samples.size());
}

template <class Operation>
void time_each(benchmark::State& state, Operation&& operation) {
  time_each(state, operation, [] {});
}

dc_compile_options options(int32_t output, uint32_t flags = 0) {
  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  o.output = output;
  o.arch = g_arch;
  o.flags = flags;
  return o;
}

dc_program compile_or_die(const char* source, dc_compile_options o) {
  dc_program p = nullptr;
  if (dc_compile(source, "bench.cu", &o, nullptr, &p) != DC_SUCCESS) {
    std::fprintf(stderr, "dc_compile: %s\n%s\n", dc_last_error_message(), dc_last_error_detail());
    std::exit(1);
  }
  return p;
}

std::string output_of(dc_program p) {
  const void* data = nullptr;
  uint64_t size = 0;
  dc_program_output(p, nullptr, &data, &size);
  return std::string(static_cast<const char*>(data), size);
}

// --- Raw NVRTC and driver, for the baselines --------------------------------

struct RawNvrtc {
  PFN_nvrtcCreateProgram create = nullptr;
  PFN_nvrtcCompileProgram compile = nullptr;
  PFN_nvrtcGetCUBINSize cubin_size = nullptr;
  PFN_nvrtcGetCUBIN cubin = nullptr;
  PFN_nvrtcDestroyProgram destroy = nullptr;
};

const RawNvrtc* raw_nvrtc() {
  static RawNvrtc api;
  static bool ok = [] {
    std::vector<std::string> names;
    if (const char* p = std::getenv("DCCUDA_NVRTC_LIBRARY")) names.push_back(p);
    for (const char* n : {"libnvrtc.so.13", "libnvrtc.so.12", "/usr/local/cuda/lib64/libnvrtc.so.13",
                          "/usr/local/cuda/lib64/libnvrtc.so.12"})
      names.push_back(n);
    void* lib = nullptr;
    for (const std::string& n : names)
      if ((lib = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
    if (!lib) return false;
    api.create = reinterpret_cast<decltype(api.create)>(dlsym(lib, "nvrtcCreateProgram"));
    api.compile = reinterpret_cast<decltype(api.compile)>(dlsym(lib, "nvrtcCompileProgram"));
    api.cubin_size = reinterpret_cast<decltype(api.cubin_size)>(dlsym(lib, "nvrtcGetCUBINSize"));
    api.cubin = reinterpret_cast<decltype(api.cubin)>(dlsym(lib, "nvrtcGetCUBIN"));
    api.destroy = reinterpret_cast<decltype(api.destroy)>(dlsym(lib, "nvrtcDestroyProgram"));
    return api.create && api.compile && api.cubin_size && api.cubin && api.destroy;
  }();
  return ok ? &api : nullptr;
}

struct RawDriver {
  CUresult (*load)(CUmodule*, const void*, unsigned, CUjit_option*, void**) = nullptr;
  CUresult (*get_function)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*unload)(CUmodule) = nullptr;
  CUresult (*set_current)(CUcontext) = nullptr;
};

const RawDriver* raw_driver() {
  static RawDriver api;
  static bool ok = [] {
    const char* path = nullptr;
    if (!g_device || dc_driver_library(&path) != DC_SUCCESS) return false;
    void* lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    if (!lib) return false;
    api.load = reinterpret_cast<decltype(api.load)>(dlsym(lib, "cuModuleLoadDataEx"));
    api.get_function = reinterpret_cast<decltype(api.get_function)>(dlsym(lib, "cuModuleGetFunction"));
    api.unload = reinterpret_cast<decltype(api.unload)>(dlsym(lib, "cuModuleUnload"));
    api.set_current = reinterpret_cast<decltype(api.set_current)>(dlsym(lib, "cuCtxSetCurrent"));
    void* ctx = nullptr;
    dc_device_native(g_device, nullptr, &ctx);
    return api.load && api.get_function && api.unload && api.set_current && api.set_current(static_cast<CUcontext>(ctx)) == CUDA_SUCCESS;
  }();
  return ok ? &api : nullptr;
}

// --- Compilation ---------------------------------------------------------------

bool skip(benchmark::State& state, const char* why) {
  state.SkipWithError(why);
  return false;
}

void BM_Nvrtc_Raw(benchmark::State& state) {
  const RawNvrtc* api = raw_nvrtc();
  if (!api) return state.SkipWithError("NVRTC not found");
  std::string arch = "--gpu-architecture=sm_" + std::to_string(g_arch);
  const char* opts[] = {arch.c_str()};
  time_each(state, [&] {
    nvrtcProgram p = nullptr;
    api->create(&p, kSource, "bench.cu", 0, nullptr, nullptr);
    if (api->compile(p, 1, opts) != NVRTC_SUCCESS) {
      api->destroy(&p);
      return skip(state, "raw NVRTC compile failed");
    }
    size_t n = 0;
    api->cubin_size(p, &n);
    std::vector<char> out(n);
    api->cubin(p, out.data());
    api->destroy(&p);
    benchmark::DoNotOptimize(out.data());
    return true;
  });
}
BENCHMARK(BM_Nvrtc_Raw)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_Compile_Uncached(benchmark::State& state) {
  time_each(state, [] {
    dc_program_release(compile_or_die(kSource, options(DC_OUTPUT_CUBIN, DC_COMPILE_NO_CACHE)));
    return true;
  });
}
BENCHMARK(BM_Compile_Uncached)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(2.0);

// Compiles kSource (the cache enabled) and checks where the result came from.
bool compile_served_from(benchmark::State& state, int32_t expected, const char* otherwise) {
  dc_program p = compile_or_die(kSource, options(DC_OUTPUT_CUBIN));
  int32_t source = -1;
  dc_program_cache_source(p, &source);
  dc_program_release(p);
  return source == expected || skip(state, otherwise);
}

void BM_Compile_MemoryHit(benchmark::State& state) {
  dc_program_release(compile_or_die(kSource, options(DC_OUTPUT_CUBIN)));  // warm: the entry exists
  time_each(state, [&] { return compile_served_from(state, DC_CACHE_MEMORY, "not a memory hit"); });
}
BENCHMARK(BM_Compile_MemoryHit)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_Compile_DiskHit(benchmark::State& state) {
  dc_program_release(compile_or_die(kSource, options(DC_OUTPUT_CUBIN)));  // warm: the entry exists
  time_each(
      state, [&] { return compile_served_from(state, DC_CACHE_DISK, "not a disk hit (is the disk cache disabled?)"); },
      [] { dc_cache_clear(DC_CACHE_CLEAR_MEMORY); });  // untimed: the next compile must go to disk
}
BENCHMARK(BM_Compile_DiskHit)->UseManualTime()->Unit(benchmark::kMicrosecond);

// --- The toolkit's headers and NVRTC's precompiled headers --------------------------

// A kernel that includes CCCL and cooperative groups (DC_COMPILE_TOOLKIT_HEADERS).
const char* kToolkitSource = R"(
#include <cuda/atomic>
#include <cooperative_groups.h>
extern "C" __global__ void count_grid(int* counter) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  cuda::atomic_ref<int, cuda::thread_scope_device>(*counter).fetch_add(1, cuda::memory_order_relaxed);
  grid.sync();
}
)";

// Uncached compiles of kToolkitSource; with `pch`, NVRTC's automatic
// precompiled headers (--pch) in a folder of the run's own, made by the
// untimed first compile and used by every timed one.
void compile_toolkit_source(benchmark::State& state, bool pch) {
  std::string dir = std::string(std::getenv("DCCUDA_CACHE_DIR")) + "/pch";
  mkdir(dir.c_str(), 0700);
  std::string pch_dir = "--pch-dir=" + dir;
  const char* raw[] = {"--pch", pch_dir.c_str()};
  dc_compile_options o = options(DC_OUTPUT_CUBIN, DC_COMPILE_NO_CACHE | DC_COMPILE_TOOLKIT_HEADERS);
  if (pch) {
    o.num_options = 2;
    o.options = raw;
  }
  dc_program first = nullptr;
  if (dc_compile(kToolkitSource, "toolkit.cu", &o, nullptr, &first) != DC_SUCCESS)
    return state.SkipWithError(dc_last_error_message());
  dc_program_release(first);
  time_each(state, [&] {
    dc_program p = nullptr;
    if (dc_compile(kToolkitSource, "toolkit.cu", &o, nullptr, &p) != DC_SUCCESS)
      return skip(state, dc_last_error_message());
    dc_program_release(p);
    return true;
  });
}
void BM_Compile_ToolkitHeaders(benchmark::State& s) { compile_toolkit_source(s, false); }
void BM_Compile_ToolkitHeaders_Pch(benchmark::State& s) { compile_toolkit_source(s, true); }
BENCHMARK(BM_Compile_ToolkitHeaders)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(BM_Compile_ToolkitHeaders_Pch)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10);

// --- Linking ------------------------------------------------------------------------

// Two relocatable programs: a kernel calling a __device__ function of the other.
const char* kCallee = R"(
extern "C" __device__ float axpy_one(float a, float x, float y) { return a * x + y; }
)";
const char* kCaller = R"(
extern "C" __device__ float axpy_one(float a, float x, float y);
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = axpy_one(a, x[i], y[i]);
}
)";

bool have_nvjitlink() {
  int32_t major = 0, minor = 0;
  return dc_nvjitlink_version(&major, &minor) == DC_SUCCESS;
}

// Compiles the two LTO-IR inputs (through the cache) and links them; the
// program, or nullptr with the error in the last-error message.
dc_program link_pair(uint32_t link_flags) {
  dc_program a = compile_or_die(kCaller, options(DC_OUTPUT_LTOIR, DC_COMPILE_RELOCATABLE));
  dc_program b = compile_or_die(kCallee, options(DC_OUTPUT_LTOIR, DC_COMPILE_RELOCATABLE));
  dc_link_input in[] = {{DC_LINK_INPUT_PROGRAM, 0u, a, nullptr, 0, nullptr, nullptr},
                        {DC_LINK_INPUT_PROGRAM, 0u, b, nullptr, 0, nullptr, nullptr}};
  dc_link_options o = DC_LINK_OPTIONS_INIT;
  o.arch = g_arch;
  o.flags = link_flags;
  dc_program linked = nullptr;
  if (dc_link(in, 2, &o, nullptr, &linked) != DC_SUCCESS) linked = nullptr;
  dc_program_release(a);
  dc_program_release(b);
  return linked;
}

// nvJitLink linking LTO-IR of two programs (the inputs come from the cache).
void BM_Link_LtoIr_Uncached(benchmark::State& state) {
  if (!have_nvjitlink()) return state.SkipWithError(dc_last_error_message());
  dc_program_release(link_pair(DC_LINK_NO_CACHE));  // warm: the inputs are cached, nvJitLink loaded
  time_each(state, [&] {
    dc_program p = link_pair(DC_LINK_NO_CACHE);
    if (!p) return skip(state, dc_last_error_message());
    dc_program_release(p);
    return true;
  });
}
BENCHMARK(BM_Link_LtoIr_Uncached)->UseManualTime()->Unit(benchmark::kMillisecond);

// The same served from the in-process cache (the two compiles are memory hits too).
void BM_Link_MemoryHit(benchmark::State& state) {
  if (!have_nvjitlink()) return state.SkipWithError(dc_last_error_message());
  dc_program_release(link_pair(0));
  time_each(state, [&] {
    dc_program p = link_pair(0);
    int32_t source = -1;
    if (!p || dc_program_cache_source(p, &source) != DC_SUCCESS || source != DC_CACHE_MEMORY)
      return skip(state, "not a memory hit");
    dc_program_release(p);
    return true;
  });
}
BENCHMARK(BM_Link_MemoryHit)->UseManualTime()->Unit(benchmark::kMicrosecond);

// --- New processes ----------------------------------------------------------------

// load_s is module_s (loading the module) + function_s (looking up "saxpy").
struct ChildTimes {
  double compile_s = 0, load_s = 0, module_s = 0, function_s = 0;
  int cache_source = -1, nvrtc_loaded = -1;
  bool ok = false;
};

ChildTimes run_child(const char* mode) {
  std::string self = g_self;
  std::vector<char*> argv = {self.data(), const_cast<char*>("--child"), const_cast<char*>(mode), nullptr};
  int fds[2];
  ChildTimes t;
  if (pipe(fds) != 0) return t;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, self.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  std::string out;
  char buf[512];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  if (rc != 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return t;
  std::istringstream in(out);
  t.ok = static_cast<bool>(in >> t.compile_s >> t.module_s >> t.function_s >> t.cache_source >> t.nvrtc_loaded);
  t.load_s = t.module_s + t.function_s;
  return t;
}

// What the children measured of themselves, one sample per child; reported
// as medians: compile_us, load_us (module_us, loading the module, and
// function_us, looking up its kernel), and median_us for compile and load
// together.
struct ChildSamples {
  bench::Samples compile, load, module, function, total;

  void add(const ChildTimes& t) {
    compile.add(t.compile_s);
    load.add(t.load_s);
    module.add(t.module_s);
    function.add(t.function_s);
    total.add(t.compile_s + t.load_s);
  }

  void report(benchmark::State& state) const {
    state.counters["compile_us"] = compile.median() * 1e6;
    state.counters["load_us"] = load.median() * 1e6;
    state.counters["module_us"] = module.median() * 1e6;
    state.counters["function_us"] = function.median() * 1e6;
    state.counters["median_us"] = total.median() * 1e6;
    state.counters["samples"] = static_cast<double>(total.size());
  }
};

// A new process that finds its kernel in the disk cache: dc_compile (a disk
// hit) plus, with a device, loading the CUBIN. Process start, library and
// driver initialisation and opening the device are not counted (the child
// measures itself).
void BM_NewProcess_DiskHit(benchmark::State& state) {
  dc_program_release(compile_or_die(kSource, options(DC_OUTPUT_CUBIN)));  // the entry and the NVRTC record exist
  ChildSamples samples;
  int nvrtc_loaded = 0;
  for (auto _ : state) {
    ChildTimes t = run_child("disk-hit");
    if (!t.ok || t.cache_source != DC_CACHE_DISK) return state.SkipWithError("the child did not get a disk hit");
    state.SetIterationTime(t.compile_s + t.load_s);
    samples.add(t);
    nvrtc_loaded += t.nvrtc_loaded;
  }
  samples.report(state);
  // The share of children that loaded NVRTC (0: the disk hit needs no compiler).
  state.counters["nvrtc_loaded"] = benchmark::Counter(nvrtc_loaded, benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_NewProcess_DiskHit)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);

// The raw baseline of the load side: a new process that loads the same CUBIN
// (taken from the disk cache, untimed) with cuModuleLoadDataEx and looks its
// kernel up with cuModuleGetFunction, as BM_NewProcess_DiskHit's load_us does
// through dccuda. The first module load of a process costs more than the
// warm one BM_ModuleLoad_Cubin_Raw times: compare load_us with this.
void new_process_raw_load(benchmark::State& state, const char* mode) {
  if (!g_device) return state.SkipWithError("no device");
  dc_program_release(compile_or_die(kSource, options(DC_OUTPUT_CUBIN)));  // the entry exists
  ChildSamples samples;
  for (auto _ : state) {
    ChildTimes t = run_child(mode);
    if (!t.ok || t.cache_source != DC_CACHE_DISK) return state.SkipWithError("the raw child failed");
    state.SetIterationTime(t.load_s);
    samples.add(t);
  }
  samples.report(state);
}
void BM_NewProcess_RawLoad(benchmark::State& s) { new_process_raw_load(s, "raw-load"); }
BENCHMARK(BM_NewProcess_RawLoad)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);
// The same with the JIT options dccuda passes to every load (an info and an
// error log of 16 KiB each): what the options themselves cost the driver.
void BM_NewProcess_RawLoadLogs(benchmark::State& s) { new_process_raw_load(s, "raw-load-logs"); }
BENCHMARK(BM_NewProcess_RawLoadLogs)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);

// A new process that finds a linked module in the disk cache: the two input
// compiles and the link (all disk hits) as compile_us, then loading the CUBIN.
// nvjitlink_loaded: the share of children that loaded nvJitLink (the cache key
// holds its version, so today every one does).
void BM_NewProcess_LinkDiskHit(benchmark::State& state) {
  if (!have_nvjitlink()) return state.SkipWithError(dc_last_error_message());
  dc_program_release(link_pair(0));  // the entries exist on disk
  ChildSamples samples;
  int nvjitlink_loaded = 0;
  for (auto _ : state) {
    ChildTimes t = run_child("link-disk-hit");
    if (!t.ok || t.cache_source != DC_CACHE_DISK) return state.SkipWithError("the child did not get a disk hit");
    state.SetIterationTime(t.compile_s + t.load_s);
    samples.add(t);
    nvjitlink_loaded += t.nvrtc_loaded;
  }
  samples.report(state);
  state.counters["nvjitlink_loaded"] = benchmark::Counter(nvjitlink_loaded, benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_NewProcess_LinkDiskHit)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);

// The same without a cache: the first NVRTC compile of a new process
// (loading NVRTC and its builtins included), plus loading the CUBIN.
void BM_NewProcess_NvrtcCold(benchmark::State& state) {
  ChildSamples samples;
  for (auto _ : state) {
    ChildTimes t = run_child("cold");
    if (!t.ok || t.cache_source != DC_CACHE_MISS) return state.SkipWithError("the child failed");
    state.SetIterationTime(t.compile_s + t.load_s);
    samples.add(t);
  }
  samples.report(state);
}
BENCHMARK(BM_NewProcess_NvrtcCold)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

// --- Loading modules ---------------------------------------------------------------

std::string image_of(int32_t output) {
  dc_program p = compile_or_die(kSource, options(output));
  std::string image = output_of(p);
  dc_program_release(p);
  return image;
}

void load_module_dc(benchmark::State& state, int32_t output) {
  if (!g_device) return state.SkipWithError("no device");
  std::string image = image_of(output);
  time_each(state, [&] {
    dc_module m = nullptr;
    if (dc_module_load(g_device, image.data(), image.size(), nullptr, &m) != DC_SUCCESS)
      return skip(state, dc_last_error_message());
    dc_module_release(m);
    return true;
  });
}

void load_module_raw(benchmark::State& state, int32_t output) {
  const RawDriver* api = raw_driver();
  if (!api) return state.SkipWithError("no device");
  std::string image = image_of(output);
  time_each(state, [&] {
    CUmodule m = nullptr;
    if (api->load(&m, image.data(), 0, nullptr, nullptr) != CUDA_SUCCESS)
      return skip(state, "cuModuleLoadDataEx failed");
    api->unload(m);
    return true;
  });
}

void BM_ModuleLoad_Cubin_Raw(benchmark::State& s) { load_module_raw(s, DC_OUTPUT_CUBIN); }
void BM_ModuleLoad_Cubin(benchmark::State& s) { load_module_dc(s, DC_OUTPUT_CUBIN); }
void BM_ModuleLoad_PtxJit_Raw(benchmark::State& s) { load_module_raw(s, DC_OUTPUT_PTX); }
void BM_ModuleLoad_PtxJit(benchmark::State& s) { load_module_dc(s, DC_OUTPUT_PTX); }
BENCHMARK(BM_ModuleLoad_Cubin_Raw)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ModuleLoad_Cubin)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ModuleLoad_PtxJit_Raw)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ModuleLoad_PtxJit)->UseManualTime()->Unit(benchmark::kMillisecond);

// The one-call path from source to a loaded module, served from memory.
void BM_CompileAndLoad_MemoryHit(benchmark::State& state) {
  if (!g_device) return state.SkipWithError("no device");
  dc_compile_options o = options(DC_OUTPUT_CUBIN);
  time_each(state, [&] {
    dc_module m = nullptr;
    if (dc_module_compile_and_load(g_device, kSource, "bench.cu", &o, &m) != DC_SUCCESS)
      return skip(state, dc_last_error_message());
    dc_module_release(m);
    return true;
  });
}
BENCHMARK(BM_CompileAndLoad_MemoryHit)->UseManualTime()->Unit(benchmark::kMicrosecond);

// --- The child process ---------------------------------------------------------------

// --child raw-load|raw-load-logs: the program from the cache (untimed), then
// its CUBIN loaded and its kernel looked up through the raw driver (with
// `logs`, passing the JIT log options dccuda's Module::load passes).
int raw_load_child(dc_program p, bool logs) {
  const RawDriver* api = raw_driver();
  if (!api) return 5;
  std::string image = output_of(p);
  constexpr size_t kLogSize = 16 * 1024;
  std::unique_ptr<char[]> info(new char[kLogSize]), error(new char[kLogSize]);
  info[0] = error[0] = '\0';
  CUjit_option keys[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {info.get(), reinterpret_cast<void*>(kLogSize), error.get(), reinterpret_cast<void*>(kLogSize)};
  auto t0 = bench::Clock::now();
  CUmodule m = nullptr;
  if (api->load(&m, image.data(), logs ? 4u : 0u, logs ? keys : nullptr, logs ? values : nullptr) != CUDA_SUCCESS)
    return 6;
  double module_s = bench::seconds_since(t0);
  auto t1 = bench::Clock::now();
  CUfunction f = nullptr;
  if (api->get_function(&f, m, "saxpy") != CUDA_SUCCESS) return 7;
  double function_s = bench::seconds_since(t1);
  api->unload(m);
  int32_t source = -1;
  dc_program_cache_source(p, &source);
  std::printf("0 %.9f %.9f %d 0\n", module_s, function_s, source);
  return 0;
}

// --child disk-hit|cold|link-disk-hit|raw-load: prints "<compile seconds> <module load seconds>
// <function lookup seconds> <cache source> <nvrtc loaded>" (for link-disk-hit: the inputs'
// compiles and the link, and whether nvJitLink was loaded).
int child_main(const char* mode) {
  dc_device device = nullptr;
  if (dc_device_open(0, &device) == DC_SUCCESS) {
    dc_device_info info = DC_DEVICE_INFO_INIT;
    dc_device_get_info(device, &info);
    g_arch = info.compute_capability_major * 10 + info.compute_capability_minor;
  }
  if (std::strncmp(mode, "raw-load", 8) == 0) {
    g_device = device;
    dc_program p = compile_or_die(kSource, options(DC_OUTPUT_CUBIN));
    int rc = raw_load_child(p, std::strcmp(mode, "raw-load-logs") == 0);
    dc_program_release(p);
    return rc;
  }
  bool cold = std::strcmp(mode, "cold") == 0;
  bool linking = std::strcmp(mode, "link-disk-hit") == 0;
  dc_compile_options o = options(DC_OUTPUT_CUBIN, cold ? DC_COMPILE_NO_CACHE : 0u);
  auto t0 = bench::Clock::now();
  dc_program p = linking ? link_pair(0) : compile_or_die(kSource, o);
  if (!p) return 4;
  double compile_s = bench::seconds_since(t0);
  double module_s = 0, function_s = 0;
  if (device) {
    auto t1 = bench::Clock::now();
    dc_module m = nullptr;
    dc_function f = nullptr;
    if (dc_module_load_program(device, p, nullptr, &m) != DC_SUCCESS) return 3;
    module_s = bench::seconds_since(t1);
    auto t2 = bench::Clock::now();
    if (dc_module_get_function(m, "saxpy", &f) != DC_SUCCESS) return 3;
    function_s = bench::seconds_since(t2);
    dc_function_release(f);
    dc_module_release(m);
  }
  int32_t source = -1;
  dc_program_cache_source(p, &source);
  dc_program_release(p);
  dc_device_release(device);
  std::ifstream maps("/proc/self/maps");
  std::string line;
  int nvrtc = 0;
  const char* library = linking ? "libnvJitLink" : "libnvrtc";
  while (std::getline(maps, line)) nvrtc |= line.find(library) != std::string::npos;
  std::printf("%.9f %.9f %.9f %d %d\n", compile_s, module_s, function_s, source, nvrtc);
  return 0;
}

void remove_tree(const std::string& dir) {
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d))
      if (std::strcmp(e->d_name, ".") && std::strcmp(e->d_name, "..")) unlink((dir + "/" + e->d_name).c_str());
    closedir(d);
  }
  rmdir(dir.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return 70;
  self[n] = '\0';
  g_self = self;
  if (argc >= 3 && std::strcmp(argv[1], "--child") == 0) return child_main(argv[2]);
  std::string own_dir;
  if (!std::getenv("DCCUDA_CACHE_DIR")) {
    char dir[] = "/tmp/dccuda-bench-cache-XXXXXX";
    if (!mkdtemp(dir)) return 71;
    own_dir = dir;
    setenv("DCCUDA_CACHE_DIR", dir, 1);  // the children inherit it
  }
  benchmark::Initialize(&argc, argv);
  std::vector<std::string> devices;
  if (dc_device_open(0, &g_device) == DC_SUCCESS) {
    dc_device_info info = DC_DEVICE_INFO_INIT;
    dc_device_get_info(g_device, &info);
    g_arch = info.compute_capability_major * 10 + info.compute_capability_minor;
    devices.push_back(info.name);
  } else {
    std::printf("bench_compile: no device (%s): the module benchmarks are skipped\n", dc_last_error_message());
  }
  bench::announce("bench_compile", devices);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  dc_device_release(g_device);
  if (!own_dir.empty()) remove_tree(own_dir);
  return 0;
}
