# Reliability: bad input to every exported function, faults from every driver
# entry point, threads, and running out of device memory. By default against
# the fake driver; the same binaries run against a real driver on a GPU machine.
set(DCTEST_RELIABILITY ${CMAKE_CURRENT_SOURCE_DIR}/reliability)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

# The bad-input matrix, generated from the header and the per-function facts.
set(_bad_inputs_inc ${CMAKE_CURRENT_BINARY_DIR}/reliability/bad_input_cases.inc)
add_custom_command(OUTPUT ${_bad_inputs_inc}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/reliability
  COMMAND ${Python3_EXECUTABLE} ${DCTEST_RELIABILITY}/gen_bad_inputs.py ${PROJECT_SOURCE_DIR}/include/dccuda.h
          ${_bad_inputs_inc}
  DEPENDS ${DCTEST_RELIABILITY}/gen_bad_inputs.py ${DCTEST_RELIABILITY}/bad_input_facts.py
          ${PROJECT_SOURCE_DIR}/include/dccuda.h ${PROJECT_SOURCE_DIR}/abi/api.py ${PROJECT_SOURCE_DIR}/abi/api_model.py
  COMMENT "Generating the bad-input matrix from include/dccuda.h" VERBATIM)
# Two fake devices, so that peer arguments have a real peer.
dc_test(test_bad_inputs SOURCES ${DCTEST_RELIABILITY}/test_bad_inputs.cpp ${DCTEST_RELIABILITY}/bad_input_fixture.cpp
  ${_bad_inputs_inc} ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 DCCUDA_CUBLAS_LIBRARY=${DCFAKE_CUBLAS_PATH}
  DCCUDA_CUFFT_LIBRARY=${DCFAKE_CUFFT_PATH} DCCUDA_NCCL_LIBRARY=${DCFAKE_NCCL_PATH})
# The fake cuBLAS, cuFFT and NCCL (tests/libs, included before this file) for their cases.
add_dependencies(test_bad_inputs dcfake_cublas dcfake_cufft dcfake_nccl)
target_include_directories(test_bad_inputs PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/reliability)
target_compile_definitions(test_bad_inputs PRIVATE DCTEST_SYMBOLS_FILE="${PROJECT_SOURCE_DIR}/abi/dccuda.symbols")
target_link_libraries(test_bad_inputs PRIVATE dctest_kernels)

# The generator's own checks, each failing on a planted mistake.
add_test(NAME bad_inputs.generator COMMAND ${Python3_EXECUTABLE} ${DCTEST_RELIABILITY}/test_gen_bad_inputs.py)
set_tests_properties(bad_inputs.generator PROPERTIES LABELS "gen" TIMEOUT 60)

# Double release, release on another thread, release racing with use.
dc_test(test_handle_lifetime SOURCES ${DCTEST_RELIABILITY}/test_handle_lifetime.cpp LABELS threads memcheck)
target_link_libraries(test_handle_lifetime PRIVATE dctest_kernels)

# The fault sweep: every driver entry point failing in turn (fake driver only).
# Pageable copies are staged from 64 KiB on, so that the scenario's copies
# reach the staging path in small chunks.
set(_sweep_env ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 DCCUDA_STAGING_MIN_BYTES=65536 DCCUDA_STAGING_CHUNK_BYTES=65536
    DCCUDA_STAGING_MIN_CHUNK_BYTES=65536 DCCUDA_CUBLAS_LIBRARY=${DCFAKE_CUBLAS_PATH}
    DCCUDA_NCCL_LIBRARY=${DCFAKE_NCCL_PATH})
dc_test(test_fault_sweep SOURCES ${DCTEST_RELIABILITY}/test_fault_sweep.cpp ${DCTEST_RELIABILITY}/fault_scenario.cpp
  ENV ${_sweep_env} FAKE_ONLY LABELS slow)
# A CUDA 12.0 driver: the older-signature entry points are swept instead of the newer ones.
dc_test(test_fault_sweep_old_driver SOURCES ${DCTEST_RELIABILITY}/test_fault_sweep.cpp
  ${DCTEST_RELIABILITY}/fault_scenario.cpp ENV ${_sweep_env} DCFAKE_DRIVER_VERSION=12000 FAKE_ONLY LABELS slow)
foreach(t test_fault_sweep test_fault_sweep_old_driver)
  add_dependencies(${t} dcfake_cublas dcfake_nccl)
  target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${t} PRIVATE dctest_kernels)
endforeach()

# cuInit and cuDriverGetVersion failing (each case in a fresh child process).
dc_test(test_init_faults SOURCES ${DCTEST_RELIABILITY}/test_init_faults.cpp OWN_MAIN FAKE_ONLY)

# A driver lacking each entry point in turn (each case in a child process), on CUDA 12.0.
dc_test(test_missing_entries SOURCES ${DCTEST_RELIABILITY}/test_missing_entries.cpp
  ${DCTEST_RELIABILITY}/fault_scenario.cpp OWN_MAIN ENV ${_sweep_env} DCFAKE_DRIVER_VERSION=12000 FAKE_ONLY LABELS slow)
target_include_directories(test_missing_entries PRIVATE ${PROJECT_SOURCE_DIR}/src)
add_dependencies(test_missing_entries dcfake_nccl)
target_link_libraries(test_missing_entries PRIVATE dctest_kernels)

