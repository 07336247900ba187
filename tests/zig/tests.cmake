# The Zig binding (bindings/zig): its tests, the saxpy sample and the benchmark,
# built with Zig 0.14 (`zig build` in bindings/zig) against the built libdccuda,
# and run through the fake driver; and a consumer project (tests/zig/consumer)
# that takes the binding as a package through its build.zig.zon. The programs are also copied into
# <build>/extra/zig with run_gpu.sh, which tests/gpu/bundle.sh carries to a GPU
# machine (where they run against the real driver).
#
# Zig comes from tests/scripts/get_zig.sh (npm) unless DCCUDA_ZIG_EXECUTABLE
# names one. Without it (no npm, no network) the Zig entries are one skipped
# test saying why, and abi.check reports the Zig layout check as not present.
option(DCCUDA_ZIG "Build and test the Zig binding (Zig 0.14 through tests/scripts/get_zig.sh 0.14)" ON)
set(DCCUDA_ZIG_EXECUTABLE "" CACHE FILEPATH "zig 0.14 to use instead of fetching one with tests/scripts/get_zig.sh 0.14")
# A glibc baseline rather than the build machine's glibc: the programs then run
# on the GPU machine whatever its distribution.
set(DCCUDA_ZIG_TARGET "x86_64-linux-gnu.2.28" CACHE STRING "zig target of the Zig binding's programs")

set(_dczig "")
set(_dczig_skip "")
if(NOT DCCUDA_ZIG)
  set(_dczig_skip "DCCUDA_ZIG is OFF")
elseif(DCCUDA_ZIG_EXECUTABLE)
  set(_dczig ${DCCUDA_ZIG_EXECUTABLE})
else()
  execute_process(COMMAND ${PROJECT_SOURCE_DIR}/tests/scripts/get_zig.sh 0.14
    OUTPUT_VARIABLE _dczig OUTPUT_STRIP_TRAILING_WHITESPACE
    ERROR_VARIABLE _dczig_err RESULT_VARIABLE _dczig_rc)
  if(NOT _dczig_rc EQUAL 0)
    string(STRIP "${_dczig_err}" _dczig_err)
    set(_dczig_skip "tests/scripts/get_zig.sh could not fetch Zig 0.14 (npm): ${_dczig_err}")
    set(_dczig "")
  endif()
endif()
if(_dczig)
  execute_process(COMMAND ${_dczig} version OUTPUT_VARIABLE _dczig_version
    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _dczig_rc)
  if(NOT _dczig_rc EQUAL 0 OR NOT _dczig_version MATCHES "^0\\.14\\.")
    set(_dczig_skip "${_dczig} is not Zig 0.14 (${_dczig_version})")
    set(_dczig "")
  endif()
endif()
set(_dczig_tool "${_dczig}")

