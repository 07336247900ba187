// Per-operation timing samples and their medians, shared by the benchmarks.
//
// Every figure the benchmarks report is a median over samples taken after a
// warm-up, not a mean: one slow outlier (a page fault, a preempted thread, a
// clock tick of the driver's own housekeeping) moves a mean but not a median.
// A dc_ call and its raw driver equivalent are timed one after the other in
// each iteration, in an order that alternates between iterations, so that
// neither side always runs first (and inherits a warm or cold cache, launch
// queue or clock from the other).
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

namespace bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Runs `operation` (which returns false on failure) once, timed on the steady
// clock; its duration goes to *seconds even when it fails.
template <class Operation>
bool time_once(Operation&& operation, double* seconds) {
  Clock::time_point start = Clock::now();
  bool ok = operation();
  *seconds = seconds_since(start);
  return ok;
}

// Durations in seconds, one per timed operation (or burst).
class Samples {
 public:
  void reserve(std::size_t count) { seconds_.reserve(count); }
  void add(double seconds) { seconds_.push_back(seconds); }
  std::size_t size() const { return seconds_.size(); }

  // The middle sample; for an even count, the mean of the two middle ones.
  // 0 without samples.
  double median() const {
    if (seconds_.empty()) return 0;
    std::vector<double> sorted = seconds_;  // a copy: median() stays const and callable twice
    std::sort(sorted.begin(), sorted.end());
    std::size_t middle = sorted.size() / 2;
    return sorted.size() % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

 private:
  std::vector<double> seconds_;
};

// How many samples a benchmark run will likely take, to reserve them before
// the timed loop (capped: Google Benchmark's estimate can be huge for fast
// operations, and a vector that grows now and then costs little).
inline std::size_t expected_samples(const benchmark::State& state) {
  constexpr benchmark::IterationCount kCap = benchmark::IterationCount(1) << 20;
  return static_cast<std::size_t>(std::min(state.max_iterations, kCap));
}

// The samples of a dc_ side and a raw side, taken in pairs: each iteration
// times one run of each, the order alternating between iterations.
class PairedSamples {
 public:
  explicit PairedSamples(std::size_t expected) {
    dc_.reserve(expected);
    raw_.reserve(expected);
  }

  // Times `dc` and `raw` (each returns false on failure) once each; `settle`
  // runs untimed after each side (a synchronisation that must not be charged
  // to either side). False, and no sample kept, when any of them fails.
  template <class Dc, class Raw, class Settle>
  bool time_pair(Dc&& dc, Raw&& raw, Settle&& settle) {
    double dc_seconds = 0, raw_seconds = 0;
    bool ok = dc_first_ ? time_side(dc, settle, &dc_seconds) && time_side(raw, settle, &raw_seconds)
                        : time_side(raw, settle, &raw_seconds) && time_side(dc, settle, &dc_seconds);
    if (!ok) return false;
    dc_.add(dc_seconds);
    raw_.add(raw_seconds);
    last_pair_seconds_ = dc_seconds + raw_seconds;
    dc_first_ = !dc_first_;
    return true;
  }

  template <class Dc, class Raw>
  bool time_pair(Dc&& dc, Raw&& raw) {
    return time_pair(dc, raw, [] { return true; });
  }

  const Samples& dc() const { return dc_; }
  const Samples& raw() const { return raw_; }
  // Pairs taken (the number of samples of each side).
  std::size_t size() const { return dc_.size(); }
  // dc_ + raw time of the latest pair: an iteration's time for
  // State::SetIterationTime, so that Google Benchmark's own Time column (a
  // mean over iterations) is made of the same samples.
  double last_pair_seconds() const { return last_pair_seconds_; }

 private:
  template <class Side, class Settle>
  static bool time_side(Side& side, Settle& settle, double* seconds) {
    return time_once(side, seconds) && settle();
  }

  Samples dc_, raw_;
  bool dc_first_ = true;
  double last_pair_seconds_ = 0;
};

}  // namespace bench
