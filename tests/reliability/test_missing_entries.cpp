// A driver that lacks an entry point (fake driver only): for every entry
// point of src/loader/driver_functions.inc, a child process loads dccuda with
// DCFAKE_MISSING=<entry> (on a CUDA 12.0 driver by default) and runs the whole
// scenario of fault_scenario.cpp, going on after failures. Expected: the
// calls that need the entry report DC_ERROR_NOT_SUPPORTED naming it and the
// driver version it needs, or a fallback makes the entry unnecessary (the
// run succeeds with the right results); everything else works, apart from
// the steps that depend on an object a failed step could not make; nothing
// crashes and nothing leaks. This binary has its own main: the parent never
// loads the driver.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dccuda.h"
#include "reliability/fault_scenario.h"
#include "support/fake.h"

namespace {

const char* const kEntries[] = {
#define DC_DRIVER_FN(name, version) #name,
#define DC_DRIVER_FN_COMPAT(name, version, symbol)
#include "loader/driver_functions.inc"
#undef DC_DRIVER_FN
#undef DC_DRIVER_FN_COMPAT
};

// Failures of a step that only follow from an earlier failed step (an object
// it could not make is NULL, a value it could not read is 0).
const std::set<dc_status> kCascade = {DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT, DC_ERROR_OUT_OF_RANGE,
                                      DC_ERROR_INVALID_STATE, DC_ERROR_NOT_SUPPORTED};

// Entry points that free what the driver made: without one, its objects
// cannot be freed (they live until the process ends); everything else works.
const std::set<std::string> kFrees = {"cuMemFree",       "cuMemFreeHost",      "cuMemHostUnregister",
                                      "cuStreamDestroy", "cuEventDestroy",     "cuModuleUnload",
                                      "cuMemPoolDestroy", "cuGraphDestroy",    "cuGraphExecDestroy",
                                      "cuDevicePrimaryCtxRelease", "cuIpcCloseMemHandle"};

// Releases that are also steps of their own (the virtual memory pieces): the step that needs
// the entry fails, naming it, and what it would have freed is left for the process's end.
const std::set<std::string> kReleaseSteps = {"cuMemAddressFree", "cuMemUnmap", "cuMemRelease"};

// Without these the driver is not usable at all (dccuda loads nothing else).
const std::set<std::string> kEssential = {"cuInit", "cuDriverGetVersion"};

struct Report {
  bool exited = false;
  int steps = 0;
  std::vector<faults::StepFailure> failures;
  std::string leaks;
  std::string no_nvrtc;  // why the child could not run the scenario, if NVRTC is missing
  std::string raw;
};

// Runs the scenario in a child with `entry` missing from the driver.
Report run_without(const std::string& entry) {
  Report r;
  int fds[2];
  if (pipe(fds) != 0) return r;
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    setenv("DCFAKE_MISSING", entry.c_str(), 1);
    std::ostringstream out;
    if (std::string why = dctest::nvrtc_unavailable(); !why.empty()) {
      // The scenario compiles its kernels: the parent skips, saying why.
      out << "no-nvrtc\t" << why << "\n";
    } else {
      faults::World w;
      w.keep_going = true;
      faults::run_scenario(w);
      out << "steps " << w.steps << "\n";
      for (const faults::StepFailure& f : w.failures) {
        std::string m = f.message;
        for (char& c : m)
          if (c == '\n' || c == '\t') c = ' ';
        out << "F\t" << f.status << "\t" << f.cuda << "\t" << f.step << "\t" << m << "\n";
      }
    }
    std::string leaks;
    if (dctest::live_handles()) leaks += " handles=" + std::to_string(dctest::live_handles());
    for (const char* k : dctest::kDriverObjectKinds)
      if (long n = dctest::fake_driver()->live(k)) leaks += std::string(" ") + k + "=" + std::to_string(n);
    out << "leaks" << leaks << "\n";
    std::string text = out.str();
    size_t at = 0;
    while (at < text.size()) {
      ssize_t n = write(fds[1], text.data() + at, text.size() - at);
      if (n <= 0) _exit(1);
      at += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) r.raw.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  r.exited = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
  std::istringstream in(r.raw);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("steps ", 0) == 0) r.steps = std::atoi(line.c_str() + 6);
    if (line.rfind("leaks", 0) == 0) r.leaks = line.substr(5);
    if (line.rfind("no-nvrtc\t", 0) == 0) r.no_nvrtc = line.substr(9);
    if (line.rfind("F\t", 0) == 0) {
      std::vector<std::string> parts;
      std::stringstream ss(line);
      for (std::string p; std::getline(ss, p, '\t');) parts.push_back(p);
      if (parts.size() >= 5) r.failures.push_back({parts[3], std::atoi(parts[1].c_str()), std::atoi(parts[2].c_str()), parts[4]});
    }
  }
  return r;
}

