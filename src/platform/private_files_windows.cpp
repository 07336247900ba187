// private_files.h on Windows: the rules in terms of the security descriptor.
// A directory is private when its owner is this process's user (or the
// owner the token gives new objects: the Administrators group for an
// elevated administrator) and its access control list lets nobody else
// write it: no entry allowing a write right to any SID but the user's, the
// token's owner, SYSTEM and the Administrators group (who can take any file
// anyway). A missing list (a NULL DACL) lets everybody write. The
// directories dccuda creates get a protected list of exactly those. A shared
// cache's directory (entries authenticated one by one) may be writable by
// named groups, never by Everyone, Authenticated Users, Users or Anonymous.
// The key file: owned by the user, readable by nobody else.
#if defined(_WIN32)

#include "platform/private_files.h"

// clang-format off
#include <windows.h>
#include <aclapi.h>
#include <sddl.h>
#include <io.h>
// clang-format on

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "platform/utf16.h"
#include "platform/windows_files.h"

namespace dc::platform {
namespace {

constexpr DWORD kWriteRights = FILE_WRITE_DATA | FILE_APPEND_DATA | FILE_WRITE_EA | FILE_DELETE_CHILD |
                               FILE_WRITE_ATTRIBUTES | DELETE | WRITE_DAC | WRITE_OWNER | GENERIC_WRITE | GENERIC_ALL;
constexpr DWORD kReadRights = FILE_READ_DATA | GENERIC_READ | GENERIC_ALL;

// The token's user and default owner.
struct Me {
  std::vector<unsigned char> user, owner;
  PSID user_sid() { return user.data(); }
  PSID owner_sid() { return owner.empty() ? user.data() : owner.data(); }
};

bool token_info(HANDLE token, TOKEN_INFORMATION_CLASS what, std::vector<unsigned char>* out) {
  DWORD n = 0;
  ::GetTokenInformation(token, what, nullptr, 0, &n);
  if (!n) return false;
  out->resize(n);
  return ::GetTokenInformation(token, what, out->data(), n, &n) != 0;
}

bool me(Me* m) {
  HANDLE token = nullptr;
  if (!::OpenProcessToken(::GetCurrentProcess(), TOKEN_QUERY, &token)) return false;
  std::vector<unsigned char> user, owner;
  bool ok = token_info(token, TokenUser, &user);
  if (ok && token_info(token, TokenOwner, &owner)) {
    PSID o = reinterpret_cast<TOKEN_OWNER*>(owner.data())->Owner;
    m->owner.assign(static_cast<unsigned char*>(o), static_cast<unsigned char*>(o) + ::GetLengthSid(o));
  }
  ::CloseHandle(token);
  if (!ok) return false;
  PSID u = reinterpret_cast<TOKEN_USER*>(user.data())->User.Sid;
  m->user.assign(static_cast<unsigned char*>(u), static_cast<unsigned char*>(u) + ::GetLengthSid(u));
  return true;
}

bool is_well_known(PSID sid, WELL_KNOWN_SID_TYPE type) { return ::IsWellKnownSid(sid, type) != 0; }

// "DOMAIN\name (S-1-5-...)", or the SID's text alone.
std::string sid_text(PSID sid) {
  std::string text;
  wchar_t* string_sid = nullptr;
  if (::ConvertSidToStringSidW(sid, &string_sid)) {
    text = narrow(string_sid);
    ::LocalFree(string_sid);
  }
  wchar_t name[256], domain[256];
  DWORD n = 256, d = 256;
  SID_NAME_USE use;
  if (::LookupAccountSidW(nullptr, sid, name, &n, domain, &d, &use))
    text = narrow((*domain ? std::wstring(domain) + L"\\" : std::wstring()) + name) + " (" + text + ")";
  return text;
}

// What is wrong with the security of the open file `h`: "" or a sentence.
// `forbidden`: the rights nobody but the trusted may have. `shared`: any
// named group may have them, the catch-all groups may not.
std::string security_problem(HANDLE h, DWORD forbidden, bool require_owner, bool shared) {
  Me m;
  if (!me(&m)) return "this process's user cannot be determined: " + windows_error_text(::GetLastError());
  PSID owner = nullptr;
  PACL dacl = nullptr;
  PSECURITY_DESCRIPTOR sd = nullptr;
  DWORD r = ::GetSecurityInfo(h, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION, &owner,
                              nullptr, &dacl, nullptr, &sd);
  if (r != ERROR_SUCCESS) return "its security cannot be read: " + windows_error_text(r);
  std::unique_ptr<void, decltype(&::LocalFree)> sd_owner(sd, &::LocalFree);
  if (require_owner && owner && !::EqualSid(owner, m.user_sid()) && !::EqualSid(owner, m.owner_sid()))
    return "it is owned by " + sid_text(owner) + ", not by this process's user, " + sid_text(m.user_sid());
  if (!dacl) return "it has no access control list (a NULL DACL: everybody may write it)";
  for (DWORD i = 0; i < dacl->AceCount; ++i) {
    void* ace = nullptr;
    if (!::GetAce(dacl, i, &ace)) continue;
    auto* header = static_cast<ACE_HEADER*>(ace);
    if (header->AceType != ACCESS_ALLOWED_ACE_TYPE || (header->AceFlags & INHERIT_ONLY_ACE)) continue;
    auto* allowed = static_cast<ACCESS_ALLOWED_ACE*>(ace);
    if (!(allowed->Mask & forbidden)) continue;
    PSID sid = &allowed->SidStart;
    if (::EqualSid(sid, m.user_sid()) || ::EqualSid(sid, m.owner_sid()) || is_well_known(sid, WinLocalSystemSid) ||
        is_well_known(sid, WinBuiltinAdministratorsSid) || (owner && ::EqualSid(sid, owner) && require_owner))
      continue;
    bool catch_all = is_well_known(sid, WinWorldSid) || is_well_known(sid, WinAuthenticatedUserSid) ||
                     is_well_known(sid, WinBuiltinUsersSid) || is_well_known(sid, WinAnonymousSid);
    if (shared && !catch_all) continue;
    return std::string(forbidden == kReadRights ? "it may be read by " : "it is writable by ") + sid_text(sid) +
           " (its access control list allows it)";
  }
  return {};
}

// A protected list: the user, SYSTEM and Administrators, inherited by what
// is made inside.
std::unique_ptr<void, decltype(&::LocalFree)> private_descriptor() {
  std::unique_ptr<void, decltype(&::LocalFree)> none(nullptr, &::LocalFree);
  Me m;
  if (!me(&m)) return none;
  wchar_t* user = nullptr;
  if (!::ConvertSidToStringSidW(m.user_sid(), &user)) return none;
  std::wstring sddl = L"D:P(A;OICI;FA;;;" + std::wstring(user) + L")(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)";
  ::LocalFree(user);
  PSECURITY_DESCRIPTOR sd = nullptr;
  if (!::ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl.c_str(), SDDL_REVISION_1, &sd, nullptr)) return none;
  return std::unique_ptr<void, decltype(&::LocalFree)>(sd, &::LocalFree);
}

}  // namespace

