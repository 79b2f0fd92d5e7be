#include "child.hpp"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "stats.hpp"

extern char **environ;

namespace bench {
namespace {

// Owns a pipe's two ends.
struct Pipe {
  int fd[2] = {-1, -1};
  Pipe() {
    if (pipe(fd) != 0) fd[0] = fd[1] = -1;
  }
  ~Pipe() {
    for (int f : fd)
      if (f >= 0) close(f);
  }
  void close_end(int i) {
    if (fd[i] >= 0) close(fd[i]);
    fd[i] = -1;
  }
};

std::vector<std::string> merged_environment(const std::map<std::string, std::string> &overrides) {
  std::vector<std::string> out;
  for (char **e = environ; *e; ++e) {
    std::string entry(*e);
    std::string key = entry.substr(0, entry.find('='));
    if (!overrides.count(key)) out.push_back(entry);
  }
  for (auto &[k, v] : overrides) out.push_back(k + "=" + v);
  return out;
}

std::vector<char *> c_array(std::vector<std::string> &v) {
  std::vector<char *> out;
  for (auto &s : v) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

ChildResult run_self(const std::vector<std::string> &args, const std::map<std::string, std::string> &env,
                     double timeout_seconds) {
  ChildResult result;
  Pipe out, err;
  if (out.fd[0] < 0 || err.fd[0] < 0) {
    result.why = "pipe failed";
    return result;
  }
  std::vector<std::string> argv_s{"/proc/self/exe"};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<std::string> envp_s = merged_environment(env);
  auto argv = c_array(argv_s);
  auto envp = c_array(envp_s);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  posix_spawn_file_actions_addclose(&actions, out.fd[0]);
  posix_spawn_file_actions_addclose(&actions, err.fd[0]);
  // The child gets its own process group so a timeout also ends the
  // threads and helpers it started.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, "/proc/self/exe", &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  out.close_end(1);
  err.close_end(1);
  if (rc != 0) {
    result.why = std::string("spawn failed: ") + std::strerror(rc);
    return result;
  }

  std::string errors;
  auto start = Clock::now();
  bool timed_out = false;
  pollfd fds[2] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}};
  int open_fds = 2;
  while (open_fds > 0) {
    double left = timeout_seconds - seconds_since(start);
    if (left <= 0) {
      timed_out = true;
      kill(-pid, SIGKILL);
      break;
    }
    int n = poll(fds, 2, static_cast<int>(left * 1000) + 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[4096];
      ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got <= 0) {
        fds[i].fd = -1;
        --open_fds;
      } else {
        (i == 0 ? result.out : errors).append(buf, static_cast<size_t>(got));
      }
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (errors.size() > 300) errors = "..." + errors.substr(errors.size() - 300);
  if (timed_out) {
    result.why = "timed out after " + std::to_string(static_cast<int>(timeout_seconds)) + " s";
  } else if (WIFSIGNALED(status)) {
    result.why = std::string("killed by signal ") + strsignal(WTERMSIG(status));
  } else if (WEXITSTATUS(status) != 0) {
    result.why = "exit status " + std::to_string(WEXITSTATUS(status));
  } else {
    result.ok = true;
  }
  if (!result.ok && !errors.empty()) result.why += "; stderr: " + errors;
  return result;
}

}  // namespace bench
