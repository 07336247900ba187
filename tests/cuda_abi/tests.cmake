# dccuda's own declarations of the CUDA driver and NVRTC ABI
# (src/loader/cuda_abi) against the toolkit's cuda.h, cudaTypedefs.h and
# nvrtc.h, where a toolkit is installed:
#   check_cuda_abi        built with the rest: a wrong declaration fails the build
#   cuda_abi.check        runs it (pointer constants, exported names)
#   cuda_abi.mistake.*    planted_mistakes.py: each plants one mistake in a copy of
#                         the lists and passes only if the check then fails, saying what
set(DCCUDA_ABI_DIR ${CMAKE_CURRENT_SOURCE_DIR}/cuda_abi)
if(NOT CUDAToolkit_FOUND)
  dc_skip_test(cuda_abi.check "no CUDA toolkit here: dccuda's CUDA declarations are checked where its headers are")
  return()
endif()

add_executable(check_cuda_abi ${DCCUDA_ABI_DIR}/check_cuda_abi.cpp ${DCCUDA_ABI_DIR}/our_symbol_names.cpp)
target_include_directories(check_cuda_abi PRIVATE ${PROJECT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR})
target_include_directories(check_cuda_abi SYSTEM PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
target_compile_options(check_cuda_abi PRIVATE -Wall -Wextra $<$<BOOL:${DCCUDA_WERROR}>:-Werror>)
add_test(NAME cuda_abi.check COMMAND check_cuda_abi)
set_tests_properties(cuda_abi.check PROPERTIES LABELS cuda_abi PASS_REGULAR_EXPRESSION "CUDA ABI check: PASS")

find_package(Python3 COMPONENTS Interpreter REQUIRED)
execute_process(COMMAND ${Python3_EXECUTABLE} ${DCCUDA_ABI_DIR}/planted_mistakes.py --list
  OUTPUT_VARIABLE _dccuda_abi_cases RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "tests/cuda_abi/planted_mistakes.py --list failed")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${DCCUDA_ABI_DIR}/planted_mistakes.py)
string(REPLACE "\n" ";" _dccuda_abi_cases "${_dccuda_abi_cases}")
list(GET CUDAToolkit_INCLUDE_DIRS 0 _dccuda_toolkit_include)
foreach(_case IN LISTS _dccuda_abi_cases)
  if(_case)
    add_test(NAME cuda_abi.mistake.${_case}
      COMMAND ${Python3_EXECUTABLE} ${DCCUDA_ABI_DIR}/planted_mistakes.py ${_case} --cxx ${CMAKE_CXX_COMPILER}
              --source-dir ${PROJECT_SOURCE_DIR} --toolkit-include ${_dccuda_toolkit_include}
              --work ${CMAKE_CURRENT_BINARY_DIR}/cuda-abi-mistakes)
    set_tests_properties(cuda_abi.mistake.${_case} PROPERTIES LABELS cuda_abi TIMEOUT 120)
  endif()
endforeach()
