#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <sstream>
#include <stdexcept>

extern char **environ;

namespace child_process {
namespace {

using Clock = std::chrono::steady_clock;

// One pipe, both ends closed on exec (the child gets copies as 1 and 2) and
// on destruction.
class Pipe {
 public:
  Pipe() {
    if (pipe2(fd_, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe &) = delete;
  Pipe &operator=(const Pipe &) = delete;
  int read_end() const { return fd_[0]; }
  int write_end() const { return fd_[1]; }
  void close_read() { close_fd(fd_[0]); }
  void close_write() { close_fd(fd_[1]); }

 private:
  static void close_fd(int &fd) {
    if (fd >= 0) close(fd);
    fd = -1;
  }
  int fd_[2] = {-1, -1};
};

// posix_spawn's file actions and attributes, destroyed with the object.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  SpawnSetup(const SpawnSetup &) = delete;
  SpawnSetup &operator=(const SpawnSetup &) = delete;
};

std::vector<std::string> merged_environment(const EnvChanges &changes) {
  std::map<std::string, std::string> env;
  for (char **e = environ; *e; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  for (const auto &[k, v] : changes) {
    if (v) env[k] = *v;
    else env.erase(k);
  }
  std::vector<std::string> out;
  for (const auto &[k, v] : env) out.push_back(k + "=" + v);
  return out;
}

std::vector<char *> c_array(std::vector<std::string> &v) {
  std::vector<char *> out;
  for (auto &s : v) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

enum class Read { data, nothing_now, end };

// Appends what `fd` has now to `into`; `end` at end of file or on an error.
Read read_some(int fd, std::string &into) {
  char buf[4096];
  ssize_t got = read(fd, buf, sizeof buf);
  if (got < 0 && (errno == EINTR || errno == EAGAIN)) return Read::nothing_now;
  if (got <= 0) return Read::end;
  into.append(buf, static_cast<size_t>(got));
  return Read::data;
}

}  // namespace

std::string Result::why() const {
  std::string why;
  if (!start_error.empty()) return start_error;
  if (timed_out) why = "timed out after " + std::to_string(static_cast<int>(time_limit)) + " s";
  else if (signal) why = std::string("killed by signal ") + strsignal(signal);
  else if (exit_code != 0) why = "exit status " + std::to_string(exit_code);
  else return {};
  if (!err.empty()) why += "; stderr: " + (err.size() > 300 ? "..." + err.substr(err.size() - 300) : err);
  return why;
}

std::vector<std::string> Result::lines(const std::string &text) {
  std::vector<std::string> v;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);)
    if (!l.empty()) v.push_back(l);
  return v;
}

Result run(const std::vector<std::string> &argv, const EnvChanges &env, double timeout_seconds) {
  Result r;
  r.time_limit = timeout_seconds;
  if (argv.empty()) throw std::invalid_argument("child_process::run: no program");
  std::vector<std::string> argv_s = argv, envp_s = merged_environment(env);
  auto args = c_array(argv_s);
  auto envp = c_array(envp_s);

  Pipe out, err;
  SpawnSetup setup;
  posix_spawn_file_actions_addopen(&setup.actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&setup.actions, out.write_end(), 1);
  posix_spawn_file_actions_adddup2(&setup.actions, err.write_end(), 2);
  const bool limited = timeout_seconds > 0;
  if (limited) {
    posix_spawnattr_setflags(&setup.attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&setup.attr, 0);
  }
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, args[0], &setup.actions, &setup.attr, args.data(), envp.data());
  out.close_write();
  err.close_write();
  if (rc != 0) {
    r.start_error = "cannot start " + argv[0] + ": " + std::strerror(rc);
    return r;
  }

  // Reads both pipes until the child ends: until they close, or, once the
  // child itself has exited, what is already in them, since a helper it left
  // behind may hold them open. Without a limit, closed pipes leave only the
  // wait for its exit.
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_seconds));
  pollfd fds[2] = {{out.read_end(), POLLIN, 0}, {err.read_end(), POLLIN, 0}};
  std::string *into[2] = {&r.out, &r.err};
  int status = 0;
  bool reaped = false;
  while (limited || fds[0].fd >= 0 || fds[1].fd >= 0) {
    int slice_ms = 100;
    if (limited) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        r.timed_out = true;
        kill(-pid, SIGKILL);
        break;
      }
      slice_ms = static_cast<int>(std::min<long long>(slice_ms, left));
    }
    if (poll(fds, 2, slice_ms) > 0) {
      for (int i = 0; i < 2; ++i)
        if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
            read_some(fds[i].fd, *into[i]) == Read::end)
          fds[i].fd = -1;
    }
    if (waitpid(pid, &status, WNOHANG) == pid) {
      reaped = true;
      for (int i = 0; i < 2; ++i) {
        if (fds[i].fd < 0) continue;
        fcntl(fds[i].fd, F_SETFL, fcntl(fds[i].fd, F_GETFL) | O_NONBLOCK);
        while (read_some(fds[i].fd, *into[i]) == Read::data) {
        }
      }
      break;
    }
  }
  while (!reaped && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (r.timed_out) return r;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

Result run_self(const std::vector<std::string> &args, const EnvChanges &env, double timeout_seconds) {
  std::vector<std::string> argv{self_executable()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, env, timeout_seconds);
}

std::string self_executable() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw std::runtime_error("cannot find own executable");
  return std::string(buf, static_cast<size_t>(n));
}

}  // namespace child_process
