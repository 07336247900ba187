// Every exported function called with bad input: NULL for every pointer,
// released, mistyped and made-up handles, zero and maximal sizes, offsets past
// the end, unknown flags and enumeration values, a wrong struct_size. The
// cases are generated from include/dccuda.h (gen_bad_inputs.py, with the
// per-function facts in bad_input_facts.py). Each case must give the
// documented status, a message that names the function (and the argument),
// cleared out-pointers, no crash and no leak (dccuda's handles and, on the
// fake driver, the driver's objects). A function of abi/dccuda.symbols with
// neither cases nor an exemption fails the test.
//
// Runs on the fake driver in CI and on a real GPU (the same binary).
#include <gtest/gtest.h>
#if !defined(_WIN32)
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "reliability/bad_input_case.h"
#include "support/fake.h"

#include "bad_input_cases.inc"

namespace {

using badinput::Case;
using badinput::Fixture;
using badinput::Result;
namespace gen = badinput::generated;

// Driver objects the fake counts.
struct Counts {
  std::vector<uint64_t> handles;
  std::vector<long> live;
  bool operator==(const Counts&) const = default;
};

Counts counts() {
  Counts c;
  for (int32_t t : gen::kHandleTypes) {
    uint64_t n = 0;
    dc_handle_count(t, &n);
    c.handles.push_back(n);
  }
  if (auto* f = dctest::fake_driver())
    for (const char* k : dctest::kDriverObjectKinds) c.live.push_back(f->live(k));
  return c;
}

std::string describe(const Counts& c) {
  std::string s = "handles";
  // Appended piece by piece: `s += " " + std::to_string(n)` trips GCC 12's
  // -Wrestrict false positive at -O3 (GCC bug 105329), an error under -Werror.
  for (uint64_t n : c.handles) {
    s += ' ';
    s += std::to_string(n);
  }
  if (!c.live.empty()) {
    s += "; driver objects";
    for (size_t i = 0; i < c.live.size(); ++i) s += std::string(" ") + dctest::kDriverObjectKinds[i] + "=" + std::to_string(c.live[i]);
  }
  return s;
}

// `word` as a whole word of `text` (an argument named "buffer" must not match "dc_buffer").
bool has_word(const std::string& text, const std::string& word) {
  auto is_word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    bool left = at == 0 || !is_word(text[at - 1]);
    bool right = at + word.size() >= text.size() || !is_word(text[at + word.size()]);
    if (left && right) return true;
  }
  return false;
}

struct Totals {
  long run = 0, skipped = 0, failures_expected = 0, functions = 0;
};
Totals g_totals;

