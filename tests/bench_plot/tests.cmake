# The benchmark plots (bench/plot/make_plots.py), drawn from the committed
# sample runs and checked; bench/peers.py against stand-in libraries; and
# bench/round_trips.h, the round-trip JSON writer, through a small program.
# Python needs matplotlib and NumPy, which come from Debian's
# python3-matplotlib (tests/scripts/setup_machine.sh); a python3 found first
# on PATH (pyenv, a virtual environment) may lack them, so /usr/bin/python3
# is tried too. Without either the tests fail and say why.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(DCPLOT_PYTHON "")
foreach(_candidate IN ITEMS ${Python3_EXECUTABLE} /usr/bin/python3)
  if(NOT DCPLOT_PYTHON AND EXISTS ${_candidate})
    execute_process(COMMAND ${_candidate} -c "import matplotlib, numpy"
      RESULT_VARIABLE _dcplot_rc OUTPUT_QUIET ERROR_QUIET)
    if(_dcplot_rc EQUAL 0)
      set(DCPLOT_PYTHON ${_candidate})
    endif()
  endif()
endforeach()

add_executable(round_trips_sample ${CMAKE_CURRENT_LIST_DIR}/round_trips_sample.cpp)
target_include_directories(round_trips_sample PRIVATE ${PROJECT_SOURCE_DIR}/bench)
target_compile_options(round_trips_sample PRIVATE ${DCCUDA_WARNINGS})
# The writer's refusals, on their own (no Python needed).
add_test(NAME bench_plot.round_trips_refusals COMMAND round_trips_sample)

foreach(_case IN ITEMS Samples Determinism PlantedMistakes PeersScript RoundTripsWriter)
  if(DCPLOT_PYTHON)
    add_test(NAME bench_plot.${_case}
      COMMAND env PYTHONDONTWRITEBYTECODE=1 DCPLOT_ROUND_TRIPS_SAMPLE=$<TARGET_FILE:round_trips_sample>
              ${DCPLOT_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_plots.py -v ${_case})
  else()
    add_test(NAME bench_plot.${_case}
      COMMAND sh -c "echo 'no python3 with matplotlib and numpy (${Python3_EXECUTABLE}, /usr/bin/python3): install python3-matplotlib (tests/scripts/setup_machine.sh)'; exit 1")
  endif()
  set_tests_properties(bench_plot.${_case} PROPERTIES LABELS bench_plot TIMEOUT 300)
endforeach()
