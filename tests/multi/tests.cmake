# Several devices: work split over every visible device, hand-offs between
# devices. Two fake devices in CI.
dc_test(test_split SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/multi/test_split.cpp ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 LABELS memcheck)
target_include_directories(test_split PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
add_test(NAME multi_gpu_sample COMMAND env ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=3 $<TARGET_FILE:dccuda-multi-gpu>)
set_tests_properties(multi_gpu_sample PROPERTIES PASS_REGULAR_EXPRESSION "split over 3 device\\(s\\): OK")
# It compiles its kernel: without NVRTC (no toolkit) it skips; its output says why.
set_tests_properties(multi_gpu_sample PROPERTIES SKIP_REGULAR_EXPRESSION "NVRTC is not available")
