#include "compile/cache_files.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "compile/cache_entry.h"
#include "platform/regular_file.h"

namespace dc {
namespace {

constexpr std::string_view kEntrySuffix = ".dcc";
constexpr std::string_view kMemoPrefix = "nvrtc-";
constexpr std::string_view kMemoSuffix = ".id";
constexpr std::string_view kTempMark = ".tmp.";
constexpr std::string_view kLockSuffix = ".lock";

bool all_hex(std::string_view s) noexcept {
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return !s.empty();
}

bool all_digits(std::string_view s) noexcept {
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return !s.empty();
}

bool is_entry_name(std::string_view n) noexcept {
  return n.size() == 64 + kEntrySuffix.size() && n.substr(64) == kEntrySuffix && all_hex(n.substr(0, 64));
}

bool is_lock_name(std::string_view n) noexcept {
  return n.size() == 64 + kLockSuffix.size() && n.substr(64) == kLockSuffix && all_hex(n.substr(0, 64));
}

bool is_memo_name(std::string_view n) noexcept {
  return n.size() == kMemoPrefix.size() + 32 + kMemoSuffix.size() && n.substr(0, kMemoPrefix.size()) == kMemoPrefix &&
         n.substr(n.size() - kMemoSuffix.size()) == kMemoSuffix && all_hex(n.substr(kMemoPrefix.size(), 32));
}

// <final>.tmp.<digits>.<digits>.<digits>
bool is_temp_name(std::string_view n) noexcept {
  size_t at = n.find(kTempMark);
  if (at == std::string_view::npos) return false;
  std::string_view final_name = n.substr(0, at), rest = n.substr(at + kTempMark.size());
  if (!is_entry_name(final_name) && !is_memo_name(final_name)) return false;
  for (int field = 0; field < 3; ++field) {
    size_t dot = rest.find('.');
    std::string_view digits = field < 2 ? rest.substr(0, dot) : rest;
    if (!all_digits(digits) || (field < 2 && dot == std::string_view::npos)) return false;
    if (field < 2) rest = rest.substr(dot + 1);
  }
  return true;
}

}  // namespace

CacheFileKind cache_file_kind(std::string_view name) noexcept {
  if (is_entry_name(name)) return CacheFileKind::kEntry;
  if (is_memo_name(name)) return CacheFileKind::kMemo;
  if (is_temp_name(name)) return CacheFileKind::kTemp;
  if (is_lock_name(name)) return CacheFileKind::kLock;
  return CacheFileKind::kNone;
}

std::string entry_file_name(const std::string& key_hex) { return key_hex + std::string(kEntrySuffix); }

std::string memo_file_name(const std::string& context_hex) {
  return std::string(kMemoPrefix) + context_hex + std::string(kMemoSuffix);
}

std::string lock_file_name(const std::string& key_hex) { return key_hex + std::string(kLockSuffix); }

std::string temp_file_name(const std::string& final_name) {
  static std::atomic<uint64_t> counter{0};
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return final_name + std::string(kTempMark) + std::to_string(::getpid()) + "." +
         std::to_string(counter.fetch_add(1)) + "." + std::to_string(ts.tv_nsec);
}

bool is_own_cache_file(int dir_fd, const std::string& name, const struct stat& st) noexcept {
  CacheFileKind kind = cache_file_kind(name);
  if (kind == CacheFileKind::kNone || !S_ISREG(st.st_mode)) return false;
  if (kind == CacheFileKind::kLock) return st.st_size == 0;
  if (kind == CacheFileKind::kTemp && st.st_size == 0) return true;
  platform::RegularFile file;
  if (platform::open_regular_file(dir_fd, name.c_str(), false, &file, nullptr) != platform::OpenResult::kOk)
    return false;
  char head[16] = {};
  size_t want = std::min<size_t>(sizeof head, static_cast<size_t>(file.file_size()));
  if (!platform::read_exactly(file.fd.get(), head, want)) return false;
  std::string_view got(head, want);
  bool entry = got.size() >= sizeof kCacheEntryMagic &&
               std::memcmp(got.data(), kCacheEntryMagic, sizeof kCacheEntryMagic) == 0;
  bool memo = got.substr(0, kMemoMagic.size()) == kMemoMagic;
  switch (kind) {
    case CacheFileKind::kEntry: return entry;
    case CacheFileKind::kMemo: return memo;
    case CacheFileKind::kTemp: return entry || memo;
    case CacheFileKind::kLock:
    case CacheFileKind::kNone: break;
  }
  return false;
}

}  // namespace dc
