# Modules and functions, through the fake driver (and the real one on a GPU).
set(DCTEST_MODULE ${CMAKE_CURRENT_SOURCE_DIR}/module)

# Precompiled images (a CUBIN and a fatbin with sm_90 code and compute_90 PTX),
# when the toolkit has nvcc.
set(DCTEST_KERNEL_DEFINES "")
if(CUDAToolkit_NVCC_EXECUTABLE AND EXISTS ${CUDAToolkit_NVCC_EXECUTABLE})
  set(_cubin ${CMAKE_CURRENT_BINARY_DIR}/kernels_sm90.cubin)
  set(_fatbin ${CMAKE_CURRENT_BINARY_DIR}/kernels.fatbin)
  add_custom_command(OUTPUT ${_cubin}
    COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -cubin -arch=sm_90 -o ${_cubin} ${DCTEST_MODULE}/kernels.cu
    DEPENDS ${DCTEST_MODULE}/kernels.cu VERBATIM)
  add_custom_command(OUTPUT ${_fatbin}
    COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -fatbin -gencode arch=compute_90,code=[sm_90,compute_90]
            -o ${_fatbin} ${DCTEST_MODULE}/kernels.cu
    DEPENDS ${DCTEST_MODULE}/kernels.cu VERBATIM)
  add_custom_target(dctest_precompiled_kernels DEPENDS ${_cubin} ${_fatbin})
  # File names only: the tests find them next to their executable, so that a
  # build tree moved to another machine still works.
  set(DCTEST_KERNEL_DEFINES DCTEST_KERNELS_CUBIN="kernels_sm90.cubin" DCTEST_KERNELS_FATBIN="kernels.fatbin")
endif()
function(dc_uses_precompiled_kernels target)
  if(DCTEST_KERNEL_DEFINES)
    target_compile_definitions(${target} PRIVATE ${DCTEST_KERNEL_DEFINES})
    add_dependencies(${target} dctest_precompiled_kernels)
  endif()
endfunction()
dc_uses_precompiled_kernels(test_no_nvrtc)

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
