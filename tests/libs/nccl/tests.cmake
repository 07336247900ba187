# NCCL through dccuda (dc_comm_*): the fake NCCL (tests/fake_nccl) over the
# fake driver in CI; on a GPU machine test_nccl_gpu against the real NCCL.
include(${PROJECT_SOURCE_DIR}/tests/fake_nccl/fake_nccl.cmake)
set(DCTEST_NCCL ${CMAKE_CURRENT_LIST_DIR})
set(DCTEST_NCCL_ENV ${DCTEST_FAKE_ENV} DCCUDA_NCCL_LIBRARY=${DCFAKE_NCCL_PATH} DCFAKE_NCCL_TIMEOUT_MS=10000)
# Every collective, datatype and op with 1, 2 and 3 ranks, against a CPU reference.
foreach(_ranks IN ITEMS 1 2 3)
  dc_test(test_nccl_${_ranks}rank SOURCES ${DCTEST_NCCL}/test_nccl.cpp ${DCTEST_NCCL}/nccl_reference.cpp
    ENV ${DCTEST_NCCL_ENV} DCFAKE_DEVICES=${_ranks} FAKE_ONLY LABELS threads)
  add_dependencies(test_nccl_${_ranks}rank dcfake_nccl)
endforeach()
# Communicators: init, split, abort unblocking a waiting rank, async errors, faults.
dc_test(test_nccl_comm SOURCES ${DCTEST_NCCL}/test_nccl_comm.cpp
  ENV ${DCTEST_NCCL_ENV} DCFAKE_DEVICES=3 FAKE_ONLY LABELS threads)
add_dependencies(test_nccl_comm dcfake_nccl)
# Bad input: every check refuses before NCCL is called.
dc_test(test_nccl_checks SOURCES ${DCTEST_NCCL}/test_nccl_checks.cpp
  ENV ${DCTEST_NCCL_ENV} DCFAKE_DEVICES=2 FAKE_ONLY)
add_dependencies(test_nccl_checks dcfake_nccl)
# An NCCL older than 2.18 (no ncclCommSplit), and none at all.
dc_test(test_nccl_old SOURCES ${DCTEST_NCCL}/test_nccl_missing.cpp
  ENV ${DCTEST_FAKE_ENV} DCCUDA_NCCL_LIBRARY=${DCFAKE_NCCL_OLD_PATH} DCTEST_NCCL_EXPECT=old FAKE_ONLY)
add_dependencies(test_nccl_old dcfake_nccl_old)
dc_test(test_nccl_missing SOURCES ${DCTEST_NCCL}/test_nccl_missing.cpp
  ENV ${DCTEST_FAKE_ENV} DCCUDA_NCCL_LIBRARY=/nonexistent/libnccl.so.2 DCTEST_NCCL_EXPECT=missing FAKE_ONLY)
# The GPU suite's NCCL test (label gpu): the real NCCL on a GPU machine, the
# fake here (one device).
dc_test(test_nccl_gpu SOURCES ${DCTEST_NCCL}/test_nccl_gpu.cpp ENV ${DCTEST_NCCL_ENV} DCFAKE_DEVICES=1 LABELS memcheck)
add_dependencies(test_nccl_gpu dcfake_nccl)
# The sample (samples/allreduce) on two fake GPUs, small sizes.
add_test(NAME allreduce_sample COMMAND env ${DCTEST_NCCL_ENV} DCFAKE_DEVICES=2 $<TARGET_FILE:dccuda-allreduce> 65536)
set_tests_properties(allreduce_sample PROPERTIES LABELS fake TIMEOUT 60
  PASS_REGULAR_EXPRESSION "all-reduce of 16384 floats over 2 ranks: OK")
