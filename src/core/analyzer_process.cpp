#include "core/analyzer_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "core/runtime.hpp"

extern char **environ;

#ifndef UNICL_INSTALLED_ANALYZER
#define UNICL_INSTALLED_ANALYZER "/usr/local/libexec/unicl-analyze"
#endif

namespace unicl {
namespace {

// A descriptor closed when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

// The analyser started with `child` as its stdin and stdout, every other
// descriptor of this process closed in it; its pid, or -1.
pid_t spawn(const std::string &path, int child) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, child, 0);
  posix_spawn_file_actions_adddup2(&actions, child, 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  // The application's signal mask and dispositions are its own: the
  // analyser starts with the defaults.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  std::vector<char *> argv = {const_cast<char *>(path.c_str()), nullptr};
  if (posix_spawn(&pid, path.c_str(), &actions, &attributes, argv.data(), environ) != 0) pid = -1;
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

using Clock = std::chrono::steady_clock;

// Sends `request`, then reads the answer to its end, both before
// `deadline`; false when the time ran out or the socket failed.
bool exchange(int fd, const std::string &request, std::string &answer, Clock::time_point deadline) {
  size_t sent = 0;
  char buffer[65536];
  bool reading = true;
  while (reading) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd, static_cast<short>(POLLIN | (sent < request.size() ? POLLOUT : 0)), 0};
    if (::poll(&p, 1, static_cast<int>(left)) < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if ((p.revents & POLLOUT) && sent < request.size()) {
      ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
      if (n > 0 && (sent += static_cast<size_t>(n)) == request.size()) ::shutdown(fd, SHUT_WR);  // the source's end
    }
    if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
      if (n > 0) answer.append(buffer, static_cast<size_t>(n));
      else if (n == 0) reading = false;
      else if (errno != EAGAIN && errno != EINTR) return false;
    }
  }
  return sent == request.size();
}

}  // namespace

std::string analyzer_path() {
  std::string beside = library_folder() + "/analysis/unicl-analyze";
  return ::access(beside.c_str(), X_OK) == 0 ? beside : UNICL_INSTALLED_ANALYZER;
}

std::optional<std::string> run_analyzer(const std::string &source, const std::string &options,
                                        std::chrono::milliseconds timeout, std::string &why) {
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    why = "no socket for the analyser";
    return std::nullopt;
  }
  Fd ours(ends[0]), theirs(ends[1]);
  const std::string path = analyzer_path();
  pid_t pid = spawn(path, theirs.get());
  theirs.reset();
  if (pid < 0) {
    why = "the analyser " + path + " could not be started";
    return std::nullopt;
  }
  std::string answer;
  bool complete = exchange(ours.get(), std::to_string(options.size()) + '\n' + options + source, answer,
                           Clock::now() + timeout);
  if (!complete) ::kill(pid, SIGKILL);
  int status = 0;
  // ECHILD: the application reaps children itself (or ignores SIGCHLD);
  // the answer says what happened anyway.
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!complete) {
    why = "the analyser did not answer within " + std::to_string(timeout.count()) + " ms";
    return std::nullopt;
  }
  if (answer.rfind("compiled\n", 0) == 0) return answer.substr(9);
  if (answer.rfind("failed\n", 0) == 0) {
    std::string first = answer.substr(7, answer.find('\n', 7) - 7);
    why = "the source does not compile for the analysis" + (first.empty() ? std::string() : ": " + first);
  } else {
    why = "the analyser stopped without an answer";
  }
  return std::nullopt;
}

}  // namespace unicl
