# Stream capture and graphs, against the fake driver (and a real one on a GPU).
dc_test(test_graph SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/graph/test_graph.cpp LABELS threads memcheck)
target_link_libraries(test_graph PRIVATE dctest_kernels)
dc_test(test_graph_build SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/graph/test_graph_build.cpp LABELS threads memcheck)
target_link_libraries(test_graph_build PRIVATE dctest_kernels)
# dc_graph_launch and the thread's current context (two fake devices: another context to set).
dc_test(test_graph_launch_context SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/graph/test_graph_launch_context.cpp
  ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 LABELS threads)
# The device-side header of conditional nodes, compiled into the test as text.
file(READ ${PROJECT_SOURCE_DIR}/include/dccuda_device_graph.h DCTEST_DEVICE_GRAPH_H)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/dccuda_device_graph.h)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/graph/device_graph_header.h.in
               ${CMAKE_CURRENT_BINARY_DIR}/graph/device_graph_header.h @ONLY)
target_include_directories(test_graph_build PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/graph)
