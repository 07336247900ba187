# Seeing inside: the log hook, live handles, telemetry, profiler ranges, launch traces.
set(DCTEST_DIAG ${CMAKE_CURRENT_SOURCE_DIR}/diagnostics)

# Its own main: no dc_ call before the first test, which hears the driver load.
dc_test(test_log SOURCES ${DCTEST_DIAG}/test_log.cpp OWN_MAIN LABELS threads)
# The same on a CUDA 12.0 driver: entry points missing, older ones standing in.
dc_test(test_log_old_driver SOURCES ${DCTEST_DIAG}/test_log.cpp OWN_MAIN
  ENV ${DCTEST_FAKE_ENV} DCFAKE_DRIVER_VERSION=12000 FAKE_ONLY)
# Live handles and the leak report at exit (children that leak on purpose).
dc_test(test_handle_report SOURCES ${DCTEST_DIAG}/test_handle_report.cpp OWN_MAIN)
