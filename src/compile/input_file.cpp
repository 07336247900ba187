#include "compile/input_file.h"

#include <cerrno>
#include <cstring>

#include "core/error.h"
#include "platform/regular_file.h"

namespace dc {
namespace {

// No device code file is this large; a file that claims to be is refused unread.
constexpr uint64_t kMaxInputFileBytes = uint64_t(2) << 30;

}  // namespace

std::vector<uint8_t> read_input_file(const std::string& path, const std::string& argument) {
  const char* p = path.c_str();
  const char* arg = argument.c_str();
  platform::RegularFile file;
  int e = 0;
  switch (platform::open_regular_file(platform::kWorkingDirectory, p, true, &file, &e)) {
    case platform::OpenResult::kOk:
      break;
    case platform::OpenResult::kNotFound:
      fail(DC_ERROR_NOT_FOUND, "%s: the file %s does not exist; check the path (relative paths start at the current "
           "directory)", arg, p);
    case platform::OpenResult::kDirectory:
      fail(DC_ERROR_IO, "%s: %s is a directory, not a file of device code", arg, p);
    case platform::OpenResult::kNotRegular:
      fail(DC_ERROR_IO, "%s: %s is not a regular file (a device, pipe or socket); give a file of device code", arg, p);
    case platform::OpenResult::kSymlink:
    case platform::OpenResult::kFailed:
      fail(DC_ERROR_IO, "%s: cannot open %s: %s", arg, p, std::strerror(e));
  }
  uint64_t size = file.file_size();
  if (size == 0) fail(DC_ERROR_INVALID_IMAGE, "%s: the file %s is empty; it holds no device code", arg, p);
  if (size > kMaxInputFileBytes)
    fail(DC_ERROR_INVALID_IMAGE, "%s: file too large: %s has %llu bytes, more than the %llu a link input may have; "
         "check the path", arg, p, static_cast<unsigned long long>(size),
         static_cast<unsigned long long>(kMaxInputFileBytes));
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  errno = 0;
  if (!platform::read_exactly(file.fd.get(), bytes.data(), bytes.size()))
    fail(DC_ERROR_IO, "%s: cannot read %s (%llu bytes): %s", arg, p, static_cast<unsigned long long>(size),
         errno ? std::strerror(errno) : "it became shorter while being read");
  return bytes;
}

}  // namespace dc
