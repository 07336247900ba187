# NVRTC beside libdccuda: the folder that holds the library is searched first
# (loader/nvrtc.cpp). The fake NVRTC is a test double that only says who it is.
add_library(dcfake_nvrtc SHARED ${CMAKE_CURRENT_SOURCE_DIR}/nvrtc_search/fake_nvrtc.cpp)
target_include_directories(dcfake_nvrtc PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_options(dcfake_nvrtc PRIVATE -Wall -Wextra $<$<BOOL:${DCCUDA_WERROR}>:-Werror>)
set_target_properties(dcfake_nvrtc PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
add_custom_target(dctest_nvrtc_search ALL DEPENDS dcfake_nvrtc dccuda dccuda-info dccuda-saxpy)
# Under sanitizers a foreign host process (Python) cannot load the instrumented
# library (the runtime must come first): that part is left out there.
add_test(NAME nvrtc_search.beside_library
  COMMAND env DCTEST_SANITIZED=${DCCUDA_SANITIZE}
          ${CMAKE_CURRENT_SOURCE_DIR}/nvrtc_search/check_nvrtc_beside_library.sh ${CMAKE_BINARY_DIR}
          $<TARGET_FILE:dcfake_nvrtc> ${CMAKE_CURRENT_BINARY_DIR}/nvrtc-search)
set_tests_properties(nvrtc_search.beside_library PROPERTIES PASS_REGULAR_EXPRESSION "nvrtc_search: PASS" TIMEOUT 120)
