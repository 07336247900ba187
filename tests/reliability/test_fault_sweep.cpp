// The fault sweep (fake driver only): every driver entry point dccuda calls
// (src/loader/driver_functions.inc, read at compile time) is made to fail
// with out of memory, invalid value, a sticky launch failure or illegal
// address, not ready, and an unknown error, at its first and at its last call
// in a realistic run over two devices (fault_scenario.cpp). Each time:
//   - the run stops with the status the CUresult maps to, the raw CUresult
//     in dc_last_error_cuda(), a message naming the dc_ call and the entry
//     point; or the failure is one dccuda recovers from by design (listed in
//     kAbsorbed with the reason), and the run's results are still right;
//   - once everything is released, no handle and no driver object is left
//     (after a sticky error: once dc_device_reset has dropped the context);
//   - a sticky error leaves the device lost until dc_device_reset;
//   - the next run, without faults, succeeds with the right results.
// A table entry that no scenario reaches fails the test, as does an entry
// listed as unused that is called after all.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "reliability/fault_scenario.h"
#include "support/fake.h"

namespace {

struct Entry {
  const char* name;
  int version;
  bool compat;
};

const Entry kEntries[] = {
#define DC_DRIVER_FN(name, version) {#name, version, false},
#define DC_DRIVER_FN_COMPAT(name, version, symbol) {#name, version, true},
#include "loader/driver_functions.inc"
#undef DC_DRIVER_FN
#undef DC_DRIVER_FN_COMPAT
};

// In the table but never called by dccuda (the run checks that they are not).
const std::set<std::string> kUnused = {
    "cuGetErrorString",  // messages use cuGetErrorName
    "cuMemAllocAsync",   // allocations come from dccuda's own pool (cuMemAllocFromPoolAsync)
    "cuMemcpy",          // synchronous copies are asynchronous ones on the legacy stream, waited for
    "cuMemcpyDtoD",      "cuMemcpyPeer", "cuMemsetD8", "cuMemsetD16", "cuMemsetD32",
};

// Reached outside the scenario, by another test (named).
const std::map<std::string, std::string> kElsewhere = {
    {"cuInit", "test_init_faults (each case in a fresh process)"},
    {"cuDriverGetVersion", "test_init_faults (each case in a fresh process)"},
    {"cuGetErrorName", "FaultSweep.ErrorNamesWithoutTheDriversHelp (called only to name a failure)"},
};

// Failures of calls made while dc_ functions run (not in releases, which
// never fail visibly) that dccuda absorbs by design, with why: the run goes
// on and its results are right. `codes` empty = every code.
struct Absorbed {
  std::set<int> codes;
  const char* why;
};
const std::map<std::string, Absorbed> kAbsorbed = {
    {"cuCtxGetCurrent", {{}, "ContextScope only compares the current context; on failure it binds the device's"}},
    {"cuCtxSetCurrent", {{}, "restoring the caller's context when a call ends cannot report (binding failures are reported)"}},
    {"cuDevicePrimaryCtxRelease", {{}, "dc_device_reset drops its retain before resetting; retried once"}},
    {"cuMemAlloc", {{2}, "out of memory is retried once after the device's pending frees"}},
    {"cuMemAllocPitch", {{2}, "out of memory is retried once after the device's pending frees"}},
    {"cuMemAllocFromPoolAsync", {{2}, "out of memory is retried once after the device's pending frees"}},
    {"cuMemHostGetDevicePointer", {{}, "under unified addressing pinned memory is mapped at its host address; registered memory without a mapping has none"}},
    {"cuPointerGetAttribute", {{}, "dc_buffer_wrap_device checks the size only where the driver knows the allocation"}},
    {"cuPointerGetAttributes", {{}, "only decides whether host memory is staged; unknown memory is staged"}},
    {"cuFuncGetAttribute", {{}, "dc_launch_create's early check of the kernel's thread limit; the driver checks every launch"}},
    {"cuMemHostAlloc", {{}, "a staging buffer: without it pageable copies go to the driver directly"}},
    {"cuEventCreate", {{}, "a staging buffer's event: without it pageable copies go to the driver directly"}},
    {"cuStreamQuery", {{600}, "not ready is dc_stream_query's answer, DC_NOT_READY"}},
    {"cuEventQuery", {{600}, "not ready is dc_event_query's answer, DC_NOT_READY"}},
    {"cuLinkDestroy", {{}, "dc_link has copied the CUBIN out; destroying the link state cannot report, and is retried once"}},
};

bool absorbed_by_design(const std::string& entry, int code) {
  auto it = kAbsorbed.find(entry);
  return it != kAbsorbed.end() && (it->second.codes.empty() || it->second.codes.count(code));
}

// Failures reported otherwise than the CUresult's own status, by design.
struct Reported {
  dc_status status;
  const char* text;  // in the message instead of the entry point's name
  const char* why;
};
const std::map<std::pair<std::string, int>, Reported> kReportedOtherwise = {
    {{"cuEventElapsedTime", 600}, {DC_ERROR_INVALID_STATE, "has not completed", "the events' work is not done: the documented answer"}},
    {{"cuFuncSetAttribute", 1}, {DC_ERROR_INVALID_ARGUMENT, "the driver refused attribute", "names the attribute and value instead"}},
    {{"cuFuncGetAttribute", 1}, {DC_ERROR_INVALID_ARGUMENT, "is not a CUfunction_attribute this driver knows", "dc_function_attribute: the caller's attribute"}},
};

// Injections that mean something else to dccuda, by the driver's own rules.
const std::map<std::pair<std::string, int>, const char*> kNotSwept = {
    {{"cuFuncGetParamInfo", 1}, "CUDA_ERROR_INVALID_VALUE is how the driver says the index is past the last parameter"},
};

constexpr int kOutOfMemory = 2, kInvalidValue = 1, kLaunchFailed = 719, kIllegalAddress = 700, kNotReady = 600,
              kUnknown = 999;

bool sticky(int r) { return r == kLaunchFailed || r == kIllegalAddress; }

dc_status expected_status(int r) {
  switch (r) {
    case kOutOfMemory: return DC_ERROR_OUT_OF_MEMORY;
    case kInvalidValue: return DC_ERROR_INVALID_ARGUMENT;
    case kLaunchFailed:
    case kIllegalAddress: return DC_ERROR_CONTEXT_LOST;
    default: return DC_ERROR_DRIVER;  // not ready from a call that is not a query, unknown
  }
}

// The name the fake counts calls under.
std::string counted_name(const Entry& e) {
  return e.compat ? std::string(e.name) + "_v" + std::to_string(e.version) : std::string(e.name);
}

int driver_version() {
  int32_t v = 0;
  dc_driver_version(&v);
  return v;
}

std::set<std::string> missing_entries() {
  std::set<std::string> out;
  if (const char* m = std::getenv("DCFAKE_MISSING")) {
    std::stringstream ss(m);
    for (std::string item; std::getline(ss, item, ',');) out.insert(item);
  }
  return out;
}

// Whether the loaded driver has the entry and dccuda calls it there (an
// older-signature entry is called only where the current one is missing).
bool in_use(const Entry& e) {
  static const int version = driver_version();
  static const std::set<std::string> missing = missing_entries();
  auto available = [&](const char* name, int v) { return v <= version && !missing.count(name); };
  if (!available(e.name, e.version)) return false;
  if (!e.compat) return true;
  for (const Entry& other : kEntries)
    if (!other.compat && std::strcmp(other.name, e.name) == 0) return !available(other.name, other.version);
  return true;
}

std::string leaks() {
  std::string out;
  if (dctest::live_handles()) out += " handles=" + std::to_string(dctest::live_handles());
  for (const char* k : dctest::kDriverObjectKinds)
    if (long n = dctest::fake_driver()->live(k)) out += std::string(" ") + k + "=" + std::to_string(n);
  return out;
}

// Resets every device (dropping what a broken context held).
void recover_devices() {
  int32_t count = 0;
  dc_device_count(&count);
  for (int32_t i = 0; i < count; ++i) {
    dc_device d = nullptr;
    if (dc_device_open(i, &d) == DC_SUCCESS) dc_device_reset(d);
    dc_device_release(d);
  }
}

faults::Outcome clean_run() {
  faults::World w;
  return faults::run_scenario(w);
}

struct Totals {
  long injections = 0, reported = 0, absorbed = 0, in_releases = 0, sticky_recovered = 0;
};
Totals g_totals;

class FaultSweep : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    REQUIRE_FAKE_DRIVER();
    f_ = dctest::fake_driver();
    f_->reset();
    ASSERT_EQ(dctest::live_handles(), 0u);
  }
  const dctest::FakeDriver* f_ = nullptr;
};

