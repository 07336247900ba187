# dc_queue_kernel_sources(<dir>): writes <dir>/queue_kernel_sources.h, which
# holds include/dccuda_device.h and tests/queue/echo_kernel.cuh as C++ string
# constants (kDeviceHeaderSource, kEchoKernelSource), for programs that
# compile the echo actor with NVRTC at run time (the queue tests, bench_queue):
# they pass both to dc_compile as in-memory headers. Rewritten at configure
# time whenever either file changes.
function(dc_queue_kernel_sources dir)
  file(READ ${PROJECT_SOURCE_DIR}/include/dccuda_device.h _device_header)
  file(READ ${PROJECT_SOURCE_DIR}/tests/queue/echo_kernel.cuh _echo_kernel)
  file(CONFIGURE OUTPUT ${dir}/queue_kernel_sources.h CONTENT
"// Generated from include/dccuda_device.h and tests/queue/echo_kernel.cuh at configure time.
#pragma once
inline const char kDeviceHeaderSource[] = R\"dcsrc(\${_device_header})dcsrc\";
inline const char kEchoKernelSource[] = R\"dcsrc(\${_echo_kernel})dcsrc\";
")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${PROJECT_SOURCE_DIR}/include/dccuda_device.h ${PROJECT_SOURCE_DIR}/tests/queue/echo_kernel.cuh)
endfunction()

# dc_queue_kernel_sources_c(<dir>): the same two files as C string literals,
# in <dir>/queue_kernel_sources_c.h (kDeviceHeaderSource, kEchoKernelSource),
# for the C samples (C has no raw strings).
function(dc_queue_kernel_sources_c dir)
  set(_out "/* Generated from include/dccuda_device.h and tests/queue/echo_kernel.cuh at configure time. */\n")
  foreach(_pair "kDeviceHeaderSource;include/dccuda_device.h" "kEchoKernelSource;tests/queue/echo_kernel.cuh")
    list(GET _pair 0 _name)
    list(GET _pair 1 _file)
    file(READ ${PROJECT_SOURCE_DIR}/${_file} _text)
    string(REPLACE "\\" "\\\\" _text "${_text}")
    string(REPLACE "\"" "\\\"" _text "${_text}")
    string(REPLACE "\n" "\\n\"\n\"" _text "${_text}")
    string(APPEND _out "static const char ${_name}[] =\n\"${_text}\";\n")
  endforeach()
  file(WRITE ${dir}/queue_kernel_sources_c.h.tmp "${_out}")
  file(COPY_FILE ${dir}/queue_kernel_sources_c.h.tmp ${dir}/queue_kernel_sources_c.h ONLY_IF_DIFFERENT)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${PROJECT_SOURCE_DIR}/include/dccuda_device.h ${PROJECT_SOURCE_DIR}/tests/queue/echo_kernel.cuh)
endfunction()

# dc_queue_kernel_sources_cs(<dir>): the same two files as C# verbatim strings,
# in <dir>/QueueKernelSources.cs (QueueKernelSources.DeviceHeader, .EchoKernel),
# for the C# echo-actor sample (bindings/csharp/samples/EchoActor.cs).
function(dc_queue_kernel_sources_cs dir)
  set(_out "// Generated from include/dccuda_device.h and tests/queue/echo_kernel.cuh at configure time.\ninternal static class QueueKernelSources\n{\n")
  foreach(_pair "DeviceHeader;include/dccuda_device.h" "EchoKernel;tests/queue/echo_kernel.cuh")
    list(GET _pair 0 _name)
    list(GET _pair 1 _file)
    file(READ ${PROJECT_SOURCE_DIR}/${_file} _text)
    string(REPLACE "\"" "\"\"" _text "${_text}")
    string(APPEND _out "    internal const string ${_name} = @\"${_text}\";\n")
  endforeach()
  string(APPEND _out "}\n")
  file(WRITE ${dir}/QueueKernelSources.cs.tmp "${_out}")
  file(COPY_FILE ${dir}/QueueKernelSources.cs.tmp ${dir}/QueueKernelSources.cs ONLY_IF_DIFFERENT)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${PROJECT_SOURCE_DIR}/include/dccuda_device.h ${PROJECT_SOURCE_DIR}/tests/queue/echo_kernel.cuh)
endfunction()
