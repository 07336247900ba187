/*
 * Control interface of the fake NCCL (a test double; never a GPU).
 *
 * libdcfake_nccl.so exports the NCCL 2 entry points dccuda resolves
 * (src/loader/nccl_functions.inc). Ranks of one process form a clique: the
 * comms of one ncclCommInitAll, or of ncclCommInitRank calls with the same
 * unique id (several threads, or one thread inside a group). A collective is
 * computed on the CPU, over the fake driver's memory (a device pointer is a
 * host address there), once every rank of the clique has issued it: a call
 * outside a group waits for the peers (several threads), a group's calls are
 * issued at the outermost ncclGroupEnd, which waits for them. The wait stands
 * for the GPU stream that would wait on a real system: ncclCommAbort (from
 * another thread) ends it with ncclSystemError, and after
 * DCFAKE_NCCL_TIMEOUT_MS (default 20000) it fails likewise, so a test that
 * forgets a rank fails instead of hanging.
 *
 * libdcfake_nccl_old.so is the same fake as NCCL 2.12.3: no ncclCommSplit,
 * ncclCommFinalize, ncclGetLastError (for the "needs a newer NCCL" paths).
 *
 * Environment, read at the first call:
 *   DCFAKE_NCCL_FAIL=name:nth:result[,...]   call nth (1-based) of `name`
 *                                            returns `result` (an ncclResult_t)
 *   DCFAKE_NCCL_TIMEOUT_MS=N                 the wait limit above
 */
#ifndef DCFAKE_NCCL_CONTROL_H
#define DCFAKE_NCCL_CONTROL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Forget injected faults and call counts. */
void dcfake_nccl_reset(void);
/* Calls nth .. nth+times-1 of `entry` (counted from now) return `result`. */
void dcfake_nccl_inject(const char* entry, int nth, int result, int times);
/* How many times `entry` was called since the last reset. */
long dcfake_nccl_call_count(const char* entry);
/* Live (not destroyed or aborted) communicators. */
long dcfake_nccl_live_comms(void);
/* Every live communicator reports `result` from ncclCommGetAsyncError. */
void dcfake_nccl_set_async_error(int result);

#ifdef __cplusplus
}
#endif

#endif
