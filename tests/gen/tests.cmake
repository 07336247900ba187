# The generated files (abi/gen.py: the symbol list, every binding's raw layer, the status maps,
# the fuzzer's call table) against the header:
#   gen.check          abi/gen.py --check: fails naming each generated file that is stale
#   gen.check.planted  the same check on planted mistakes (tests/gen/test_gen_check.py): a hand
#                      edit, a header change without regenerating, a deleted or leftover file, a
#                      function the model cannot describe; and the control cases that pass
find_package(Python3 COMPONENTS Interpreter REQUIRED)
add_test(NAME gen.check COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/abi/gen.py --check
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME gen.check.planted COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/test_gen_check.py)
set_tests_properties(gen.check gen.check.planted PROPERTIES LABELS "gen;abi" TIMEOUT 120)
