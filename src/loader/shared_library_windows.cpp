// shared_library.h on Windows: LoadLibraryExW, GetProcAddress,
// GetModuleHandleExW. Paths are UTF-8 in dccuda and UTF-16 here
// (platform/utf16.h). The search never includes the current directory or
// PATH (the DLL-planting holes of plain LoadLibrary): a bare nvcuda.dll is
// taken from System32 only (the driver is a system component there), another
// bare name from the application's folder, System32 and AddDllDirectory's
// folders, and a path from that path (its own dependencies beside it first).
#if defined(_WIN32)

#include "loader/shared_library.h"

#include <windows.h>

#include <cwctype>

#include "platform/utf16.h"

namespace dc {
namespace {

bool has_separator(const std::string& path) { return path.find_first_of("\\/:") != std::string::npos; }

bool equal_ignoring_case(const std::wstring& a, const wchar_t* b) {
  size_t i = 0;
  for (; i < a.size() && b[i]; ++i)
    if (std::towlower(a[i]) != std::towlower(b[i])) return false;
  return i == a.size() && !b[i];
}

// The module (DLL or executable) that holds `address`, or the path of it.
std::wstring module_file(const void* address) {
  HMODULE module = nullptr;
  if (!address ||
      !::GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                            static_cast<LPCWSTR>(address), &module))
    return {};
  std::wstring file(MAX_PATH, L'\0');
  for (;;) {
    DWORD n = ::GetModuleFileNameW(module, file.data(), static_cast<DWORD>(file.size()));
    if (n == 0) return {};
    if (n < file.size()) {
      file.resize(n);
      break;
    }
    if (file.size() >= 32768) return {};  // the longest path Windows has
    file.resize(file.size() * 2);
  }
  // \\?\ long-path form: the plain form is what the rest of the code joins to.
  if (file.rfind(L"\\\\?\\", 0) == 0 && file.rfind(L"\\\\?\\UNC\\", 0) != 0) file.erase(0, 4);
  return file;
}

}  // namespace

void* open_shared_library(const std::string& path, std::string* error) {
  bool valid = true;
  std::wstring wide = platform::widen(path, &valid);
  if (!valid || wide.empty()) {
    if (error) *error = "the name is empty or not valid UTF-8";
    return nullptr;
  }
  DWORD flags;
  if (!has_separator(path)) {
    flags = equal_ignoring_case(wide, L"nvcuda.dll") ? LOAD_LIBRARY_SEARCH_SYSTEM32 : LOAD_LIBRARY_SEARCH_DEFAULT_DIRS;
  } else {
    // LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR needs an absolute path: a relative
    // one is the caller's, relative to the working directory.
    for (wchar_t& c : wide)
      if (c == L'/') c = L'\\';
    DWORD n = ::GetFullPathNameW(wide.c_str(), 0, nullptr, nullptr);
    if (n) {
      std::wstring full(n, L'\0');
      n = ::GetFullPathNameW(wide.c_str(), n, full.data(), nullptr);
      if (n && n < full.size()) {
        full.resize(n);
        wide = full;
      }
    }
    flags = LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR;
  }
  // No "cannot find the file" dialog box for a missing library.
  UINT old_mode = ::SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX);
  HMODULE library = ::LoadLibraryExW(wide.c_str(), nullptr, flags);
  DWORD code = ::GetLastError();
  ::SetErrorMode(old_mode);
  if (!library && error) *error = platform::windows_error_text(code);
  return library;
}

void* find_shared_library_symbol(void* library, const char* name) {
  return reinterpret_cast<void*>(::GetProcAddress(static_cast<HMODULE>(library), name));
}

std::string dccuda_library_folder() {
  // Any function of the library names the file it was loaded from.
  std::wstring file = module_file(reinterpret_cast<const void*>(&dccuda_library_folder));
  size_t slash = file.find_last_of(L"\\/");
  if (slash == std::wstring::npos) return {};
  return platform::narrow(file.substr(0, slash));
}

std::string path_in_folder(const std::string& folder, const std::string& name) {
  if (!folder.empty() && (folder.back() == '\\' || folder.back() == '/')) return folder + name;
  return folder + "\\" + name;
}

std::string loaded_library_file(const void* address) { return platform::narrow(module_file(address)); }

const char* default_driver_library() { return "nvcuda.dll"; }

const char* default_nvml_library() { return "nvml.dll"; }

std::vector<std::string> nvrtc_file_names() { return {"nvrtc64_130_0.dll", "nvrtc64_120_0.dll"}; }

std::vector<std::string> nvjitlink_file_names() { return {"nvJitLink_130_0.dll", "nvJitLink_120_0.dll"}; }

std::vector<std::string> cufft_file_names() { return {"cufft64_12.dll", "cufft64_11.dll"}; }

std::vector<std::string> toolkit_nvrtc_folders(const std::string& cuda_home, const std::string& cuda_path) {
  // The CUDA installer sets CUDA_PATH; NVRTC's DLLs are in its bin\x64
  // folder from CUDA 13 on, in bin before.
  std::vector<std::string> out;
  for (const std::string& root : {cuda_path, cuda_home}) {
    if (root.empty()) continue;
    out.push_back(path_in_folder(path_in_folder(root, "bin"), "x64"));
    out.push_back(path_in_folder(root, "bin"));
  }
  return out;
}

}  // namespace dc

#endif  // _WIN32
