// Launches UniCL splits on its own give what the devices give for the whole
// launch. Every corpus kernel (tests/kernel_corpus) the test devices can
// build runs each of its launches whole on each device alone (a context of
// one device: plain pass-through), then through a scheduled queue of a
// context of several devices with the factor forced (2, 3 and 4 over PoCL
// pthread + basic, and over pthread + basic + oclgrind). The kernels are built
// together, as one program per context (as real programs hold many). Every byte of every
// buffer must be what one of the devices gave for the whole launch, and the
// byte all of them gave wherever they agree (PoCL's two devices agree on
// every kernel here). Launches the corpus says split must have run with the
// factor asked for, the first launch of each kernel (no performance model
// yet: equal shares) in pieces on at least two devices; the others whole. The
// performance models start empty (a folder of the test's own).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <sstream>

#include "CL/cl_ext_unicl.h"
#include "cl_test.hpp"
#include "kernel_corpus.hpp"

#ifndef CORPUS_DIR
#error "CORPUS_DIR: the corpus folder, set by the build"
#endif

namespace {

using Bytes = std::vector<std::byte>;

// What a launch left in its buffers and images, and where it ran.
struct Outcome {
  std::vector<Bytes> buffers;  // in argument order, buffers and images only
  cl_uint factor = 0;
  size_t devices = 0;
};

std::vector<cl_device_id> devices_named(std::initializer_list<const char *> parts) {
  std::vector<cl_device_id> out;
  for (auto &d : cltest::devices())
    for (const char *p : parts)
      if (cltest::device_name(d).find(p) != std::string::npos) {
        out.push_back(d());
        break;
      }
  return out;
}

// A context with a queue: over several devices, an in-order device-less
// queue, with the divide factor forced.
struct Place {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  Place(const std::vector<cl_device_id> &devices, cl_uint factor) {
    cl_int err = CL_SUCCESS;
    const cl_context_properties props[] = {CL_CONTEXT_DIVIDE_FACTOR_UNICL, static_cast<cl_context_properties>(factor), 0};
    context = clCreateContext(factor ? props : nullptr, static_cast<cl_uint>(devices.size()), devices.data(), nullptr,
                              nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(context, devices.size() > 1 ? nullptr : devices[0], nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
  }
  ~Place() {
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
  }
  Place(const Place &) = delete;
  Place &operator=(const Place &) = delete;
};

// The memory of a buffer or image argument, holding its initial bytes.
cl_mem memory_of(cl_context context, const corpus::Arg &a, cl_int &err) {
  void *initial = const_cast<std::byte *>(a.bytes.data());
  if (a.kind == corpus::Arg::Kind::Buffer)
    return clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, a.bytes.size(), initial, &err);
  const cl_image_format format{CL_RGBA, CL_FLOAT};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = a.width;
  desc.image_height = a.height;
  return clCreateImage(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &format, &desc, initial, &err);
}

// Runs launch `c` of `k`'s kernel, built in `place`.
Outcome run(Place &place, cl_program program, const corpus::Kernel &k, const corpus::Case &c) {
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, k.name.c_str(), &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<cl_mem> buffers;
  for (cl_uint i = 0; i < c.args.size(); ++i) {
    const corpus::Arg &a = c.args[i];
    if (a.kind == corpus::Arg::Kind::Buffer || a.kind == corpus::Arg::Kind::Image) {
      buffers.push_back(memory_of(place.context, a, err));
      REQUIRE(err == CL_SUCCESS);
      REQUIRE(clSetKernelArg(kernel, i, sizeof(cl_mem), &buffers.back()) == CL_SUCCESS);
    } else if (a.kind == corpus::Arg::Kind::Local) {
      REQUIRE(clSetKernelArg(kernel, i, a.local_bytes, nullptr) == CL_SUCCESS);
    } else {
      REQUIRE(clSetKernelArg(kernel, i, a.bytes.size(), a.bytes.data()) == CL_SUCCESS);
    }
  }
  cl_event done = nullptr;
  const bool offset = c.offset[0] || c.offset[1] || c.offset[2];
  REQUIRE(clEnqueueNDRangeKernel(place.queue, kernel, c.dim, offset ? c.offset : nullptr, c.global,
                                 c.local_given ? c.local : nullptr, 0, nullptr, &done) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
  Outcome out;
  clGetEventInfo(done, CL_EVENT_DIVIDE_FACTOR_UNICL, sizeof out.factor, &out.factor, nullptr);
  size_t bytes = 0;
  clGetEventInfo(done, CL_EVENT_DEVICES_UNICL, 0, nullptr, &bytes);
  out.devices = bytes / sizeof(cl_device_id);
  clReleaseEvent(done);
  for (size_t b = 0, i = 0; i < c.args.size(); ++i) {
    const corpus::Arg &a = c.args[i];
    if (a.kind != corpus::Arg::Kind::Buffer && a.kind != corpus::Arg::Kind::Image) continue;
    Bytes contents(a.bytes.size());
    const size_t origin[3] = {0, 0, 0}, region[3] = {a.width, a.height, 1};
    cl_int read = a.kind == corpus::Arg::Kind::Image
                      ? clEnqueueReadImage(place.queue, buffers[b++], CL_TRUE, origin, region, 0, 0, contents.data(),
                                           0, nullptr, nullptr)
                      : clEnqueueReadBuffer(place.queue, buffers[b++], CL_TRUE, 0, contents.size(), contents.data(),
                                            0, nullptr, nullptr);
    REQUIRE(read == CL_SUCCESS);
    out.buffers.push_back(std::move(contents));
  }
  for (cl_mem m : buffers) clReleaseMemObject(m);
  clReleaseKernel(kernel);
  return out;
}

// The runnable kernels of the corpus, and one program source holding them
// all with the build options they need together.
struct Corpus {
  std::vector<corpus::Kernel> kernels;
  std::string source, options;
  Corpus() {
    for (auto &k : corpus::load(".")) {
      if (!k.run) continue;
      source += k.source + "\n";
      if (!k.build.empty() && options.find(k.build) == std::string::npos) options += k.build + " ";
      kernels.push_back(std::move(k));
    }
  }
};

cl_program build(Place &place, const Corpus &all) {
  cl_int err = CL_SUCCESS;
  const char *source = all.source.c_str();
  cl_program program = clCreateProgramWithSource(place.context, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clBuildProgram(program, 0, nullptr, all.options.c_str(), nullptr, nullptr) == CL_SUCCESS);
  // The analysis ends after the build, at the latest here: the launches
  // below see it (without it they would all run whole).
  size_t size = 0;
  REQUIRE(clGetProgramInfo(program, CL_PROGRAM_ANALYSIS_UNICL, 0, nullptr, &size) == CL_SUCCESS);
  return program;
}

// The first byte of `got` that is not what a device gave for the whole
// launch (or, where they all agree, not that byte); empty when none.
std::string first_difference(const Outcome &got, const std::vector<Outcome> &whole) {
  for (size_t b = 0; b < got.buffers.size(); ++b)
    for (size_t j = 0; j < got.buffers[b].size(); ++j) {
      bool agree = true, some = false;
      for (auto &w : whole) {
        agree = agree && w.buffers[b][j] == whole[0].buffers[b][j];
        some = some || w.buffers[b][j] == got.buffers[b][j];
      }
      if (agree ? got.buffers[b][j] != whole[0].buffers[b][j] : !some) {
        std::ostringstream out;
        out << "buffer " << b << " byte " << j << ": " << int(got.buffers[b][j]) << ", whole launches gave";
        for (auto &w : whole) out << ' ' << int(w.buffers[b][j]);
        return out.str();
      }
    }
  return {};
}

// Each runnable corpus kernel's launches, whole on each of `devices` and
// split over all of them with each of `factors`.
void check_splits(const std::vector<cl_device_id> &devices, std::initializer_list<cl_uint> factors) {
  REQUIRE(chdir(CORPUS_DIR) == 0);  // -I folders are relative to the corpus
  const Corpus all;
  // Per place, a context and the corpus built there.
  struct Built {
    std::unique_ptr<Place> place;
    cl_program program;
  };
  std::vector<Built> alone, together;
  for (cl_device_id d : devices) {
    auto place = std::make_unique<Place>(std::vector<cl_device_id>{d}, 0);
    alone.push_back({std::move(place), nullptr});
    alone.back().program = build(*alone.back().place, all);
  }
  for (cl_uint f : factors) {
    together.push_back({std::make_unique<Place>(devices, f), nullptr});
    together.back().program = build(*together.back().place, all);
  }
  // One loop, not a section per kernel: Catch runs the whole test case
  // again for each section, and building the corpus is most of its time.
  for (const corpus::Kernel &k : all.kernels) {
    INFO("kernel " << k.name);
    {
      std::vector<std::vector<Outcome>> whole(k.cases.size());
      for (auto &[place, program] : alone)
        for (size_t i = 0; i < k.cases.size(); ++i) whole[i].push_back(run(*place, program, k, k.cases[i]));
      for (size_t f = 0; f < together.size(); ++f) {
        const cl_uint factor = factors.begin()[f];
        auto &[place, program] = together[f];
        for (size_t i = 0; i < k.cases.size(); ++i) {
          INFO("launch " << i + 1 << ", factor " << factor);
          Outcome split = run(*place, program, k, k.cases[i]);
          CHECK(first_difference(split, whole[i]) == "");
          if (k.cases[i].split_dim) {
            CHECK(split.factor == factor);
            // Later launches' shares follow the models the first one
            // taught: a device may get none of a small range.
            if (f == 0 && i == 0) CHECK(split.devices >= 2);
          } else {
            CHECK(split.factor == 0);
            CHECK(split.devices == 1);
          }
        }
      }
    }
  }
  for (auto *built : {&alone, &together})
    for (auto &[place, program] : *built) clReleaseProgram(program);
}

// Performance models of this process's own, empty at its start.
const bool fresh_models = cltest::use_fresh_models("auto-split");

}  // namespace

TEST_CASE("corpus launches split over PoCL's two devices give the whole launch's bytes", "[auto_split]") {
  REQUIRE(fresh_models);
  auto devices = devices_named({"pthread", "basic"});
  REQUIRE(devices.size() == 2);
  check_splits(devices, {2, 3, 4});
}

TEST_CASE("corpus launches split over PoCL and oclgrind give each device's bytes", "[auto_split]") {
  REQUIRE(fresh_models);
  auto devices = devices_named({"pthread", "basic", "Oclgrind"});
  REQUIRE(devices.size() == 3);
  check_splits(devices, {2, 3, 4});
}
