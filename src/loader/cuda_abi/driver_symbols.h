// The names the driver exports the entry points under, for the versions
// driver_entry_points.inc lists as current: cuda.h's macros, which rename
// cuMemAlloc to cuMemAlloc_v2 and so on (the plain names are the legacy
// functions a driver keeps for old programs). Only the fake driver defines
// functions under these names, and the loader's table records them for the
// tests; the library asks cuGetProcAddress for <name> at <version> and never
// for a symbol. tests/cuda_abi checks that every entry point's name maps as
// cuda.h maps it. Per-thread default stream variants (_ptds/_ptsz) are not
// used.
#pragma once

#define cuGetProcAddress             cuGetProcAddress_v2
#define cuDeviceGetUuid              cuDeviceGetUuid_v2
#define cuDeviceTotalMem             cuDeviceTotalMem_v2
#define cuDevicePrimaryCtxRelease    cuDevicePrimaryCtxRelease_v2
#define cuDevicePrimaryCtxReset      cuDevicePrimaryCtxReset_v2
#define cuMemGetInfo                 cuMemGetInfo_v2
#define cuMemAlloc                   cuMemAlloc_v2
#define cuMemAllocPitch              cuMemAllocPitch_v2
#define cuIpcOpenMemHandle           cuIpcOpenMemHandle_v2
#define cuMemFree                    cuMemFree_v2
#define cuMemHostGetDevicePointer    cuMemHostGetDevicePointer_v2
#define cuMemHostRegister            cuMemHostRegister_v2
#define cuMemPrefetchAsync           cuMemPrefetchAsync_v2
#define cuMemAdvise                  cuMemAdvise_v2
#define cuMemcpyHtoD                 cuMemcpyHtoD_v2
#define cuMemcpyDtoH                 cuMemcpyDtoH_v2
#define cuMemcpyDtoD                 cuMemcpyDtoD_v2
#define cuMemcpyHtoDAsync            cuMemcpyHtoDAsync_v2
#define cuMemcpyDtoHAsync            cuMemcpyDtoHAsync_v2
#define cuMemcpyDtoDAsync            cuMemcpyDtoDAsync_v2
#define cuMemcpyBatchAsync           cuMemcpyBatchAsync_v2
#define cuMemsetD8                   cuMemsetD8_v2
#define cuMemsetD16                  cuMemsetD16_v2
#define cuMemsetD32                  cuMemsetD32_v2
#define cuMemcpy3DAsync              cuMemcpy3DAsync_v2
#define cuMemcpy2D                   cuMemcpy2D_v2
#define cuStreamDestroy              cuStreamDestroy_v2
#define cuEventDestroy               cuEventDestroy_v2
#define cuEventElapsedTime           cuEventElapsedTime_v2
#define cuModuleGetGlobal            cuModuleGetGlobal_v2
#define cuStreamBeginCapture         cuStreamBeginCapture_v2
#define cuGraphExecUpdate            cuGraphExecUpdate_v2
#define cuGraphAddKernelNode         cuGraphAddKernelNode_v2
#define cuGraphAddDependencies       cuGraphAddDependencies_v2
#define cuGraphGetEdges              cuGraphGetEdges_v2
#define cuGraphKernelNodeSetParams   cuGraphKernelNodeSetParams_v2
#define cuGraphAddNode               cuGraphAddNode_v2
#define cuGraphExecKernelNodeSetParams cuGraphExecKernelNodeSetParams_v2
#define cuStreamWaitValue32          cuStreamWaitValue32_v2
#define cuStreamWaitValue64          cuStreamWaitValue64_v2
#define cuStreamWriteValue32         cuStreamWriteValue32_v2
#define cuStreamWriteValue64         cuStreamWriteValue64_v2
#define cuStreamBatchMemOp           cuStreamBatchMemOp_v2
#define cuLinkCreate                 cuLinkCreate_v2
#define cuLinkAddData                cuLinkAddData_v2