# The Zig programs link every function of the header: while an area is still
# missing from src/api (a branch without it), say so instead of failing the build.
if(_dczig)
  file(STRINGS ${PROJECT_SOURCE_DIR}/abi/dccuda.symbols _dczig_symbols)
  file(GLOB _dczig_api CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/api/*.cpp)
  set(_dczig_api_text "")
  foreach(_f IN LISTS _dczig_api)
    file(READ ${_f} _t)
    string(APPEND _dczig_api_text "${_t}")
  endforeach()
  set(_dczig_missing "")
  foreach(_s IN LISTS _dczig_symbols)
    string(FIND "${_dczig_api_text}" " ${_s}(" _pos)
    if(_pos EQUAL -1)
      list(APPEND _dczig_missing ${_s})
    endif()
  endforeach()
  if(_dczig_missing)
    list(LENGTH _dczig_missing _n)
    list(GET _dczig_missing 0 _first)
    set(_dczig_skip "${_n} functions of the header are not implemented in src/api yet (${_first}...)")
    set(_dczig "")
  endif()
endif()

# abi/check_abi.py runs bindings/zig/layout.zig with $ZIG (types only: it
# needs no library, so it runs even when the programs are not built).
if(_dczig_tool AND TEST abi.check)
  set_property(TEST abi.check APPEND PROPERTY ENVIRONMENT ZIG=${_dczig_tool})
endif()

if(NOT _dczig)
  message(STATUS "Zig binding: not built: ${_dczig_skip}")
  add_test(NAME zig.binding COMMAND ${CMAKE_COMMAND} -E echo "SKIPPED: Zig binding not built: ${_dczig_skip}")
  set_tests_properties(zig.binding PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:" LABELS "zig;bindings")
  return()
endif()
message(STATUS "Zig binding: ${_dczig} (${_dczig_version}), target ${DCCUDA_ZIG_TARGET}")

set(_dczig_out ${CMAKE_CURRENT_BINARY_DIR}/zig)
set(_dczig_extra ${CMAKE_BINARY_DIR}/extra/zig)
set(_dczig_programs dccuda-zig-tests dccuda-zig-saxpy dccuda-zig-bench)
set(_dczig_built ${_dczig_out}/consumer/bin/dccuda-zig-consumer)
set(_dczig_copies ${_dczig_extra}/dccuda-zig-consumer)
foreach(_p IN LISTS _dczig_programs)
  list(APPEND _dczig_built ${_dczig_out}/bin/${_p})
  list(APPEND _dczig_copies ${_dczig_extra}/${_p})
endforeach()
set(_dczig_cache --cache-dir ${_dczig_out}/cache --global-cache-dir ${_dczig_out}/global-cache)

# zig build caches its work (in the build folder): a run with nothing changed
# takes a fraction of a second, so the target simply runs on every build.
add_custom_target(dccuda_zig ALL
  COMMAND ${_dczig} build install --summary none --prefix ${_dczig_out} ${_dczig_cache}
          -Dlib-dir=$<TARGET_FILE_DIR:dccuda> -Dtarget=${DCCUDA_ZIG_TARGET}
  # The consumer resolves the binding through its build.zig.zon, as a user's project does.
  COMMAND ${CMAKE_COMMAND} -E chdir ${CMAKE_CURRENT_LIST_DIR}/consumer
          ${_dczig} build install --summary none --prefix ${_dczig_out}/consumer ${_dczig_cache}
          -Dlib-dir=$<TARGET_FILE_DIR:dccuda> -Dtarget=${DCCUDA_ZIG_TARGET}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_dczig_extra}
  COMMAND ${CMAKE_COMMAND} -E copy ${_dczig_built} ${CMAKE_CURRENT_LIST_DIR}/run_gpu.sh ${_dczig_extra}/
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/bindings/zig
  BYPRODUCTS ${_dczig_built} ${_dczig_copies} ${_dczig_extra}/run_gpu.sh
  COMMENT "Zig binding: zig build (tests, saxpy sample, benchmark, consumer package) -> extra/zig"
  VERBATIM)
add_dependencies(dccuda_zig dccuda dcfake_cublas dcfake_cufft dcfake_nccl)

set(_dczig_env env DCCUDA_DRIVER_LIBRARY=${DCFAKE_PATH} DCCUDA_CACHE_DIR=${DCTEST_CACHE_DIR}
               DCCUDA_CUBLAS_LIBRARY=${PROJECT_BINARY_DIR}/tests/libdcfake_cublas.so
               DCCUDA_CUFFT_LIBRARY=${PROJECT_BINARY_DIR}/tests/libdcfake_cufft.so
               DCCUDA_NCCL_LIBRARY=${PROJECT_BINARY_DIR}/tests/libdcfake_nccl.so
               LD_LIBRARY_PATH=$<TARGET_FILE_DIR:dccuda>)
add_test(NAME zig.tests COMMAND ${_dczig_env} ${_dczig_extra}/dccuda-zig-tests)
add_test(NAME zig.saxpy COMMAND ${_dczig_env} ${_dczig_extra}/dccuda-zig-saxpy 100000)
add_test(NAME zig.bench_smoke COMMAND ${_dczig_env} ${_dczig_extra}/dccuda-zig-bench --bursts 3 --burst-size 16)
add_test(NAME zig.consumer COMMAND ${_dczig_env} ${_dczig_extra}/dccuda-zig-consumer)
# `zig build test` as a user runs it (the programs are built already: this runs
# the tests through the build runner): a passing run has no `error:` line.
add_test(NAME zig.build_test
  COMMAND ${CMAKE_COMMAND} -E env DCCUDA_DRIVER_LIBRARY=${DCFAKE_PATH} DCCUDA_CACHE_DIR=${DCTEST_CACHE_DIR}
          DCCUDA_CUBLAS_LIBRARY=${PROJECT_BINARY_DIR}/tests/libdcfake_cublas.so
          DCCUDA_CUFFT_LIBRARY=${PROJECT_BINARY_DIR}/tests/libdcfake_cufft.so
          DCCUDA_NCCL_LIBRARY=${PROJECT_BINARY_DIR}/tests/libdcfake_nccl.so
          ${_dczig} build test --summary none ${_dczig_cache}
          -Dlib-dir=$<TARGET_FILE_DIR:dccuda> -Dtarget=${DCCUDA_ZIG_TARGET}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/bindings/zig)
set_tests_properties(zig.tests zig.saxpy zig.bench_smoke zig.consumer zig.build_test PROPERTIES LABELS "zig;bindings" TIMEOUT 300)
set_tests_properties(zig.saxpy PROPERTIES PASS_REGULAR_EXPRESSION "saxpy \\(Zig\\): OK")
set_tests_properties(zig.consumer PROPERTIES PASS_REGULAR_EXPRESSION "consumer \\(Zig package\\): OK")
set_tests_properties(zig.build_test PROPERTIES FAIL_REGULAR_EXPRESSION "error:")

