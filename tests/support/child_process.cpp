#include "support/child_process.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace dctest {

std::string ChildResult::how() const {
  if (timed_out) return "killed after the time limit (it hung)";
  if (signal) return "ended by signal " + std::to_string(signal);
  return "exit " + std::to_string(exit_code);
}

std::string self_executable() {
  char path[4096];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return {};
  path[n] = '\0';
  return path;
}

namespace {

std::string name_of(const std::string& item) { return item.substr(0, item.find('=')); }

std::vector<std::string> child_environment(const ChildOptions& o) {
  std::vector<std::string> out;
  for (char** e = environ; *e; ++e) {
    std::string item = *e, name = name_of(item);
    bool drop = false;
    for (const std::string& s : o.set_env) drop = drop || name_of(s) == name;
    for (const std::string& u : o.unset_env) drop = drop || u == name;
    if (!drop) out.push_back(item);
  }
  out.insert(out.end(), o.set_env.begin(), o.set_env.end());
  return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

ChildResult run_program(const std::vector<std::string>& argv_in, const ChildOptions& o) {
  ChildResult r;
  // Everything the child needs is made before fork: after it, only
  // async-signal-safe calls (the parent may have other threads).
  std::vector<std::string> args = argv_in, env = child_environment(o);
  std::vector<char*> argv = pointers(args), envp = pointers(env);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    r.output = "pipe failed";
    return r;
  }
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    r.output = "fork failed";
    return r;
  }
  if (pid == 0) {
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    if (o.gid != static_cast<gid_t>(-1) && (setgroups(1, &o.gid) != 0 || setgid(o.gid) != 0)) _exit(126);
    if (o.uid != static_cast<uid_t>(-1) && setuid(o.uid) != 0) _exit(126);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  close(fds[1]);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.timeout_seconds);
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    struct pollfd p = {fds[0], POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char buf[4096];
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // every writer closed: the child is done (or detached its output)
    r.output.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  // The output is complete; the child may still be running (or hung after
  // closing it): wait for it within the same limit.
  int status = 0;
  for (;;) {
    pid_t done = waitpid(pid, &status, r.timed_out ? 0 : WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) break;
    if (done == 0 && std::chrono::steady_clock::now() >= deadline) {
      r.timed_out = true;
      kill(pid, SIGKILL);
      continue;
    }
    if (done == 0) usleep(1000);
  }
  if (!r.timed_out && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace dctest
