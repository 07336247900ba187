// Turning a failed call into a skipped benchmark with the reason: the dc_
// call's last-error message, or the raw driver call's name and CUresult.
// Both return whether the call succeeded.
#pragma once

#include <benchmark/benchmark.h>
#include "loader/cuda_abi/driver_abi.h"

#include <string>

#include "dccuda.h"

inline bool dc_ok(benchmark::State& state, dc_status status) {
  if (status == DC_SUCCESS) return true;
  // A copy: the message belongs to the library and changes with the next call.
  static thread_local std::string text;
  text = dc_last_error_message();
  state.SkipWithError(text.c_str());
  return false;
}

inline bool raw_ok(benchmark::State& state, CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return true;
  static thread_local std::string text;
  text = std::string(what) + " failed with CUresult " + std::to_string(static_cast<int>(r));
  state.SkipWithError(text.c_str());
  return false;
}
