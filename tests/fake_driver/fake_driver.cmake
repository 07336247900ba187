# The fake driver: a test double exporting the driver entry points dccuda
# resolves, backed by host memory, with fault injection (fake_control.h).
# Included by tests/CMakeLists.txt, and on its own with
# -DDCCUDA_BUILD_FAKE_DRIVER=ON -DDCCUDA_BUILD_TESTS=OFF (the release build
# cross-builds it to run dccuda-info under qemu). Its output goes to
# <build>/tests either way; DCFAKE_PATH names it.
file(GLOB DCFAKE_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
add_library(dcfake_cuda SHARED ${DCFAKE_SOURCES})
# dccuda's own CUDA declarations (src/loader/cuda_abi), as the library uses.
target_include_directories(dcfake_cuda PRIVATE ${PROJECT_SOURCE_DIR}/src)
# The resident kernels run the kernel side of include/dccuda_device.h (the echo
# actor of tests/queue), compiled for the host.
target_include_directories(dcfake_cuda PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/tests/queue)
target_compile_options(dcfake_cuda PRIVATE -Wall -Wextra $<$<BOOL:${DCCUDA_WERROR}>:-Werror>)
target_link_libraries(dcfake_cuda PRIVATE Threads::Threads)
set_target_properties(dcfake_cuda PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
if(WIN32)
  # dcfake_nvcuda.dll, beside the Windows test programs; every entry point
  # exported by name, as nvcuda.dll (and the fake's libdcfake_cuda.so) do.
  set_target_properties(dcfake_cuda PROPERTIES PREFIX "" OUTPUT_NAME dcfake_nvcuda)
  target_link_options(dcfake_cuda PRIVATE -Wl,--export-all-symbols -static -static-libgcc -static-libstdc++)
  set(DCFAKE_PATH ${PROJECT_BINARY_DIR}/bin/dcfake_nvcuda.dll)
else()
  set(DCFAKE_PATH ${PROJECT_BINARY_DIR}/tests/libdcfake_cuda.so)
endif()