// The calls each entry gets in one clean run (scenario, then a reset).
std::map<std::string, long> clean_counts(std::string* problem) {
  auto* f = dctest::fake_driver();
  // A first run warms up what a process does once (the thread's first
  // context binding, loading the kernels), so that the counted run is like
  // every later one.
  clean_run();
  f->reset();
  faults::Outcome o = clean_run();
  if (o.status == DC_SUCCESS) {
    faults::World w;
    o = faults::run_reset(w, 0);
  }
  if (o.status != DC_SUCCESS)
    *problem = "the clean run failed at " + o.step + ": " + dc_status_name(o.status) + ": " + dc_last_error_message();
  std::map<std::string, long> calls;
  for (const Entry& e : kEntries) calls[counted_name(e)] = f->call_count(counted_name(e).c_str());
  return calls;
}

TEST_P(FaultSweep, EveryFailureOfTheEntryPointIsHandled) {
  SKIP_WITHOUT_NVRTC();  // the scenario compiles its kernels
  const std::string entry = GetParam();
  std::string problem;
  std::map<std::string, long> calls = clean_counts(&problem);
  ASSERT_EQ(problem, "");
  const long n = calls[entry];
  ASSERT_GT(n, 0) << entry << " is not reached by the scenario";
  // Codes: both sticky ones, alternating between entries, keep the run short.
  const int sticky_code = (std::hash<std::string>()(entry) & 1) ? kLaunchFailed : kIllegalAddress;
  const int codes[] = {kOutOfMemory, kInvalidValue, sticky_code, kNotReady, kUnknown};
  // Every call of the run, up to 16; beyond, the first and the last eight.
  std::vector<long> nths;
  for (long i = 1; i <= n; ++i)
    if (n <= 16 || i <= 8 || i > n - 8) nths.push_back(i);
  for (int code : codes) {
    if (kNotSwept.count({entry, code})) continue;
    for (long nth : nths) {
      SCOPED_TRACE(testing::Message() << entry << " failing with " << code << " at call " << nth << " of " << n);
      f_->reset();
      f_->inject(entry.c_str(), static_cast<int>(nth), code, 1);
      auto fired = [&] { return f_->call_count(entry.c_str()) >= nth; };
      // Two runs, each in two phases: the calls, then the releases (World's
      // destructor). A failure in a release can only be absorbed (releases
      // never fail visibly); one in the calls must be reported, or be one
      // dccuda absorbs by design.
      faults::Outcome o;
      dc_status last_status = DC_SUCCESS;
      int32_t last_cuda = 0;
      std::string message, left;
      bool in_calls = false;
      auto run = [&](auto&& body) {
        faults::World w;
        o = body(w);
        in_calls = fired();
        last_status = dc_last_error_status();
        last_cuda = dc_last_error_cuda();
        message = dc_last_error_message();
      };
      run([](faults::World& w) { return faults::run_scenario(w); });
      // Checked before the reset, which would drop what the run left in the context.
      if (!sticky(code)) left = leaks();
      if (o.status == DC_SUCCESS && !fired()) run([](faults::World& w) { return faults::run_reset(w, 0); });
      EXPECT_TRUE(fired()) << "the injected call was not reached (the run took another path)";
      EXPECT_EQ(left, "") << "left behind after " << (o.step.empty() ? "the run" : o.step);
      ++g_totals.injections;
      if (o.status == DC_SUCCESS) {
        if (in_calls) {
          EXPECT_TRUE(absorbed_by_design(entry, code)) << "the failure was swallowed: the run succeeded";
          ++g_totals.absorbed;
        } else {
          ++g_totals.in_releases;
        }
      } else {
        ++g_totals.reported;
        std::string call = o.step.substr(0, o.step.find(' '));
        EXPECT_NE(o.status, DC_ERROR_INTERNAL) << "wrong results after a failure dccuda did not report (" << o.step
                                               << ")";
        EXPECT_LT(o.status, 0) << o.step << " returned " << dc_status_name(o.status) << " for a failure: \"" << message
                               << "\"";
        EXPECT_EQ(last_status, o.status) << o.step;
        EXPECT_EQ(message.rfind(call + ": ", 0), 0u) << "the message does not name " << call << ": \"" << message
                                                      << "\"";
        EXPECT_EQ(last_cuda, code) << o.step << ": the raw CUresult is not the injected one: \"" << message << "\"";
        auto other = kReportedOtherwise.find({entry.substr(0, entry.find("_v")), code});
        dc_status want = other != kReportedOtherwise.end() ? other->second.status : expected_status(code);
        // An older-signature entry ("cuMemAdvise_v8000") is named as the driver names it.
        std::string text = other != kReportedOtherwise.end() ? other->second.text : entry.substr(0, entry.find("_v"));
        EXPECT_EQ(o.status, want) << o.step << " returned " << dc_status_name(o.status) << ": \"" << message << "\"";
        if (!sticky(code)) {
          std::string name = entry.substr(0, entry.find("_v"));
          EXPECT_TRUE(message.find(text) != std::string::npos || message.find(name) != std::string::npos)
              << "the message names neither " << name << " nor says \"" << text << "\": \"" << message << "\"";
        }
      }
      if (sticky(code)) {
        // Lost until reset: the driver's objects in that context die with it.
        recover_devices();
        ++g_totals.sticky_recovered;
      }
      EXPECT_EQ(leaks(), "") << "left behind after " << (o.step.empty() ? "the reset" : o.step);
      // The library works again.
      f_->reset();
      faults::Outcome again = clean_run();
      EXPECT_EQ(again.status, DC_SUCCESS) << "the next run failed at " << again.step << ": "
                                          << dc_last_error_message();
      EXPECT_EQ(leaks(), "") << "left behind after the next run";
      if (HasFailure()) recover_devices();  // so that one failure does not cascade into the next cases
    }
  }
}

