// An advisory lock on a file of an open directory, so that processes agree
// on who does a piece of work (compiling one kernel) while the others wait.
// flock(): the kernel releases the lock when its holder closes the file or
// dies, so a crashed holder never blocks anyone. A waiter never waits longer
// than the limit it gives (a holder that is alive but stuck, or stopped):
// then it goes on without the lock. POSIX here; a Windows branch
// (LockFileEx) goes beside it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>

#include "platform/regular_file.h"

namespace dc::platform {

class FileLock {
 public:
  enum class Outcome {
    kAcquired,        // at once
    kAcquiredLater,   // after waiting for another holder
    kTimedOut,        // the holder kept it past the limit: not acquired
    kFailed,          // the lock file could not be made or locked: not acquired
  };

  FileLock() noexcept = default;
  FileLock(FileLock&&) noexcept = default;
  FileLock& operator=(FileLock&&) noexcept = default;
  ~FileLock() = default;  // closing the file releases the lock

  // Locks `name` in the directory `dir_fd` (created with `mode` if missing;
  // never through a link, never a non-regular file), waiting at most `limit`.
  static FileLock acquire(int dir_fd, const std::string& name, mode_t mode, std::chrono::milliseconds limit,
                          Outcome* outcome) noexcept;

  bool held() const noexcept { return static_cast<bool>(fd_); }

  // Removes the lock file while still holding it, then releases the lock. A
  // process that opened the old file meanwhile finds the work done when it
  // gets the lock (callers check for the result after acquiring).
  void remove_and_release(int dir_fd, const std::string& name) noexcept;

 private:
  UniqueFd fd_;
};

}  // namespace dc::platform
