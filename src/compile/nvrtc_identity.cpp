#include "compile/nvrtc_identity.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "compile/cache_files.h"
#include "compile/disk_cache.h"
#include "compile/sha256.h"
#include "core/config.h"
#include "core/error.h"
#include "loader/nvrtc.h"
#include "loader/shared_library.h"
#include "platform/path_facts.h"

namespace dc {
namespace {

std::mutex g_mutex;
bool g_known = false;  // g_version holds the answer for this process
NvrtcVersion g_version;

void stat_field(Sha256& h, const std::string& path) {
  platform::PathFacts f;
  if (!platform::path_facts(path, &f)) {
    h.field("-");
    return;
  }
  h.field_u64(f.id);
  h.field_u64(f.size);
  h.field_u64(static_cast<uint64_t>(f.mtime_sec));
  h.field_u64(static_cast<uint64_t>(f.mtime_nsec));
}

// Everything that decides which file dlopen would pick for NVRTC.
std::string context_id() {
  Sha256 h;
  const Config& c = config();
  h.field("dccuda nvrtc identity 1");
  h.field(c.nvrtc_library);
  // NVRTC is looked for first beside libdccuda (loader/nvrtc.cpp).
  std::string own = dccuda_library_folder();
  h.field(own);
  if (!own.empty()) stat_field(h, own);
  const std::string& ld = c.ld_library_path;
  h.field(ld);
  h.field(c.cuda_home);
  h.field(c.cuda_path);
  stat_field(h, "/etc/ld.so.cache");
  // A file added to one of these directories changes its modification time.
  // (Split by hand: a string stream's first use in a process costs tens of
  // microseconds, a good part of a cache hit's budget.)
  for (size_t start = 0; start <= ld.size();) {
    size_t end = ld.find(':', start);
    if (end == std::string::npos) end = ld.size();
    stat_field(h, ld.substr(start, end - start));
    start = end + 1;
  }
  // Each folder once (CUDA_HOME and the default often name the same one):
  // every stat is a path walk in this new process's first cache lookup.
  std::vector<std::string> folders = toolkit_nvrtc_folders(c.cuda_home, c.cuda_path);
  for (auto f = folders.begin(); f != folders.end(); ++f)
    if (std::find(folders.begin(), f, *f) == f) stat_field(h, *f);
  return to_hex(h.finish()).substr(0, 32);
}

// The memo's name in the cache directory; "" without a disk cache.
std::string memo_name() {
  if (disk_cache_directory().empty()) return {};
  return memo_file_name(context_id());
}

// A memo is one line of numbers and a path: never more than this.
constexpr size_t kMaxMemoBytes = 4096 + PATH_MAX;

struct FileId {
  uint64_t ino = 0, size = 0, sec = 0, nsec = 0;
  bool operator==(const FileId&) const = default;
};

bool file_id(const std::string& path, FileId* id) {
  platform::PathFacts f;
  if (!platform::path_facts(path, &f)) return false;
  *id = {f.id, f.size, static_cast<uint64_t>(f.mtime_sec), static_cast<uint64_t>(f.mtime_nsec)};
  return true;
}

// Reads the decimal number at the start of `*text` and the one space or
// newline after it, advancing past both.
template <class Int>
bool take_number(std::string_view* text, Int* value) {
  auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), *value);
  if (error != std::errc() || end == text->data() || end == text->data() + text->size() || (*end != ' ' && *end != '\n'))
    return false;
  text->remove_prefix(static_cast<size_t>(end - text->data()) + 1);
  return true;
}

// "<magic><major> <minor> <inode> <size> <mtime sec> <mtime nsec>\n<library path>\n", as write_memo
// writes it; anything else is no memo. (Parsed by hand: see context_id.)
bool parse_memo(std::string_view text, NvrtcVersion* v, FileId* recorded, std::string* library) {
  if (text.substr(0, kMemoMagic.size()) != kMemoMagic) return false;
  text.remove_prefix(kMemoMagic.size());
  if (!take_number(&text, &v->major) || !take_number(&text, &v->minor) || !take_number(&text, &recorded->ino) ||
      !take_number(&text, &recorded->size) || !take_number(&text, &recorded->sec) ||
      !take_number(&text, &recorded->nsec))
    return false;
  size_t end = text.find('\n');
  if (end == std::string_view::npos || end == 0) return false;
  library->assign(text.substr(0, end));
  return true;
}

// The version a valid memo records, if there is one.
bool read_memo(NvrtcVersion* out) {
  std::string name = memo_name();
  std::string text;
  // Read as any cache file: never blocking (a FIFO), never through a link.
  if (name.empty() || !disk_cache_read_small_file(name, kMaxMemoBytes, &text)) return false;
  std::string library;
  NvrtcVersion v;
  FileId recorded;
  if (!parse_memo(text, &v, &recorded, &library)) return false;
  FileId now;
  if (!file_id(library, &now) || !(now == recorded)) return false;
  *out = v;
  return true;
}

void write_memo(const NvrtcVersion& v) {
  std::string name = memo_name();
  if (name.empty()) return;
  // The file NVRTC was actually loaded from.
  std::string resolved = loaded_library_file(reinterpret_cast<const void*>(nvrtc_api().nvrtcVersion));
  if (resolved.empty()) return;
  FileId id;
  if (!file_id(resolved, &id)) return;
  std::ostringstream text;
  text << kMemoMagic << v.major << ' ' << v.minor << ' ' << id.ino << ' ' << id.size << ' ' << id.sec << ' '
       << id.nsec << '\n'
       << resolved << '\n';
  disk_cache_write_small_file(name, text.str());
}

}  // namespace

NvrtcVersion load_nvrtc_for_compile() {
  require_nvrtc();
  const NvrtcState& s = nvrtc_state();
  NvrtcVersion v{s.major, s.minor};
  std::lock_guard<std::mutex> lock(g_mutex);
  // The loaded NVRTC is the truth from now on; the record is corrected once
  // per process if it said otherwise.
  static bool recorded = false;
  if (!recorded) {
    recorded = true;
    NvrtcVersion memo;
    if (!read_memo(&memo) || memo.major != v.major || memo.minor != v.minor) write_memo(v);
  }
  g_version = v;
  g_known = true;
  return v;
}

NvrtcVersion nvrtc_version_for_key() {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_known) return g_version;
    if (!(config().flags & DC_INIT_NO_NVRTC)) {
      NvrtcVersion v;
      if (read_memo(&v)) {
        g_version = v;
        g_known = true;
        return v;
      }
    }
  }
  return load_nvrtc_for_compile();
}

}  // namespace dc
