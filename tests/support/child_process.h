// Running a program as a child process from a test: with extra or removed
// environment variables, optionally as another user (the test must be root),
// with its output captured and a time limit, so that a hang is a failure
// with a message instead of a stuck test.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace dctest {

struct ChildOptions {
  std::vector<std::string> set_env;    // "NAME=value": added, or replacing NAME
  std::vector<std::string> unset_env;  // names removed from the environment
  double timeout_seconds = 120;        // then SIGKILL, and timed_out is set
  // Run as this user and group (setgroups to `gid` only); -1: as the caller.
  uid_t uid = static_cast<uid_t>(-1);
  gid_t gid = static_cast<gid_t>(-1);
};

struct ChildResult {
  int exit_code = -1;     // -1 when it did not exit normally
  int signal = 0;         // the signal that ended it, 0 if none
  bool timed_out = false;
  std::string output;     // stdout and stderr together
  // "exit 3", "signal 11", "killed after 10 s (it hung)": for messages.
  std::string how() const;
};

// Runs argv[0] (a path) with argv[1..]; blocks until it ends or times out.
ChildResult run_program(const std::vector<std::string>& argv, const ChildOptions& options = {});

// The path of the running executable (/proc/self/exe).
std::string self_executable();

}  // namespace dctest
