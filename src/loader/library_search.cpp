#include "loader/library_search.h"

#include "loader/shared_library.h"

namespace dc {

std::vector<std::string> library_candidates(const std::string& override_path, const std::vector<std::string>& names,
                                            const std::vector<std::string>& folders) {
  if (!override_path.empty()) return {override_path};
  std::vector<std::string> out;
  std::string own = dccuda_library_folder();
  if (!own.empty())
    for (const std::string& n : names) out.push_back(path_in_folder(own, n));
  out.insert(out.end(), names.begin(), names.end());
  for (const std::string& folder : folders)
    for (const std::string& n : names) out.push_back(path_in_folder(folder, n));
  return out;
}

FoundLibrary open_first_library(const std::vector<std::string>& candidates) {
  FoundLibrary found;
  for (const std::string& path : candidates) {
    found.handle = open_shared_library(path, nullptr);
    if (found.handle) {
      found.path = path;
      return found;
    }
    if (!found.tried.empty()) found.tried += ", ";
    found.tried += path;
  }
  return found;
}

}  // namespace dc
