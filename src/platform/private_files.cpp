// private_files.h on Linux and other POSIX systems (private_files_windows.cpp on Windows).
#if !defined(_WIN32)

#include "platform/private_files.h"

#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace dc::platform {
namespace {

std::string user_text(uid_t uid) {
  std::string text = "uid " + std::to_string(uid);
  struct passwd pw;
  struct passwd* found = nullptr;
  char buf[1024];
  if (::getpwuid_r(uid, &pw, buf, sizeof buf, &found) == 0 && found && found->pw_name)
    text += std::string(" (") + found->pw_name + ")";
  return text;
}

std::string mode_text(mode_t mode) {
  char text[16];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

}  // namespace

std::string directory_problem(const struct stat& st, DirectoryRule rule) {
  if (!S_ISDIR(st.st_mode)) return "it is not a directory";
  uid_t me = ::geteuid();
  if (rule == DirectoryRule::kPrivate && st.st_uid != me)
    return "it is owned by " + user_text(st.st_uid) + ", not by this process's effective user, " + user_text(me);
  bool group = rule == DirectoryRule::kPrivate && (st.st_mode & S_IWGRP);
  if (st.st_mode & S_IWOTH)
    return std::string("it is writable by other users") + (group ? " and by its group" : "") + " (mode " +
           mode_text(st.st_mode) + ")";
  if (group) return "it is writable by its group (mode " + mode_text(st.st_mode) + ")";
  return {};
}

std::string open_directory_problem(int dir_fd, DirectoryRule rule) {
  struct stat st;
  if (::fstat(dir_fd, &st) != 0) return std::string("it cannot be examined: ") + std::strerror(errno);
  return directory_problem(st, rule);
}

bool file_is_private(const struct stat& st) noexcept {
  return st.st_uid == ::geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

std::string make_private_directories(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) return S_ISDIR(st.st_mode) ? "" : path + " is not a directory";
  size_t slash = path.rfind('/');
  if (slash != std::string::npos && slash > 0) {
    std::string problem = make_private_directories(path.substr(0, slash));
    if (!problem.empty()) return problem;
  }
  if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
    return "cannot create " + path + ": " + std::strerror(errno);
  // Made here, or by someone else just now: either way it must be ours alone.
  if (::lstat(path.c_str(), &st) != 0) return "cannot create " + path + ": " + std::strerror(errno);
  std::string problem = directory_problem(st, DirectoryRule::kPrivate);
  return problem.empty() ? "" : path + ", a directory dccuda was creating: " + problem;
}

UniqueFd open_directory(const std::string& path) noexcept {
  return UniqueFd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

std::string read_private_key_file(const std::string& path, size_t min_bytes, size_t max_bytes, std::string* key) {
  RegularFile file;
  int error = 0;
  if (open_regular_file(kWorkingDirectory, path.c_str(), true, &file, &error) != OpenResult::kOk)
    return "cannot read " + path + (error ? std::string(": ") + std::strerror(error) : ": not a regular file");
  const struct stat& st = file.st;
  if (st.st_uid != ::geteuid())
    return path + " is owned by " + user_text(st.st_uid) + ", not by this process's effective user, " +
           user_text(::geteuid());
  if (st.st_mode & 077)
    return path + " may be read or written by others (mode " + mode_text(st.st_mode) + "): chmod 600 it";
  if (file.file_size() < min_bytes || file.file_size() > max_bytes)
    return path + " holds " + std::to_string(file.file_size()) + " bytes; a key is " + std::to_string(min_bytes) +
           " to " + std::to_string(max_bytes) + " bytes (for example: head -c 32 /dev/urandom > " + path + ")";
  key->resize(static_cast<size_t>(file.file_size()));
  if (!read_exactly(file.fd.get(), key->data(), key->size())) return "cannot read " + path;
  return {};
}

}  // namespace dc::platform

#endif  // !_WIN32
