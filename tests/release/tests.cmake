# The portable-binary check (tests/release/check_portable.py), shown to fail
# on planted mistakes and to pass a control. The release binaries themselves
# are checked by src/tools/build_release.sh, which runs the same script.
set(DCREL ${CMAKE_CURRENT_SOURCE_DIR}/release)
set(DCREL_OUT ${CMAKE_CURRENT_BINARY_DIR}/release)
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(DCREL_CHECK ${Python3_EXECUTABLE} ${DCREL}/check_portable.py)

# Mistakes, built by this machine's compiler: a symbol of glibc 2.36, and the
# shared C++ runtime.
add_executable(dcrel_needs_new_glibc ${DCREL}/fixtures/needs_new_glibc.c)
add_executable(dcrel_needs_libstdcxx ${DCREL}/fixtures/needs_libstdcxx.cpp)
set_target_properties(dcrel_needs_new_glibc dcrel_needs_libstdcxx PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${DCREL_OUT})
# (A FAIL line is printed only by a failing check, which exits with 1.)
add_test(NAME release.check_names_the_newer_symbol COMMAND ${DCREL_CHECK} $<TARGET_FILE:dcrel_needs_new_glibc>)
set_tests_properties(release.check_names_the_newer_symbol PROPERTIES
  PASS_REGULAR_EXPRESSION "FAIL .*needs GLIBC_2\\.3[0-9] from libc\\.so\\.6.*arc4random")
add_test(NAME release.check_names_a_library_not_allowed COMMAND ${DCREL_CHECK} $<TARGET_FILE:dcrel_needs_libstdcxx>)
set_tests_properties(release.check_names_a_library_not_allowed PROPERTIES
  PASS_REGULAR_EXPRESSION "FAIL .*needs libstdc\\+\\+\\.so\\.6 \\(only")

# The control: Zig for glibc 2.28, both architectures.
execute_process(COMMAND ${PROJECT_SOURCE_DIR}/tests/scripts/get_zig.sh
  OUTPUT_VARIABLE _dcrel_zig OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _dcrel_rc)
if(NOT _dcrel_rc EQUAL 0 OR NOT _dcrel_zig)
  dc_skip_test(release.check_passes_a_portable_binary "Zig 0.11 could not be fetched (tests/scripts/get_zig.sh): no portable control binary")
  return()
endif()
foreach(_arch x86_64 aarch64)
  set(_bin ${DCREL_OUT}/portable_${_arch})
  add_custom_command(OUTPUT ${_bin}
    COMMAND ${CMAKE_COMMAND} -E env ZIG_GLOBAL_CACHE_DIR=${PROJECT_SOURCE_DIR}/.tools/zig-cache
            ZIG_LOCAL_CACHE_DIR=${PROJECT_SOURCE_DIR}/.tools/zig-cache
            ${_dcrel_zig} cc -target ${_arch}-linux-gnu.2.28 -O2 -o ${_bin} ${DCREL}/fixtures/portable.c -lm
    DEPENDS ${DCREL}/fixtures/portable.c
    COMMENT "zig cc: the portable control binary for ${_arch}" VERBATIM)
  list(APPEND _dcrel_controls ${_bin})
endforeach()
add_custom_target(dcrel_controls ALL DEPENDS ${_dcrel_controls})
add_test(NAME release.check_passes_a_portable_binary
  COMMAND ${DCREL_CHECK} --arch x86_64 ${DCREL_OUT}/portable_x86_64)
set_tests_properties(release.check_passes_a_portable_binary PROPERTIES PASS_REGULAR_EXPRESSION "PASS .*GLIBC_2\\.")
add_test(NAME release.check_passes_a_portable_aarch64_binary
  COMMAND ${DCREL_CHECK} --arch aarch64 ${DCREL_OUT}/portable_aarch64)
set_tests_properties(release.check_passes_a_portable_aarch64_binary PROPERTIES PASS_REGULAR_EXPRESSION "PASS ")
add_test(NAME release.check_fails_on_the_wrong_architecture
  COMMAND ${DCREL_CHECK} --arch x86_64 ${DCREL_OUT}/portable_aarch64)
set_tests_properties(release.check_fails_on_the_wrong_architecture PROPERTIES
  PASS_REGULAR_EXPRESSION "FAIL .*machine is AArch64, not x86_64")
set_tests_properties(release.check_names_the_newer_symbol
  release.check_names_a_library_not_allowed release.check_passes_a_portable_binary
  release.check_passes_a_portable_aarch64_binary release.check_fails_on_the_wrong_architecture
  PROPERTIES LABELS release)
