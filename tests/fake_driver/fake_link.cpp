// The fake driver's linker (a test double, never a GPU): cuLinkCreate,
// cuLinkAddData, cuLinkComplete and cuLinkDestroy check their arguments as the
// driver does and record the inputs; "linking" answers the first CUBIN input
// (else the first PTX) unchanged, so that what dccuda makes of it loads in the
// fake. dcfake_last_link_input tells a test what the last link was given.
#include <algorithm>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "fake.h"

namespace fake {
namespace {

struct LinkInput {
  CUjitInputType type;
  std::vector<unsigned char> bytes;
};

struct LinkState {
  Context* context = nullptr;
  char* error_log = nullptr;
  size_t error_size = 0;
  char* info_log = nullptr;
  size_t info_size = 0;
  std::vector<LinkInput> inputs;
  std::vector<unsigned char> output;  // valid until cuLinkDestroy, as the driver's
};

std::set<LinkState*>& states() {
  static auto* s = new std::set<LinkState*>;
  return *s;
}

std::vector<long>& last_link_types() {
  static auto* v = new std::vector<long>;
  return *v;
}

void write_text(char* buffer, size_t capacity, const std::string& text) {
  if (!buffer || capacity == 0) return;
  size_t n = std::min(capacity - 1, text.size());
  std::memcpy(buffer, text.data(), n);
  buffer[n] = '\0';
}

LinkState* live_state(CUlinkState s) {
  auto* p = reinterpret_cast<LinkState*>(s);
  return states().count(p) ? p : nullptr;
}

bool is_elf(const void* data, size_t size) {
  static const unsigned char kElf[] = {0x7f, 'E', 'L', 'F'};
  return size >= 4 && std::memcmp(data, kElf, 4) == 0;
}

}  // namespace
}  // namespace fake

using namespace fake;

FAKE_API long dcfake_last_link_input(int index) {
  std::lock_guard<std::recursive_mutex> g(lock());
  const std::vector<long>& v = last_link_types();
  return index >= 0 && static_cast<size_t>(index) < v.size() ? v[static_cast<size_t>(index)] : -1;
}

CUresult CUDAAPI cuLinkCreate(unsigned int numOptions, CUjit_option* options, void** optionValues,
                              CUlinkState* stateOut) {
  FAKE_ENTER(cuLinkCreate);
  FAKE_REQUIRE_CONTEXT();
  if (!stateOut || (numOptions && (!options || !optionValues))) return CUDA_ERROR_INVALID_VALUE;
  *stateOut = nullptr;
  auto s = std::make_unique<LinkState>();
  for (unsigned i = 0; i < numOptions; ++i) {
    uintptr_t v = reinterpret_cast<uintptr_t>(optionValues[i]);
    switch (options[i]) {
      case CU_JIT_INFO_LOG_BUFFER: s->info_log = static_cast<char*>(optionValues[i]); break;
      case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: s->info_size = v; break;
      case CU_JIT_ERROR_LOG_BUFFER: s->error_log = static_cast<char*>(optionValues[i]); break;
      case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: s->error_size = v; break;
      case CU_JIT_OPTIMIZATION_LEVEL: if (v > 4) return CUDA_ERROR_INVALID_VALUE; break;
      case CU_JIT_MAX_REGISTERS:
      case CU_JIT_GENERATE_DEBUG_INFO:
      case CU_JIT_GENERATE_LINE_INFO:
      case CU_JIT_LOG_VERBOSE:
      case CU_JIT_TARGET_FROM_CUCONTEXT:
        break;
      default:
        if (options[i] >= CU_JIT_NUM_OPTIONS) return CUDA_ERROR_INVALID_VALUE;
        break;
    }
  }
  std::lock_guard<std::recursive_mutex> g(lock());
  s->context = current_context();
  LinkState* p = s.release();
  states().insert(p);
  live_add("link_states", 1);
  *stateOut = reinterpret_cast<CUlinkState>(p);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuLinkCreate, 6050)

CUresult CUDAAPI cuLinkAddData(CUlinkState state, CUjitInputType type, void* data, size_t size, const char* name,
                               unsigned int numOptions, CUjit_option* options, void** optionValues) {
  FAKE_ENTER(cuLinkAddData);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  LinkState* s = live_state(state);
  if (!s || !data || size == 0 || (numOptions && (!options || !optionValues))) return CUDA_ERROR_INVALID_VALUE;
  if (type < CU_JIT_INPUT_CUBIN || type > CU_JIT_INPUT_LIBRARY) return CUDA_ERROR_INVALID_VALUE;
  // As the driver: a CUBIN must be an ELF image, PTX must not be one.
  bool elf = is_elf(data, size);
  if ((type == CU_JIT_INPUT_CUBIN && !elf) || (type == CU_JIT_INPUT_PTX && elf)) {
    write_text(s->error_log, s->error_size,
               std::string("error   : fake cuLink: input ") + (name ? name : "(unnamed)") + " is not of its type");
    return type == CU_JIT_INPUT_PTX ? CUDA_ERROR_INVALID_PTX : CUDA_ERROR_INVALID_IMAGE;
  }
  const unsigned char* b = static_cast<const unsigned char*>(data);
  s->inputs.push_back({type, std::vector<unsigned char>(b, b + size)});
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuLinkAddData, 6050)

CUresult CUDAAPI cuLinkComplete(CUlinkState state, void** cubinOut, size_t* sizeOut) {
  FAKE_ENTER(cuLinkComplete);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  LinkState* s = live_state(state);
  if (!s || !cubinOut || !sizeOut) return CUDA_ERROR_INVALID_VALUE;
  last_link_types().clear();
  for (const LinkInput& in : s->inputs) last_link_types().push_back(in.type);
  const LinkInput* chosen = nullptr;
  for (CUjitInputType wanted : {CU_JIT_INPUT_CUBIN, CU_JIT_INPUT_PTX})
    for (const LinkInput& in : s->inputs)
      if (!chosen && in.type == wanted) chosen = &in;
  if (!chosen) {
    write_text(s->error_log, s->error_size, "error   : fake cuLink: no CUBIN or PTX input to answer");
    return CUDA_ERROR_INVALID_IMAGE;
  }
  s->output = chosen->bytes;
  if (chosen->type == CU_JIT_INPUT_PTX && s->output.back() != 0) s->output.push_back(0);
  write_text(s->info_log, s->info_size, "info    : fake cuLink linked " + std::to_string(s->inputs.size()) +
                                            " inputs");
  *cubinOut = s->output.data();
  *sizeOut = s->output.size();
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuLinkComplete, 5050)

CUresult CUDAAPI cuLinkDestroy(CUlinkState state) {
  FAKE_ENTER(cuLinkDestroy);
  std::lock_guard<std::recursive_mutex> g(lock());
  LinkState* s = live_state(state);
  if (!s) return CUDA_ERROR_INVALID_HANDLE;
  states().erase(s);
  delete s;
  live_add("link_states", -1);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuLinkDestroy, 5050)
