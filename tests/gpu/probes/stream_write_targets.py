#!/usr/bin/env python3
"""Which memory cuStreamWriteValue32/64 (the _v2 entry points) accept on this
driver and device, and with which flags: device memory from cuMemAlloc, from
the device's default pool and from a pool of its own (cuMemAllocFromPoolAsync),
mapped pinned host memory; flags 0 and CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER.
Prints one line per case with the CUresult. Needs cuda-python (cuda.bindings).
    python3 tests/gpu/probes/stream_write_targets.py"""
from cuda.bindings import driver as cu


def ok(r):
    err = r[0] if isinstance(r, tuple) else r
    if err != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(str(err))
    return r[1] if isinstance(r, tuple) and len(r) == 2 else r


def main():
    ok(cu.cuInit(0))
    dev = ok(cu.cuDeviceGet(0))
    ctx = ok(cu.cuDevicePrimaryCtxRetain(dev))
    ok(cu.cuCtxSetCurrent(ctx))
    _, major = cu.cuDriverGetVersion()
    print("driver", major, "device", ok(cu.cuDeviceGetName(64, dev)).split(b"\0")[0].decode())
    for a in ("CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1", "CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS",
              "CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR", "CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED"):
        attr = getattr(cu.CUdevice_attribute, a, None)
        if attr is not None:
            print(a, cu.cuDeviceGetAttribute(attr, dev))
    stream = ok(cu.cuStreamCreate(0))
    targets = {}
    targets["cuMemAlloc"] = ok(cu.cuMemAlloc(4096))
    targets["default pool"] = ok(cu.cuMemAllocAsync(4096, stream))
    props = cu.CUmemPoolProps()
    props.allocType = cu.CUmemAllocationType.CU_MEM_ALLOCATION_TYPE_PINNED
    props.location.type = cu.CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE
    props.location.id = 0
    pool = ok(cu.cuMemPoolCreate(props))
    targets["own pool"] = ok(cu.cuMemAllocFromPoolAsync(4096, pool, stream))
    host = ok(cu.cuMemHostAlloc(4096, cu.CU_MEMHOSTALLOC_DEVICEMAP))
    targets["mapped pinned"] = ok(cu.cuMemHostGetDevicePointer(host, 0))
    ok(cu.cuStreamSynchronize(stream))
    nb = cu.CUstreamWriteValue_flags.CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER
    for name, ptr in targets.items():
        for flags, fname in ((0, "flags 0"), (int(nb), "NO_MEMORY_BARRIER")):
            r32 = cu.cuStreamWriteValue32(stream, ptr, 1, flags)[0]
            r64 = cu.cuStreamWriteValue64(stream, ptr, 1, flags)[0]
            w32 = cu.cuStreamWaitValue32(stream, ptr, 0, 0)[0] if flags == 0 else "-"
            print(f"{name:14s} {fname:18s} write32 {r32.name if hasattr(r32, 'name') else r32} "
                  f"write64 {r64.name if hasattr(r64, 'name') else r64} wait32(GEQ 0) "
                  f"{w32.name if hasattr(w32, 'name') else w32}")
            cu.cuStreamSynchronize(stream)


if __name__ == "__main__":
    main()
