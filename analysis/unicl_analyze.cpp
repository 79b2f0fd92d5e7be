// unicl-analyze: the kernel analysis as a process of its own.
//
//   unicl-analyze                     UniCL's request on stdin: the length of
//                                     the build options in bytes, a newline,
//                                     the options, then the source to its
//                                     end. Answers on stdout "compiled\n" and
//                                     the kernels' text form
//                                     (access/kernel_access.hpp), or
//                                     "failed\n" and the compiler's messages.
//   unicl-analyze --describe FILE [BUILD OPTIONS...]
//                                     each kernel's verdict for people (what
//                                     `unicl analyze` prints)
//
// UniCL runs it beside the application (src/core/program_analysis.cpp)
// rather than loading Clang and LLVM into the application's process: a
// crash or a hang of the front end on an odd source costs only this
// process, no LLVM state is shared with a vendor's compiler in the
// application (PoCL loads the same LLVM), and a program that never builds
// from source in a context of several devices loads nothing.
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "access/describe.hpp"
#include "analyze.hpp"

namespace {

int serve() {
  size_t options_size = 0;
  if (!(std::cin >> options_size) || std::cin.get() != '\n') {
    std::cout << "failed\nmalformed request\n";
    return 2;
  }
  std::string options(options_size, '\0');
  std::cin.read(options.data(), static_cast<std::streamsize>(options_size));
  std::string source((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  unicl::analysis::Analysis a = unicl::analysis::analyze(source, options);
  if (!a.compiled) {
    std::cout << "failed\n" << a.log;
    return 1;
  }
  std::cout << "compiled\n" << unicl::access::to_text(a.kernels);
  return 0;
}

int describe(int argc, char **argv) {
  std::ifstream file(argv[2]);
  if (!file) {
    std::cerr << "unicl analyze: cannot read " << argv[2] << '\n';
    return 2;
  }
  std::string source((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>()), options;
  for (int i = 3; i < argc; ++i) options += std::string(i > 3 ? " " : "") + argv[i];
  unicl::analysis::Analysis a = unicl::analysis::analyze(source, options);
  if (!a.compiled) {
    std::cerr << a.log << "unicl analyze: " << argv[2] << " does not compile; UniCL would run its kernels whole\n";
    return 1;
  }
  for (auto &k : a.kernels) std::cout << unicl::access::describe(k);
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 1) return serve();
  if (argc >= 3 && std::string(argv[1]) == "--describe") return describe(argc, argv);
  std::cerr << "usage: unicl-analyze (request on stdin)\n       unicl-analyze --describe FILE [BUILD OPTIONS...]\n";
  return 2;
}
