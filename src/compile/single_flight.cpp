#include "compile/single_flight.h"

#include <condition_variable>
#include <map>
#include <mutex>

namespace dc {

class Flight {
 public:
  std::mutex mutex;
  std::condition_variable landed;
  bool done = false;
};

namespace {

struct Flights {
  std::mutex mutex;
  std::map<Digest, std::shared_ptr<Flight>> by_key;
};

Flights& flights() {
  static Flights* f = new Flights;  // never destroyed: used until the process ends
  return *f;
}

}  // namespace

FlightTicket::FlightTicket(const Digest& key) : key_(key) {
  Flights& f = flights();
  std::lock_guard<std::mutex> lock(f.mutex);
  auto [it, inserted] = f.by_key.try_emplace(key);
  if (inserted) it->second = std::make_shared<Flight>();
  flight_ = it->second;
  leader_ = inserted;
}

FlightTicket::~FlightTicket() {
  if (!leader_) return;
  {
    Flights& f = flights();
    std::lock_guard<std::mutex> lock(f.mutex);
    f.by_key.erase(key_);
  }
  {
    std::lock_guard<std::mutex> lock(flight_->mutex);
    flight_->done = true;
  }
  flight_->landed.notify_all();
}

void FlightTicket::wait_for_leader() {
  std::unique_lock<std::mutex> lock(flight_->mutex);
  flight_->landed.wait(lock, [&] { return flight_->done; });
}

}  // namespace dc