std::string directory_problem(const struct stat& st, DirectoryRule) {
  // A stat result carries no owner or access list on Windows: the rule is
  // judged on the open directory (open_directory_problem).
  return S_ISDIR(st.st_mode) ? "" : "it is not a directory";
}

std::string open_directory_problem(int dir_fd, DirectoryRule rule) {
  HANDLE h = static_cast<HANDLE>(win::directory_handle(dir_fd));
  if (!h) return "it is not an open directory";
  return security_problem(h, kWriteRights, rule == DirectoryRule::kPrivate, rule == DirectoryRule::kShared);
}

bool file_is_private(const struct stat& st) noexcept {
  // The file's own owner is not in a stat result here; a cache file is
  // trusted through its directory, which only its user may write (the
  // directory's check above).
  return S_ISREG(st.st_mode);
}

std::string make_private_directories(const std::string& path) {
  std::wstring wide = win::path_at(kWorkingDirectory, path);
  if (wide.empty()) return path + " is not a valid path (not UTF-8)";
  DWORD attributes = ::GetFileAttributesW(wide.c_str());
  if (attributes != INVALID_FILE_ATTRIBUTES)
    return (attributes & FILE_ATTRIBUTE_DIRECTORY) ? "" : path + " is not a directory";
  size_t slash = path.find_last_of("\\/");
  // Down to a drive ("C:") or a share's root, which exist or not.
  if (slash != std::string::npos && slash > 0 && path[slash - 1] != ':' && path[slash - 1] != '\\' &&
      path[slash - 1] != '/') {
    std::string problem = make_private_directories(path.substr(0, slash));
    if (!problem.empty()) return problem;
  }
  auto sd = private_descriptor();
  SECURITY_ATTRIBUTES sa{sizeof sa, sd.get(), FALSE};
  if (!::CreateDirectoryW(wide.c_str(), sd ? &sa : nullptr) && ::GetLastError() != ERROR_ALREADY_EXISTS)
    return "cannot create " + path + ": " + windows_error_text(::GetLastError());
  // Made here, or by someone else just now: either way it must be ours alone.
  int fd = win::open_directory_descriptor(path);
  if (fd < 0) return "cannot create " + path + ": " + std::strerror(errno);
  std::string problem = open_directory_problem(fd, DirectoryRule::kPrivate);
  win::close_descriptor(fd);
  return problem.empty() ? "" : path + ", a directory dccuda was creating: " + problem;
}

UniqueFd open_directory(const std::string& path) noexcept { return UniqueFd(win::open_directory_descriptor(path)); }

std::string read_private_key_file(const std::string& path, size_t min_bytes, size_t max_bytes, std::string* key) {
  RegularFile file;
  int error = 0;
  if (open_regular_file(kWorkingDirectory, path.c_str(), true, &file, &error) != OpenResult::kOk)
    return "cannot read " + path + (error ? std::string(": ") + std::strerror(error) : ": not a regular file");
  HANDLE h = reinterpret_cast<HANDLE>(::_get_osfhandle(file.fd.get()));
  std::string problem = security_problem(h, kReadRights | kWriteRights, true, false);
  if (!problem.empty())
    return path + ": " + problem + "; let only your own user read it (icacls " + path +
           " /inheritance:r /grant:r %USERNAME%:F)";
  if (file.file_size() < min_bytes || file.file_size() > max_bytes)
    return path + " holds " + std::to_string(file.file_size()) + " bytes; a key is " + std::to_string(min_bytes) +
           " to " + std::to_string(max_bytes) + " bytes";
  key->resize(static_cast<size_t>(file.file_size()));
  if (!read_exactly(file.fd.get(), key->data(), key->size())) return "cannot read " + path;
  return {};
}

}  // namespace dc::platform

#endif  // _WIN32
