# The hand-written C# binding (bindings/csharp): Dccuda.dll, its tests and the saxpy sample
# are built with Mono's mcs and run under mono against the built library, through the fake
# driver. Without mcs or mono the tests report themselves skipped, saying why.
set(DCCS_SRC ${PROJECT_SOURCE_DIR}/bindings/csharp)
set(DCCS_OUT ${CMAKE_BINARY_DIR}/bindings/csharp)
set(DCCS_TESTS csharp.tests csharp.library_path csharp.library_path_missing csharp.sample_saxpy csharp.sample_echo_actor
               csharp.abi csharp.net7_view
               csharp.type_names csharp.type_names_planted csharp.xml_docs csharp.xml_docs_planted
               csharp.nupkg csharp.nupkg_planted csharp.package_consumer csharp.readme csharp.readme_planted
               csharp.host_thread_exit)

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
# The test sources are shared with the xunit project (tests/xunit, for the .NET SDK); the Mono
# runner adds tests/mono (the runner and a stand-in for xunit's [Fact]).
file(GLOB DCCS_TEST_SOURCES CONFIGURE_DEPENDS ${DCCS_SRC}/tests/*.cs ${DCCS_SRC}/tests/mono/*.cs)
list(FILTER DCCS_TEST_SOURCES EXCLUDE REGEX "/Layout\\.cs$")
set(DCCS_MCS_FLAGS -nologo -unsafe -debug -warnaserror+)

# Dccuda.dll with its Mono dllmap next to it (Mono reads <assembly>.config).
# With its XML documentation (Dccuda.xml, packed beside it; completeness is csharp.xml_docs's job).
add_custom_command(OUTPUT ${DCCS_OUT}/Dccuda.dll ${DCCS_OUT}/Dccuda.xml ${DCCS_OUT}/Dccuda.dll.config
  COMMAND ${CMAKE_COMMAND} -E make_directory ${DCCS_OUT}
  COMMAND ${DCCUDA_MCS} ${DCCS_MCS_FLAGS} -target:library -doc:${DCCS_OUT}/Dccuda.xml -nowarn:1591 -out:${DCCS_OUT}/Dccuda.dll ${DCCS_LIB_SOURCES}
  COMMAND ${CMAKE_COMMAND} -E copy ${DCCS_SRC}/Dccuda.dll.config ${DCCS_OUT}/Dccuda.dll.config
  DEPENDS ${DCCS_LIB_SOURCES} ${DCCS_SRC}/Dccuda.dll.config
  COMMENT "mcs: Dccuda.dll (C# binding)" VERBATIM)
add_custom_command(OUTPUT ${DCCS_OUT}/DccudaTests.exe
  COMMAND ${DCCUDA_MCS} ${DCCS_MCS_FLAGS} -r:${DCCS_OUT}/Dccuda.dll -out:${DCCS_OUT}/DccudaTests.exe ${DCCS_TEST_SOURCES}
  DEPENDS ${DCCS_TEST_SOURCES} ${DCCS_OUT}/Dccuda.dll
  COMMENT "mcs: DccudaTests.exe" VERBATIM)
# The echo-actor sample, with the kernel's two files as C# strings (cmake/queue_kernel_sources.cmake).
include(${PROJECT_SOURCE_DIR}/cmake/queue_kernel_sources.cmake)
dc_queue_kernel_sources_cs(${DCCS_OUT}/generated)
add_custom_command(OUTPUT ${DCCS_OUT}/EchoActor.exe
  COMMAND ${DCCUDA_MCS} ${DCCS_MCS_FLAGS} -r:${DCCS_OUT}/Dccuda.dll -out:${DCCS_OUT}/EchoActor.exe
          ${DCCS_SRC}/samples/EchoActor.cs ${DCCS_OUT}/generated/QueueKernelSources.cs
  DEPENDS ${DCCS_SRC}/samples/EchoActor.cs ${DCCS_OUT}/generated/QueueKernelSources.cs ${DCCS_OUT}/Dccuda.dll
  COMMENT "mcs: EchoActor.exe (C# sample)" VERBATIM)
add_custom_command(OUTPUT ${DCCS_OUT}/Saxpy.exe
  COMMAND ${DCCUDA_MCS} ${DCCS_MCS_FLAGS} -r:${DCCS_OUT}/Dccuda.dll -out:${DCCS_OUT}/Saxpy.exe ${DCCS_SRC}/samples/Saxpy.cs
  DEPENDS ${DCCS_SRC}/samples/Saxpy.cs ${DCCS_OUT}/Dccuda.dll
  COMMENT "mcs: Saxpy.exe (C# sample)" VERBATIM)
# The check that no public type is named like one of a default console project's usings, and
# the planted mistake that shows it failing (tests/names).
add_custom_command(OUTPUT ${DCCS_OUT}/CheckTypeNames.exe ${DCCS_OUT}/PlantedTypeNames.dll
  COMMAND ${DCCUDA_MCS} ${DCCS_MCS_FLAGS} -r:System.Net.Http -out:${DCCS_OUT}/CheckTypeNames.exe ${DCCS_SRC}/tests/names/CheckTypeNames.cs
  COMMAND ${DCCUDA_MCS} ${DCCS_MCS_FLAGS} -target:library -out:${DCCS_OUT}/PlantedTypeNames.dll ${DCCS_SRC}/tests/names/Planted.cs
  DEPENDS ${DCCS_SRC}/tests/names/CheckTypeNames.cs ${DCCS_SRC}/tests/names/Planted.cs
  COMMENT "mcs: CheckTypeNames.exe" VERBATIM)
add_custom_target(dccuda_csharp ALL DEPENDS ${DCCS_OUT}/Dccuda.dll ${DCCS_OUT}/DccudaTests.exe ${DCCS_OUT}/Saxpy.exe
                  ${DCCS_OUT}/EchoActor.exe ${DCCS_OUT}/CheckTypeNames.exe)
add_dependencies(dccuda_csharp dccuda dcfake_cuda dcfake_cublas dcfake_cufft dcfake_nccl)

# The fake cuBLAS, cuFFT and NCCL (tests/libs/blas, fft, nccl): their targets are defined after this file.
set(DCCS_ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 DCCUDA_HEADER=${PROJECT_SOURCE_DIR}/include/dccuda.h
    DCCUDA_CUBLAS_LIBRARY=${PROJECT_BINARY_DIR}/tests/libdcfake_cublas.so
    DCCUDA_CUFFT_LIBRARY=${PROJECT_BINARY_DIR}/tests/libdcfake_cufft.so
    DCCUDA_NCCL_LIBRARY=${PROJECT_BINARY_DIR}/tests/libdcfake_nccl.so DCFAKE_NCCL_TIMEOUT_MS=10000)
# Found the usual way: LD_LIBRARY_PATH and the dllmap to libdccuda.so.1.
add_test(NAME csharp.tests
  COMMAND env ${DCCS_ENV} LD_LIBRARY_PATH=$<TARGET_FILE_DIR:dccuda> ${DCCUDA_MONO} --debug ${DCCS_OUT}/DccudaTests.exe)
# Host functions run on a driver thread that lives as long as its context (until exit, where
# the CUDA runtime under cuBLAS retained it). Mono waits at exit for every thread that ran
# managed code: the process hung after its last test until the library let such a thread go
# (src/platform/managed_threads.h). DCFAKE_HOST_FN_THREAD=1 gives the fake driver such a thread.
add_test(NAME csharp.host_thread_exit
  COMMAND env ${DCCS_ENV} DCFAKE_HOST_FN_THREAD=1 LD_LIBRARY_PATH=$<TARGET_FILE_DIR:dccuda> ${DCCUDA_MONO} --debug
          ${DCCS_OUT}/DccudaTests.exe AsyncTests RegressionTests.CallbackCapturedIntoAGraphRunsAtEveryLaunch)
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
# On the fake driver the actor runs on a thread of the fake (the same echo code); without NVRTC
# the sample says so and exits with 4, which counts as skipped.
add_test(NAME csharp.sample_echo_actor
  COMMAND env ${DCTEST_FAKE_ENV} LD_LIBRARY_PATH=$<TARGET_FILE_DIR:dccuda> ${DCCUDA_MONO} --debug ${DCCS_OUT}/EchoActor.exe 2000)
set_tests_properties(csharp.sample_echo_actor PROPERTIES PASS_REGULAR_EXPRESSION "echo-actor: OK" SKIP_RETURN_CODE 4
  TIMEOUT 120)
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
add_test(NAME csharp.type_names COMMAND ${DCCUDA_MONO} ${DCCS_OUT}/CheckTypeNames.exe ${DCCS_OUT}/Dccuda.dll)
# The planted mistake: exit 1, naming each clash.
add_test(NAME csharp.type_names_planted
  COMMAND sh -c "out=$(\"$0\" \"$1\" \"$2\"); rc=$?; echo \"$out\"; [ $rc = 1 ] && echo \"$out\" | grep -q 'Dccuda.Stream has the name of System.IO.Stream' && echo \"$out\" | grep -q 'Dccuda.Lock has the name of System.Threading.Lock' && echo \"$out\" | grep -q 'Dccuda.Program is named Program'"
          ${DCCUDA_MONO} ${DCCS_OUT}/CheckTypeNames.exe ${DCCS_OUT}/PlantedTypeNames.dll)
# XML documentation of the public API (tests/check_xml_docs.py), and a planted undocumented
# member that must fail it.
add_test(NAME csharp.xml_docs
  COMMAND ${Python3_EXECUTABLE} ${DCCS_SRC}/tests/check_xml_docs.py --mcs ${DCCUDA_MCS} --work ${DCCS_OUT}/xml-docs)
add_test(NAME csharp.xml_docs_planted
  COMMAND sh -c "out=$(\"$@\"); rc=$?; echo \"$out\"; [ $rc = 1 ] && echo \"$out\" | grep -q 'CS1591: .*PlantedUndocumented.Answer()' && echo \"$out\" | grep -q 'CS1572: .*nothing'"
          check ${Python3_EXECUTABLE} ${DCCS_SRC}/tests/check_xml_docs.py --mcs ${DCCUDA_MCS} --work ${DCCS_OUT}/xml-docs-planted
          --extra ${DCCS_SRC}/tests/docs/Undocumented.cs)
# The NuGet package, assembled without the .NET SDK (pack/make_nupkg.py) from the Mono build of
# Dccuda.dll (as netstandard2.0: the [DllImport] view) and this build's libdccuda.so.1 for
# linux-x64; native libraries of other platforms are added with
#   -DDCCUDA_NUPKG_EXTRA_NATIVES="linux-arm64=/path/libdccuda.so.1;win-x64=/path/dccuda.dll".
# Its layout and metadata are checked (pack/check_nupkg.py); the checker must fail on copies of
# it with a planted mistake (tests/package/test_check_nupkg.py); and a Mono program loads
# libdccuda from the package's runtimes folder without LD_LIBRARY_PATH (run_consumer.sh).
set(DCCUDA_NUPKG_EXTRA_NATIVES "" CACHE STRING "RID=FILE native libraries to add to the test package")
set(DCCS_NUPKG_DIR ${DCCS_OUT}/nupkg)
set(DCCS_NUPKG ${DCCS_NUPKG_DIR}/Dccuda.${PROJECT_VERSION}.nupkg)
set(_dccs_extra_natives)
foreach(_n IN LISTS DCCUDA_NUPKG_EXTRA_NATIVES)
  list(APPEND _dccs_extra_natives --native ${_n})
endforeach()
add_test(NAME csharp.nupkg
  COMMAND sh -c "\"$0\" \"$@\" && \"$0\" ${DCCS_SRC}/pack/check_nupkg.py ${DCCS_NUPKG} --require-lib netstandard2.0 --require-native linux-x64"
          ${Python3_EXECUTABLE} ${DCCS_SRC}/pack/make_nupkg.py --out ${DCCS_NUPKG_DIR}
          --lib netstandard2.0=${DCCS_OUT}/Dccuda.dll --native linux-x64=$<TARGET_FILE:dccuda> ${_dccs_extra_natives})
set_tests_properties(csharp.nupkg PROPERTIES FIXTURES_SETUP dccuda_nupkg)
add_test(NAME csharp.nupkg_planted
  COMMAND ${Python3_EXECUTABLE} ${DCCS_SRC}/tests/package/test_check_nupkg.py ${DCCS_NUPKG})
add_test(NAME csharp.package_consumer
  COMMAND env ${DCTEST_FAKE_ENV} ${DCCS_SRC}/tests/package/run_consumer.sh ${DCCS_NUPKG} ${DCCUDA_MCS} ${DCCUDA_MONO}
          ${DCCS_OUT}/package-consumer)
set_tests_properties(csharp.nupkg_planted csharp.package_consumer PROPERTIES FIXTURES_REQUIRED dccuda_nupkg)
# The READMEs' C# snippets compile in a default console project (its implicit usings) and run
# through the fake driver (tests/check_readme.py); the planted snippet, which uses Stream for the
# binding's stream, must not compile.
add_test(NAME csharp.readme
  COMMAND env ${DCCS_ENV} LD_LIBRARY_PATH=$<TARGET_FILE_DIR:dccuda>
          ${Python3_EXECUTABLE} ${DCCS_SRC}/tests/check_readme.py --dll ${DCCS_OUT}/Dccuda.dll --mcs ${DCCUDA_MCS}
          --mono ${DCCUDA_MONO} --run --work ${DCCS_OUT}/readme ${DCCS_SRC}/README.md ${DCCS_SRC}/pack/README.md)
add_test(NAME csharp.readme_planted
  COMMAND sh -c "out=$(\"$@\"); rc=$?; echo \"$out\"; [ $rc = 1 ] && echo \"$out\" | grep -q 'Planted.md:.*does not compile' && echo \"$out\" | grep -q 'CS0029'"
          check ${Python3_EXECUTABLE} ${DCCS_SRC}/tests/check_readme.py --dll ${DCCS_OUT}/Dccuda.dll --mcs ${DCCUDA_MCS}
          --work ${DCCS_OUT}/readme-planted ${DCCS_SRC}/tests/readme/Planted.md)
set_tests_properties(${DCCS_TESTS} PROPERTIES LABELS "csharp;bindings" TIMEOUT 180)
