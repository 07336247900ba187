// Round-trip samples as the JSON the round-trip latency plot reads
// (bench/plot/plot_round_trips.py, format "dccuda-round-trips/1"): for each
// set of samples, its count, min and max, nearest-rank percentiles p50, p99
// and p99.9, and a histogram with logarithmic bins (bins_per_decade edges per
// power of ten, from the edge at or below the smallest sample to the first
// edge above the largest; each bin counts [lower, upper)). A benchmark that
// times round trips (the queue's, launch + synchronize) keeps one sample per
// round trip in nanoseconds and writes them with write_round_trips_json;
// nothing else is needed for the plot. Header-only, standard C++ only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace bench {

struct RoundTrips {
  std::string name;          // "queue" and "launch_synchronize" are the plot's two required sets
  std::string label;         // the legend's text
  std::vector<double> ns;    // one sample per round trip, nanoseconds
};

namespace round_trips_detail {

inline std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// Text that reads back as the same double (17 significant digits).
inline std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

inline double edge(long k, int bins_per_decade) { return std::pow(10.0, static_cast<double>(k) / bins_per_decade); }

// sorted[ceil(percent / 100 * n) - 1]: the smallest sample with at least
// percent% of the samples at or below it.
inline double nearest_rank(const std::vector<double>& sorted, double percent) {
  double rank = std::ceil(percent / 100.0 * static_cast<double>(sorted.size()));
  size_t index = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return sorted[std::min(index, sorted.size() - 1)];
}

inline std::string distribution(const RoundTrips& set, int bins_per_decade) {
  std::vector<double> sorted = set.ns;
  std::sort(sorted.begin(), sorted.end());
  long first = static_cast<long>(std::floor(std::log10(sorted.front()) * bins_per_decade));
  long last = static_cast<long>(std::floor(std::log10(sorted.back()) * bins_per_decade)) + 1;
  while (edge(first, bins_per_decade) > sorted.front()) --first;  // log10 rounding, either way
  while (edge(last, bins_per_decade) <= sorted.back()) ++last;
  std::vector<double> edges;
  for (long k = first; k <= last; ++k) edges.push_back(edge(k, bins_per_decade));
  std::vector<long long> counts(edges.size() - 1, 0);
  size_t bin = 0;
  for (double x : sorted) {  // ascending: the bin only moves up
    while (x >= edges[bin + 1]) ++bin;
    ++counts[bin];
  }
  std::string out = "{\"name\": " + quoted(set.name) + ", \"label\": " + quoted(set.label) +
                    ", \"count\": " + std::to_string(sorted.size()) + ", \"min_ns\": " + number(sorted.front()) +
                    ", \"max_ns\": " + number(sorted.back()) + ", \"percentiles_ns\": {\"50\": " +
                    number(nearest_rank(sorted, 50)) + ", \"99\": " + number(nearest_rank(sorted, 99)) +
                    ", \"99.9\": " + number(nearest_rank(sorted, 99.9)) + "}, \"histogram\": {\"edges_ns\": [";
  for (size_t i = 0; i < edges.size(); ++i) out += (i ? ", " : "") + number(edges[i]);
  out += "], \"counts\": [";
  for (size_t i = 0; i < counts.size(); ++i) out += (i ? ", " : "") + std::to_string(counts[i]);
  return out + "]}}";
}

}  // namespace round_trips_detail

// The JSON text for `sets`, with `context` (key, value) pairs such as
// announce.h records ("date_utc", "device", "driver"...; "synthetic" marks
// made-up data). Empty, with the reason in *why, when a set has no samples or
// a sample that is not a positive finite number, or bins_per_decade is not
// in 1..1000.
inline std::string round_trips_json(const std::vector<std::pair<std::string, std::string>>& context,
                                    const std::vector<RoundTrips>& sets, std::string* why,
                                    int bins_per_decade = 20) {
  if (bins_per_decade < 1 || bins_per_decade > 1000) {
    *why = "round_trips_json: bins_per_decade " + std::to_string(bins_per_decade) + " is not in 1..1000";
    return "";
  }
  for (const RoundTrips& set : sets) {
    if (set.ns.empty()) {
      *why = "round_trips_json: the set " + round_trips_detail::quoted(set.name) + " has no samples";
      return "";
    }
    for (double x : set.ns)
      if (!std::isfinite(x) || x <= 0) {
        *why = "round_trips_json: the set " + round_trips_detail::quoted(set.name) + " has the sample " +
               round_trips_detail::number(x) + " ns; round-trip times must be positive and finite";
        return "";
      }
  }
  std::string out = "{\"format\": \"dccuda-round-trips/1\", \"context\": {";
  for (size_t i = 0; i < context.size(); ++i)
    out += (i ? ", " : "") + round_trips_detail::quoted(context[i].first) + ": " +
           round_trips_detail::quoted(context[i].second);
  out += "}, \"round_trips\": [";
  for (size_t i = 0; i < sets.size(); ++i)
    out += (i ? ",\n  " : "\n  ") + round_trips_detail::distribution(sets[i], bins_per_decade);
  return out + "\n]}\n";
}

// Writes round_trips_json(...) to `path`; false with the reason in *why.
inline bool write_round_trips_json(const std::string& path,
                                   const std::vector<std::pair<std::string, std::string>>& context,
                                   const std::vector<RoundTrips>& sets, std::string* why,
                                   int bins_per_decade = 20) {
  std::string text = round_trips_json(context, sets, why, bins_per_decade);
  if (text.empty()) return false;
  FILE* file = std::fopen(path.c_str(), "w");
  if (!file) {
    *why = "write_round_trips_json: cannot open " + path + " for writing";
    return false;
  }
  bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  ok = std::fclose(file) == 0 && ok;
  if (!ok) *why = "write_round_trips_json: writing " + path + " failed";
  return ok;
}

}  // namespace bench
