# The ABI checks (abi/check_abi.py, abi/README.md), registered with CTest:
#   abi.case.<name>  one planted mistake each (tests/abi/run_case.py): the check must fail
#                    and name the problem; abi.case.good_fixture_passes is the control.
#   abi.parsers      unit tests of the header and binding parsers (tests/abi/test_parsers.py).
#   abi.check        the real check on the built libdccuda, the header and bindings/.
#                    Not strict by default (a binding or tool that is not there is shown,
#                    not failed); -DDCCUDA_ABI_STRICT=ON (or DCCUDA_ABI_STRICT=1 in the
#                    environment) makes it strict, as CI should be once every area exists.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
option(DCCUDA_ABI_STRICT "Run abi.check with --strict: every binding, layout program and tool must be present" ON)

set(DCABI_RUN_CASE ${CMAKE_CURRENT_LIST_DIR}/run_case.py)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${DCABI_RUN_CASE})
execute_process(COMMAND ${Python3_EXECUTABLE} ${DCABI_RUN_CASE} --list
  OUTPUT_VARIABLE _dcabi_cases RESULT_VARIABLE _dcabi_rc)
if(NOT _dcabi_rc EQUAL 0)
  message(FATAL_ERROR "tests/abi/run_case.py --list failed")
endif()
string(REGEX MATCHALL "(^|\n)[a-z0-9_]+:" _dcabi_names "${_dcabi_cases}")
foreach(_n IN LISTS _dcabi_names)
  string(REGEX REPLACE "[\n:]" "" _n "${_n}")
  add_test(NAME abi.case.${_n} COMMAND ${Python3_EXECUTABLE} ${DCABI_RUN_CASE} ${_n})
  set_tests_properties(abi.case.${_n} PROPERTIES LABELS abi TIMEOUT 300)
endforeach()

# The parsers behind the check, on source layouts the fixtures do not show.
add_test(NAME abi.parsers COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/test_parsers.py)
set_tests_properties(abi.parsers PROPERTIES LABELS abi TIMEOUT 120)

set(_dcabi_strict "")
if(DCCUDA_ABI_STRICT)
  set(_dcabi_strict --strict)
endif()
add_test(NAME abi.check
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/abi/check_abi.py all ${_dcabi_strict}
          --build-dir ${CMAKE_BINARY_DIR}
          --library $<TARGET_FILE_DIR:dccuda>/libdccuda.so.${DCCUDA_SOVERSION}
          --report-file ${CMAKE_BINARY_DIR}/abi-check/report.txt
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(abi.check PROPERTIES LABELS "abi;slow" TIMEOUT 900)

# The header's own checks (hygiene, parsed declarations, C++ compatibility). Its own work
# folder: CTest runs it beside abi.check, and in a shared folder each would overwrite the
# other's test source and programs while the other compiles or runs them.
add_test(NAME abi.check.header
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/abi/check_abi.py header --strict
          --build-dir ${CMAKE_BINARY_DIR} --work-dir ${CMAKE_BINARY_DIR}/abi-check-header
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(abi.check.header PROPERTIES LABELS abi TIMEOUT 300)
