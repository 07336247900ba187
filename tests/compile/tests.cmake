# Runtime compilation and the kernel cache (real NVRTC; no GPU needed).
set(DCTEST_COMPILE ${CMAKE_CURRENT_SOURCE_DIR}/compile)
add_library(dctest_kernels STATIC ${DCTEST_COMPILE}/kernel_sources.cpp)
target_include_directories(dctest_kernels PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})

dc_test(test_compile SOURCES ${DCTEST_COMPILE}/test_compile.cpp LABELS threads)
target_link_libraries(test_compile PRIVATE dctest_kernels)
# White-box: SHA-256, the cache entry format, logs, versions, the include scan.
dc_test(test_compile_internal SOURCES ${DCTEST_COMPILE}/test_compile_internal.cpp INTERNAL)
# No driver at all: compiling still works.
dc_test(test_compile_no_driver SOURCES ${DCTEST_COMPILE}/test_compile_no_driver.cpp
  ENV DCCUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1 DCCUDA_CACHE_DIR=${DCTEST_CACHE_DIR})
target_link_libraries(test_compile_no_driver PRIVATE dctest_kernels)
# No NVRTC: compiling reports it, precompiled images still load.
dc_test(test_no_nvrtc SOURCES ${DCTEST_COMPILE}/test_no_nvrtc.cpp
  ENV ${DCTEST_FAKE_ENV} DCCUDA_NVRTC_LIBRARY=/nonexistent/lib64/libnvrtc.so.13)
target_link_libraries(test_no_nvrtc PRIVATE dctest_kernels)
# The cache: its own main gives each process a fresh cache directory.
dc_test(test_cache SOURCES ${DCTEST_COMPILE}/test_cache.cpp OWN_MAIN ENV DCCUDA_DRIVER_LIBRARY=${DCFAKE_PATH})
target_link_libraries(test_cache PRIVATE dctest_kernels)
# The cache against FIFOs, links, huge and foreign files (its own main: a fresh cache directory per process).
dc_test(test_cache_files SOURCES ${DCTEST_COMPILE}/test_cache_files.cpp OWN_MAIN ENV DCCUDA_DRIVER_LIBRARY=${DCFAKE_PATH})
target_link_libraries(test_cache_files PRIVATE dctest_kernels)
# One compile per source at a time, in a process and across processes (its own main: a fresh cache directory).
dc_test(test_single_flight SOURCES ${DCTEST_COMPILE}/test_single_flight.cpp OWN_MAIN ENV DCCUDA_DRIVER_LIBRARY=${DCFAKE_PATH})
target_link_libraries(test_single_flight PRIVATE dctest_kernels)
