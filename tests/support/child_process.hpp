// Runs a child process with a chosen environment and captures its output.
// Discovery happens once per process, so every discovery scenario needs a
// process of its own.
#pragma once
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

extern char **environ;

namespace cltest {

struct ChildResult {
  int exit_code = -1;  // -1 when the child died of a signal
  int signal = 0;
  std::string out;
  std::string err;

  std::vector<std::string> err_lines() const { return lines(err); }
  std::vector<std::string> out_lines() const { return lines(out); }
  static std::vector<std::string> lines(const std::string &text) {
    std::vector<std::string> v;
    std::stringstream ss(text);
    for (std::string l; std::getline(ss, l);)
      if (!l.empty()) v.push_back(l);
    return v;
  }
};

// Environment changes for a child: a value sets the variable, nullopt
// removes it. Everything else is inherited.
using EnvChanges = std::map<std::string, std::optional<std::string>>;

// The OpenCL-related variables a scenario should state itself rather than
// inherit from the test's own environment.
inline EnvChanges clean_opencl_env() {
  return {{"OCL_ICD_VENDORS", std::nullopt}, {"OCL_ICD_FILENAMES", std::nullopt},
          {"UNICL_VENDORS", std::nullopt},   {"UNICL_LOG", std::nullopt},
          {"POCL_DEVICES", std::string("pthread basic")}};
}

inline std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class TempDir {
 public:
  TempDir() {
    std::string templ = "/tmp/unicl-test-XXXXXX";
    if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
  }
  ~TempDir() {
    std::string cmd = "rm -rf '" + path_ + "'";
    if (std::system(cmd.c_str()) != 0) { /* best effort */ }
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return path_; }
  std::string file(const std::string &name) const { return path_ + "/" + name; }
  // Writes `content` to name inside the folder and returns its path.
  std::string write(const std::string &name, const std::string &content) const {
    std::ofstream(file(name)) << content;
    return file(name);
  }

 private:
  std::string path_;
};

inline ChildResult run_child(const std::vector<std::string> &argv, const EnvChanges &changes) {
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
  std::vector<std::string> env_strings;
  for (const auto &[k, v] : env) env_strings.push_back(k + "=" + v);
  std::vector<char *> envp, args;
  for (auto &s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (auto &s : argv_copy) args.push_back(s.data());
  args.push_back(nullptr);

  TempDir dir;
  std::string out_path = dir.file("stdout"), err_path = dir.file("stderr");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  ChildResult r;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

// A path meson hands the test through the environment.
inline std::string required_env(const char *name) {
  const char *v = std::getenv(name);
  if (!v || !*v) throw std::runtime_error(std::string("test environment lacks ") + name);
  return v;
}

// Finds an executable on PATH; empty if absent.
inline std::string find_on_path(const std::string &name) {
  const char *path = std::getenv("PATH");
  std::stringstream ss(path ? path : "");
  for (std::string dir; std::getline(ss, dir, ':');) {
    std::string candidate = dir + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

}  // namespace cltest
