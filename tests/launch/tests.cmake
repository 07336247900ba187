# Kernel launches and occupancy. By default against the fake driver (which
# emulates the test kernels); the same binaries run against a real driver on
# a GPU machine.
set(DCTEST_LAUNCH ${CMAKE_CURRENT_SOURCE_DIR}/launch)

dc_test(test_launch SOURCES ${DCTEST_LAUNCH}/test_launch_args.cpp ${DCTEST_LAUNCH}/test_launch_config.cpp
  ${DCTEST_LAUNCH}/test_prepared.cpp ${DCTEST_LAUNCH}/test_launch_batch.cpp ${DCTEST_LAUNCH}/test_occupancy.cpp ${DCTEST_LAUNCH}/test_limits.cpp
  LABELS threads memcheck)
dc_test(test_launch_kernels SOURCES ${DCTEST_LAUNCH}/test_kernels.cpp LABELS memcheck)
dc_test(test_launch_faults SOURCES ${DCTEST_LAUNCH}/test_launch_faults.cpp LABELS faults)
# Two fake devices: streams, buffers and graphs of the wrong device, peer memory.
dc_test(test_launch_multi_device SOURCES ${DCTEST_LAUNCH}/test_launch_multi_device.cpp
  ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 LABELS memcheck)
# A CUDA 12.0 driver: parameter layouts from the image.
dc_test(test_launch_old_driver SOURCES ${DCTEST_LAUNCH}/test_launch_old_driver.cpp
  ENV ${DCTEST_FAKE_ENV} DCFAKE_DRIVER_VERSION=12000)
# A driver without the extended launch.
dc_test(test_launch_no_ex SOURCES ${DCTEST_LAUNCH}/test_launch_no_ex.cpp
  ENV ${DCTEST_FAKE_ENV} DCFAKE_MISSING=cuLaunchKernelEx,cuOccupancyMaxActiveClusters)
# White-box: unknown parameter layouts, the prepared launch's guard.
dc_test(test_launch_internal SOURCES ${DCTEST_LAUNCH}/test_launch_internal.cpp INTERNAL LABELS threads)
foreach(t test_launch test_launch_kernels test_launch_faults test_launch_multi_device test_launch_old_driver
          test_launch_no_ex test_launch_internal)
  target_link_libraries(${t} PRIVATE dctest_kernels)
endforeach()

# The C sample: on the fake driver it runs the emulation (and says so);
# without a driver it compiles to PTX only and still succeeds.
add_test(NAME saxpy_sample_fake COMMAND env ${DCTEST_FAKE_ENV} $<TARGET_FILE:dccuda-saxpy> 100003)
set_tests_properties(saxpy_sample_fake PROPERTIES PASS_REGULAR_EXPRESSION "saxpy: OK \\(on the fake driver")
add_test(NAME saxpy_sample_no_driver
  COMMAND env DCCUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1 DCCUDA_CACHE_DIR=${DCTEST_CACHE_DIR} $<TARGET_FILE:dccuda-saxpy>)
set_tests_properties(saxpy_sample_no_driver PROPERTIES PASS_REGULAR_EXPRESSION "no GPU is available.*compiled saxpy to PTX with NVRTC: [0-9]+ bytes")
# Both compile saxpy: without NVRTC (no toolkit) they skip; their output says why.
set_tests_properties(saxpy_sample_fake saxpy_sample_no_driver PROPERTIES SKIP_REGULAR_EXPRESSION "NVRTC is not available")
