# Linking device code (dc_link): the real nvJitLink (a CPU library, found in
# the toolkit) against the fake driver in CI, the same binary on a GPU.
set(DCTEST_LINK ${CMAKE_CURRENT_SOURCE_DIR}/link)
dc_test(test_link SOURCES ${DCTEST_LINK}/test_link.cpp LABELS memcheck)
target_link_libraries(test_link PRIVATE dctest_kernels)
# No nvJitLink: LTO-IR refused naming it; relocatable code linked by cuLink.
dc_test(test_link_no_nvjitlink SOURCES ${DCTEST_LINK}/test_link_no_nvjitlink.cpp
  ENV ${DCTEST_FAKE_ENV} DCCUDA_NVJITLINK_LIBRARY=/nonexistent/libnvJitLink.so.13)
target_link_libraries(test_link_no_nvjitlink PRIVATE dctest_kernels)
# The toolkit's headers for NVRTC (DC_COMPILE_TOOLKIT_HEADERS): CCCL and cooperative groups.
dc_test(test_toolkit_headers SOURCES ${DCTEST_LINK}/test_toolkit_headers.cpp)
target_link_libraries(test_toolkit_headers PRIVATE dctest_kernels)
