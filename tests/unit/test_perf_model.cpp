// The performance models alone (schedulers/perf_model.cpp): predictions
// from recorded runs and transfers, the cache file, and several processes
// or objects saving into one folder.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "../../schedulers/perf_model.hpp"
#include "temp_dir.hpp"

using unicl::PerfModels;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// The file's lines by their key (all fields before the numbers), for
// checking what was written rather than what one object predicts.
std::map<std::string, std::vector<std::string>> lines_of(const std::string &file) {
  std::map<std::string, std::vector<std::string>> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string field; std::getline(ss, field, '\t');) f.push_back(field);
    REQUIRE(f.size() >= 5);
    std::string key = f[0] == "kernel" ? f[0] + " " + f[1] + " " + f[2] + " " + f[3]
                      : f[0] == "factor" ? f[0] + " " + f[1] + " " + f[2] : f[0] + " " + f[1];
    lines[key] = f;
  }
  return lines;
}

std::vector<std::string> folder_entries(const std::string &dir) {
  std::vector<std::string> names;
  for (auto &e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("A kernel's time on a device is its mean over the recorded runs; unseen ones are unknown") {
  unit::TempDir dir;
  PerfModels m(dir.path() + "/models.tsv");
  CHECK(m.kernel_time("sgemm", "gpu", 4096) < 0);
  for (int i = 0; i < 3; ++i) m.record_kernel("sgemm", "gpu", 4096, 2e-3);
  m.record_kernel("sgemm", "gpu", 4096, 1e-3);
  m.record_kernel("sgemm", "gpu", 4096, 3e-3);
  CHECK(m.kernel_time("sgemm", "gpu", 4096) == Approx(2e-3));
  CHECK(m.kernel_time("sgemm", "cpu", 4096) < 0);
  CHECK(m.kernel_time("saxpy", "gpu", 4096) < 0);
  // Times that cannot be right are not learnt.
  m.record_kernel("sgemm", "gpu", 4096, -1);
  m.record_kernel("sgemm", "gpu", 4096, std::nan(""));
  m.record_kernel("sgemm", "gpu", 4096, INFINITY);
  CHECK(m.kernel_time("sgemm", "gpu", 4096) == Approx(2e-3));
}

TEST_CASE("After ten runs each new run weighs a tenth, so a model follows a device that changed speed") {
  unit::TempDir dir;
  PerfModels m(dir.path() + "/models.tsv");
  for (int i = 0; i < 10; ++i) m.record_kernel("k", "d", 100, 1.0);
  m.record_kernel("k", "d", 100, 2.0);
  CHECK(m.kernel_time("k", "d", 100) == Approx(1.1));
  m.record_kernel("k", "d", 100, 2.0);
  CHECK(m.kernel_time("k", "d", 100) == Approx(1.19));
}

TEST_CASE("One slow run moves a kernel's model by a bounded step; a lasting slowdown still shows") {
  unit::TempDir dir;
  PerfModels m(dir.path() + "/models.tsv");
  for (int i = 0; i < 10; ++i) m.record_kernel("k", "d", 100, 1.0);
  m.record_kernel("k", "d", 100, 50.0);  // another process took the machine once
  CHECK(m.kernel_time("k", "d", 100) == Approx(1.1));
  for (int i = 0; i < 30; ++i) m.record_kernel("k", "d", 100, 4.0);
  CHECK(m.kernel_time("k", "d", 100) > 3.5);
  // While it calibrates (three samples), a model holds the fastest.
  m.record_kernel("new", "d", 100, 9.0);
  CHECK(m.kernel_time("new", "d", 100) == Approx(9.0));
  m.record_kernel("new", "d", 100, 1.0);
  CHECK(m.kernel_time("new", "d", 100) == Approx(1.0));
  m.record_kernel("new", "d", 100, 1.5);
  CHECK(m.kernel_time("new", "d", 100) == Approx(1.0));
  m.record_kernel("new", "d", 100, 2.0);  // then the mean
  CHECK(m.kernel_time("new", "d", 100) == Approx(1.25));
  CHECK(m.kernel_prediction("new", "d", 100).samples == 4);
  CHECK(m.kernel_prediction("new", "d", 400).samples == 4);  // predicted from the nearest size
  CHECK(m.kernel_prediction("new", "other", 100).samples == 0);
}

TEST_CASE("A size never seen on a device is predicted from the nearest size seen, scaled by work-items") {
  unit::TempDir dir;
  PerfModels m(dir.path() + "/models.tsv");
  m.record_kernel("k", "d", 1000, 1e-3);
  m.record_kernel("k", "d", 4000, 8e-3);
  CHECK(m.kernel_time("k", "d", 2000) == Approx(2e-3));     // nearer 1000
  CHECK(m.kernel_time("k", "d", 3500) == Approx(7e-3));     // nearer 4000
  CHECK(m.kernel_time("k", "d", 100000) == Approx(0.2));    // above all: the largest
  CHECK(m.kernel_time("k", "d", 10) == Approx(1e-5));       // below all: the smallest
  CHECK(m.kernel_time("k", "d", 0) == Approx(1e-6));        // counted as one work-item
  CHECK(m.kernel_time("k", "other", 1000) < 0);
}

TEST_CASE("A size seen too few times is predicted from a calibrated size near it, and counts as calibrated") {
  unit::TempDir dir;
  PerfModels m(dir.path() + "/models.tsv");
  // A divided launch's pieces ran many times (1/8 of the launch each), the
  // whole launch once: the pieces' speed predicts it.
  for (int i = 0; i < 5; ++i) m.record_kernel("k", "d", 1000, 1e-3);
  m.record_kernel("k", "d", 8000, 20e-3);
  auto whole = m.kernel_prediction("k", "d", 8000);
  CHECK(whole.seconds == Approx(8e-3));
  CHECK(whole.calibrated());
  // Within kScaledAtMost of the calibrated size only: farther, the size's
  // own samples, not calibrated.
  m.record_kernel("k", "d", 100000, 0.2);
  auto far = m.kernel_prediction("k", "d", 100000);
  CHECK(far.seconds == Approx(0.2));
  CHECK_FALSE(far.calibrated());
  // Once the size itself is calibrated, its own model.
  m.record_kernel("k", "d", 8000, 16e-3);
  m.record_kernel("k", "d", 8000, 18e-3);
  CHECK(m.kernel_prediction("k", "d", 8000).seconds == Approx(16e-3));
}

TEST_CASE("The link model: guessed until measured, latency from small transfers, bandwidth from large ones, neither from those in between") {
  unit::TempDir dir;
  PerfModels m(dir.path() + "/models.tsv");
  CHECK(m.transfer_time("gpu", 0) == 0);
  CHECK(m.transfer_time("gpu", 4000) == Approx(20e-6 + 4000 / 4e9));

  m.record_transfer("gpu", 1000, 100e-6);
  CHECK(m.transfer_time("gpu", 1000) == Approx(100e-6 + 1000 / 4e9));
  // The first large transfer replaces the bandwidth guess, however many
  // small ones came before it.
  m.record_transfer("gpu", 1000, 100e-6);
  m.record_transfer("gpu", static_cast<size_t>(kMiB), 100e-6 + kMiB / 1e9);
  CHECK(m.transfer_time("gpu", static_cast<size_t>(2 * kMiB)) == Approx(100e-6 + 2 * kMiB / 1e9));
  // Other devices keep the guess; impossible times are not learnt.
  CHECK(m.transfer_time("cpu", 4000) == Approx(20e-6 + 4000 / 4e9));
  m.record_transfer("gpu", 1000, 0);
  m.record_transfer("gpu", 1000, -1);
  CHECK(m.transfer_time("gpu", 1000) == Approx(100e-6 + 1000 / 1e9));
  // Sizes in between tell neither: a round trip that dominates a 256 KiB
  // transfer is no bandwidth.
  m.record_transfer("mid", 256 * 1024, 400e-6);
  CHECK(m.transfer_time("mid", static_cast<size_t>(16 * kMiB)) == Approx(20e-6 + 16 * kMiB / 4e9));
  m.record_transfer("mid", static_cast<size_t>(16 * kMiB), 20e-6 + 16 * kMiB / 3e9);
  CHECK(m.transfer_time("mid", static_cast<size_t>(16 * kMiB)) == Approx(20e-6 + 16 * kMiB / 3e9));
}

TEST_CASE("Links are directed: each way between two memories has its own model") {
  unit::TempDir dir;
  PerfModels m(dir.path() + "/models.tsv");
  auto up = PerfModels::link_name("host", "gpu"), down = PerfModels::link_name("gpu", "host");
  CHECK(up != down);
  m.record_transfer(up, static_cast<size_t>(kMiB), 20e-6 + kMiB / 1e9);
  CHECK(m.transfer_time(up, static_cast<size_t>(kMiB)) == Approx(20e-6 + kMiB / 1e9));
  CHECK(m.transfer_time(down, static_cast<size_t>(kMiB)) == Approx(20e-6 + kMiB / 4e9));  // still the guess
}

TEST_CASE("Saved models load back the same, and unicl info --models shows them") {
  unit::TempDir dir;
  std::string file = dir.path() + "/unicl/models.tsv";
  {
    PerfModels m(file);
    m.kernel_time("k", "d", 1);
    m.save();  // nothing learnt: nothing written
    CHECK_FALSE(std::filesystem::exists(file));
    CHECK_THAT(PerfModels::describe(file), Catch::Contains("no performance models yet"));
  }
  PerfModels saved(file);
  saved.record_kernel("sgemm", "gpu", 4096, 2.5e-3);
  saved.record_kernel("sgemm", "gpu", 4096, 1.0 / 3.0);  // a mean with no short decimal form
  saved.record_kernel("sgemm", "cpu", 1024, 7e-3);
  saved.record_kernel("saxpy", "gpu", 1 << 20, 0.5e-3);
  saved.record_transfer("gpu", 100, 30e-6);
  saved.record_transfer("gpu", static_cast<size_t>(8 * kMiB), 30e-6 + 8 * kMiB / 2e9);
  saved.save();
  REQUIRE(std::filesystem::exists(file));

  PerfModels loaded(file);
  using Key = std::tuple<std::string, std::string, size_t>;
  for (auto &[kernel, device, items] :
       std::vector<Key>{{"sgemm", "gpu", 4096}, {"sgemm", "cpu", 1024}, {"saxpy", "gpu", 1 << 20}, {"sgemm", "cpu", 3000}})
    CHECK(loaded.kernel_time(kernel, device, items) == saved.kernel_time(kernel, device, items));
  CHECK(loaded.transfer_time("gpu", 12345678) == saved.transfer_time("gpu", 12345678));
  CHECK(loaded.transfer_time("gpu", 12345678) == Approx(30e-6 + 12345678 / 2e9));

  std::string shown = PerfModels::describe(file);
  CHECK_THAT(shown, Catch::Contains("performance models in " + file));
  CHECK_THAT(shown, Catch::Contains("sgemm") && Catch::Contains("saxpy") && Catch::Contains("7.000 ms"));
  CHECK_THAT(shown, Catch::Contains("latency 30.0 us, bandwidth 2.00 GB/s (1 small, 1 large transfers)"));
  // The file was replaced, not written in place: no temporary is left.
  CHECK(folder_entries(dir.path() + "/unicl") == std::vector<std::string>{"models.tsv", "models.tsv.lock"});
}

TEST_CASE("Damaged lines of the models file are skipped; earlier link lines still load") {
  unit::TempDir dir;
  std::string file = dir.path() + "/models.tsv";
  {
    std::ofstream f(file);
    f << "kernel\tgood\td\t100\t3\t0.002\n"
      << "kernel\tshort\td\t100\t3\n"
      << "kernel\tnegative\td\t100\t3\t-0.002\n"
      << "kernel\tnot-a-number\td\t100\t3\tnan\n"
      << "kernel\tjunk\td\t100x\t3\t0.002\n"
      << "kernel\tno-runs\td\t100\t0\t0.002\n"
      << "something else entirely\n"
      << "\n"
      << "link\told\t5e-05\t2e+09\t7\n"
      << "link\tzero-bandwidth\t5e-05\t0\t1\t1\n";
  }
  PerfModels m(file);
  CHECK(m.kernel_time("good", "d", 100) == Approx(0.002));
  for (auto name : {"short", "negative", "not-a-number", "junk", "no-runs"}) CHECK(m.kernel_time(name, "d", 100) < 0);
  CHECK(m.transfer_time("old", 1000) == Approx(5e-5 + 1000 / 2e9));
  CHECK(m.transfer_time("zero-bandwidth", 1000) == Approx(20e-6 + 1000 / 4e9));
}

TEST_CASE("Two models objects saving into one folder: the keys of both survive, a shared key counts both") {
  unit::TempDir dir;
  std::string file = dir.path() + "/models.tsv";
  PerfModels a(file), b(file);
  // Both read the (missing) file before either saves.
  CHECK(a.kernel_time("shared", "d", 64) < 0);
  CHECK(b.kernel_time("shared", "d", 64) < 0);
  a.record_kernel("only-a", "d", 64, 1e-3);
  b.record_kernel("only-b", "d", 64, 2e-3);
  for (int i = 0; i < 3; ++i) {
    a.record_kernel("shared", "d", 64, 1.0);
    b.record_kernel("shared", "d", 64, 3.0);
  }
  a.record_transfer("d", 100, 10e-6);
  b.record_transfer("d", static_cast<size_t>(kMiB), 20e-6 + kMiB / 1e9);  // b still has the latency guess
  a.save();
  b.save();

  auto lines = lines_of(file);
  CHECK(lines.count("kernel only-a d 64"));
  CHECK(lines.count("kernel only-b d 64"));
  REQUIRE(lines.count("kernel shared d 64"));
  CHECK(lines["kernel shared d 64"][4] == "6");
  // b's three runs came after a's three: each of the six weighs the same.
  PerfModels c(file);
  CHECK(c.kernel_time("shared", "d", 64) == Approx(2.0));
  CHECK(c.kernel_time("only-a", "d", 64) == Approx(1e-3));
  CHECK(c.kernel_time("only-b", "d", 64) == Approx(2e-3));
  CHECK(c.transfer_time("d", static_cast<size_t>(kMiB)) == Approx(10e-6 + kMiB / 1e9));
  // After saving, an object predicts from what the others saved too.
  CHECK(b.kernel_time("only-a", "d", 64) == Approx(1e-3));

  // Saving again counts no sample twice.
  a.save();
  b.save();
  CHECK(lines_of(file)["kernel shared d 64"][4] == "6");
  b.record_kernel("shared", "d", 64, 2.0);
  b.save();
  a.save();
  CHECK(lines_of(file)["kernel shared d 64"][4] == "7");
}

TEST_CASE("Processes saving into one folder at the same time lose no sample") {
  unit::TempDir dir;
  std::string file = dir.path() + "/models.tsv";
  constexpr int kProcesses = 6, kRounds = 5;
  int start[2];
  REQUIRE(pipe(start) == 0);
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      // Every child waits for the parent to close the pipe, so that all
      // start saving together.
      close(start[1]);
      char byte;
      while (read(start[0], &byte, 1) > 0) {
      }
      int status = 0;
      try {
        PerfModels m(file);
        for (int round = 0; round < kRounds; ++round) {
          m.record_kernel("own-" + std::to_string(p), "d", 1, 1e-3);
          m.record_kernel("shared", "d", 1, 1e-3);
          m.record_transfer("d", 10, 1e-5);
          m.save();
        }
      } catch (...) {
        status = 1;
      }
      _exit(status);
    }
    children.push_back(pid);
  }
  close(start[0]);
  close(start[1]);
  for (pid_t pid : children) {
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  }

  auto lines = lines_of(file);
  for (int p = 0; p < kProcesses; ++p) {
    INFO("process " << p);
    REQUIRE(lines.count("kernel own-" + std::to_string(p) + " d 1"));
    CHECK(lines["kernel own-" + std::to_string(p) + " d 1"][4] == std::to_string(kRounds));
  }
  CHECK(lines["kernel shared d 1"][4] == std::to_string(kProcesses * kRounds));
  CHECK(lines["link d"][4] == std::to_string(kProcesses * kRounds));
  CHECK(folder_entries(dir.path()) == std::vector<std::string>{"models.tsv", "models.tsv.lock"});
}

