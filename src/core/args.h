// Argument checks shared by the entry points; each failure names the argument.
#pragma once

#include <cstdint>

#include "core/error.h"

namespace dc {

// Fails with DC_ERROR_INVALID_ARGUMENT if a required pointer is NULL.
inline void require_arg(const void* p, const char* name) {
  if (!p) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is NULL; pass a valid pointer", name);
}

// Fails unless only bits of `known` are set in `flags`.
inline void require_flags(uint32_t flags, uint32_t known, const char* name, const char* family) {
  if (flags & ~known) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "%s has unknown bits 0x%x; use %s flags only", name, flags & ~known, family);
}

// Checks a growable struct's struct_size against its first published size.
inline void require_struct_size(uint32_t struct_size, uint32_t first_published, const char* name, const char* init) {
  if (struct_size < first_published) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT,
         "%s->struct_size is %u, smaller than the first published size (%u); initialise it with %s", name,
         struct_size, first_published, init);
}

}  // namespace dc
