// Where a new process's kernel-cache hit and module load spend their time,
// piece by piece: bench_compile's BM_NewProcess_DiskHit (compile_us, load_us)
// split into the steps dc_compile and dc_module_load_program +
// dc_module_get_function take inside the library. Each iteration spawns a
// fresh process that opens device 0 (untimed), then runs the steps in the
// order the library runs them, each timed on its own, the first time in the
// process (which is the point: first-use costs are what a new process pays).
//
//   bench_cache_pieces [--benchmark_repetitions=2]
//
// Counters (medians over the child processes, microseconds):
//   request_us   dc_compile's arguments validated into a request
//   directory_us the cache directory resolved and checked (first use)
//   nvrtc_id_us  the NVRTC version for the key, from the memo (NVRTC not loaded)
//   key_us       the key: the request hashed, the include scan
//   read_us      the entry opened, read and its header checked
//   check_us     the entry's payload decoded and its SHA-256 (or HMAC) checked
//   program_us   the memory cache insert and the dc_program handle
//   compile_us   the sum of the above (compare bench_compile's compile_us)
//   module_us    Module::load (cuModuleLoadDataEx and dccuda's wrapping)
//   get_us       cuModuleGetFunction
//   params_us    the parameter layout (cuFuncGetParamInfo, one call per parameter + 1)
//   attr_us      cuFuncGetAttribute (the kernel's dynamic shared memory limit)
//   function_us  get_us + params_us + attr_us (compare bench_compile's function_us)
//   compile_faults, load_faults  page faults during the compile and the load
//                steps (first touches of the library's code and data)
// The program links dccuda's objects (not libdccuda.so) to reach the pieces;
// without a device the module pieces are 0. On the test double the numbers
// mean nothing.
#include <benchmark/benchmark.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "compile/cache_entry.h"
#include "compile/cache_key.h"
#include "compile/compile_request.h"
#include "compile/disk_cache.h"
#include "compile/memory_cache.h"
#include "compile/nvrtc_identity.h"
#include "compile/program.h"
#include "core/handle_table.h"
#include "dccuda.h"
#include "device/device.h"
#include "loader/driver.h"
#include "module/function.h"
#include "module/module.h"
#include "platform/regular_file.h"
#include "compile_source.h"
#include "samples.h"

extern char** environ;

