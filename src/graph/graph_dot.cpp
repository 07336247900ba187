// The DOT text of a graph in memory (dc_graph_dot). The driver writes DOT
// only to a file (cuGraphDebugDotPrint), so the text goes through a file in a
// private directory of its own under the system's temporary directory (made
// 0700 and checked as the kernel cache's directories are, so that no other
// user can plant a link where the driver writes), read back and removed.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <system_error>

#include "core/error.h"
#include "graph/graph.h"
#include "platform/private_files.h"

namespace dc {
namespace {

std::string private_dot_directory() {
  std::error_code ec;
  std::filesystem::path root = std::filesystem::temp_directory_path(ec);
  if (ec)
    fail(DC_ERROR_IO, "dc_graph_dot found no temporary directory for the driver's DOT file (%s); set TMPDIR (TEMP on "
         "Windows) to a writable directory", ec.message().c_str());
  static std::atomic<uint64_t> serial{0};
  std::random_device random;
  std::string name = "dccuda-dot-" + std::to_string(random()) + "-" + std::to_string(serial.fetch_add(1));
  std::string dir = (root / name).string();
  std::string problem = platform::make_private_directories(dir);
  if (!problem.empty())
    fail(DC_ERROR_IO, "dc_graph_dot could not make a private directory for the driver's DOT file: %s; set TMPDIR "
         "(TEMP on Windows) to a directory of your own", problem.c_str());
  return dir;
}

}  // namespace

std::string Graph::dot_text(uint32_t flags) {
  std::string dir = private_dot_directory();
  std::string path = (std::filesystem::path(dir) / "graph.dot").string();
  struct Cleanup {
    std::string dir, path;
    ~Cleanup() {
      std::error_code ec;
      std::filesystem::remove(path, ec);
      std::filesystem::remove(dir, ec);
    }
  } cleanup{dir, path};
  write_dot(path.c_str(), flags);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof())
    fail(DC_ERROR_IO, "dc_graph_dot could not read back the driver's DOT file %s", path.c_str());
  return text.str();
}

}  // namespace dc
