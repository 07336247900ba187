// NCCL's collectives and point-to-point calls on dc_buffers: every argument
// checked before NCCL sees it (datatype, op, buffer ranges with overflow-safe
// arithmetic, devices, ranks), then the call made with the device's context
// bound.
#pragma once

#include <cstdint>

#include "libs/nccl/comm.h"
#include "memory/buffer.h"
#include "stream/stream.h"

namespace dc {

// The element size of a DC_NCCL_* datatype; fails with
// DC_ERROR_INVALID_ARGUMENT naming the value for an unknown one.
uint32_t nccl_element_size(int32_t datatype);

// A buffer argument: the buffer (null where the rank does not use it), its
// byte offset, and the names for messages.
struct CommBuffer {
  Buffer* buffer;
  uint64_t offset;
  const char* name;         // "send"
  const char* offset_name;  // "send_offset"
};

struct CollectiveArgs {
  const char* call;         // "dc_comm_all_reduce"
  Comm* comm;
  CommBuffer send{nullptr, 0, "send", "send_offset"};
  CommBuffer recv{nullptr, 0, "recv", "recv_offset"};
  uint64_t count = 0;       // elements, as the call's count parameter
  int32_t datatype = 0;
  int32_t op = 0;
  int32_t rank_arg = 0;     // root or peer
  Stream* stream = nullptr;
};

void all_reduce(const CollectiveArgs& a);
void broadcast(const CollectiveArgs& a);
void reduce(const CollectiveArgs& a);
void all_gather(const CollectiveArgs& a);
void reduce_scatter(const CollectiveArgs& a);
void send(const CollectiveArgs& a);
void recv(const CollectiveArgs& a);

void group_start();
void group_end();

}  // namespace dc
