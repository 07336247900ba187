# Cross-building dccuda.dll for Windows x64 with MinGW-w64 (Debian's
# g++-mingw-w64-x86-64-posix: the posix thread model, which std::thread and
# std::mutex need):
#   cmake -S . -B build-windows -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake
# The programs it builds run under Wine (tests/scripts/run_windows.sh).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(_dc_mingw x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${_dc_mingw}-gcc-posix)
set(CMAKE_CXX_COMPILER ${_dc_mingw}-g++-posix)
set(CMAKE_RC_COMPILER ${_dc_mingw}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${_dc_mingw})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
