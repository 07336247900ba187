# Message queues and resident kernels. By default against the fake driver,
# where a host thread plays the kernel (the same echo code, compiled for the
# host); the same binaries run a real resident kernel on a GPU machine.
set(DCTEST_QUEUE ${CMAKE_CURRENT_SOURCE_DIR}/queue)

# The kernel sources as strings, for NVRTC on a GPU: include/dccuda_device.h
# and the echo actor, passed to dc_compile as in-memory headers.
set(_queue_sources ${CMAKE_CURRENT_BINARY_DIR}/queue/queue_kernel_sources.h)
file(READ ${PROJECT_SOURCE_DIR}/include/dccuda_device.h _device_header)
file(READ ${DCTEST_QUEUE}/echo_kernel.cuh _echo_kernel)
file(CONFIGURE OUTPUT ${_queue_sources} CONTENT
"// Generated from include/dccuda_device.h and tests/queue/echo_kernel.cuh at configure time.
#pragma once
inline const char kDeviceHeaderSource[] = R\"dcsrc(\${_device_header})dcsrc\";
inline const char kEchoKernelSource[] = R\"dcsrc(\${_echo_kernel})dcsrc\";
")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/include/dccuda_device.h ${DCTEST_QUEUE}/echo_kernel.cuh)

dc_test(test_queue SOURCES ${DCTEST_QUEUE}/test_queue.cpp ${DCTEST_QUEUE}/test_control.cpp LABELS threads memcheck)
dc_test(test_resident SOURCES ${DCTEST_QUEUE}/test_resident.cpp LABELS threads memcheck)
dc_test(test_persistent SOURCES ${DCTEST_QUEUE}/test_persistent.cpp LABELS threads memcheck)
foreach(_t test_queue test_resident test_persistent)
  target_include_directories(${_t} PRIVATE ${DCTEST_QUEUE} ${CMAKE_CURRENT_BINARY_DIR}/queue)
endforeach()