TEST_CASE("The models live in models.tsv of the configured cache folder; without one they are not kept") {
  CHECK(PerfModels::file_in("/somewhere/cache/unicl") == "/somewhere/cache/unicl/models.tsv");
  CHECK(PerfModels::file_in("").empty());
  CHECK(PerfModels("/elsewhere/m.tsv").path() == "/elsewhere/m.tsv");
  PerfModels unkept("");
  unkept.record_kernel("k", "d", 10, 1e-3);
  CHECK(unkept.kernel_time("k", "d", 10) == Approx(1e-3));
  unkept.save();  // nowhere to go: nothing happens
}

TEST_CASE("Factor times of divided launches: per shape and factor, saved, merged and shown") {
  unit::TempDir dir;
  std::string file = dir.path() + "/unicl/models.tsv";
  PerfModels a(file), b(file);
  CHECK(a.factor_times("mm 64x64 on cpu + gpu").empty());
  a.record_factor("mm 64x64 on cpu + gpu", 0, 0.04);
  a.record_factor("mm 64x64 on cpu + gpu", 2, 0.02);
  a.record_factor("mm 64x64 on cpu + gpu", 2, 0.04);
  a.record_factor("mm 64x64 on cpu + gpu", 3, -1);  // a failed launch is not a time
  auto times = a.factor_times("mm 64x64 on cpu + gpu");
  REQUIRE(times.size() == 2);
  CHECK(times[0].factor == 0);
  CHECK(times[1].factor == 2);
  CHECK(times[1].runs == 2);
  CHECK(times[1].mean == Approx(0.03));
  b.record_factor("mm 64x64 on cpu + gpu", 2, 0.03);
  b.record_factor("other 8 on cpu", 1, 0.5);
  a.save();
  b.save();
  PerfModels loaded(file);
  times = loaded.factor_times("mm 64x64 on cpu + gpu");
  REQUIRE(times.size() == 2);
  CHECK(times[1].runs == 3);  // both processes' samples
  CHECK(times[1].mean == Approx(0.03));
  CHECK(loaded.factor_times("other 8 on cpu").size() == 1);
  std::string shown = PerfModels::describe(file);
  CHECK_THAT(shown, Catch::Contains("divided mm 64x64 on cpu + gpu") && Catch::Contains("undivided") &&
                        Catch::Contains("factor 2"));
}
