#!/usr/bin/env python3
"""Planted mistakes for the check of dccuda's CUDA declarations.

Each case copies src/loader/cuda_abi, changes one line of it the way a person
could get it wrong, builds tests/cuda_abi's check against the copy and the
real toolkit headers, and passes only if the check fails (at compile time or
when run) saying what is wrong. The control case changes nothing and must
pass.

  planted_mistakes.py --list
  planted_mistakes.py CASE --cxx g++ --source-dir <repo> --toolkit-include <dir> --work <dir>
"""
import argparse
import os
import shutil
import subprocess
import sys

# name: (file in src/loader/cuda_abi, text, replacement, what the failure must
# say: a string, or strings that must all appear)
CASES = {
    "control_unchanged": (None, None, None, "CUDA ABI check: PASS"),
    "enumerator_value": (
        "driver_enums.inc", "DC_CU_ENUMERATOR(CUDA_ERROR_INVALID_VALUE, 1)",
        "DC_CU_ENUMERATOR(CUDA_ERROR_INVALID_VALUE, 2)",
        "enumerator CUDA_ERROR_INVALID_VALUE: the value differs"),
    "enumerator_in_wrong_enum": (
        "driver_enums.inc", "DC_CU_ENUMERATOR(CU_STREAM_NON_BLOCKING, 1)\n",
        "DC_CU_ENUMERATOR(CU_STREAM_NON_BLOCKING, 1)\nDC_CU_ENUMERATOR(CU_EVENT_DISABLE_TIMING, 2)\n",
        "CU_EVENT_DISABLE_TIMING is not an enumerator of the same enum"),
    "enum_wrong_tag": (
        "driver_enums.inc", "DC_CU_ENUM_BEGIN(CUresult, cudaError_enum)",
        "DC_CU_ENUM_BEGIN(CUresult, CUresult_enum)",
        ("error", "CUresult_enum")),  # cuda.h has no such tag: a compile error names it
    "field_type": (
        "driver_structs.inc", "DC_CU_FIELD(CUmemLocationType, type)\nDC_CU_FIELD(int, id)",
        "DC_CU_FIELD(CUmemLocationType, type)\nDC_CU_FIELD(unsigned int, id)",
        "field id: the type differs"),
    "field_order": (
        "driver_structs.inc", "DC_CU_FIELD(CUgraphNode, errorNode)\nDC_CU_FIELD(CUgraphNode, errorFromNode)",
        "DC_CU_FIELD(CUgraphNode, errorFromNode)\nDC_CU_FIELD(CUgraphNode, errorNode)",
        "field errorNode: the offset differs"),
    "struct_size": (
        "driver_structs.inc", "DC_CU_ARRAY_FIELD(unsigned char, reserved, 54)",
        "DC_CU_ARRAY_FIELD(unsigned char, reserved, 56)", "struct CUmemPoolProps: the size differs"),
    "union_alignment": (
        "driver_structs.inc",
        "DC_CU_NESTED_BEGIN(launchCompletionEvent)\nDC_CU_NESTED_FIELD(launchCompletionEvent, CUevent, event)\n"
        "DC_CU_NESTED_FIELD(launchCompletionEvent, int, flags)\nDC_CU_NESTED_END(launchCompletionEvent)\n",
        "", "union CUlaunchAttributeValue: the alignment differs"),
    "nested_field": (
        "driver_structs.inc", "DC_CU_NESTED_FIELD(clusterDim, unsigned int, y)\nDC_CU_NESTED_FIELD(clusterDim, unsigned int, z)",
        "DC_CU_NESTED_FIELD(clusterDim, unsigned int, z)\nDC_CU_NESTED_FIELD(clusterDim, unsigned int, y)",
        "field clusterDim.y: the offset differs"),
    "scalar_type": (
        "driver_types.inc", "DC_CU_SCALAR(CUdeviceptr, unsigned long long)", "DC_CU_SCALAR(CUdeviceptr, long long)",
        "scalar CUdeviceptr is not cuda.h's type"),
    "handle_tag": (
        "driver_types.inc", "DC_CU_HANDLE(CUmemoryPool, CUmemPoolHandle_st)", "DC_CU_HANDLE(CUmemoryPool, CUmemPool_st)",
        ("error", "CUmemPool_st")),  # cuda.h has no such tag: a compile error names it
    "callback_signature": (
        "driver_types.inc", "DC_CU_CALLBACK(CUoccupancyB2DSize, size_t, (int blockSize))",
        "DC_CU_CALLBACK(CUoccupancyB2DSize, int, (int blockSize))", "callback CUoccupancyB2DSize differs"),
    # The bug that started the project: cuMemAlloc's legacy 32-bit signature.
    "entry_legacy_parameters": (
        "driver_entry_points.inc", "DC_CU_ENTRY(cuMemAlloc, 3020, (CUdeviceptr* dptr, size_t bytesize))",
        "DC_CU_ENTRY(cuMemAlloc, 3020, (CUdeviceptr* dptr, unsigned int bytesize))",
        "cuMemAlloc at 3020: the signature differs from cudaTypedefs.h's PFN_cuMemAlloc_v3020"),
    "entry_older_listed_as_current": (
        "driver_entry_points.inc",
        "DC_CU_ENTRY_OLDER(cuMemAdvise, 8000, (CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device))",
        "DC_CU_ENTRY(cuMemAdvise, 8000, (CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device))",
        "cuMemAdvise at 8000 is not the signature cuda.h declares today"),
    "entry_version_without_typedef": (
        "driver_entry_points.inc", "DC_CU_ENTRY(cuMemFree, 3020, (CUdeviceptr dptr))",
        "DC_CU_ENTRY(cuMemFree, 3021, (CUdeviceptr dptr))", "PFN_cuMemFree_v3021"),
    "nvrtc_signature": (
        "nvrtc_declarations.inc", "DC_NVRTC_ENTRY(nvrtcResult, nvrtcGetPTXSize, (nvrtcProgram prog, size_t* ptxSizeRet))",
        "DC_NVRTC_ENTRY(nvrtcResult, nvrtcGetPTXSize, (nvrtcProgram prog, unsigned int* ptxSizeRet))",
        "nvrtcGetPTXSize: the signature differs from nvrtc.h's"),
    "nvrtc_enumerator": (
        "nvrtc_declarations.inc", "DC_CU_ENUMERATOR(NVRTC_ERROR_COMPILATION, 6)",
        "DC_CU_ENUMERATOR(NVRTC_ERROR_COMPILATION, 7)", "enumerator NVRTC_ERROR_COMPILATION: the value differs"),
    "cufft_signature": (
        "cufft_declarations.inc",
        "DC_CUFFT_ENTRY(cufftResult, cufftExecR2C, (cufftHandle plan, cufftReal* idata, cufftComplex* odata))",
        "DC_CUFFT_ENTRY(cufftResult, cufftExecR2C, (cufftHandle plan, cufftDoubleReal* idata, cufftComplex* odata))",
        "cufftExecR2C: the signature differs"),
    "cufft_enumerator": (
        "cufft_declarations.inc", "DC_CU_ENUMERATOR(CUFFT_Z2D, 0x6c)", "DC_CU_ENUMERATOR(CUFFT_Z2D, 0x6b)",
        "enumerator CUFFT_Z2D: the value differs"),
    "cufft_constant": (
        "cufft_constants.inc", "DC_CU_CONSTANT(CUFFT_INVERSE, int, 1)", "DC_CU_CONSTANT(CUFFT_INVERSE, int, 2)",
        "constant CUFFT_INVERSE: the value differs"),
    "cufft_complex_alignment": (
        "cufft_declarations.inc", "DC_CUFFT_COMPLEX(cufftDoubleComplex, double, 16)",
        "DC_CUFFT_COMPLEX(cufftDoubleComplex, double, 8)",
        "complex cufftDoubleComplex: the size or alignment differs"),
    "nvjitlink_signature": (
        "nvjitlink_declarations.inc",
        "DC_NVJITLINK_ENTRY(nvJitLinkResult, nvJitLinkGetLinkedCubinSize, (nvJitLinkHandle handle, size_t* size))",
        "DC_NVJITLINK_ENTRY(nvJitLinkResult, nvJitLinkGetLinkedCubinSize, (nvJitLinkHandle handle, unsigned* size))",
        "nvJitLinkGetLinkedCubinSize: the signature differs"),
    "nvjitlink_enumerator": (
        "nvjitlink_declarations.inc", "DC_CU_ENUMERATOR(NVJITLINK_INPUT_LTOIR, 3)",
        "DC_CU_ENUMERATOR(NVJITLINK_INPUT_LTOIR, 4)", "enumerator NVJITLINK_INPUT_LTOIR: the value differs"),
    # cuBLAS's 64-bit entry point written with a 32-bit size: the call would pass garbage.
    "cublas_signature": (
        "cublas_declarations.inc",
        "DC_CUBLAS_ENTRY(cublasStatus_t, cublasSscal_v2_64, (cublasHandle_t handle, int64_t n, const float* alpha, float* x, int64_t incx))",
        "DC_CUBLAS_ENTRY(cublasStatus_t, cublasSscal_v2_64, (cublasHandle_t handle, int n, const float* alpha, float* x, int64_t incx))",
        "cublasSscal_v2_64: the signature differs from cublas_api.h's"),
    "cublas_enumerator": (
        "cublas_declarations.inc", "DC_CU_ENUMERATOR(CUBLAS_COMPUTE_32F_FAST_TF32, 77)",
        "DC_CU_ENUMERATOR(CUBLAS_COMPUTE_32F_FAST_TF32, 76)",
        "enumerator CUBLAS_COMPUTE_32F_FAST_TF32: the value differs"),
    "cublas_data_type": (
        "cublas_declarations.inc", "DC_CU_ENUMERATOR(CUDA_R_16BF, 14)", "DC_CU_ENUMERATOR(CUDA_R_16BF, 15)",
        "enumerator CUDA_R_16BF: the value differs"),
    "nccl_signature": (
        "nccl_declarations.inc",
        "DC_NCCL_ENTRY(ncclResult_t, ncclCommCount, (const ncclComm_t comm, int* count))",
        "DC_NCCL_ENTRY(ncclResult_t, ncclCommCount, (const ncclComm_t comm, int64_t* count))",
        "ncclCommCount: the signature differs"),
    "nccl_enumerator": (
        "nccl_declarations.inc", "DC_CU_ENUMERATOR(ncclBfloat16, 9)",
        "DC_CU_ENUMERATOR(ncclBfloat16, 10)", "enumerator ncclBfloat16: the value differs"),
    "nccl_unique_id_size": (
        "nccl_abi.h", "inline constexpr std::size_t kNcclUniqueIdBytes = 128;",
        "inline constexpr std::size_t kNcclUniqueIdBytes = 64;", "ncclUniqueId: the size differs"),
    "constant_value": (
        "driver_constants.inc", "DC_CU_CONSTANT(CU_MEMHOSTALLOC_DEVICEMAP, int, 0x02)",
        "DC_CU_CONSTANT(CU_MEMHOSTALLOC_DEVICEMAP, int, 0x04)", "constant CU_MEMHOSTALLOC_DEVICEMAP: the value differs"),
    "constant_type": (
        "driver_constants.inc", "DC_CU_CONSTANT(CU_DEVICE_CPU, CUdevice, -1)",
        "DC_CU_CONSTANT(CU_DEVICE_CPU, long, -1)", "constant CU_DEVICE_CPU: the type differs"),
    "pointer_constant_value": (
        "driver_constants.inc", "DC_CU_POINTER_CONSTANT(CU_STREAM_PER_THREAD, CUstream, 0x2)",
        "DC_CU_POINTER_CONSTANT(CU_STREAM_PER_THREAD, CUstream, 0x3)",
        "constant CU_STREAM_PER_THREAD: the value differs"),
    "symbol_missing": (
        "driver_symbols.h", "#define cuMemFree                    cuMemFree_v2\n", "",
        "cuMemFree is exported as cuMemFree_v2 (cuda.h), driver_symbols.h says cuMemFree"),
    "symbol_wrong": (
        "driver_symbols.h", "#define cuStreamDestroy              cuStreamDestroy_v2",
        "#define cuStreamDestroy              cuStreamDestroy_v3",
        "cuStreamDestroy is exported as cuStreamDestroy_v2 (cuda.h), driver_symbols.h says cuStreamDestroy_v3"),
}


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", nargs="?")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--cxx")
    ap.add_argument("--source-dir")
    ap.add_argument("--toolkit-include")
    ap.add_argument("--work")
    a = ap.parse_args()
    if a.list:
        for name in CASES:
            print(name)
        return 0
    if a.case not in CASES:
        print(f"planted_mistakes: unknown case {a.case!r}")
        return 2
    file, text, replacement, expected = CASES[a.case]
    work = os.path.join(a.work, a.case)
    shutil.rmtree(work, ignore_errors=True)
    abi = os.path.join(work, "src", "loader", "cuda_abi")
    shutil.copytree(os.path.join(a.source_dir, "src", "loader", "cuda_abi"), abi)
    if file:
        path = os.path.join(abi, file)
        with open(path) as f:
            content = f.read()
        if content.count(text) != 1:
            print(f"planted_mistakes: {a.case}: the text to change is not in {file} exactly once "
                  f"(the fixture is stale: update it to the list's current text)")
            return 1
        with open(path, "w") as f:
            f.write(content.replace(text, replacement))
    tests = os.path.join(a.source_dir, "tests")
    exe = os.path.join(work, "check_cuda_abi")
    compile_cmd = [a.cxx, "-std=c++20", "-Wall", "-Wextra", "-Werror", "-I", os.path.join(work, "src"), "-I", tests,
                   "-isystem", a.toolkit_include, os.path.join(tests, "cuda_abi", "check_cuda_abi.cpp"),
                   os.path.join(tests, "cuda_abi", "our_symbol_names.cpp"), "-o", exe]
    built = run(compile_cmd)
    output = built.stdout
    failed = built.returncode != 0
    if not failed:
        ran = run([exe])
        output += ran.stdout
        failed = ran.returncode != 0
    control = file is None
    wanted = (expected,) if isinstance(expected, str) else expected
    said = all(w in output for w in wanted)
    ok = (not failed if control else failed) and said
    expected = '" and "'.join(wanted)
    if ok:
        how = "passes" if control else "fails as it must"
        print(f"planted_mistakes: {a.case}: the check {how}, saying \"{expected}\"")
        return 0
    print(output[-6000:])
    if control:
        print(f"planted_mistakes: {a.case}: the unchanged declarations do not pass the check")
    elif not failed:
        print(f"planted_mistakes: {a.case}: the check did not notice the planted mistake")
    else:
        print(f"planted_mistakes: {a.case}: the check failed without saying \"{expected}\"")
    return 1


if __name__ == "__main__":
    sys.exit(main())
