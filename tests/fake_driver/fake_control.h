/*
 * Control interface of the fake CUDA driver (a test double; never a GPU).
 *
 * The fake driver is a shared library that exports cuGetProcAddress_v2,
 * cuDriverGetVersion and every entry point dccuda resolves, backed by host
 * memory. Tests load it through DCCUDA_DRIVER_LIBRARY and steer it with these
 * functions (dlsym them from the same library; see tests/support/fake.h).
 *
 * Environment, read once at cuInit:
 *   DCFAKE_DEVICES=N           number of fake devices (default 1)
 *   DCFAKE_DRIVER_VERSION=V    what cuDriverGetVersion reports (default 13000);
 *                              entry points newer than V are not found
 *   DCFAKE_MISSING=a,b         entry points to pretend the driver lacks
 *   DCFAKE_NO_POOLS=1          devices report no memory-pool support
 *   DCFAKE_INIT_RESULT=R       cuInit returns R (e.g. 100: no device)
 *   DCFAKE_NO_PEER=1           devices cannot access each other
 *   DCFAKE_DEVICE_MEMORY=B     each device's memory in bytes (default 8 GiB); device
 *                              allocations past it fail with CUDA_ERROR_OUT_OF_MEMORY
 */
#ifndef DCFAKE_CONTROL_H
#define DCFAKE_CONTROL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Forget injected faults and call counts (live objects are kept). */
void dcfake_reset(void);

/* Make calls number nth, nth+1, ... nth+times-1 (1-based, counted from now) of
 * entry point `entry` (its plain name, "cuMemAlloc") return `result`.
 * times < 0: every call from the nth on. A sticky result (700, 719...) also
 * breaks the current context until cuDevicePrimaryCtxReset. */
void dcfake_inject(const char* entry, int nth, int result, int times);

/* A failed asynchronous operation, as a GPU reports one: the nth call
 * (1-based, counted from now) of the asynchronous entry point `entry`
 * ("cuMemcpyHtoDAsync", "cuMemsetD32Async", "cuLaunchHostFunc"...) is accepted
 * and its work runs, then it "fails on the device" with `result`: a sticky
 * result (700, 719...) breaks the context at once; any other is reported once
 * by the stream's next cuStreamSynchronize / cuStreamQuery (and by
 * cuEventSynchronize / cuEventQuery of an event recorded after it).
 * Legacy entry points count under "<name>_v<version>" ("cuMemAdvise_v8000"),
 * for dcfake_inject and dcfake_call_count too. Each fires once; dcfake_reset
 * does not forget one that has not fired yet. */
void dcfake_inject_async(const char* entry, int nth, int result);

/* The ordinal of the calling thread's current context's device, or -1 when
 * none is current (for the fake NCCL, which learns a rank's device the way
 * NCCL does: from the current context). */
int dcfake_current_device(void);

/* How many times `entry` was called since the last dcfake_reset. */
long dcfake_call_count(const char* entry);

/* Live objects of a kind: "allocations", "host_allocations", "managed",
 * "registrations", "pools", "streams", "events", "modules", "graphs",
 * "graph_execs", "primary_retains", "link_states", "libraries". -1 for an unknown kind. */
long dcfake_live(const char* kind);

/* The CUjitInputType of input `index` of the last link completed with
 * cuLinkComplete, or -1 when it had no such input (or no link completed since
 * dcfake_reset). The fake's cuLink links nothing: it records its inputs and
 * answers the first CUBIN among them (else the first PTX) as the "linked"
 * image, so that the result loads in the fake. */
long dcfake_last_link_input(int index);

/* Calls of the legacy, unversioned entry points (cuMemAlloc taking 32-bit
 * pointers...) that a correct loader never binds. */
long dcfake_legacy_calls(void);

/* Hold (held != 0) or release a stream (a CUstream, as dc_stream_native gives),
 * to model work waiting behind a busy GPU stream: while held, asynchronous
 * copies, fills and event records enqueued on it wait, in order, and run when
 * it is released or something waits for them (cuStreamSynchronize /
 * cuStreamQuery of it, cuEventSynchronize / cuEventQuery / cuStreamWaitEvent
 * of any event, cuCtxSynchronize, its destruction); other work enqueued on it
 * runs the held work first. A held copy or fill whose memory was freed
 * meanwhile fails, and the stream's next synchronisation reports it
 * (CUDA_ERROR_INVALID_VALUE): a use-after-free made visible. */
void dcfake_hold_stream(void* cu_stream, int held);

/* Whether [p, p + n) lies in one live allocation the device may address
 * (device, managed, pinned or registered memory): for the fake CUDA libraries
 * (tests/fake_cufft), which refuse to touch memory that is not there. */
int dcfake_device_range_ok(unsigned long long p, unsigned long long n);

/* Break device `ordinal`'s primary context with a sticky `result`, as a kernel
 * fault would; every later call in it returns `result` until reset. */
void dcfake_break_context(int ordinal, int result);

#ifdef __cplusplus
}
#endif

#endif
