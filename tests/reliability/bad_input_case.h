// One case of the bad-input matrix, as the generated code (gen_bad_inputs.py)
// fills it in: the call's status, what was expected, and whether the
// out-pointers were cleared.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "reliability/bad_input_fixture.h"

namespace badinput {

struct Result {
  dc_status status = DC_SUCCESS;
  bool is_void = false;                 // a release function: it must stay quiet
  std::vector<dc_status> expected;      // any of these
  const char* text = "";                // must appear in the message ("" : the call name only)
  bool word = false;                    // `text` is an argument name: match it as a whole word
  bool outs_cleared = true;             // every out-pointer read NULL / 0 after the call
  const char* skip = nullptr;           // why the case was not run here
};

struct Case {
  const char* function;
  const char* argument;  // what the case changes ("" for the valid call)
  const char* what;
  void (*run)(Fixture& fx, Result& r);
};

struct Exemption {
  const char* function;
  const char* why;
};

// Out-pointers start as garbage, so that "cleared on failure" is observable.
template <class T>
void fill_sentinel(T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::memset(static_cast<void*>(&v), 0x5A, sizeof v);
}
template <class T>
bool is_zero(const T& v) {
  unsigned char zero[sizeof(T)] = {};
  return std::memcmp(&v, zero, sizeof v) == 0;
}

}  // namespace badinput
