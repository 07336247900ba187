// The driver loader (white-box). The bug that stopped DotCompute's CUDA
// backend was binding the wrong symbol: a made-up name, then the legacy
// 32-bit cuMemAlloc instead of cuMemAlloc_v2. These tests prove, for every
// entry point in the table, that the loader asks for the version whose
// signature the code uses and gets the function the driver exports under
// cuda.h's versioned name. They run against the fake driver in CI and
// against the real driver on a GPU machine (the same binary).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "dccuda.h"
#include "loader/driver.h"
#include "support/fake.h"

namespace {

// The toolkit's cudaTypedefs.h, where the build found a toolkit ("" without).
#ifdef DCTEST_CUDA_TYPEDEFS
const char* const kCudaTypedefs = DCTEST_CUDA_TYPEDEFS;
#else
const char* const kCudaTypedefs = "";
#endif

// Every PFN_<name>_v<version> typedef in the toolkit's cudaTypedefs.h and, beside
// it, cudaProfilerTypedefs.h (cuProfilerStart/Stop).
std::map<std::string, std::set<int>> typedef_versions() {
  std::stringstream text;
  std::string typedefs = kCudaTypedefs;
  std::string folder = typedefs.substr(0, typedefs.find_last_of('/') + 1);
  for (const std::string& file : {typedefs, folder + "cudaProfilerTypedefs.h"}) {
    std::ifstream in(file);
    text << in.rdbuf();
  }
  std::map<std::string, std::set<int>> out;
  std::regex pfn(R"(PFN_(cu[A-Za-z0-9]+)_v([0-9]+)\))");
  std::string s = text.str();
  for (auto it = std::sregex_iterator(s.begin(), s.end(), pfn); it != std::sregex_iterator(); ++it)
    out[(*it)[1]].insert(std::stoi((*it)[2]));
  return out;
}

TEST(Loader, EveryEntryAsksForAVersionTheToolkitDefines) {
  if (!*kCudaTypedefs) GTEST_SKIP() << "no CUDA toolkit here: its cudaTypedefs.h is what this test reads";
  auto versions = typedef_versions();
  ASSERT_GT(versions.size(), 100u) << "could not read " << kCudaTypedefs;
  for (const dc::DriverEntry& e : dc::driver_entries()) {
    auto it = versions.find(e.name);
    ASSERT_NE(it, versions.end()) << e.name << " is not in cudaTypedefs.h";
    EXPECT_TRUE(it->second.count(e.version)) << e.name << " has no PFN_" << e.name << "_v" << e.version;
    std::string symbol = e.symbol;
    if (!e.compat && symbol != e.name) {
      // cuda.h maps the name to a newer symbol (cuMemAlloc -> cuMemAlloc_v2):
      // asking for the oldest version would bind the legacy function.
      EXPECT_GT(e.version, *it->second.begin())
          << e.name << " asked at its oldest version " << e.version << " binds the legacy " << e.name
          << ", not " << symbol;
    }
  }
}

TEST(Loader, LegacyNamesAreMappedToVersionedSymbols) {
  // Spot checks of the mapping the table relies on (driver_symbols.h, cuda.h's
  // macros).
  std::map<std::string, std::string> symbol_of;
  for (const dc::DriverEntry& e : dc::driver_entries())
    if (!e.compat) symbol_of[e.name] = e.symbol;
  EXPECT_EQ(symbol_of["cuMemAlloc"], "cuMemAlloc_v2");
  EXPECT_EQ(symbol_of["cuMemFree"], "cuMemFree_v2");
  EXPECT_EQ(symbol_of["cuMemcpyHtoD"], "cuMemcpyHtoD_v2");
  EXPECT_EQ(symbol_of["cuDevicePrimaryCtxRelease"], "cuDevicePrimaryCtxRelease_v2");
  EXPECT_EQ(symbol_of["cuMemPrefetchAsync"], "cuMemPrefetchAsync_v2");
  EXPECT_EQ(symbol_of["cuLaunchKernel"], "cuLaunchKernel");
}

TEST(Loader, EveryResolvedEntryIsTheVersionedSymbolTheDriverExports) {
  const dc::DriverState& state = dc::driver_state();
  if (state.status != DC_SUCCESS) GTEST_SKIP() << "no driver: " << state.message;
  void* lib = dlopen(state.path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(lib, nullptr) << state.path;
  int resolved = 0, missing = 0;
  for (const dc::DriverEntry& e : dc::driver_entries()) {
    void* bound = *e.slot;
    if (bound == e.missing) {
      ++missing;
      ADD_FAILURE() << e.name << " at " << e.version << " is missing from " << state.path;
      continue;
    }
    ++resolved;
    void* exported = dlsym(lib, e.symbol);
    ASSERT_NE(exported, nullptr) << state.path << " does not export " << e.symbol;
    EXPECT_EQ(bound, exported) << e.name << " at " << e.version << " is not the driver's " << e.symbol;
  }
  std::printf("[ dccuda   ] %d entry points resolved, %d missing, from %s\n", resolved, missing, state.path.c_str());
  EXPECT_GT(resolved, 90);
  if (const dctest::FakeDriver* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->legacy_calls(), 0);
  }
}

TEST(Loader, TheFakeDriverResolvesVersionsLikeTheRealOne) {
  REQUIRE_FAKE_DRIVER();
  // Sanity of the test double itself: asking below 3020 gives the legacy function.
  ASSERT_EQ(dc::driver_state().status, DC_SUCCESS);
  void* lib = dlopen(dc::driver_state().path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  auto get_proc = reinterpret_cast<PFN_cuGetProcAddress_v12000>(dlsym(lib, "cuGetProcAddress_v2"));
  void* fn = nullptr;
  CUdriverProcAddressQueryResult found;
  ASSERT_EQ(get_proc("cuMemAlloc", &fn, 2000, 0, &found), CUDA_SUCCESS);
  EXPECT_EQ(fn, dlsym(lib, "cuMemAlloc"));
  ASSERT_EQ(get_proc("cuMemAlloc", &fn, 13000, 0, &found), CUDA_SUCCESS);
  EXPECT_EQ(fn, dlsym(lib, "cuMemAlloc_v2"));
  EXPECT_NE(get_proc("cuNoSuchFunction", &fn, 13000, 0, &found), CUDA_SUCCESS);
  EXPECT_EQ(found, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
}

}  // namespace
