# libFuzzer targets (DCCUDA_BUILD_FUZZERS=ON, clang): the module image readers,
# the disk cache's entry reader, and the public API driven as a program of
# calls against the fake driver. tests/scripts/run_fuzzers.sh builds and runs
# them; CTest replays each seed corpus (committed in corpus/<target>/), which
# keeps every input that once crashed as a regression test.
if(DCCUDA_BUILD_FUZZERS)
  set(DCFUZZ ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
  function(dc_fuzzer name)
    add_executable(${name} ${DCFUZZ}/${name}.cpp)
    target_compile_options(${name} PRIVATE -Wall -Wextra $<$<BOOL:${DCCUDA_WERROR}>:-Werror> -fsanitize=fuzzer)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    add_test(NAME ${name}.corpus COMMAND ${name} -runs=0 ${DCFUZZ}/corpus/${name})
  endfunction()
  dc_fuzzer(fuzz_module_image)
  target_link_libraries(fuzz_module_image PRIVATE dccuda_objects)
  dc_fuzzer(fuzz_cache_entry)
  target_link_libraries(fuzz_cache_entry PRIVATE dccuda_objects)
  dc_fuzzer(fuzz_api)
  target_link_libraries(fuzz_api PRIVATE dccuda ${CMAKE_DL_LIBS})
  target_include_directories(fuzz_api PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_definitions(fuzz_api PRIVATE DCFUZZ_FAKE_DRIVER="${DCFAKE_PATH}"
    DCFUZZ_FAKE_NCCL="${PROJECT_BINARY_DIR}/tests/libdcfake_nccl.so")
  # dcfake_nccl: tests/fake_nccl, defined by tests/libs/nccl/tests.cmake.
  add_dependencies(fuzz_api dcfake_cuda dcfake_nccl)
endif()
