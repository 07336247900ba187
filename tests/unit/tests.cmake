# The foundation's tests: status and errors, handles, loader, devices.
set(DCTEST_UNIT ${CMAKE_CURRENT_SOURCE_DIR}/unit)

# No driver at all: a path that does not exist (works on any machine).
dc_test(test_no_driver SOURCES ${DCTEST_UNIT}/test_no_driver.cpp
  ENV DCCUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1 DCCUDA_CACHE_DIR=${DCTEST_CACHE_DIR} FAKE_ONLY)
# The toolkit's stub libcuda.so is recognised as a stub, not a driver.
if(CUDAToolkit_FOUND AND EXISTS ${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so)
  dc_test(test_stub_driver SOURCES ${DCTEST_UNIT}/test_stub_driver.cpp
    ENV DCCUDA_DRIVER_LIBRARY=${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so DCCUDA_CACHE_DIR=${DCTEST_CACHE_DIR} FAKE_ONLY)
else()
  dc_skip_test(test_stub_driver "no CUDA toolkit here, so no stub libcuda.so to recognise")
endif()
# The default search (libcuda.so.1) on a machine without a driver: skips itself where one exists.
dc_test(test_default_driver SOURCES ${DCTEST_UNIT}/test_default_driver.cpp ENV DCCUDA_CACHE_DIR=${DCTEST_CACHE_DIR})
# dc_init with explicit options; its own main (nothing may initialise first).
dc_test(test_init SOURCES ${DCTEST_UNIT}/test_init.cpp OWN_MAIN ENV DCFAKE_PATH=${DCFAKE_PATH} DCCUDA_CACHE_DIR=${DCTEST_CACHE_DIR} FAKE_ONLY)

dc_test(test_status SOURCES ${DCTEST_UNIT}/test_status.cpp LABELS threads)
dc_test(test_handles SOURCES ${DCTEST_UNIT}/test_handles.cpp INTERNAL LABELS threads)
dc_test(test_loader SOURCES ${DCTEST_UNIT}/test_loader.cpp INTERNAL)
if(CUDAToolkit_FOUND)
  # Without the toolkit the test that reads it skips itself, saying so.
  target_compile_definitions(test_loader PRIVATE DCTEST_CUDA_TYPEDEFS="${CUDAToolkit_INCLUDE_DIRS}/cudaTypedefs.h")
endif()
# A CUDA 12.0 driver: newer entry points are missing, the rest works.
dc_test(test_old_driver SOURCES ${DCTEST_UNIT}/test_old_driver.cpp
  ENV ${DCTEST_FAKE_ENV} DCFAKE_DRIVER_VERSION=12000 DCFAKE_DEVICES=1 FAKE_ONLY)
dc_test(test_device SOURCES ${DCTEST_UNIT}/test_device.cpp ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 LABELS threads memcheck)
# A CUDA 11.8 driver is refused with a clear message.
dc_test(test_too_old_driver SOURCES ${DCTEST_UNIT}/test_old_driver.cpp
  ENV ${DCTEST_FAKE_ENV} DCFAKE_DRIVER_VERSION=11080 FAKE_ONLY)
dc_test(test_peer SOURCES ${DCTEST_UNIT}/test_peer.cpp ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2)
dc_test(test_peer_forbidden SOURCES ${DCTEST_UNIT}/test_peer.cpp ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 DCFAKE_NO_PEER=1)

# dc_cuda_error_name's table against the toolkit's cuda.h, and the same check with one name
# dropped, which must name it.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
foreach(_inc ${CUDAToolkit_INCLUDE_DIRS})
  if(EXISTS ${_inc}/cuda.h)
    set(_dc_cuda_h ${_inc}/cuda.h)
  endif()
endforeach()
if(NOT _dc_cuda_h)
  dc_skip_test(cuda_result_names.complete "no CUDA toolkit here, so no cuda.h to compare dc_cuda_error_name's table with")
else()
add_test(NAME cuda_result_names.complete
  COMMAND ${Python3_EXECUTABLE} ${DCTEST_UNIT}/check_cuda_result_names.py ${_dc_cuda_h}
          ${PROJECT_SOURCE_DIR}/src/core/cuda_result_names.inc)
add_test(NAME cuda_result_names.planted_missing_fails
  COMMAND ${Python3_EXECUTABLE} ${DCTEST_UNIT}/check_cuda_result_names.py ${_dc_cuda_h}
          ${PROJECT_SOURCE_DIR}/src/core/cuda_result_names.inc --plant-missing CUDA_ERROR_ILLEGAL_ADDRESS)
set_tests_properties(cuda_result_names.planted_missing_fails PROPERTIES
  PASS_REGULAR_EXPRESSION "no DC_CUDA_RESULT\\(CUDA_ERROR_ILLEGAL_ADDRESS\\) line.*1 missing")
set_tests_properties(cuda_result_names.complete cuda_result_names.planted_missing_fails PROPERTIES LABELS fake TIMEOUT 30)
endif()

# Every environment variable through one strict parser (each case in a child process).
dc_test(test_config SOURCES ${DCTEST_UNIT}/test_config.cpp OWN_MAIN ENV ${DCTEST_FAKE_ENV} DCTEST_FAKE_PATH=${DCFAKE_PATH})