struct Totals {
  int entries = 0, with_fallback = 0, steps = 0, affected = 0, cascaded = 0;
};
Totals g_totals;

class MissingEntry : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { REQUIRE_FAKE_DRIVER(); }
};

TEST_P(MissingEntry, OnlyWhatNeedsItFails) {
  const std::string entry = GetParam();
  Report r = run_without(entry);
  ASSERT_TRUE(r.exited) << "the child crashed or failed: " << r.raw;
  if (!r.no_nvrtc.empty()) GTEST_SKIP() << "needs NVRTC, not found: " << r.no_nvrtc;
  ASSERT_GT(r.steps, 0) << r.raw;
  ++g_totals.entries;
  if (kEssential.count(entry)) {
    // Every call that needs the driver says which entry point is missing;
    // the others fail on the devices that could not be opened.
    ASSERT_FALSE(r.failures.empty());
    EXPECT_EQ(r.failures.front().status, DC_ERROR_NO_DRIVER) << r.failures.front().message;
    for (const faults::StepFailure& f : r.failures) {
      if (f.status == DC_ERROR_NO_DRIVER)
        EXPECT_NE(f.message.find(entry), std::string::npos) << f.step << ": " << f.message;
      else
        EXPECT_TRUE(kCascade.count(f.status)) << f.step << ": " << f.message;
    }
    std::printf("[ dccuda   ] without %s: no driver: \"%s\"\n", entry.c_str(), r.failures.front().message.c_str());
    return;
  }
  if (kFrees.count(entry)) {
    EXPECT_TRUE(r.failures.empty()) << "a missing free stopped the work: " << r.failures.front().step << ": "
                                    << r.failures.front().message;
    std::printf("[ dccuda   ] without %s: every step worked; left for the process's end:%s\n", entry.c_str(),
                r.leaks.c_str());
    ++g_totals.with_fallback;
    return;
  }
  if (kReleaseSteps.count(entry))
    std::printf("[ dccuda   ] without %s: left for the process's end:%s\n", entry.c_str(), r.leaks.c_str());
  else
    EXPECT_EQ(r.leaks, "") << "left behind";
  g_totals.steps += r.steps;
  if (r.failures.empty()) {
    ++g_totals.with_fallback;
    std::printf("[ dccuda   ] without %s: every step worked (%d steps; a fallback or not needed)\n", entry.c_str(),
                r.steps);
    return;
  }
  const faults::StepFailure& first = r.failures.front();
  EXPECT_EQ(first.status, DC_ERROR_NOT_SUPPORTED) << first.step << ": " << first.message;
  EXPECT_NE(first.message.find(entry), std::string::npos) << "the message does not name " << entry << ": "
                                                          << first.message;
  EXPECT_NE(first.message.find("needs a driver for CUDA"), std::string::npos) << first.message;
  int affected = 0, cascaded = 0;
  for (const faults::StepFailure& f : r.failures) {
    SCOPED_TRACE(f.step + ": " + f.message);
    EXPECT_NE(f.status, DC_ERROR_INTERNAL) << "wrong results";
    if (f.status == DC_ERROR_NOT_SUPPORTED && f.message.find(entry) != std::string::npos) {
      ++affected;
    } else {
      EXPECT_TRUE(kCascade.count(f.status)) << "a failure that does not follow from the missing entry";
      ++cascaded;
    }
  }
  g_totals.affected += affected;
  g_totals.cascaded += cascaded;
  std::printf("[ dccuda   ] without %s: %d of %d steps failed (%d needing it, first %s; %d after them), the rest "
              "worked\n", entry.c_str(), static_cast<int>(r.failures.size()), r.steps, affected, first.step.c_str(),
              cascaded);
}

std::vector<std::string> entries() {
  std::set<std::string> unique(std::begin(kEntries), std::end(kEntries));
  return {unique.begin(), unique.end()};
}

INSTANTIATE_TEST_SUITE_P(Driver, MissingEntry, testing::ValuesIn(entries()),
                         [](const testing::TestParamInfo<std::string>& info) { return info.param; });

class Report_ : public testing::Environment {
 public:
  void TearDown() override {
    if (g_totals.entries)
      std::printf("[ dccuda   ] missing entry points: %d tried, %d with a fallback; %d steps run, %d refused as "
                  "needing the entry, %d failed after them\n", g_totals.entries, g_totals.with_fallback,
                  g_totals.steps, g_totals.affected, g_totals.cascaded);
  }
};
[[maybe_unused]] testing::Environment* const g_report = testing::AddGlobalTestEnvironment(new Report_);

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  // Not dctest's main: it would load the driver in this process.
  std::printf("[ dccuda   ] driver: %s\n", dctest::fake_driver() ? "the FAKE driver (test double, no GPU)"
                                                                  : "not the fake driver (these tests skip)");
  return RUN_ALL_TESTS();
}
