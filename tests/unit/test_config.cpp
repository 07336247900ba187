// The configuration: every environment variable dccuda reads goes through one
// strict parser. A malformed value is refused at dc_init, or at the first call
// that needs the configuration, with a message naming the variable, its value
// and what is accepted; it is never half-accepted (100abc read as 100, 0x1000
// as 0, "false" as true). The settings are fixed once per process, so each
// case runs in a child process of its own (this binary with --child).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "dccuda.h"
#include "support/child_process.h"
#include "support/fake.h"

namespace {

struct Outcome {
  std::string status;   // the status name of the call
  std::string message;  // its last-error message
  std::string rest;     // whatever else the child printed
  std::string all;
};

// Runs `what` in a child with `env` added; parses "status=...\nmessage=...\n".
Outcome run(const std::string& what, const std::vector<std::string>& env,
            const std::vector<std::string>& unset = {}) {
  dctest::ChildOptions o;
  o.set_env = env;
  o.unset_env = unset;
  o.timeout_seconds = 60;
  dctest::ChildResult r = dctest::run_program({dctest::self_executable(), "--child", what}, o);
  Outcome out;
  out.all = r.output;
  EXPECT_EQ(r.exit_code, 0) << what << ": " << r.how() << "\n" << r.output;
  size_t s = r.output.find("status="), m = r.output.find("\nmessage=");
  if (s == std::string::npos || m == std::string::npos) return out;
  out.status = r.output.substr(s + 7, m - s - 7);
  size_t end = r.output.find('\n', m + 9);
  out.message = r.output.substr(m + 9, end == std::string::npos ? std::string::npos : end - m - 9);
  if (end != std::string::npos) out.rest = r.output.substr(end + 1);
  return out;
}

// A malformed value: dc_init refuses it naming the variable, the value and
// what is accepted; the implicit first call refuses it the same way, and so
// does the next call (nothing was half-installed).
void expect_refused(const std::string& variable, const std::string& value, const std::string& accepted) {
  SCOPED_TRACE(variable + "='" + value + "'");
  std::string env = variable + "=" + value;
  Outcome init = run("init", {env});
  EXPECT_EQ(init.status, "DC_ERROR_INVALID_ARGUMENT") << init.all;
  EXPECT_NE(init.message.find("dc_init: "), std::string::npos) << init.message;
  EXPECT_NE(init.message.find(variable), std::string::npos) << init.message;
  EXPECT_NE(init.message.find("'" + value + "'"), std::string::npos) << init.message;
  EXPECT_NE(init.message.find(accepted), std::string::npos) << init.message;
  Outcome implicit = run("implicit", {env});
  EXPECT_EQ(implicit.status, "DC_ERROR_INVALID_ARGUMENT") << implicit.all;
  EXPECT_NE(implicit.message.find("dc_device_count: "), std::string::npos) << implicit.message;
  EXPECT_NE(implicit.message.find(variable), std::string::npos) << implicit.message;
  EXPECT_NE(implicit.rest.find("again=DC_ERROR_INVALID_ARGUMENT"), std::string::npos)
      << "the second call was not refused too: " << implicit.all;
}

void expect_accepted(const std::string& env, const char* what = "init") {
  SCOPED_TRACE(env);
  Outcome o = run(what, {env});
  EXPECT_EQ(o.status, "DC_SUCCESS") << o.all;
}

TEST(Config, ByteCountsAreDecimalIntegersOnly) {
  const char* accepted = "accepted: a decimal integer from 1 to";
  for (const char* bad : {"12abc", "0x1000", "-5", "1e3", " 100", "100 ", "1.5", "0", "99999999999999999999"})
    expect_refused("DCCUDA_CACHE_MAX_BYTES", bad, accepted);
  expect_accepted("DCCUDA_CACHE_MAX_BYTES=1048576");
}

TEST(Config, AnEmptyValueIsRefusedNotTakenAsUnset) {
  expect_refused("DCCUDA_CACHE_MAX_BYTES", "", "accepted:");
  expect_refused("DCCUDA_COPY_THREADS", "", "accepted:");
  expect_refused("DCCUDA_DRIVER_LIBRARY", "", "accepted:");
  expect_refused("DCCUDA_CACHE_DIR", "", "accepted:");
  expect_refused("DCCUDA_CACHE_DISABLE", "", "accepted:");
}

TEST(Config, TuningValuesOutOfTheirRangeAreRefused) {
  expect_refused("DCCUDA_COPY_THREADS", "-3", "from 1 to 64");
  expect_refused("DCCUDA_COPY_THREADS", "1e3", "from 1 to 64");
  expect_refused("DCCUDA_COPY_THREADS", "0", "from 1 to 64");
  expect_refused("DCCUDA_COPY_THREADS", "65", "from 1 to 64");
  expect_refused("DCCUDA_STAGING_BUFFERS", "17", "from 1 to 16");
  expect_refused("DCCUDA_STAGING_CHUNK_BYTES", "4096", "from 65536 to");
  expect_refused("DCCUDA_STAGING_MIN_BYTES", "0x100000", "decimal integer");
  expect_refused("DCCUDA_STAGING_MIN_BYTES_H2D", "4M", "decimal integer");
  expect_refused("DCCUDA_STAGING_MIN_CHUNK_BYTES", "abc", "decimal integer");
  expect_accepted("DCCUDA_COPY_THREADS=12");
  expect_accepted("DCCUDA_STAGING_BUFFERS=16");
  expect_refused("DCCUDA_STAGING_SMALL_BYTES", "0", "from 1 to");
  expect_refused("DCCUDA_STAGING_SMALL_BYTES", "64K", "decimal integer");
  expect_accepted("DCCUDA_STAGING_SMALL_BYTES=65536");
  expect_refused("DCCUDA_COPY_STREAMING", "maybe", "yes/no");
  expect_refused("DCCUDA_COPY_STREAMING", "", "is empty");
  expect_accepted("DCCUDA_COPY_STREAMING=no");
  expect_accepted("DCCUDA_COPY_STREAMING=yes");
  // The cuFFT plan cache: 0 is a value (the cache off), not "unset".
  expect_refused("DCCUDA_FFT_PLAN_CACHE", "4097", "from 0 to 4096");
  expect_refused("DCCUDA_FFT_PLAN_CACHE", "", "is empty");
  expect_accepted("DCCUDA_FFT_PLAN_CACHE=0");
  expect_accepted("DCCUDA_FFT_PLAN_CACHE=4096");
}

TEST(Config, TheMinimumChunkCannotExceedTheChunk) {
  Outcome o = run("init", {"DCCUDA_STAGING_CHUNK_BYTES=131072", "DCCUDA_STAGING_MIN_CHUNK_BYTES=262144"});
  EXPECT_EQ(o.status, "DC_ERROR_INVALID_ARGUMENT") << o.all;
  EXPECT_NE(o.message.find("DCCUDA_STAGING_MIN_CHUNK_BYTES"), std::string::npos) << o.message;
  EXPECT_NE(o.message.find("DCCUDA_STAGING_CHUNK_BYTES"), std::string::npos) << o.message;
}

TEST(Config, YesNoValuesMeanWhatTheySay) {
  for (const char* off : {"1", "true", "TRUE", "yes", "on"}) {
    Outcome o = run("init", {std::string("DCCUDA_CACHE_DISABLE=") + off});
    EXPECT_EQ(o.status, "DC_SUCCESS") << o.all;
    EXPECT_NE(o.rest.find("dir=\n"), std::string::npos) << off << " did not disable the cache: " << o.all;
  }
  for (const char* on : {"0", "false", "no", "off", "Off"}) {
    Outcome o = run("init", {std::string("DCCUDA_CACHE_DISABLE=") + on});
    EXPECT_EQ(o.status, "DC_SUCCESS") << o.all;
    EXPECT_EQ(o.rest.find("dir=\n"), std::string::npos) << on << " disabled the cache: " << o.all;
  }
  expect_refused("DCCUDA_CACHE_DISABLE", "maybe", "1, true, yes, on");
  expect_refused("DCCUDA_CACHE_DISABLE", "2", "0, false, no, off");
}

// A dc_init option replaces its variable, which is then not read at all.
TEST(Config, AnOptionGivenToDcInitReplacesItsVariable) {
  Outcome o = run("init-with-options", {"DCCUDA_CACHE_MAX_BYTES=12abc", "DCCUDA_DRIVER_LIBRARY="});
  EXPECT_EQ(o.status, "DC_SUCCESS") << o.all;
  // ...but a malformed variable the options do not replace is still refused.
  o = run("init-with-options", {"DCCUDA_COPY_THREADS=many"});
  EXPECT_EQ(o.status, "DC_ERROR_INVALID_ARGUMENT") << o.all;
  EXPECT_NE(o.message.find("DCCUDA_COPY_THREADS"), std::string::npos) << o.message;
}

// Calls that need no configuration still work, and say what is wrong when asked.
TEST(Config, CallsThatNeedNoConfigurationStillWork) {
  Outcome o = run("no-config-needed", {"DCCUDA_CACHE_MAX_BYTES=12abc"});
  EXPECT_EQ(o.status, "DC_SUCCESS") << o.all;
}

// --- the child ---------------------------------------------------------------

void print(dc_status s) {
  std::printf("status=%s\nmessage=%s\n", dc_status_name(s), dc_last_error_message());
}

int child(const std::string& what) {
  if (what == "init" || what == "init-with-options") {
    dc_init_options o = DC_INIT_OPTIONS_INIT;
    if (what == "init-with-options") {
      o.cache_max_bytes = 1 << 20;
      // The driver the test runs on: the fake under CTest, the system's
      // driver where the binary runs by itself on a GPU machine.
      const char* fake = std::getenv("DCTEST_FAKE_PATH");
      o.driver_library = fake != nullptr && fake[0] != '\0' ? fake : "libcuda.so.1";
    }
    dc_status s = dc_init(&o);
    print(s);
    const char* dir = nullptr;
    if (s == DC_SUCCESS && dc_cache_directory(&dir) == DC_SUCCESS) std::printf("dir=%s\n", dir);
    return 0;
  }
  if (what == "implicit") {
    int32_t n = 0;
    print(dc_device_count(&n));
    dc_status again = dc_device_count(&n);
    std::printf("again=%s\n", dc_status_name(again));
    return 0;
  }
  if (what == "no-config-needed") {
    // The version, status names and the last error need no configuration.
    bool ok = dc_version() == DCCUDA_VERSION && std::strcmp(dc_status_name(DC_SUCCESS), "DC_SUCCESS") == 0 &&
              dc_last_error_status() == DC_SUCCESS;
    print(ok ? DC_SUCCESS : DC_ERROR_INTERNAL);
    return 0;
  }
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "--child") return child(argv[2]);
  testing::InitGoogleTest(&argc, argv);
  std::printf("[ dccuda   ] %s (each case in a child process)\n", dctest::driver_description());
  return RUN_ALL_TESTS();
}
