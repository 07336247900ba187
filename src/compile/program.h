// A compiled program (dc_program): NVRTC's output, its log and the lowered
// names of the name expressions. The output is immutable and shared with the
// in-memory kernel cache, so a cache hit copies nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/handle_table.h"
#include "core/object.h"

namespace dc {

struct CompiledOutput {
  int32_t kind = 0;                 // DC_OUTPUT_*
  int32_t arch = 0;                 // 10 * major + minor it was compiled for; 0: NVRTC's default
  std::vector<uint8_t> image;       // PTX is NUL-terminated and the NUL is counted
  std::string log;                  // NVRTC's log of the original compile
  // (name expression, lowered name), in the order the expressions were given.
  std::vector<std::pair<std::string, std::string>> lowered_names;

  // Bytes this output holds, for the caches' size limits.
  size_t footprint() const noexcept;
};

class Program : public Object {
 public:
  static constexpr HandleType kHandleType = HandleType::Program;

  Program(std::shared_ptr<const CompiledOutput> output, int32_t cache_source) noexcept
      : Object(kHandleType), output_(std::move(output)), cache_source_(cache_source) {}

  const CompiledOutput& output() const noexcept { return *output_; }
  const std::shared_ptr<const CompiledOutput>& shared_output() const noexcept { return output_; }
  int32_t cache_source() const noexcept { return cache_source_; }  // DC_CACHE_*

  // The lowered name of `expression`, or nullptr if it was not given.
  const std::string* lowered_name(const char* expression) const noexcept;

 private:
  std::shared_ptr<const CompiledOutput> output_;
  int32_t cache_source_;
};

}  // namespace dc
