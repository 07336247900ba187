# The layering of src/ (src/layers.txt; docs/INTERNALS.md, "Layers"):
#   layering.check    tests/layering/check_layers.py: fails naming every include of a higher
#                     layer's header (file, line, header, both layers), every source file of
#                     no layer, and an INTERNALS.md that does not quote the table's order
#   layering.planted  the same check on planted mistakes (tests/layering/test_check_layers.py):
#                     upward includes ("...", relative, <...>, in an .inc), a folder of no
#                     layer, a swapped or malformed table, a stale document; and the control
#                     cases that pass (the tree as committed, a cycle inside one layer)
find_package(Python3 COMPONENTS Interpreter REQUIRED)
add_test(NAME layering.check COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_layers.py
  --src ${PROJECT_SOURCE_DIR}/src --doc ${PROJECT_SOURCE_DIR}/docs/INTERNALS.md)
add_test(NAME layering.planted COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/test_check_layers.py)
set_tests_properties(layering.check layering.planted PROPERTIES LABELS "layering" TIMEOUT 120)
