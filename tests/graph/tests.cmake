# Stream capture and graphs, against the fake driver (and a real one on a GPU).
dc_test(test_graph SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/graph/test_graph.cpp LABELS threads memcheck)
target_link_libraries(test_graph PRIVATE dctest_kernels)
dc_test(test_graph_build SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/graph/test_graph_build.cpp LABELS threads memcheck)
target_link_libraries(test_graph_build PRIVATE dctest_kernels)
