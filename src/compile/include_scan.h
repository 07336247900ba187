// Finds the header files a compile will read from disk: every `#include` of
// the source and the in-memory headers, resolved as NVRTC resolves it (the
// including file's directory for "quoted" names, then the include paths),
// followed recursively. Over-approximates on purpose (includes inside #if
// blocks count too); an include named by a macro is not followed.
#pragma once

#include <string>
#include <vector>

#include "compile/compile_request.h"
#include "compile/sha256.h"

namespace dc {

struct IncludedFile {
  std::string path;  // as resolved
  Digest content{};  // SHA-256 of the file's bytes
};

std::vector<IncludedFile> scan_includes(const CompileRequest& request);

}  // namespace dc
