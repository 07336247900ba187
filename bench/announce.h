// The common end of a benchmark program's main: says when it runs (UTC), on
// which devices, driver and NVRTC (and that a fake-driver run is a smoke run
// whose numbers mean nothing), records the same in the results' context, and
// runs the benchmarks.
//
// The driver is described by the CUDA version it supports and the library it
// was loaded from: dccuda's API has no call for the driver's release number
// (580.xx); nvidia-smi gives it.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "dccuda.h"

namespace bench {

// Now in UTC, ISO 8601: "2026-11-22T01:59:46Z".
inline std::string utc_now_iso() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// "13.0" for a driver reporting 13000; empty without a driver.
inline std::string driver_cuda_version() {
  int32_t version = 0;
  if (dc_driver_version(&version) != DC_SUCCESS) return "";
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

// "13.0"; empty when NVRTC cannot be loaded.
inline std::string nvrtc_version() {
  int32_t major = 0, minor = 0;
  if (dc_nvrtc_version(&major, &minor) != DC_SUCCESS) return "";
  return std::to_string(major) + "." + std::to_string(minor);
}

inline std::string driver_library() {
  const char* library = nullptr;
  return dc_driver_library(&library) == DC_SUCCESS && library ? library : "";
}

// "device 0: A; device 1: B", or "no device".
inline std::string describe_devices(const std::vector<std::string>& names) {
  if (names.empty()) return "no device";
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) text += (i ? "; device " : "device ") + std::to_string(i) + ": " + names[i];
  return text;
}

inline bool any_fake(const std::vector<std::string>& names) {
  for (const std::string& name : names)
    if (name.find("fake") != std::string::npos) return true;
  return false;
}

// Prints one line saying when and on what the benchmarks run, and records the
// same in the results' context (the JSON output's "context"). "date_utc", not
// "date": Google Benchmark records its own local "date" there.
inline void announce(const char* program, const std::vector<std::string>& device_names) {
  std::string date = utc_now_iso(), cuda = driver_cuda_version(), nvrtc = nvrtc_version(), library = driver_library();
  std::string line = std::string(program) + ": " + date + "; " + describe_devices(device_names);
  line += "; driver CUDA " + (cuda.empty() ? "unavailable" : cuda);
  if (!library.empty()) line += " (" + library + ")";
  line += "; NVRTC " + (nvrtc.empty() ? "unavailable" : nvrtc);
  if (any_fake(device_names)) line += "; the FAKE driver: a smoke run, the numbers mean nothing";
  std::printf("%s\n", line.c_str());
  std::string devices;
  for (const std::string& name : device_names) devices += (devices.empty() ? "" : ", ") + name;
  benchmark::AddCustomContext("date_utc", date);
  benchmark::AddCustomContext("device", devices.empty() ? "none" : devices);
  int32_t version = 0;
  if (dc_driver_version(&version) == DC_SUCCESS) benchmark::AddCustomContext("driver", std::to_string(version));
  if (!library.empty()) benchmark::AddCustomContext("driver_library", library);
  if (!nvrtc.empty()) benchmark::AddCustomContext("nvrtc", nvrtc);
}

}  // namespace bench

inline void announce_and_run(const char* program, const std::string& device_name) {
  bench::announce(program, {device_name});
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
