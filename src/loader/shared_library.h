// The operating system's part of the loaders: opening a shared library,
// finding a symbol in it, the folder dccuda itself was loaded from, and the
// system's names for the driver and NVRTC. One implementation file per
// system (shared_library_posix.cpp: dlopen; shared_library_windows.cpp:
// LoadLibraryExW); the rest of the library calls only these.
#pragma once

#include <string>
#include <vector>

namespace dc {

// Opens the library at `path` (a bare file name is looked up the system's
// way), binding every symbol now and keeping them out of the global scope.
// nullptr on failure, with the system's reason in *error. On Windows the
// current directory and PATH are never searched: a bare nvcuda.dll comes from
// System32 only, another bare name from the application's folder, System32
// and the folders added with AddDllDirectory; a path is loaded from there,
// its own dependencies looked for beside it first.
void* open_shared_library(const std::string& path, std::string* error);

// The address of `name` in a library opened by open_shared_library, or nullptr.
void* find_shared_library_symbol(void* library, const char* name);

// The folder that holds the loaded dccuda library (libdccuda.so.1; the
// executable when dccuda is linked statically), without a trailing separator;
// empty if the system cannot say. A package puts NVRTC there (NuGet's
// runtimes/<rid>/native), so it is searched first (loader/nvrtc.cpp).
std::string dccuda_library_folder();

// `folder` joined with the file name `name` by the system's separator.
std::string path_in_folder(const std::string& folder, const std::string& name);

// The file (an absolute path, links resolved) of the loaded library that
// holds `address`; empty if none does.
std::string loaded_library_file(const void* address);

// The driver library loaded when no other is configured: libcuda.so.1
// (never bare libcuda.so, which in a toolkit is the stub), nvcuda.dll.
const char* default_driver_library();

// NVML, the NVIDIA driver's management library (telemetry): libnvidia-ml.so.1,
// nvml.dll (which the driver puts in System32).
const char* default_nvml_library();

// NVRTC's file names, newest first: libnvrtc.so.13, .12; nvrtc64_130_0.dll,
// nvrtc64_120_0.dll.
std::vector<std::string> nvrtc_file_names();

// nvJitLink's file names, newest first: libnvJitLink.so.13, .12;
// nvJitLink_130_0.dll, nvJitLink_120_0.dll. It lies in the same folders as
// NVRTC (toolkit_nvrtc_folders).
std::vector<std::string> nvjitlink_file_names();

// cuFFT's file names, newest first: libcufft.so.12, .11; cufft64_12.dll,
// cufft64_11.dll. It lies in the same folders as NVRTC (toolkit_nvrtc_folders).
std::vector<std::string> cufft_file_names();

// The folders of a CUDA toolkit that hold NVRTC, given $CUDA_HOME and
// $CUDA_PATH (empty: unset): <root>/lib64 and /usr/local/cuda/lib64;
// %CUDA_PATH%\bin\x64 (CUDA 13 on), %CUDA_PATH%\bin, the same in %CUDA_HOME%.
std::vector<std::string> toolkit_nvrtc_folders(const std::string& cuda_home, const std::string& cuda_path);

}  // namespace dc