std::vector<std::string> swept_entries() {
  std::vector<std::string> out;
  if (!dctest::fake_driver()) return {"(needs the fake driver)"};
  for (const Entry& e : kEntries) {
    if (!in_use(e) || kUnused.count(e.name) || kElsewhere.count(e.name)) continue;
    out.push_back(counted_name(e));
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Driver, FaultSweep, testing::ValuesIn(swept_entries()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

TEST(FaultSweepCoverage, EveryEntryPointIsReachedOrAccountedFor) {
  REQUIRE_FAKE_DRIVER();
  SKIP_WITHOUT_NVRTC();
  std::string problem;
  std::map<std::string, long> calls = clean_counts(&problem);
  ASSERT_EQ(problem, "");
  int swept = 0, unused = 0, elsewhere = 0, absent = 0;
  for (const Entry& e : kEntries) {
    std::string name = counted_name(e);
    if (!in_use(e)) {
      ++absent;
      continue;
    }
    if (kUnused.count(e.name)) {
      ++unused;
      EXPECT_EQ(calls[name], 0) << name << " is listed as unused but dccuda calls it: sweep it";
    } else if (kElsewhere.count(e.name)) {
      ++elsewhere;
    } else {
      ++swept;
      EXPECT_GT(calls[name], 0) << name << " is in driver_functions.inc but no scenario reaches it: extend "
                                << "tests/reliability/fault_scenario.cpp";
    }
  }
  std::printf("[ dccuda   ] driver CUDA %d: %d entry points swept, %d reached by other tests, %d unused by dccuda, "
              "%d not used with this driver\n", driver_version(), swept, elsewhere, unused, absent);
}

// cuGetErrorName failing too: the message still names the failure.
TEST(FaultSweepCoverage, ErrorNamesWithoutTheDriversHelp) {
  REQUIRE_FAKE_DRIVER();
  auto* f = dctest::fake_driver();
  f->reset();
  dc_device d = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &d));
  f->inject("cuCtxSynchronize", 1, kUnknown, 1);
  f->inject("cuGetErrorName", 1, kUnknown, -1);
  EXPECT_DC_ERROR(dc_device_synchronize(d), DC_ERROR_DRIVER, "cuCtxSynchronize failed");
  EXPECT_NE(std::string(dc_last_error_message()).find("999"), std::string::npos) << dc_last_error_message();
  EXPECT_GE(f->call_count("cuGetErrorName"), 1);
  f->reset();
  EXPECT_DC_OK(dc_device_synchronize(d));
  dc_device_release(d);
}

class Report : public testing::Environment {
 public:
  void TearDown() override {
    if (g_totals.injections)
      std::printf("[ dccuda   ] faults injected: %ld (%ld reported, %ld absorbed by design, %ld in releases; %ld "
                  "sticky, recovered with dc_device_reset)\n",
                  g_totals.injections, g_totals.reported, g_totals.absorbed, g_totals.in_releases,
                  g_totals.sticky_recovered);
  }
};
[[maybe_unused]] testing::Environment* const g_report = testing::AddGlobalTestEnvironment(new Report);

}  // namespace
