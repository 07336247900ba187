// Exercises bench/round_trips.h, the writer of the round-trip JSON the
// latency plot reads: first its refusals (each must give an empty text and a
// reason), then, given a path, writes two sets of made-up samples (marked
// synthetic in the context) that test_plots.py draws with the plot script.
//   round_trips_sample [out.json]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "round_trips.h"

namespace {

int failures = 0;

void expect_refused(const char* what, const std::vector<bench::RoundTrips>& sets, int bins, const char* reason) {
  std::string why;
  std::string text = bench::round_trips_json({}, sets, &why, bins);
  if (!text.empty() || why.find(reason) == std::string::npos) {
    std::fprintf(stderr, "FAIL %s: expected a refusal naming \"%s\", got text of %zu bytes and \"%s\"\n", what, reason,
                 text.size(), why.c_str());
    ++failures;
  } else {
    std::printf("ok   %s: %s\n", what, why.c_str());
  }
}

// A fixed sequence of made-up round trips around `median_ns`, with a tail:
// the same every run and on every platform (no <random> distributions).
std::vector<double> made_up(double median_ns, uint64_t seed, int count) {
  std::vector<double> ns;
  uint64_t state = seed;
  for (int i = 0; i < count; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    double u = static_cast<double>(state >> 11) / 9007199254740992.0;  // [0, 1)
    double x = median_ns * (0.9 + 0.2 * u);
    if (i % 97 == 0) x *= 1.5 + 3 * u;  // about 1% slow ones
    ns.push_back(x);
  }
  return ns;
}

}  // namespace

int main(int argc, char** argv) {
  expect_refused("no samples", {{"queue", "q", {}}}, 20, "has no samples");
  expect_refused("zero sample", {{"queue", "q", {1.0, 0.0}}}, 20, "must be positive and finite");
  expect_refused("negative sample", {{"queue", "q", {-5.0}}}, 20, "must be positive and finite");
  expect_refused("NaN sample", {{"queue", "q", {std::nan("")}}}, 20, "must be positive and finite");
  expect_refused("infinite sample", {{"queue", "q", {std::numeric_limits<double>::infinity()}}}, 20,
                 "must be positive and finite");
  expect_refused("no bins", {{"queue", "q", {1.0}}}, 0, "bins_per_decade");
  if (failures) return 1;
  if (argc < 2) return 0;
  std::vector<bench::RoundTrips> sets = {
      {"queue", "queue round trip (made up by round_trips_sample)", made_up(3000, 1, 5000)},
      {"launch_synchronize", "launch + synchronize (made up by \"round_trips_sample\")", made_up(10000, 2, 5000)},
      {"one_sample", "a set of a single sample", {4321.5}},
  };
  std::string why;
  if (!bench::write_round_trips_json(argv[1], {{"synthetic", "made up by tests/bench_plot/round_trips_sample.cpp"},
                                               {"device", "no device"}},
                                     sets, &why)) {
    std::fprintf(stderr, "FAIL writing %s: %s\n", argv[1], why.c_str());
    return 1;
  }
  std::printf("wrote %s\n", argv[1]);
  return 0;
}
