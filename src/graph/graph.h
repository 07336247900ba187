// A captured graph (dc_graph): the CUgraph a capture recorded, and its
// executable form (CUgraphExec), instantiated on first need and kept.
//
// The driver does not synchronise a graph or an executable graph between
// threads, so every use of the executable form (instantiate, upload, launch,
// update) holds the graph's mutex: launches of one graph from several
// threads are serialised. The CUgraph itself never changes after the capture.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <cstdint>
#include <mutex>
#include <vector>

#include "device/device.h"
#include "stream/stream.h"

namespace dc {

class Graph : public DeviceObject {
 public:
  static constexpr HandleType kHandleType = HandleType::Graph;

  // Takes ownership of `graph` (destroyed with the object); `keep` is what
  // its nodes use (functions, child graphs: capture_registry.h).
  Graph(Ref<Device> device, CUgraph graph, std::vector<Ref<Object>> keep) noexcept
      : DeviceObject(kHandleType, std::move(device)), graph_(graph), keep_(std::move(keep)) {}
  ~Graph() override;

  // The device's context must be bound for each of these.
  void instantiate();
  void upload(Stream& stream);
  void launch(Stream& stream);
  // Updates the executable form with `source`'s parameters; unchanged on failure.
  void update(Graph& source);
  uint64_t node_count() const;

 private:
  CUgraphExec exec_locked();  // mutex_ held: instantiates if needed

  CUgraph graph_;
  CUgraphExec exec_ = nullptr;
  std::mutex mutex_;
  // Destroyed after the driver's graph (members go after the destructor body).
  std::vector<Ref<Object>> keep_;
};

}  // namespace dc
