#include "module/module_file.h"

#include <cerrno>
#include <cstring>

#include "core/error.h"
#include "platform/regular_file.h"

namespace dc {
namespace {

// No module image is this large; a file that claims to be is refused unread.
constexpr uint64_t kMaxModuleFileBytes = uint64_t(2) << 30;

}  // namespace

std::vector<uint8_t> read_module_file(const char* path) {
  platform::RegularFile file;
  int e = 0;
  switch (platform::open_regular_file(platform::kWorkingDirectory, path, true, &file, &e)) {
    case platform::OpenResult::kOk:
      break;
    case platform::OpenResult::kNotFound:
      fail(DC_ERROR_NOT_FOUND, "the file %s does not exist; check the path (relative paths start at the current "
           "directory)", path);
    case platform::OpenResult::kDirectory:
      fail(DC_ERROR_IO, "%s is a directory, not a module file", path);
    case platform::OpenResult::kNotRegular:
      fail(DC_ERROR_IO, "%s is not a regular file (a device, pipe or socket); a module file is a regular file of "
           "PTX, CUBIN or fatbin", path);
    case platform::OpenResult::kSymlink:
    case platform::OpenResult::kFailed:
      fail(DC_ERROR_IO, "cannot open %s: %s", path, std::strerror(e));
  }
  uint64_t size = file.file_size();
  if (size == 0) fail(DC_ERROR_INVALID_IMAGE, "the file %s is empty; it holds no PTX, CUBIN or fatbin", path);
  if (size > kMaxModuleFileBytes)
    fail(DC_ERROR_INVALID_IMAGE, "file too large: %s has %llu bytes, more than any module image (at most %llu); "
         "check the path", path, static_cast<unsigned long long>(size),
         static_cast<unsigned long long>(kMaxModuleFileBytes));
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  errno = 0;
  if (!platform::read_exactly(file.fd.get(), bytes.data(), bytes.size()))
    fail(DC_ERROR_IO, "cannot read %s (%llu bytes): %s", path, static_cast<unsigned long long>(size),
         errno ? std::strerror(errno) : "it became shorter while being read");
  return bytes;
}


}  // namespace dc
