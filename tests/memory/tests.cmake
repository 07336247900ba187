# Buffers, copies, fills, streams and events. By default against the fake
# driver; the same binaries run against a real driver on a GPU machine.
set(DCTEST_MEMORY ${CMAKE_CURRENT_SOURCE_DIR}/memory)

dc_test(test_buffer SOURCES ${DCTEST_MEMORY}/test_buffer.cpp ${DCTEST_MEMORY}/test_view.cpp
  ${DCTEST_MEMORY}/test_pool.cpp ${DCTEST_MEMORY}/test_growable.cpp ${DCTEST_MEMORY}/test_ipc.cpp
  ${DCTEST_MEMORY}/test_pool_ipc.cpp
  ${DCTEST_MEMORY}/test_vmm.cpp
  LABELS threads memcheck)
dc_test(test_copy SOURCES ${DCTEST_MEMORY}/test_copy.cpp ${DCTEST_MEMORY}/test_fill.cpp ${DCTEST_MEMORY}/test_copy_2d.cpp
  LABELS threads memcheck)
# The same copies with the staging tunables pushed to their edges: every
# pageable copy staged (even 1 byte), small chunks, two buffers (many laps of
# the pipeline per copy), a single copy thread.
# (The same sources as test_copy: the binary links its objects, tests/CMakeLists.txt.)
dc_test(test_copy_tuned SOURCES ${DCTEST_MEMORY}/test_copy.cpp ${DCTEST_MEMORY}/test_fill.cpp ${DCTEST_MEMORY}/test_copy_2d.cpp
  ENV ${DCTEST_FAKE_ENV} DCCUDA_STAGING_MIN_BYTES=1 DCCUDA_STAGING_MIN_BYTES_H2D=1 DCCUDA_STAGING_CHUNK_BYTES=65536
      DCCUDA_STAGING_MIN_CHUNK_BYTES=65536 DCCUDA_STAGING_BUFFERS=2 DCCUDA_COPY_THREADS=1)
# The small-copy path (one pinned buffer, synchronous driver copies) taking
# copies of several chunks: a 200000-byte limit over 64 KiB buffers.
dc_test(test_copy_small SOURCES ${DCTEST_MEMORY}/test_copy.cpp ${DCTEST_MEMORY}/test_fill.cpp ${DCTEST_MEMORY}/test_copy_2d.cpp
  ENV ${DCTEST_FAKE_ENV} DCCUDA_STAGING_SMALL_BYTES=200000 DCCUDA_STAGING_CHUNK_BYTES=65536
      DCCUDA_STAGING_MIN_CHUNK_BYTES=65536 DCCUDA_COPY_STREAMING=no)
# Batches of copies: with the driver's cuMemcpyBatchAsync (CUDA 13.0), with
# 12.8's older signature, and without either (every copy as its single call).
dc_test(test_copy_batch SOURCES ${DCTEST_MEMORY}/test_copy_batch.cpp LABELS memcheck)
dc_test(test_copy_batch_no_entry SOURCES ${DCTEST_MEMORY}/test_copy_batch.cpp
  ENV ${DCTEST_FAKE_ENV} DCFAKE_MISSING=cuMemcpyBatchAsync)
dc_test(test_copy_batch_cuda_12_8 SOURCES ${DCTEST_MEMORY}/test_copy_batch.cpp
  ENV ${DCTEST_FAKE_ENV} DCFAKE_DRIVER_VERSION=12080)
dc_test(test_stream SOURCES ${DCTEST_MEMORY}/test_stream.cpp ${DCTEST_MEMORY}/test_event.cpp LABELS threads memcheck)
dc_test(test_memory_faults SOURCES ${DCTEST_MEMORY}/test_memory_faults.cpp LABELS faults)
# The library's sticky-error list (core/sticky_errors.h), to check the fake breaks its context on each.
target_include_directories(test_memory_faults PRIVATE ${PROJECT_SOURCE_DIR}/src)
# Two fake devices: copies between devices, streams and events of the wrong device.
dc_test(test_multi_device_memory SOURCES ${DCTEST_MEMORY}/test_multi_device.cpp
  ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 LABELS memcheck)
# A CUDA 12.0 driver: prefetch, advice and event timing use the older entry points.
dc_test(test_memory_old_driver SOURCES ${DCTEST_MEMORY}/test_old_driver_memory.cpp
  ENV ${DCTEST_FAKE_ENV} DCFAKE_DRIVER_VERSION=12000)
# Devices without memory pools (TCC, old drivers): cuMemAlloc throughout; and
# without virtual memory management: no growable buffers.
dc_test(test_memory_no_pools SOURCES ${DCTEST_MEMORY}/test_no_pools.cpp
  ENV ${DCTEST_FAKE_ENV} DCFAKE_NO_POOLS=1 DCFAKE_NO_VMM=1)
# A growable buffer grown to 8 GiB on a GPU (256 MiB on the fake): not under memcheck.
dc_test(test_growable_large SOURCES ${DCTEST_MEMORY}/test_growable_large.cpp)
# Two processes share a buffer and an event (GPU and NVRTC; skipped on the fake).
dc_test(test_ipc_processes SOURCES ${DCTEST_MEMORY}/test_ipc_processes.cpp)
# White-box: a view hands its last stream to its root buffer.
dc_test(test_view_internal SOURCES ${DCTEST_MEMORY}/test_view_internal.cpp INTERNAL)
dc_test(test_host_copy SOURCES ${DCTEST_MEMORY}/test_host_copy.cpp INTERNAL LABELS threads)
target_include_directories(test_view_internal PRIVATE ${PROJECT_SOURCE_DIR}/src)
