// One compile of a key at a time in this process: the first thread to miss
// a key leads (compiles and stores it); threads that miss the same key
// meanwhile wait for the leader and then look in the caches again, instead of
// running NVRTC too. Across processes the disk cache's entry lock does the
// same (disk_cache.h).
#pragma once

#include <memory>

#include "compile/sha256.h"

namespace dc {

class Flight;

class FlightTicket {
 public:
  // Joins the flight of `key`, or starts it (this thread then leads).
  explicit FlightTicket(const Digest& key);
  FlightTicket(const FlightTicket&) = delete;
  FlightTicket& operator=(const FlightTicket&) = delete;
  // The leader's ticket ends the flight: its waiters wake, whatever
  // happened (a compile error included: they then compile themselves).
  ~FlightTicket();

  bool leader() const noexcept { return leader_; }
  // A waiter: blocks until the leader's flight has ended.
  void wait_for_leader();

 private:
  Digest key_;
  std::shared_ptr<Flight> flight_;
  bool leader_ = false;
};

}  // namespace dc
