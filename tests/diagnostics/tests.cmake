# Seeing inside: the log hook, live handles, telemetry, profiler ranges, launch traces.
set(DCTEST_DIAG ${CMAKE_CURRENT_SOURCE_DIR}/diagnostics)

# Its own main: no dc_ call before the first test, which hears the driver load.
dc_test(test_log SOURCES ${DCTEST_DIAG}/test_log.cpp OWN_MAIN LABELS threads)
# The same on a CUDA 12.0 driver: entry points missing, older ones standing in.
dc_test(test_log_old_driver SOURCES ${DCTEST_DIAG}/test_log.cpp OWN_MAIN
  ENV ${DCTEST_FAKE_ENV} DCFAKE_DRIVER_VERSION=12000 FAKE_ONLY)
# Live handles and the leak report at exit (children that leak on purpose).
dc_test(test_handle_report SOURCES ${DCTEST_DIAG}/test_handle_report.cpp OWN_MAIN)

# The fake NVML (tests/fake_nvml): NVML's functions with fixed values, its
# devices in another order than CUDA's.
add_library(dcfake_nvml SHARED ${PROJECT_SOURCE_DIR}/tests/fake_nvml/fake_nvml.cpp)
target_include_directories(dcfake_nvml PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_options(dcfake_nvml PRIVATE -Wall -Wextra $<$<BOOL:${DCCUDA_WERROR}>:-Werror>)
set_target_properties(dcfake_nvml PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
set(DCFAKE_NVML_PATH ${PROJECT_BINARY_DIR}/tests/libdcfake_nvml.so)
# Telemetry through the fake NVML, two devices listed in reverse order.
dc_test(test_telemetry SOURCES ${DCTEST_DIAG}/test_telemetry.cpp
  ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 DCCUDA_NVML_LIBRARY=${DCFAKE_NVML_PATH} DCTEST_FAKE_NVML_PATH=${DCFAKE_NVML_PATH}
  FAKE_ONLY)
add_dependencies(test_telemetry dcfake_nvml)
# Without NVML: every field unavailable, with the reason (the GPU suite runs
# this one against the real driver and its real NVML).
dc_test(test_telemetry_real SOURCES ${DCTEST_DIAG}/test_telemetry.cpp
  ENV ${DCTEST_FAKE_ENV} DCCUDA_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1 LABELS memcheck)
# dccuda-info's telemetry: the report, --json, --watch SECONDS --count N.
add_test(NAME dccuda_info.telemetry COMMAND ${Python3_EXECUTABLE} ${DCTEST_DIAG}/check_info_telemetry.py
  $<TARGET_FILE:dccuda-info> ${DCFAKE_PATH} ${DCFAKE_NVML_PATH})
set_tests_properties(dccuda_info.telemetry PROPERTIES LABELS fake TIMEOUT 60)

# Profiler ranges: the recording NVTX injection library, and the tests with and without it.
add_library(dctest_nvtx_recorder SHARED ${DCTEST_DIAG}/nvtx_recorder.cpp)
target_compile_options(dctest_nvtx_recorder PRIVATE -Wall -Wextra $<$<BOOL:${DCCUDA_WERROR}>:-Werror>)
set_target_properties(dctest_nvtx_recorder PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
set(DCTEST_NVTX_RECORDER ${PROJECT_BINARY_DIR}/tests/libdctest_nvtx_recorder.so)
dc_test(test_profiler SOURCES ${DCTEST_DIAG}/test_profiler.cpp
  ENV ${DCTEST_FAKE_ENV} NVTX_INJECTION64_PATH=${DCTEST_NVTX_RECORDER})
add_dependencies(test_profiler dctest_nvtx_recorder)
dc_test(test_profiler_no_tool SOURCES ${DCTEST_DIAG}/test_profiler.cpp FAKE_ONLY)

# The launch-trace hook (the launch tests' kernels, emulated by the fake driver).
dc_test(test_launch_trace SOURCES ${DCTEST_DIAG}/test_launch_trace.cpp LABELS memcheck threads)
target_link_libraries(test_launch_trace PRIVATE dctest_kernels)