class BadInput : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    int32_t major = 0, minor = 0;
    if (dc_nvrtc_version(&major, &minor) != DC_SUCCESS)
      GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
    if (auto* f = dctest::fake_driver()) f->reset();
    ASSERT_EQ(dctest::live_handles(), 0u);
    std::string problem = fx_.open();
    ASSERT_EQ(problem, "") << "the fixture could not be built";
  }
  void TearDown() override {
    fx_.close();
    EXPECT_EQ(dctest::live_handles(), 0u) << "handles leaked";
    if (auto* f = dctest::fake_driver()) {
      for (const char* k : dctest::kDriverObjectKinds) EXPECT_EQ(f->live(k), 0) << "leaked driver objects: " << k;
    }
  }

  void run(const Case& c) {
    SCOPED_TRACE(testing::Message() << c.function << ": " << c.argument << (*c.argument ? ": " : "") << c.what);
    Result r;
    Counts before = counts();
    // A release must leave this failure as the last error.
    dc_status before_status = dc_buffer_size(nullptr, nullptr);
    std::string before_message = dc_last_error_message();
    c.run(fx_, r);
    // Read before anything else: every fallible call clears the last error.
    const dc_status last_status = dc_last_error_status();
    const std::string message = dc_last_error_message();
    if (std::getenv("DCTEST_VERBOSE"))
      std::printf("  %s: %s: %s -> %s \"%s\"\n", c.function, c.argument, c.what, dc_status_name(r.status),
                  message.c_str());
    if (r.skip) {
      ++g_totals.skipped;
      return;
    }
    ++g_totals.run;
    Counts after = counts();
    if (r.is_void) {
      EXPECT_EQ(last_status, before_status) << "a release touched the last error";
      EXPECT_EQ(message, before_message) << "a release touched the last error";
      EXPECT_EQ(after, before) << "a bad release changed what is alive: " << describe(before) << " -> "
                               << describe(after);
      return;
    }
    std::string expected;
    bool matched = false;
    for (dc_status s : r.expected) {
      matched = matched || s == r.status;
      expected += std::string(expected.empty() ? "" : " or ") + dc_status_name(s);
    }
    EXPECT_TRUE(matched) << "returned " << dc_status_name(r.status) << ", expected " << expected << "; message: \""
                         << message << "\"";
    EXPECT_EQ(last_status, r.status < 0 ? r.status : DC_SUCCESS);
    if (r.status < 0) {
      ++g_totals.failures_expected;
      std::string prefix = std::string(c.function) + ": ";
      EXPECT_EQ(message.compare(0, prefix.size(), prefix), 0) << "the message does not start with \"" << prefix
                                                               << "\": \"" << message << "\"";
      std::string text = r.text;
      if (!text.empty()) {
        bool found = r.word ? has_word(message, text) : message.find(text) != std::string::npos;
        EXPECT_TRUE(found) << "the message does not name \"" << text << "\": \"" << message << "\"";
      }
      EXPECT_TRUE(r.outs_cleared) << "an out-pointer was not cleared on failure";
      // A failure leaves nothing behind.
      EXPECT_EQ(after, before) << "a failed call changed what is alive: " << describe(before) << " -> "
                               << describe(after);
    } else {
      EXPECT_EQ(message, "") << "a successful call left a message";
      EXPECT_EQ(after.handles, before.handles) << "a successful call leaked handles";
    }
  }

  Fixture fx_;
};

TEST_P(BadInput, EveryCase) {
  int n = 0;
  for (const Case& c : gen::kCases) {
    if (GetParam() != c.function) continue;
    run(c);
    ++n;
  }
  EXPECT_GT(n, 0) << "no cases for " << GetParam();
  ++g_totals.functions;
}

std::vector<std::string> functions_with_cases() {
  std::vector<std::string> names;
  for (const Case& c : gen::kCases)
    if (names.empty() || names.back() != c.function) names.push_back(c.function);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Api, BadInput, testing::ValuesIn(functions_with_cases()),
                         [](const testing::TestParamInfo<std::string>& info) { return info.param; });

#if !defined(_WIN32)  // Windows has no fork()
// Every exported function's valid call, made in a child forked after the
// fixture was built: CUDA contexts do not survive fork, so each is refused
// with DC_ERROR_INVALID_STATE and the fork message, its out-pointers cleared;
// the releases do nothing there (the parent's objects stay the parent's).
class ForkedChild : public testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    int32_t major = 0, minor = 0;
    if (dc_nvrtc_version(&major, &minor) != DC_SUCCESS) GTEST_SKIP() << "needs NVRTC for the fixture's kernels";
    if (auto* f = dctest::fake_driver()) f->reset();
    ASSERT_EQ(fx_.open(), "") << "the fixture could not be built";
  }
  void TearDown() override {
    fx_.close();
    EXPECT_EQ(dctest::live_handles(), 0u) << "handles leaked";
  }
  Fixture fx_;
};

