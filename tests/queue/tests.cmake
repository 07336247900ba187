# Message queues and resident kernels. By default against the fake driver,
# where a host thread plays the kernel (the same echo code, compiled for the
# host); the same binaries run a real resident kernel on a GPU machine.
set(DCTEST_QUEUE ${CMAKE_CURRENT_SOURCE_DIR}/queue)

# The kernel sources as strings, for NVRTC (cmake/queue_kernel_sources.cmake).
include(${PROJECT_SOURCE_DIR}/cmake/queue_kernel_sources.cmake)
dc_queue_kernel_sources(${CMAKE_CURRENT_BINARY_DIR}/queue)

dc_test(test_queue SOURCES ${DCTEST_QUEUE}/test_queue.cpp ${DCTEST_QUEUE}/test_control.cpp
        ${DCTEST_QUEUE}/test_flagged_ring.cpp ${DCTEST_QUEUE}/test_flagged_ring_lazy.cpp LABELS threads memcheck)
dc_test(test_resident SOURCES ${DCTEST_QUEUE}/test_resident.cpp LABELS threads memcheck)
dc_test(test_persistent SOURCES ${DCTEST_QUEUE}/test_persistent.cpp LABELS threads memcheck)
dc_test(test_stream_values SOURCES ${DCTEST_QUEUE}/test_stream_values.cpp LABELS threads memcheck)
# The relay across two devices (RelayTest.KernelsOnTwoDevices*), which skips
# with one device: on two fake devices, each kernel a thread of the fake.
add_test(NAME test_resident_two_devices COMMAND env ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 $<TARGET_FILE:test_resident>
         --gtest_filter=RelayTest.KernelsOnTwoDevices*)
set_tests_properties(test_resident_two_devices PROPERTIES TIMEOUT 300 LABELS "fake;threads"
  SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
foreach(_t test_queue test_resident test_persistent test_stream_values)
  target_include_directories(${_t} PRIVATE ${DCTEST_QUEUE} ${CMAKE_CURRENT_BINARY_DIR}/queue)
endforeach()

# The C sample (src/tools/echo_actor.c): on the fake driver the actor runs on
# a thread of the fake; without NVRTC it says so and skips.
add_test(NAME echo_actor_sample_fake COMMAND env ${DCTEST_FAKE_ENV} $<TARGET_FILE:dccuda-echo-actor> 300)
set_tests_properties(echo_actor_sample_fake PROPERTIES TIMEOUT 120 PASS_REGULAR_EXPRESSION "dccuda-echo-actor: OK"
  SKIP_REGULAR_EXPRESSION "NVRTC is not available")
