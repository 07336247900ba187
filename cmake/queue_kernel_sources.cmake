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

# The two files the echo actor is compiled from, and the write every form
# below ends with: the file rewritten only when its text changed (no rebuild
# otherwise), configure run again when either source changes.
set(DC_QUEUE_KERNEL_FILES include/dccuda_device.h tests/queue/echo_kernel.cuh)
function(_dc_queue_kernel_sources_write path text)
  file(WRITE ${path}.tmp "${text}")
  file(COPY_FILE ${path}.tmp ${path} ONLY_IF_DIFFERENT)
  foreach(_file IN LISTS DC_QUEUE_KERNEL_FILES)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${_file})
  endforeach()
endfunction()

# dc_queue_kernel_sources_c(<dir>): the same two files as C string literals,
# in <dir>/queue_kernel_sources_c.h (kDeviceHeaderSource, kEchoKernelSource),
# for the C samples (C has no raw strings).
function(dc_queue_kernel_sources_c dir)
  set(_out "/* Generated from include/dccuda_device.h and tests/queue/echo_kernel.cuh at configure time. */\n")
  set(_names kDeviceHeaderSource kEchoKernelSource)
  foreach(_name _file IN ZIP_LISTS _names DC_QUEUE_KERNEL_FILES)
    file(READ ${PROJECT_SOURCE_DIR}/${_file} _text)
    string(REPLACE "\\" "\\\\" _text "${_text}")
    string(REPLACE "\"" "\\\"" _text "${_text}")
    string(REPLACE "\n" "\\n\"\n\"" _text "${_text}")
    string(APPEND _out "static const char ${_name}[] =\n\"${_text}\";\n")
  endforeach()
  _dc_queue_kernel_sources_write(${dir}/queue_kernel_sources_c.h "${_out}")
endfunction()

# dc_queue_kernel_sources_cs(<dir>): the same two files as C# verbatim strings,
# in <dir>/QueueKernelSources.cs (QueueKernelSources.DeviceHeader, .EchoKernel),
# for the C# echo-actor sample (bindings/csharp/samples/EchoActor.cs).
function(dc_queue_kernel_sources_cs dir)
  set(_out "// Generated from include/dccuda_device.h and tests/queue/echo_kernel.cuh at configure time.\ninternal static class QueueKernelSources\n{\n")
  set(_names DeviceHeader EchoKernel)
  foreach(_name _file IN ZIP_LISTS _names DC_QUEUE_KERNEL_FILES)
    file(READ ${PROJECT_SOURCE_DIR}/${_file} _text)
    string(REPLACE "\"" "\"\"" _text "${_text}")
    string(APPEND _out "    internal const string ${_name} = @\"${_text}\";\n")
  endforeach()
  string(APPEND _out "}\n")
  _dc_queue_kernel_sources_write(${dir}/QueueKernelSources.cs "${_out}")
endfunction()