namespace {

// bench_compile's kernel, so that the entry is of the same size.
const char* const kSource = dcbench::kCompileSource;

const char* const kPieces[] = {"request", "directory", "nvrtc_id", "key",   "read",         "check",
                               "program", "module",    "get",      "params", "attr",        "compile_faults",
                               "load_faults"};
constexpr size_t kCount = sizeof kPieces / sizeof kPieces[0];
std::string g_self;

dc_compile_options options_for(dc_device device) {
  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  o.output = DC_OUTPUT_CUBIN;
  o.arch = 90;
  if (device) {
    dc_device_info info = DC_DEVICE_INFO_INIT;
    dc_device_get_info(device, &info);
    o.arch = info.compute_capability_major * 10 + info.compute_capability_minor;
  }
  return o;
}

// The entry read as disk_cache_load reads it, in two timed halves.
std::shared_ptr<const dc::CompiledOutput> load_entry(const dc::CacheKey& key, double* read_s, double* check_s) {
  auto t = bench::Clock::now();
  dc::platform::UniqueFd dir = dc::open_cache_directory(false);
  dc::platform::RegularFile file;
  std::string name = key.hex + ".dcc";
  if (!dir || dc::platform::open_regular_file(dir.get(), name.c_str(), false, &file, nullptr) !=
                  dc::platform::OpenResult::kOk)
    return nullptr;
  std::vector<uint8_t> bytes(static_cast<size_t>(file.file_size()));
  std::string why;
  if (!dc::platform::read_exactly(file.fd.get(), bytes.data(), bytes.size()) ||
      !dc::cache_entry_header_fits(bytes.data(), bytes.size(), key.digest, UINT64_MAX, &why, dc::disk_cache_mac_key()))
    return nullptr;
  *read_s = bench::seconds_since(t);
  t = bench::Clock::now();
  auto out = dc::decode_cache_entry(bytes.data(), bytes.size(), key.digest, &why, dc::disk_cache_mac_key());
  *check_s = bench::seconds_since(t);
  return out;
}

// Page faults so far (first touches of code and data: a new process's cost).
long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

// The child: prints one line of kCount times in seconds.
int child_main() {
  dc_device device = nullptr;
  dc_device_open(0, &device);
  dc_compile_options o = options_for(device);
  double s[kCount] = {};
  try {
    long faults = minor_faults();
    auto t = bench::Clock::now();
    dc::CompileRequest r = dc::make_compile_request(kSource, "bench.cu", &o, nullptr);
    s[0] = bench::seconds_since(t);
    t = bench::Clock::now();
    if (dc::disk_cache_directory().empty()) return 3;
    s[1] = bench::seconds_since(t);
    t = bench::Clock::now();
    dc::NvrtcVersion v = dc::nvrtc_version_for_key();
    s[2] = bench::seconds_since(t);
    t = bench::Clock::now();
    const dc::DriverState& d = dc::driver_state();
    dc::CacheKey key = dc::make_cache_key(r, v.major, v.minor, d.status == DC_SUCCESS ? d.version : 0);
    s[3] = bench::seconds_since(t);
    std::shared_ptr<const dc::CompiledOutput> out = load_entry(key, &s[4], &s[5]);
    if (!out) return 4;
    t = bench::Clock::now();
    dc::memory_cache_insert(key.digest, out);
    dc::Ref<dc::Program> p = dc::make_ref<dc::Program>(out, DC_CACHE_DISK);
    dc_program handle = dc::issue_handle<dc_program>(p.get());
    s[6] = bench::seconds_since(t);
    s[11] = static_cast<double>(minor_faults() - faults);
    faults = minor_faults();
    if (device) {
      dc::Pinned<dc::Device> dev = dc::pin<dc::Device>(device, "device");
      t = bench::Clock::now();
      dc::Ref<dc::Module> m = dc::Module::load(dev.share(), out->image.data(), out->image.size(), nullptr);
      s[7] = bench::seconds_since(t);
      const dc::DriverApi& api = dc::driver_api();
      dc::ContextScope bind(*dev);
      CUfunction f = nullptr;
      t = bench::Clock::now();
      if (api.cuModuleGetFunction(&f, m->cu_module(), "saxpy") != CUDA_SUCCESS) return 5;
      s[8] = bench::seconds_since(t);
      t = bench::Clock::now();
      dc::ParamLayout layout = dc::driver_param_layout(f, dev.get());
      s[9] = bench::seconds_since(t);
      t = bench::Clock::now();
      int shared = 0;
      if (api.cuFuncGetAttribute(&shared, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f) != CUDA_SUCCESS) return 6;
      s[10] = bench::seconds_since(t);
      benchmark::DoNotOptimize(layout);
    }
    s[12] = static_cast<double>(minor_faults() - faults);
    dc_program_release(handle);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_cache_pieces: %s (%s)\n", e.what(), dc_last_error_message());
    return 2;
  }
  dc_device_release(device);
  for (double x : s) std::printf("%.9f ", x);
  std::printf("\n");
  return 0;
}

bool run_child(double* s) {
  std::vector<char*> argv = {g_self.data(), const_cast<char*>("--child"), nullptr};
  int fds[2];
  if (pipe(fds) != 0) return false;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, g_self.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  std::string out;
  char buf[512];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  if (rc != 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return false;
  std::istringstream in(out);
  for (size_t i = 0; i < kCount; ++i)
    if (!(in >> s[i])) return false;
  return true;
}

void BM_NewProcess_HitPieces(benchmark::State& state) {
  // The entry, written by a compile of this process (NVRTC is loaded here, not in the children).
  dc_device device = nullptr;
  dc_device_open(0, &device);
  dc_compile_options o = options_for(device);
  dc_program p = nullptr;
  dc_status compiled = dc_compile(kSource, "bench.cu", &o, nullptr, &p);
  if (compiled == DC_ERROR_NO_COMPILER) {
    std::printf("bench_cache_pieces: no NVRTC to make the entry (%s): skipping\n", dc_last_error_message());
    dc_device_release(device);
    for (auto _ : state) state.SetIterationTime(0);  // nothing to time (a fixed iteration count must still run)
    return;
  }
  if (compiled != DC_SUCCESS) return state.SkipWithError(dc_last_error_message());
  dc_program_release(p);
  dc_device_release(device);
  bench::Samples pieces[kCount], compile, function;
  for (auto _ : state) {
    double s[kCount];
    if (!run_child(s)) return state.SkipWithError("the child failed");
    double c = 0;
    for (size_t i = 0; i < kCount; ++i) pieces[i].add(s[i]);
    for (size_t i = 0; i <= 6; ++i) c += s[i];
    compile.add(c);
    function.add(s[8] + s[9] + s[10]);
    state.SetIterationTime(c + s[7] + s[8] + s[9] + s[10]);
  }
  for (size_t i = 0; i < kCount; ++i) {
    bool faults = std::strstr(kPieces[i], "faults") != nullptr;
    state.counters[faults ? std::string(kPieces[i]) : std::string(kPieces[i]) + "_us"] =
        pieces[i].median() * (faults ? 1 : 1e6);
  }
  state.counters["compile_us"] = compile.median() * 1e6;
  state.counters["function_us"] = function.median() * 1e6;
}
BENCHMARK(BM_NewProcess_HitPieces)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);

}  // namespace

int main(int argc, char** argv) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return 70;
  self[n] = '\0';
  g_self = self;
  if (argc >= 2 && std::strcmp(argv[1], "--child") == 0) return child_main();
  std::string own_dir;
  if (!std::getenv("DCCUDA_CACHE_DIR")) {
    char dir[] = "/tmp/dccuda-bench-pieces-XXXXXX";
    if (!mkdtemp(dir)) return 71;
    own_dir = dir;
    setenv("DCCUDA_CACHE_DIR", dir, 1);  // the children inherit it
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (!own_dir.empty()) {
    dc_cache_clear(DC_CACHE_CLEAR_DISK);
    rmdir(own_dir.c_str());
  }
  return 0;
}
