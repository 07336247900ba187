// The common end of a benchmark program's main: says which device and driver
// it runs on (and that a fake-driver run is a smoke run whose numbers mean
// nothing), records both in the results' context, and runs the benchmarks.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "dccuda.h"

inline void announce_and_run(const char* program, const std::string& device_name) {
  int32_t version = 0;
  dc_driver_version(&version);
  const char* library = "";
  dc_driver_library(&library);
  bool fake = device_name.find("fake") != std::string::npos;
  std::printf("%s: device 0: %s; driver CUDA %d.%d (%s)%s\n", program, device_name.c_str(), version / 1000,
              (version % 1000) / 10, library, fake ? "; the FAKE driver: a smoke run, the numbers mean nothing" : "");
  benchmark::AddCustomContext("device", device_name);
  benchmark::AddCustomContext("driver", std::to_string(version));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
