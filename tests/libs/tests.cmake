# NVIDIA's libraries over dccuda handles (src/libs): each library's tests in
# its own folder, tests/libs/<lib>/tests.cmake.
file(GLOB DCTEST_LIBS_CMAKE_FILES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*/tests.cmake)
foreach(f IN LISTS DCTEST_LIBS_CMAKE_FILES)
  include(${f})
endforeach()
