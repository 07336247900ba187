// The search every optional NVIDIA library shares (NVRTC, nvJitLink, cuBLAS,
// cuFFT, NCCL): the path its DCCUDA_<LIB>_LIBRARY names alone when set; else
// each file name beside libdccuda (where a package puts it), then by the
// system's search, then in the given folders (the toolkit's).
#pragma once

#include <string>
#include <vector>

namespace dc {

std::vector<std::string> library_candidates(const std::string& override_path, const std::vector<std::string>& names,
                                            const std::vector<std::string>& folders);

struct FoundLibrary {
  void* handle = nullptr;  // nullptr: none of the candidates opened
  std::string path;        // the candidate that opened
  std::string tried;       // the candidates that did not, comma-separated (for the error message)
};

// Opens the first candidate that loads.
FoundLibrary open_first_library(const std::vector<std::string>& candidates);

}  // namespace dc