TEST_F(ForkedChild, EveryFunctionIsRefusedAndReleasesDoNothing) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  Counts before = counts();
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string problems;
    int checked = 0;
    for (const Case& c : gen::kCases) {
      if (*c.argument) continue;  // the valid call only
      Result r;
      c.run(fx_, r);
      if (r.skip || r.is_void) continue;
      ++checked;
      std::string message = dc_last_error_message();
      std::string want = std::string(c.function) + ": CUDA cannot be used after fork";
      if (r.status != DC_ERROR_INVALID_STATE || message.rfind(want, 0) != 0)
        problems += std::string(c.function) + " returned " + dc_status_name(r.status) + " \"" + message + "\"\n";
      else if (!r.outs_cleared)
        problems += std::string(c.function) + " left an out-pointer set\n";
    }
    std::string report = problems.empty() ? "ok " + std::to_string(checked) : problems;
    ssize_t ignored = write(fds[1], report.data(), report.size());
    (void)ignored;
    _exit(0);
  }
  ASSERT_GT(pid, 0);
  close(fds[1]);
  std::string report;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) report.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "the child died: signal " << WTERMSIG(status) << "\n" << report;
  EXPECT_EQ(report.rfind("ok ", 0), 0u) << report;
  std::printf("[ dccuda   ] forked child: %s functions refused\n", report.c_str() + std::min<size_t>(3, report.size()));
  EXPECT_EQ(counts(), before) << "the child's releases changed the parent";
}
#endif  // !_WIN32

// The exported symbols: abi/dccuda.symbols (its path is compiled in; a
// relative abi/dccuda.symbols is tried where the build tree moved, as on a GPU
// machine), else the header's own list.
std::vector<std::string> exported_symbols(std::string* source) {
  for (const char* path : {DCTEST_SYMBOLS_FILE, "abi/dccuda.symbols"}) {
    std::ifstream in(path);
    if (!in) continue;
    std::vector<std::string> names;
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] != '#') names.push_back(line);
    *source = path;
    return names;
  }
  *source = "the header (abi/dccuda.symbols not found)";
  return {std::begin(gen::kHeaderFunctions), std::end(gen::kHeaderFunctions)};
}

TEST(BadInputCoverage, EveryExportedFunctionHasAnEntry) {
  std::set<std::string> covered;
  std::map<std::string, int> per_function;
  for (const Case& c : gen::kCases) {
    covered.insert(c.function);
    ++per_function[c.function];
  }
  for (const badinput::Exemption& e : gen::kExempt) {
    EXPECT_FALSE(covered.count(e.function)) << e.function << " is both exempt and covered";
    EXPECT_GT(std::string(e.why).size(), 10u) << e.function << ": an exemption needs a reason";
    covered.insert(e.function);
  }
  std::string source;
  std::vector<std::string> symbols = exported_symbols(&source);
  ASSERT_GT(symbols.size(), 100u) << source;
  for (const std::string& s : symbols)
    EXPECT_TRUE(covered.count(s)) << s << " is exported but has no entry in tests/reliability/bad_input_facts.py: "
                                  << "add one (or an exemption with its reason)";
  for (const std::string& s : covered)
    EXPECT_NE(std::find(symbols.begin(), symbols.end(), s), symbols.end()) << s << " has cases but is not exported";
  std::printf("[ dccuda   ] %zu exported functions (from %s): %zu with generated cases (%zu cases), %zu exempt\n",
              symbols.size(), source.c_str(), per_function.size(), std::size(gen::kCases), std::size(gen::kExempt));
  for (const badinput::Exemption& e : gen::kExempt) std::printf("[ dccuda   ]   exempt %s: %s\n", e.function, e.why);
  for (const badinput::Exemption& e : gen::kNotes)
    if (*e.function) std::printf("[ dccuda   ]   note %s: %s\n", e.function, e.why);
}

TEST(BadInputCoverage, StatusNameOfAnyValue) {
  for (int32_t v : {INT32_MIN, -1000, -19, 2, 17, 1000, INT32_MAX})
    EXPECT_STREQ(dc_status_name(v), "DC_STATUS_UNKNOWN") << v;
}

// Totals, for docs/RELIABILITY.md.
class Report : public testing::Environment {
 public:
  void TearDown() override {
    if (g_totals.functions)
      std::printf("[ dccuda   ] bad inputs: %ld functions, %ld cases run (%ld expected failures checked), %ld skipped\n",
                  g_totals.functions, g_totals.run, g_totals.failures_expected, g_totals.skipped);
  }
};
[[maybe_unused]] testing::Environment* const g_report = testing::AddGlobalTestEnvironment(new Report);

}  // namespace
