# Reliability: bad input to every exported function, faults from every driver
# entry point, threads, and running out of device memory. By default against
# the fake driver; the same binaries run against a real driver on a GPU machine.
set(DCTEST_RELIABILITY ${CMAKE_CURRENT_SOURCE_DIR}/reliability)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

# The bad-input matrix, generated from the header and the per-function facts.
set(_bad_inputs_inc ${CMAKE_CURRENT_BINARY_DIR}/reliability/bad_input_cases.inc)
add_custom_command(OUTPUT ${_bad_inputs_inc}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/reliability
  COMMAND ${Python3_EXECUTABLE} ${DCTEST_RELIABILITY}/gen_bad_inputs.py ${PROJECT_SOURCE_DIR}/include/dccuda.h
          ${_bad_inputs_inc}
  DEPENDS ${DCTEST_RELIABILITY}/gen_bad_inputs.py ${DCTEST_RELIABILITY}/bad_input_facts.py
          ${PROJECT_SOURCE_DIR}/include/dccuda.h ${PROJECT_SOURCE_DIR}/abi/api.py
  COMMENT "Generating the bad-input matrix from include/dccuda.h" VERBATIM)
# Two fake devices, so that peer arguments have a real peer.
dc_test(test_bad_inputs SOURCES ${DCTEST_RELIABILITY}/test_bad_inputs.cpp ${DCTEST_RELIABILITY}/bad_input_fixture.cpp
  ${_bad_inputs_inc} ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2)
target_include_directories(test_bad_inputs PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/reliability)
target_compile_definitions(test_bad_inputs PRIVATE DCTEST_SYMBOLS_FILE="${PROJECT_SOURCE_DIR}/abi/dccuda.symbols")
target_link_libraries(test_bad_inputs PRIVATE dctest_kernels)
