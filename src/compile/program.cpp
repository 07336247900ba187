#include "compile/program.h"

namespace dc {

size_t CompiledOutput::footprint() const noexcept {
  size_t n = sizeof(*this) + image.size() + log.size();
  for (const auto& [expression, lowered] : lowered_names) n += expression.size() + lowered.size() + 64;
  return n;
}

const std::string* Program::lowered_name(const char* expression) const noexcept {
  for (const auto& [e, lowered] : output_->lowered_names)
    if (e == expression) return &lowered;
  return nullptr;
}

}  // namespace dc
