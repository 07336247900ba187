#include "compile/include_scan.h"

#include <ctime>
#include <mutex>
#include <set>
#include <unordered_map>

#include "platform/path_facts.h"
#include "platform/regular_file.h"

namespace dc {
namespace {

// Bounds that keep a pathological include graph from costing more than the
// compile it guards.
constexpr size_t kMaxFiles = 512;
constexpr size_t kMaxBytes = size_t(64) << 20;

struct Directive {
  std::string name;
  bool quoted;
};

// The `#include "x"` / `#include <x>` directives of a text.
std::vector<Directive> directives(const std::string& text) {
  std::vector<Directive> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    size_t i = pos;
    auto skip_space = [&] {
      while (i < end && (text[i] == ' ' || text[i] == '\t')) ++i;
    };
    skip_space();
    if (i < end && text[i] == '#') {
      ++i;
      skip_space();
      if (text.compare(i, 7, "include") == 0) {
        i += 7;
        skip_space();
        if (i < end && (text[i] == '"' || text[i] == '<')) {
          char close = text[i] == '"' ? '"' : '>';
          size_t stop = text.find(close, i + 1);
          if (stop != std::string::npos && stop < end && stop > i + 1)
            out.push_back({text.substr(i + 1, stop - i - 1), close == '"'});
        }
      }
    }
    pos = end + 1;
  }
  return out;
}

// Through the platform's opener: regular files only, never blocking on a
// FIFO, and on Windows the UTF-8 path reaches CreateFileW as UTF-16.
bool read_file(const std::string& path, std::string* out) {
  platform::RegularFile f;
  if (platform::open_regular_file(platform::kWorkingDirectory, path.c_str(), true, &f, nullptr) !=
      platform::OpenResult::kOk)
    return false;
  out->resize(static_cast<size_t>(f.file_size()));
  return platform::read_exactly(f.fd.get(), out->data(), out->size());
}

// What a header file contributes: its digest and its own directives.
struct FileFacts {
  Digest digest{};
  std::vector<Directive> directives;
};

// Headers that have not changed are not read again: a lookup of a kernel
// that includes a large library (hundreds of headers) costs a stat per
// header. A file modified in the last few seconds is always read again, as
// a write within the file system's timestamp granularity would not show.
struct Remembered {
  uint64_t ino, size;
  int64_t sec, nsec;
  FileFacts facts;
};
std::mutex g_files_mutex;
std::unordered_map<std::string, Remembered>& remembered_files() {
  static auto* m = new std::unordered_map<std::string, Remembered>;
  return *m;
}
constexpr int64_t kRacySeconds = 3;
constexpr size_t kMaxRemembered = 8192;

bool file_facts(const std::string& path, FileFacts* out, size_t* bytes) {
  platform::PathFacts st;
  if (!platform::path_facts(path, &st) || !st.regular) return false;
  {
    std::lock_guard<std::mutex> lock(g_files_mutex);
    auto it = remembered_files().find(path);
    if (it != remembered_files().end() && it->second.ino == st.id && it->second.size == st.size &&
        it->second.sec == st.mtime_sec && it->second.nsec == st.mtime_nsec) {
      *out = it->second.facts;
      *bytes = 0;
      return true;
    }
  }
  std::string content;
  if (!read_file(path, &content)) return false;
  out->digest = sha256(content.data(), content.size());
  out->directives = directives(content);
  *bytes = content.size();
  if (::time(nullptr) - st.mtime_sec > kRacySeconds) {
    std::lock_guard<std::mutex> lock(g_files_mutex);
    auto& m = remembered_files();
    if (m.size() >= kMaxRemembered) m.clear();
    m[path] = Remembered{st.id, st.size, st.mtime_sec, st.mtime_nsec, *out};
  }
  return true;
}

std::string directory_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

class Scanner {
 public:
  explicit Scanner(const CompileRequest& r) : request_(r) {
    for (const std::string& h : r.header_names) in_memory_.insert(h);
  }

  void scan_text(const std::string& text, const std::string& dir, bool on_disk) {
    scan_directives(directives(text), dir, on_disk);
  }

  void scan_directives(const std::vector<Directive>& list, const std::string& dir, bool on_disk) {
    for (const Directive& d : list) {
      if (files_.size() >= kMaxFiles || bytes_ > kMaxBytes) return;
      if (in_memory_.count(d.name)) continue;  // hashed with the request already
      std::vector<std::string> candidates;
      if (!d.name.empty() && d.name[0] == '/') {
        candidates.push_back(d.name);
      } else {
        if (d.quoted) candidates.push_back((on_disk ? dir : std::string()) + d.name);
        for (const std::string& p : request_.include_paths)
          candidates.push_back(p + (p.back() == '/' ? "" : "/") + d.name);
      }
      for (const std::string& c : candidates) {
        if (visited_.count(c)) break;
        FileFacts facts;
        size_t bytes = 0;
        if (!file_facts(c, &facts, &bytes)) continue;
        visited_.insert(c);
        bytes_ += bytes;
        files_.push_back({c, facts.digest});
        scan_directives(facts.directives, directory_of(c), true);
        break;  // the first match is the one the preprocessor takes
      }
    }
  }

  std::vector<IncludedFile> take() { return std::move(files_); }

 private:
  const CompileRequest& request_;
  std::set<std::string> in_memory_;
  std::set<std::string> visited_;
  std::vector<IncludedFile> files_;
  size_t bytes_ = 0;
};

}  // namespace

std::vector<IncludedFile> scan_includes(const CompileRequest& request) {
  Scanner s(request);
  s.scan_text(request.source, std::string(), false);
  for (const std::string& h : request.header_sources) s.scan_text(h, std::string(), false);
  return s.take();
}

}  // namespace dc