# Many threads sharing devices, streams, buffers and a module (DCTEST_STRESS_SECONDS, DCTEST_STRESS_THREADS).
dc_test(test_stress SOURCES ${DCTEST_RELIABILITY}/test_stress.cpp ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 LABELS threads slow)
target_link_libraries(test_stress PRIVATE dctest_kernels)
# The narrowed mix (DCTEST_STRESS_OPS) the GPU runs use under compute-sanitizer:
# only the named work runs, each of it at least once; an unknown name fails.
add_test(NAME test_stress.narrowed_mix
  COMMAND env ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 DCTEST_STRESS_OPS=graph,module DCTEST_STRESS_SECONDS=0.5
          $<TARGET_FILE:test_stress>)
set_tests_properties(test_stress.narrowed_mix PROPERTIES
  PASS_REGULAR_EXPRESSION "0 launches, 0 prepared launches, [1-9][0-9]* graphs, 0 streams\\+events, [1-9][0-9]* modules, 0 handle queries")
# The stress test compiles saxpy: without NVRTC it skips, saying why.
set_tests_properties(test_stress.narrowed_mix PROPERTIES SKIP_REGULAR_EXPRESSION "needs NVRTC, not found")
add_test(NAME test_stress.unknown_op_is_refused
  COMMAND env ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 DCTEST_STRESS_OPS=graph,graphs $<TARGET_FILE:test_stress>)
set_tests_properties(test_stress.unknown_op_is_refused PROPERTIES PASS_REGULAR_EXPRESSION "DCTEST_STRESS_OPS: unknown op 'graphs'")

# Out of device memory, for real; the fake device has 256 MiB, enforced.
dc_test(test_out_of_memory SOURCES ${DCTEST_RELIABILITY}/test_out_of_memory.cpp
  ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICE_MEMORY=268435456)

# One test per bug the reliability work found.
dc_test(test_regressions SOURCES ${DCTEST_RELIABILITY}/test_regressions.cpp LABELS threads memcheck)
target_link_libraries(test_regressions PRIVATE dctest_kernels)

# dc_ calls while a thread or the process ends (atexit, static destructors,
# thread-exit key destructors): run under ASan by tests/scripts/run_sanitizers.sh.
dc_test(test_exit_paths SOURCES ${DCTEST_RELIABILITY}/test_exit_paths.cpp OWN_MAIN)

# Loading, using (on a thread, with a staged copy) and unloading the library a
# hundred times. The binary dlopens libdccuda itself: it does not link it.
dc_test(test_dlclose SOURCES ${DCTEST_RELIABILITY}/test_dlclose.cpp STANDALONE
  ENV ${DCTEST_FAKE_ENV} DCTEST_LIBDCCUDA=$<TARGET_FILE:dccuda> DCCUDA_STAGING_MIN_BYTES_H2D=65536 DCCUDA_COPY_THREADS=4)

# Every call that waits, loads, unloads or resets is refused inside a host
# function; the header's list and the test's table agree.
dc_test(test_host_functions SOURCES ${DCTEST_RELIABILITY}/test_host_functions.cpp)
target_link_libraries(test_host_functions PRIVATE dctest_kernels)
target_compile_definitions(test_host_functions PRIVATE DCTEST_HEADER="${PROJECT_SOURCE_DIR}/include/dccuda.h")

# fork after initialisation: the child is refused every call (and never hangs
# on a lock a parent thread held); exec and spawn work. Pageable copies of
# 8 MiB are staged.
dc_test(test_fork SOURCES ${DCTEST_RELIABILITY}/test_fork.cpp OWN_MAIN
  ENV ${DCTEST_FAKE_ENV} DCCUDA_STAGING_MIN_BYTES_H2D=65536)

# Module files that are not regular files, or too large: refused unread.
dc_test(test_file_inputs SOURCES ${DCTEST_RELIABILITY}/test_file_inputs.cpp OWN_MAIN)

# The trust boundaries: the cache directory and the environment of a privileged
# process, with two users the test creates (as root; it skips otherwise) and a
# set-user-ID copy of trust_helper. The helper loads libdccuda itself.
add_executable(trust_helper ${DCTEST_RELIABILITY}/trust_helper.c)
target_include_directories(trust_helper PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(trust_helper PRIVATE ${CMAKE_DL_LIBS})
add_library(trust_evil_library MODULE ${DCTEST_RELIABILITY}/trust_evil_library.c)
if(DCCUDA_SANITIZE)
  # A C program: linked by the C++ driver, so that the sanitizer runtimes are complete (as dc_c_tool does).
  set_target_properties(trust_helper PROPERTIES LINKER_LANGUAGE CXX)
endif()
dc_test(test_trust_boundaries SOURCES ${DCTEST_RELIABILITY}/test_trust_boundaries.cpp INTERNAL FAKE_ONLY)
target_link_libraries(test_trust_boundaries PRIVATE dctest_kernels)
add_dependencies(test_trust_boundaries trust_helper trust_evil_library dccuda)
target_compile_definitions(test_trust_boundaries PRIVATE
  DCTEST_TRUST_HELPER="$<TARGET_FILE:trust_helper>" DCTEST_LIBDCCUDA="$<TARGET_FILE:dccuda>"
  DCTEST_EVIL_LIBRARY="$<TARGET_FILE:trust_evil_library>")
