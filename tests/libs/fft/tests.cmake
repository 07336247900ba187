# cuFFT through dccuda (dc_fft_*): the fake cuFFT (tests/fake_cufft: a naive
# DFT on the fake driver's memory, with fault injection) in CI; on a GPU the
# same binary runs against the real libcufft, found by the normal search.
set(DCTEST_FFT ${CMAKE_CURRENT_LIST_DIR})
add_library(dcfake_cufft SHARED ${PROJECT_SOURCE_DIR}/tests/fake_cufft/fake_cufft.cpp)
target_include_directories(dcfake_cufft PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_options(dcfake_cufft PRIVATE -Wall -Wextra $<$<BOOL:${DCCUDA_WERROR}>:-Werror>)
target_link_libraries(dcfake_cufft PRIVATE ${CMAKE_DL_LIBS})
set_target_properties(dcfake_cufft PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
set(DCFAKE_CUFFT_PATH ${PROJECT_BINARY_DIR}/tests/libdcfake_cufft.so)

# Transforms against a CPU reference, layouts, bounds, the plan cache, faults.
dc_test(test_fft SOURCES ${DCTEST_FFT}/test_fft.cpp ${DCTEST_FFT}/fft_test.cpp ${DCTEST_FFT}/fft_reference.cpp
  ENV ${DCTEST_FAKE_ENV} DCCUDA_CUFFT_LIBRARY=${DCFAKE_CUFFT_PATH} LABELS memcheck)
add_dependencies(test_fft dcfake_cufft)
# The plan cache off (DCCUDA_FFT_PLAN_CACHE=0): every create plans anew.
dc_test(test_fft_no_cache SOURCES ${DCTEST_FFT}/test_fft_cache_off.cpp ${DCTEST_FFT}/fft_test.cpp ${DCTEST_FFT}/fft_reference.cpp
  ENV ${DCTEST_FAKE_ENV} DCCUDA_CUFFT_LIBRARY=${DCFAKE_CUFFT_PATH} DCCUDA_FFT_PLAN_CACHE=0 FAKE_ONLY)
add_dependencies(test_fft_no_cache dcfake_cufft)
# No cuFFT: every dc_fft_ call refused with the loader's message.
dc_test(test_fft_missing SOURCES ${DCTEST_FFT}/test_fft_missing.cpp
  ENV ${DCTEST_FAKE_ENV} DCCUDA_CUFFT_LIBRARY=/nonexistent/libcufft.so.12 FAKE_ONLY)
target_link_libraries(test_fft PRIVATE ${CMAKE_DL_LIBS})
target_link_libraries(test_fft_no_cache PRIVATE ${CMAKE_DL_LIBS})
