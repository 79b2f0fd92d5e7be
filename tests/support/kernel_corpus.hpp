// The kernel corpus (tests/kernel_corpus/README.md): each file's kernel,
// what the analysis must find, and the launches to run. Read by the
// analysis test and the split-correctness test alike.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace corpus {

// One argument of a launch.
struct Arg {
  enum class Kind { Buffer, Image, Local, Scalar };
  Kind kind = Kind::Scalar;
  std::vector<std::byte> bytes;  // a buffer's or an image's initial contents, a scalar's value
  size_t local_bytes = 0;
  size_t width = 0, height = 0;  // a 2-D image of RGBA floats
};

struct Window {
  uint32_t arg;
  int64_t offset, stride;
  uint64_t size;
  bool operator==(const Window &) const = default;
};

struct Case {
  uint32_t dim = 1;
  size_t global[3] = {1, 1, 1}, offset[3] = {0, 0, 0}, local[3] = {0, 0, 0};
  bool local_given = false;
  std::vector<Arg> args;
  // The verdict: a split along `split_dim` with `windows`, or whole for a
  // reason containing `whole_words`.
  std::optional<uint32_t> split_dim;
  std::vector<Window> windows;
  std::string whole_words;
};

struct Kernel {
  std::string name;  // the file's stem
  std::string path, source, build;
  std::vector<std::string> modes;  // per argument: r, w, rw, -
  bool run = true;
  std::vector<Case> cases;
};

// Every kernel of `folder`, in name order; throws std::runtime_error with the
// file and line of a malformed header.
std::vector<Kernel> load(const std::string &folder);

}  // namespace corpus
