// A log callback for tests: keeps every message it receives (thread-safe).
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "dccuda.h"

namespace dctest {

struct LogLine {
  int32_t level;
  std::string category;
  std::string message;
};

class LogRecorder {
 public:
  static void callback(void* user_data, int32_t level, const char* category, const char* message) {
    auto* self = static_cast<LogRecorder*>(user_data);
    std::lock_guard<std::mutex> lock(self->mutex_);
    self->lines_.push_back({level, category, message});
  }

  std::vector<LogLine> lines() {
    std::lock_guard<std::mutex> lock(mutex_);
    return lines_;
  }

  // The first line of `category` whose message contains `text`, or nullptr.
  bool has(const std::string& category, const std::string& text, LogLine* found = nullptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const LogLine& l : lines_)
      if (l.category == category && l.message.find(text) != std::string::npos) {
        if (found) *found = l;
        return true;
      }
    return false;
  }

  std::string dump() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string out;
    for (const LogLine& l : lines_) out += std::to_string(l.level) + " " + l.category + ": " + l.message + "\n";
    return out.empty() ? "(no messages)\n" : out;
  }

 private:
  std::mutex mutex_;
  std::vector<LogLine> lines_;
};

}  // namespace dctest
