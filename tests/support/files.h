// Small file helpers for tests: scratch directories, whole-file reads and
// writes, listing a directory.
#pragma once

#include <set>
#include <string>

namespace dctest {

// A new directory /tmp/dccuda-<tag>-XXXXXX (mode 0700); "" on failure.
std::string make_temp_dir(const char* tag);
// Removes `dir` and everything under it (symbolic links are removed, never followed).
void remove_tree(const std::string& dir);
// The whole file ("" if it cannot be read).
std::string read_file(const std::string& path);
// Replaces the file's contents (creates it if needed).
bool write_file(const std::string& path, const std::string& bytes);
// Names in `dir` that end in `suffix` (or contain `mark`, when given).
std::set<std::string> files_in(const std::string& dir, const char* suffix, const char* mark = nullptr);

}  // namespace dctest
