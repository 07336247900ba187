# cuBLAS through dc_blas, on the fake cuBLAS (tests/fake_cublas): CPU
# reference numerics, every bad input, releases, fault injection, a missing
# library and a cuBLAS 11 without the _64 entry points.
set(DCTEST_BLAS ${CMAKE_CURRENT_LIST_DIR})

foreach(_variant IN ITEMS "" "11")
  add_library(dcfake_cublas${_variant} SHARED ${PROJECT_SOURCE_DIR}/tests/fake_cublas/fake_cublas.cpp)
  target_include_directories(dcfake_cublas${_variant} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_compile_options(dcfake_cublas${_variant} PRIVATE -Wall -Wextra $<$<BOOL:${DCCUDA_WERROR}>:-Werror>)
  set_target_properties(dcfake_cublas${_variant} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
endforeach()
target_compile_definitions(dcfake_cublas11 PRIVATE DCFAKE_CUBLAS_11=1)
# (The computing helpers serve only the entry points this variant leaves out.)
target_compile_options(dcfake_cublas11 PRIVATE -Wno-unused-function)
set(DCFAKE_CUBLAS_PATH ${PROJECT_BINARY_DIR}/tests/libdcfake_cublas.so)
set(DCFAKE_CUBLAS11_PATH ${PROJECT_BINARY_DIR}/tests/libdcfake_cublas11.so)

# On the fake cuBLAS here; the GPU suite (tests/gpu/run.sh) runs the same binary
# against the real driver and the real cuBLAS (no DCCUDA_CUBLAS_LIBRARY, or the
# wheel's), where the tests that need the fake's counters skip themselves.
dc_test(test_blas SOURCES ${DCTEST_BLAS}/test_blas.cpp ${DCTEST_BLAS}/blas_reference.cpp
  ENV ${DCTEST_FAKE_ENV} DCCUDA_CUBLAS_LIBRARY=${DCFAKE_CUBLAS_PATH} LABELS threads)
add_dependencies(test_blas dcfake_cublas)
# cuBLAS absent: every call says what was tried and how to provide it.
dc_test(test_blas_missing SOURCES ${DCTEST_BLAS}/test_blas_missing.cpp
  ENV ${DCTEST_FAKE_ENV} DCCUDA_CUBLAS_LIBRARY=${PROJECT_BINARY_DIR}/tests/no-such-libcublas.so.13 FAKE_ONLY)
# A cuBLAS 11 stand-in: handles work, the _64 calls are refused by name.
dc_test(test_blas_old SOURCES ${DCTEST_BLAS}/test_blas_old.cpp
  ENV ${DCTEST_FAKE_ENV} DCCUDA_CUBLAS_LIBRARY=${DCFAKE_CUBLAS11_PATH} FAKE_ONLY)
add_dependencies(test_blas_old dcfake_cublas11)
# The operands' byte extents near 2^128 (inside the library: no driver needed).
dc_test(test_blas_extents SOURCES ${DCTEST_BLAS}/test_blas_extents.cpp INTERNAL)
