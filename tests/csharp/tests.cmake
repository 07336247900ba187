# The hand-written C# binding (bindings/csharp): Dccuda.dll, its tests and the saxpy sample
# are built with Mono's mcs and run under mono against the built library, through the fake
# driver. Without mcs or mono the tests report themselves skipped, saying why.
set(DCCS_SRC ${PROJECT_SOURCE_DIR}/bindings/csharp)
set(DCCS_OUT ${CMAKE_BINARY_DIR}/bindings/csharp)
set(DCCS_TESTS csharp.tests csharp.library_path csharp.library_path_missing csharp.sample_saxpy csharp.abi csharp.net7_view)

find_program(DCCUDA_MCS mcs)
find_program(DCCUDA_MONO mono)
if(NOT DCCUDA_MCS OR NOT DCCUDA_MONO)
  message(STATUS "C# binding: mcs/mono not found; its tests will be skipped (apt-get install mono-mcs mono-runtime)")
  foreach(t IN LISTS DCCS_TESTS)
    add_test(NAME ${t} COMMAND sh -c "echo 'mcs/mono not found: the C# binding was not built (apt-get install mono-mcs mono-runtime)'; exit 77")
    set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77 LABELS "csharp;bindings")
  endforeach()
  return()
endif()

file(GLOB DCCS_LIB_SOURCES CONFIGURE_DEPENDS ${DCCS_SRC}/Native/*.cs ${DCCS_SRC}/Safe/*.cs)
file(GLOB DCCS_TEST_SOURCES CONFIGURE_DEPENDS ${DCCS_SRC}/tests/*.cs)
list(FILTER DCCS_TEST_SOURCES EXCLUDE REGEX "/Layout\\.cs$")
set(DCCS_MCS_FLAGS -nologo -unsafe -debug -warnaserror+)

# Dccuda.dll with its Mono dllmap next to it (Mono reads <assembly>.config).
add_custom_command(OUTPUT ${DCCS_OUT}/Dccuda.dll ${DCCS_OUT}/Dccuda.dll.config
  COMMAND ${CMAKE_COMMAND} -E make_directory ${DCCS_OUT}
  COMMAND ${DCCUDA_MCS} ${DCCS_MCS_FLAGS} -target:library -out:${DCCS_OUT}/Dccuda.dll ${DCCS_LIB_SOURCES}
  COMMAND ${CMAKE_COMMAND} -E copy ${DCCS_SRC}/Dccuda.dll.config ${DCCS_OUT}/Dccuda.dll.config
  DEPENDS ${DCCS_LIB_SOURCES} ${DCCS_SRC}/Dccuda.dll.config
  COMMENT "mcs: Dccuda.dll (C# binding)" VERBATIM)
add_custom_command(OUTPUT ${DCCS_OUT}/DccudaTests.exe
  COMMAND ${DCCUDA_MCS} ${DCCS_MCS_FLAGS} -r:${DCCS_OUT}/Dccuda.dll -out:${DCCS_OUT}/DccudaTests.exe ${DCCS_TEST_SOURCES}
  DEPENDS ${DCCS_TEST_SOURCES} ${DCCS_OUT}/Dccuda.dll
  COMMENT "mcs: DccudaTests.exe" VERBATIM)
add_custom_command(OUTPUT ${DCCS_OUT}/Saxpy.exe
  COMMAND ${DCCUDA_MCS} ${DCCS_MCS_FLAGS} -r:${DCCS_OUT}/Dccuda.dll -out:${DCCS_OUT}/Saxpy.exe ${DCCS_SRC}/samples/Saxpy.cs
  DEPENDS ${DCCS_SRC}/samples/Saxpy.cs ${DCCS_OUT}/Dccuda.dll
  COMMENT "mcs: Saxpy.exe (C# sample)" VERBATIM)
add_custom_target(dccuda_csharp ALL DEPENDS ${DCCS_OUT}/Dccuda.dll ${DCCS_OUT}/DccudaTests.exe ${DCCS_OUT}/Saxpy.exe)
add_dependencies(dccuda_csharp dccuda dcfake_cuda)

set(DCCS_ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 DCCUDA_HEADER=${PROJECT_SOURCE_DIR}/include/dccuda.h)
# Found the usual way: LD_LIBRARY_PATH and the dllmap to libdccuda.so.1.
add_test(NAME csharp.tests
  COMMAND env ${DCCS_ENV} LD_LIBRARY_PATH=$<TARGET_FILE_DIR:dccuda> ${DCCUDA_MONO} --debug ${DCCS_OUT}/DccudaTests.exe)
# Found through DCCUDA_LIBRARY_PATH alone (the library file itself, no search path).
add_test(NAME csharp.library_path
  COMMAND env -u LD_LIBRARY_PATH ${DCCS_ENV} DCCUDA_LIBRARY_PATH=$<TARGET_FILE:dccuda>
          ${DCCUDA_MONO} --debug ${DCCS_OUT}/DccudaTests.exe CoreTests BufferTests.SpanRoundTrip)
# A DCCUDA_LIBRARY_PATH that names nothing is a clear error naming the variable.
add_test(NAME csharp.library_path_missing
  COMMAND env -u LD_LIBRARY_PATH ${DCCS_ENV} DCCUDA_LIBRARY_PATH=/nonexistent/libdccuda.so.1
          ${DCCUDA_MONO} ${DCCS_OUT}/DccudaTests.exe --version)
set_tests_properties(csharp.library_path_missing PROPERTIES
  PASS_REGULAR_EXPRESSION "DCCUDA_LIBRARY_PATH=/nonexistent/libdccuda.so.1 could not be loaded")
add_test(NAME csharp.sample_saxpy
  COMMAND env ${DCTEST_FAKE_ENV} LD_LIBRARY_PATH=$<TARGET_FILE_DIR:dccuda> ${DCCUDA_MONO} --debug ${DCCS_OUT}/Saxpy.exe)
# The raw layer is generated from the header (abi/gen.py, both views: [LibraryImport] for
# .NET 7+, [DllImport] for Mono): current or stale, and what the compiled binding makes of the
# structs' layouts and the constants' values, measured, strictly.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
add_test(NAME csharp.abi
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/abi/check_abi.py bindings layouts constants --bindings csharp --strict
          --build-dir ${CMAKE_BINARY_DIR} --work-dir ${DCCS_OUT}/abi-check)
# The .NET 7+ view compiled with mcs as far as mcs can (bindings/csharp/tests/check_net7_view.py).
add_test(NAME csharp.net7_view
  COMMAND ${Python3_EXECUTABLE} ${DCCS_SRC}/tests/check_net7_view.py --mcs ${DCCUDA_MCS} --work ${DCCS_OUT}/net7-view)
set_tests_properties(${DCCS_TESTS} PROPERTIES LABELS "csharp;bindings" TIMEOUT 180)
