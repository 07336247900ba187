# The fake NCCL (tests/fake_nccl): NCCL 2's entry points over the fake
# driver's memory, CPU reference collectives, fault injection
# (fake_nccl_control.h). DCFAKE_NCCL_PATH names it; DCFAKE_NCCL_OLD_PATH the
# same fake posing as NCCL 2.12 (no ncclCommSplit, ncclCommFinalize).
foreach(_variant IN ITEMS dcfake_nccl dcfake_nccl_old)
  add_library(${_variant} SHARED ${CMAKE_CURRENT_LIST_DIR}/fake_nccl.cpp ${CMAKE_CURRENT_LIST_DIR}/fake_nccl_reduce.cpp)
  target_include_directories(${_variant} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests/fake_driver)
  target_compile_options(${_variant} PRIVATE -Wall -Wextra $<$<BOOL:${DCCUDA_WERROR}>:-Werror>)
  target_link_libraries(${_variant} PRIVATE Threads::Threads ${CMAKE_DL_LIBS})
  set_target_properties(${_variant} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
endforeach()
target_compile_definitions(dcfake_nccl_old PRIVATE DCFAKE_NCCL_OLD=1)
set(DCFAKE_NCCL_PATH ${PROJECT_BINARY_DIR}/tests/libdcfake_nccl.so)
set(DCFAKE_NCCL_OLD_PATH ${PROJECT_BINARY_DIR}/tests/libdcfake_nccl_old.so)
