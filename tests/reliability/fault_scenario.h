// A realistic run over two devices that reaches every driver entry point
// dccuda uses in normal work: devices, peers, every kind of buffer, copies
// and fills (direct, staged, peer), streams and events, host functions,
// modules and functions, launches (plain and extended), occupancy, graphs,
// trimming, and a device reset. The fault sweep (test_fault_sweep.cpp) runs
// it with one driver call failing at a time. Results are checked: a run that
// "succeeds" with wrong data returns DC_ERROR_INTERNAL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dccuda.h"

namespace faults {

// One failed step (kept when the run goes on after failures).
struct StepFailure {
  std::string step;
  dc_status status = DC_SUCCESS;
  int32_t cuda = 0;
  std::string message;
};

// Everything the scenario made; the destructor releases it all.
struct World {
  // Go on after a failed step (recording it in `failures`) instead of stopping;
  // result checks are skipped once a step has failed.
  bool keep_going = false;
  std::vector<StepFailure> failures;
  int steps = 0;  // steps attempted
  dc_device d0 = nullptr, d1 = nullptr;
  std::vector<dc_stream> streams;
  std::vector<dc_event> events;
  std::vector<dc_buffer> buffers;
  std::vector<dc_program> programs;
  std::vector<dc_module> modules;
  std::vector<dc_library> libraries;
  std::vector<dc_function> functions;
  std::vector<dc_launch> launches;
  std::vector<dc_graph> graphs;
  std::vector<dc_pool> pools;
  std::vector<dc_blas> blases;
  std::vector<dc_comm> comms;
  // The virtual memory pieces' objects, until the scenario frees them (0 once freed).
  uint64_t vmm_base = 0, vmm_granularity = 0, vmm_first = 0, vmm_second = 0;
  void* registered = nullptr;  // host memory registered with the driver (freed after its buffer)
  int callbacks = 0;
  ~World();
};

struct Outcome {
  dc_status status = DC_SUCCESS;
  std::string step;  // the step that failed ("" if none)
};

// Runs the scenario; stops at the first failing step. `w` holds what was made.
Outcome run_scenario(World& w);

// A device reset on its own (cuDevicePrimaryCtxReset and the retain after
// it), with a buffer made before it and one after; `w` holds what was made.
Outcome run_reset(World& w, int32_t ordinal);

}  // namespace faults
