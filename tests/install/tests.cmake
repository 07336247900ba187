# The install: `cmake --install` into a scratch prefix, then a CMake project
# (find_package) and a pkg-config build that use it (tests/install/check_install.sh).
add_test(NAME install.consumer
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/check_install.sh ${CMAKE_BINARY_DIR} ${CMAKE_BINARY_DIR}/install-check)
set_tests_properties(install.consumer PROPERTIES LABELS install PASS_REGULAR_EXPRESSION "check_install: PASS" TIMEOUT 300)

# Embedded with add_subdirectory: dccuda's tests and -Werror default to off (tests/install/embed).
add_test(NAME install.embedded
  COMMAND ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/embed -B ${CMAKE_CURRENT_BINARY_DIR}/embed-build
          -G ${CMAKE_GENERATOR} -DDCCUDA_SOURCE=${PROJECT_SOURCE_DIR})
set_tests_properties(install.embedded PROPERTIES LABELS install PASS_REGULAR_EXPRESSION "embedded dccuda: PASS" TIMEOUT 120)
