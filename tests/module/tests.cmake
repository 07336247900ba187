# Modules and functions, through the fake driver (and the real one on a GPU).
set(DCTEST_MODULE ${CMAKE_CURRENT_SOURCE_DIR}/module)

# Precompiled images (a CUBIN and a fatbin with sm_90 code and compute_90 PTX),
# committed in module/fixtures (made by nvcc with fixtures/make_fixtures.sh),
# copied next to the test executables: the tests find them there, so that a
# build tree moved to another machine (the GPU bundle) still has them.
set(_dcfixtures ${DCTEST_MODULE}/fixtures)
set(_dcfixture_copies "")
foreach(_f kernels_sm90.cubin kernels.fatbin)
  add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${_f}
    COMMAND ${CMAKE_COMMAND} -E copy ${_dcfixtures}/${_f} ${CMAKE_CURRENT_BINARY_DIR}/${_f}
    DEPENDS ${_dcfixtures}/${_f} VERBATIM)
  list(APPEND _dcfixture_copies ${CMAKE_CURRENT_BINARY_DIR}/${_f})
endforeach()
add_custom_target(dctest_precompiled_kernels DEPENDS ${_dcfixture_copies})
set(DCTEST_KERNEL_DEFINES DCTEST_KERNELS_CUBIN="kernels_sm90.cubin" DCTEST_KERNELS_FATBIN="kernels.fatbin")
function(dc_uses_precompiled_kernels target)
  target_compile_definitions(${target} PRIVATE ${DCTEST_KERNEL_DEFINES})
  add_dependencies(${target} dctest_precompiled_kernels)
endfunction()
# The fixtures are what their command makes today (nvcc's output is deterministic).
if(CUDAToolkit_FOUND AND CUDAToolkit_NVCC_EXECUTABLE AND EXISTS ${CUDAToolkit_NVCC_EXECUTABLE})
  add_test(NAME module.fixtures_current
    COMMAND ${_dcfixtures}/make_fixtures.sh --check ${CMAKE_CURRENT_BINARY_DIR}/fixtures-remade
            ${CUDAToolkit_NVCC_EXECUTABLE})
  set_tests_properties(module.fixtures_current PROPERTIES PASS_REGULAR_EXPRESSION "fixtures: current" TIMEOUT 300)
else()
  dc_skip_test(module.fixtures_current "no nvcc here to remake tests/module/fixtures and compare")
endif()
dc_uses_precompiled_kernels(test_no_nvrtc)
# Without NVRTC the launch tests that need only dctest::kKernels launch them from the CUBIN.
dc_uses_precompiled_kernels(test_launch)

dc_test(test_module SOURCES ${DCTEST_MODULE}/test_module.cpp LABELS threads memcheck)
target_link_libraries(test_module PRIVATE dctest_kernels)
dc_uses_precompiled_kernels(test_module)
# A CUDA 12.0 driver: kernel names and layouts are read from the image.
dc_test(test_module_old_driver SOURCES ${DCTEST_MODULE}/test_module_old_driver.cpp
  ENV ${DCTEST_FAKE_ENV} DCFAKE_DRIVER_VERSION=12000)
target_link_libraries(test_module_old_driver PRIVATE dctest_kernels)
dc_uses_precompiled_kernels(test_module_old_driver)
# White-box: dccuda's image readers against the driver's answers.
dc_test(test_module_internal SOURCES ${DCTEST_MODULE}/test_module_internal.cpp INTERNAL)
# Module globals through dc_buffer_*: needs the buffer code (src/memory).
if(EXISTS ${PROJECT_SOURCE_DIR}/src/memory)
  dc_test(test_module_global_api SOURCES ${DCTEST_MODULE}/test_module_global_api.cpp)
endif()
# Context-independent libraries: one load, functions and launches on two devices.
dc_test(test_library SOURCES ${DCTEST_MODULE}/test_library.cpp ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2
  LABELS memcheck)
target_link_libraries(test_library PRIVATE dctest_kernels)
dc_uses_precompiled_kernels(test_library)
# The same on a CUDA 12.0 driver: no kernel enumeration, names and layouts read from the image.
dc_test(test_library_old_driver SOURCES ${DCTEST_MODULE}/test_library.cpp FAKE_ONLY
  ENV ${DCTEST_FAKE_ENV} DCFAKE_DEVICES=2 DCFAKE_DRIVER_VERSION=12000)
target_link_libraries(test_library_old_driver PRIVATE dctest_kernels)
dc_uses_precompiled_kernels(test_library_old_driver)
# A driver without cuLibrary.
dc_test(test_library_unsupported SOURCES ${DCTEST_MODULE}/test_library_unsupported.cpp FAKE_ONLY
  ENV ${DCTEST_FAKE_ENV} DCFAKE_MISSING=cuLibraryLoadData)
