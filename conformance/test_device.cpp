// Device queries (clGetDeviceInfo) against the minimums of the
// specification, and sub-devices (clCreateSubDevices).
#include <algorithm>
#include <sstream>

#include "conformance.hpp"

using namespace conformance;

namespace {

template <class T>
T scalar(const cl::Device &d, cl_device_info param) {
  T v{};
  size_t n = 0;
  REQUIRE_CL(clGetDeviceInfo(d(), param, sizeof v, &v, &n), CL_SUCCESS);
  CHECK(n == sizeof v);
  return v;
}

std::string text(const cl::Device &d, cl_device_info param) {
  size_t n = 0;
  REQUIRE_CL(clGetDeviceInfo(d(), param, 0, nullptr, &n), CL_SUCCESS);
  std::string s(n, '\0');
  REQUIRE_CL(clGetDeviceInfo(d(), param, n, s.data(), nullptr), CL_SUCCESS);
  REQUIRE(n >= 1);
  CHECK(s.back() == '\0');
  s.pop_back();
  return s;
}

bool is_full_profile(const cl::Device &d) { return text(d, CL_DEVICE_PROFILE) == "FULL_PROFILE"; }

const char *const kTwice = "kernel void twice(global int *a) { a[get_global_id(0)] *= 2; }";

// Runs kTwice of `program` on `device` over 64 ints and checks them.
void run_twice(const cl::Context &ctx, const cl::Device &device, const cl::Program &program) {
  cl::CommandQueue q(ctx, device);
  auto data = iota_ints(64);
  cl::Buffer buf(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(cl_int), data.data());
  cl::Kernel k(program, "twice");
  k.setArg(0, buf);
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(data.size()));
  q.enqueueReadBuffer(buf, CL_TRUE, 0, data.size() * sizeof(cl_int), data.data());
  for (size_t i = 0; i < data.size(); ++i) CHECK(data[i] == 2 * static_cast<cl_int>(i));
}

}  // namespace

TEST_CASE("device: type is a known device type", "[device][oclgrind]") {
  auto t = scalar<cl_device_type>(cltest::test_device(), CL_DEVICE_TYPE);
  constexpr cl_device_type kinds = CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                   CL_DEVICE_TYPE_CUSTOM | CL_DEVICE_TYPE_DEFAULT;
  CHECK((t & kinds) != 0);
  CHECK((t & ~kinds) == 0);
}

TEST_CASE("device: work-item limits meet the minimums", "[device][oclgrind]") {
  auto d = cltest::test_device();
  auto dims = scalar<cl_uint>(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  CHECK(dims >= 3);
  size_t n = 0;
  REQUIRE_CL(clGetDeviceInfo(d(), CL_DEVICE_MAX_WORK_ITEM_SIZES, 0, nullptr, &n), CL_SUCCESS);
  CHECK(n == dims * sizeof(size_t));
  std::vector<size_t> sizes(dims);
  REQUIRE_CL(clGetDeviceInfo(d(), CL_DEVICE_MAX_WORK_ITEM_SIZES, n, sizes.data(), nullptr), CL_SUCCESS);
  for (size_t s : sizes) CHECK(s >= 1);
  auto wg = scalar<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  CHECK(wg >= 1);
  CHECK(scalar<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS) >= 1);
}

TEST_CASE("device: memory limits meet the full-profile minimums", "[device][oclgrind]") {
  auto d = cltest::test_device();
  if (!is_full_profile(d)) return;
  auto global = scalar<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
  auto alloc = scalar<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  CHECK(alloc >= std::min<cl_ulong>(global / 4, 128u << 20));
  CHECK(alloc <= global);
  CHECK(scalar<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE) >= 32u * 1024);
  CHECK(scalar<cl_ulong>(d, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) >= 64u * 1024);
  CHECK(scalar<cl_uint>(d, CL_DEVICE_MAX_CONSTANT_ARGS) >= 8);
  CHECK(scalar<size_t>(d, CL_DEVICE_MAX_PARAMETER_SIZE) >= 1024);
  // The largest built-in type of the full profile is long16: 128 bytes.
  CHECK(scalar<cl_uint>(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN) >= 1024);
  auto cache = scalar<cl_device_mem_cache_type>(d, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE);
  CHECK((cache == CL_NONE || cache == CL_READ_ONLY_CACHE || cache == CL_READ_WRITE_CACHE));
  auto local = scalar<cl_device_local_mem_type>(d, CL_DEVICE_LOCAL_MEM_TYPE);
  CHECK((local == CL_LOCAL || local == CL_GLOBAL));
}

TEST_CASE("device: image limits meet the minimums when images are supported", "[device][images][oclgrind]") {
  auto d = cltest::test_device();
  if (!images_supported(d)) return;
  CHECK(scalar<size_t>(d, CL_DEVICE_IMAGE2D_MAX_WIDTH) >= 8192);
  CHECK(scalar<size_t>(d, CL_DEVICE_IMAGE2D_MAX_HEIGHT) >= 8192);
  CHECK(scalar<size_t>(d, CL_DEVICE_IMAGE3D_MAX_WIDTH) >= 2048);
  CHECK(scalar<size_t>(d, CL_DEVICE_IMAGE3D_MAX_HEIGHT) >= 2048);
  CHECK(scalar<size_t>(d, CL_DEVICE_IMAGE3D_MAX_DEPTH) >= 2048);
  CHECK(scalar<cl_uint>(d, CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128);
  CHECK(scalar<cl_uint>(d, CL_DEVICE_MAX_WRITE_IMAGE_ARGS) >= 8);
  CHECK(scalar<cl_uint>(d, CL_DEVICE_MAX_SAMPLERS) >= 16);
  CHECK(scalar<size_t>(d, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) >= 65536);
  CHECK(scalar<size_t>(d, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) >= 2048);
}

TEST_CASE("device: version strings are well formed", "[device][oclgrind]") {
  auto d = cltest::test_device();
  std::string version = text(d, CL_DEVICE_VERSION);
  CHECK(version.rfind("OpenCL ", 0) == 0);
  CHECK(version_of(version) >= 120);
  CHECK(text(d, CL_DEVICE_OPENCL_C_VERSION).rfind("OpenCL C ", 0) == 0);
  CHECK_FALSE(text(d, CL_DRIVER_VERSION).empty());
  CHECK_FALSE(text(d, CL_DEVICE_NAME).empty());
  CHECK_FALSE(text(d, CL_DEVICE_VENDOR).empty());
  std::string profile = text(d, CL_DEVICE_PROFILE);
  CHECK((profile == "FULL_PROFILE" || profile == "EMBEDDED_PROFILE"));
}

TEST_CASE("device: numeric version agrees with the version string", "[device]") {
  auto d = cltest::test_device();
  if (device_version(d) < 300) return;
  auto numeric = scalar<cl_version>(d, CL_DEVICE_NUMERIC_VERSION);
  CHECK(CL_VERSION_MAJOR(numeric) * 100 + CL_VERSION_MINOR(numeric) * 10 == device_version(d));
}

TEST_CASE("device: the platform is the platform under test", "[device][oclgrind]") {
  CHECK(scalar<cl_platform_id>(cltest::test_device(), CL_DEVICE_PLATFORM) == cltest::platform()());
}

TEST_CASE("device: a root device has no parent and a reference count of one", "[device][oclgrind]") {
  auto d = cltest::test_device();
  CHECK(scalar<cl_device_id>(d, CL_DEVICE_PARENT_DEVICE) == nullptr);
  CHECK(scalar<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT) == 1);
  // Retaining and releasing a root device succeeds and changes nothing.
  CHECK_CL(clRetainDevice(d()), CL_SUCCESS);
  CHECK_CL(clReleaseDevice(d()), CL_SUCCESS);
  CHECK(scalar<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT) == 1);
}

TEST_CASE("device: extensions are distinct cl_ names", "[device][oclgrind]") {
  std::istringstream in(text(cltest::test_device(), CL_DEVICE_EXTENSIONS));
  std::vector<std::string> all;
  for (std::string e; in >> e;) {
    CHECK(e.rfind("cl_", 0) == 0);
    CHECK(std::count(all.begin(), all.end(), e) == 0);
    all.push_back(e);
  }
}

TEST_CASE("device: extensions with version match the extension string", "[device]") {
  auto d = cltest::test_device();
  if (device_version(d) < 300) return;
  std::istringstream in(text(d, CL_DEVICE_EXTENSIONS));
  std::vector<std::string> listed;
  for (std::string e; in >> e;) listed.push_back(e);
  size_t n = 0;
  REQUIRE_CL(clGetDeviceInfo(d(), CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &n), CL_SUCCESS);
  std::vector<cl_name_version> all(n / sizeof(cl_name_version));
  REQUIRE_CL(clGetDeviceInfo(d(), CL_DEVICE_EXTENSIONS_WITH_VERSION, n, all.data(), nullptr), CL_SUCCESS);
  std::vector<std::string> versioned;
  for (auto &nv : all) versioned.push_back(nv.name);
  std::sort(listed.begin(), listed.end());
  std::sort(versioned.begin(), versioned.end());
  CHECK(listed == versioned);
}

TEST_CASE("device: mandatory capabilities are present", "[device][oclgrind]") {
  auto d = cltest::test_device();
  CHECK(scalar<cl_bool>(d, CL_DEVICE_AVAILABLE) == CL_TRUE);
  CHECK(scalar<cl_bool>(d, CL_DEVICE_COMPILER_AVAILABLE) == CL_TRUE);
  CHECK(scalar<cl_bool>(d, CL_DEVICE_LINKER_AVAILABLE) == CL_TRUE);
  CHECK((scalar<cl_device_exec_capabilities>(d, CL_DEVICE_EXECUTION_CAPABILITIES) & CL_EXEC_KERNEL) != 0);
  CHECK((scalar<cl_command_queue_properties>(d, CL_DEVICE_QUEUE_PROPERTIES) & CL_QUEUE_PROFILING_ENABLE) != 0);
  if (is_full_profile(d)) {
    auto fp = scalar<cl_device_fp_config>(d, CL_DEVICE_SINGLE_FP_CONFIG);
    CHECK((fp & CL_FP_ROUND_TO_NEAREST) != 0);
    CHECK((fp & CL_FP_INF_NAN) != 0);
  }
  CHECK(scalar<size_t>(d, CL_DEVICE_PROFILING_TIMER_RESOLUTION) > 0);
  CHECK(scalar<cl_uint>(d, CL_DEVICE_ADDRESS_BITS) % 32 == 0);
}

TEST_CASE("device: vector widths agree with the fp64 extension", "[device][oclgrind]") {
  auto d = cltest::test_device();
  CHECK(scalar<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR) >= 1);
  CHECK(scalar<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT) >= 1);
  CHECK(scalar<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT) >= 1);
  CHECK(scalar<cl_uint>(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT) >= 1);
  bool fp64 = text(d, CL_DEVICE_EXTENSIONS).find("cl_khr_fp64") != std::string::npos;
  CHECK((scalar<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE) != 0) == fp64);
  CHECK((scalar<cl_device_fp_config>(d, CL_DEVICE_DOUBLE_FP_CONFIG) != 0) == fp64);
}

TEST_CASE("device: info size protocol and errors", "[device][errors][oclgrind]") {
  auto d = cltest::test_device();
  size_t n = 0;
  REQUIRE_CL(clGetDeviceInfo(d(), CL_DEVICE_NAME, 0, nullptr, &n), CL_SUCCESS);
  std::vector<char> small(n - 1);
  CHECK_CL(clGetDeviceInfo(d(), CL_DEVICE_NAME, small.size(), small.data(), nullptr), CL_INVALID_VALUE);
  cl_uint units = 0;
  CHECK_CL(clGetDeviceInfo(d(), CL_DEVICE_MAX_COMPUTE_UNITS, 1, &units, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetDeviceInfo(d(), 0x7fffu, sizeof units, &units, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetDeviceInfo(nullptr, CL_DEVICE_NAME, 0, nullptr, &n), CL_INVALID_DEVICE);
}

TEST_CASE("device: OpenCL 3.0 feature queries answer", "[device]") {
  auto d = cltest::test_device();
  if (device_version(d) < 300) return;
  // Optional features may be absent, but every query must answer. (Sizes
  // are not compared: PoCL answers some 64-bit bitfields with 4 bytes.)
  auto answers = [&](cl_device_info param) {
    cl_ulong v = 0;
    CHECK_CL(clGetDeviceInfo(d(), param, sizeof v, &v, nullptr), CL_SUCCESS);
  };
  for (cl_device_info param :
       {CL_DEVICE_SVM_CAPABILITIES, CL_DEVICE_PIPE_SUPPORT, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
        CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
        CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES})
    answers(param);
  size_t n = 0;
  CHECK_CL(clGetDeviceInfo(d(), CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, nullptr, &n), CL_SUCCESS);
  CHECK(n >= sizeof(cl_name_version));
  CHECK(n % sizeof(cl_name_version) == 0);
  CHECK_FALSE(text(d, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED).empty());
}

TEST_CASE("device: partition equally into single compute units", "[device][subdevices]") {
  auto d = cltest::test_device();
  size_t n = 0;
  REQUIRE_CL(clGetDeviceInfo(d(), CL_DEVICE_PARTITION_PROPERTIES, 0, nullptr, &n), CL_SUCCESS);
  std::vector<cl_device_partition_property> kinds(n / sizeof(cl_device_partition_property));
  REQUIRE_CL(clGetDeviceInfo(d(), CL_DEVICE_PARTITION_PROPERTIES, n, kinds.data(), nullptr), CL_SUCCESS);
  auto units = scalar<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS);
  if (std::count(kinds.begin(), kinds.end(), CL_DEVICE_PARTITION_EQUALLY) == 0 || units < 2) {
    WARN("device cannot be partitioned equally: skipped");
    return;
  }
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint count = 0;
  REQUIRE_CL(clCreateSubDevices(d(), props, 0, nullptr, &count), CL_SUCCESS);
  CHECK(count == std::min(units, scalar<cl_uint>(d, CL_DEVICE_PARTITION_MAX_SUB_DEVICES)));
  std::vector<cl_device_id> raw(count);
  REQUIRE_CL(clCreateSubDevices(d(), props, count, raw.data(), nullptr), CL_SUCCESS);
  std::vector<cl::Device> subs;
  for (auto id : raw) subs.push_back(adopt<cl::Device>(id));
  for (auto &s : subs) {
    CHECK(scalar<cl_device_id>(s, CL_DEVICE_PARENT_DEVICE) == d());
    CHECK(scalar<cl_uint>(s, CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
    CHECK(scalar<cl_uint>(s, CL_DEVICE_REFERENCE_COUNT) == 1);
    CHECK(scalar<cl_platform_id>(s, CL_DEVICE_PLATFORM) == cltest::platform()());
    size_t pn = 0;
    REQUIRE_CL(clGetDeviceInfo(s(), CL_DEVICE_PARTITION_TYPE, 0, nullptr, &pn), CL_SUCCESS);
    std::vector<cl_device_partition_property> type(pn / sizeof(cl_device_partition_property));
    REQUIRE_CL(clGetDeviceInfo(s(), CL_DEVICE_PARTITION_TYPE, pn, type.data(), nullptr), CL_SUCCESS);
    REQUIRE(type.size() >= 2);
    CHECK(type[0] == CL_DEVICE_PARTITION_EQUALLY);
    CHECK(type[1] == 1);
  }
  // A sub-device counts references like any object.
  CHECK_CL(clRetainDevice(subs[0]()), CL_SUCCESS);
  CHECK(scalar<cl_uint>(subs[0], CL_DEVICE_REFERENCE_COUNT) == 2);
  CHECK_CL(clReleaseDevice(subs[0]()), CL_SUCCESS);
}

TEST_CASE("device: a sub-device runs kernels in its own context", "[device][subdevices]") {
  auto d = cltest::test_device();
  if (scalar<cl_uint>(d, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) < 2) return;
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_device_id raw = nullptr;
  cl_uint count = 0;
  cl_int err = clCreateSubDevices(d(), props, 1, &raw, &count);
  if (err == CL_INVALID_VALUE || err == CL_DEVICE_PARTITION_FAILED) return;  // by counts is optional
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK(count == 1);
  auto sub = adopt<cl::Device>(raw);
  // PoCL 3.1 may still release the last event of a command that ran on a
  // sub-device after the application released the device, and then reads
  // the freed device (directly as well as through UniCL): the sub-device is
  // kept until the process ends.
  static std::vector<cl::Device> kept_until_exit;
  kept_until_exit.push_back(sub);
  CHECK(scalar<cl_uint>(sub, CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
  cl::Context ctx(sub);
  run_twice(ctx, sub, build(ctx, kTwice));
}

TEST_CASE("device: partition errors", "[device][subdevices][errors]") {
  auto d = cltest::test_device();
  cl_device_id out = nullptr;
  cl_uint n = 0;
  CHECK_CL(clCreateSubDevices(nullptr, nullptr, 1, &out, &n), CL_INVALID_DEVICE);
  if (scalar<cl_uint>(d, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) < 2) return;
  cl_device_partition_property unknown[] = {0x7fff, 1, 0};
  CHECK_CL(clCreateSubDevices(d(), unknown, 1, &out, &n), CL_INVALID_VALUE);
  // More sub-devices than fit into `out`.
  cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  CHECK_CL(clCreateSubDevices(d(), equally, 0, &out, &n), CL_INVALID_VALUE);
}

TEST_CASE("device: a parent device and its sub-devices in one context share a build", "[device][subdevices]") {
  auto d = cltest::test_device();
  if (scalar<cl_uint>(d, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) < 2) return;
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint count = 0;
  cl_int err = clCreateSubDevices(d(), props, 0, nullptr, &count);
  if (err == CL_INVALID_VALUE || err == CL_DEVICE_PARTITION_FAILED) return;  // equally is optional
  REQUIRE_CL(err, CL_SUCCESS);
  std::vector<cl_device_id> raw(count);
  REQUIRE_CL(clCreateSubDevices(d(), props, count, raw.data(), nullptr), CL_SUCCESS);
  std::vector<cl::Device> subs;
  for (auto id : raw) subs.push_back(adopt<cl::Device>(id));
  static std::vector<cl::Device> kept_until_exit;  // as in the case above
  kept_until_exit.insert(kept_until_exit.end(), subs.begin(), subs.end());

  std::vector<cl_device_id> members = raw;
  members.push_back(d());
  auto ctx = adopt<cl::Context>(
      clCreateContext(nullptr, static_cast<cl_uint>(members.size()), members.data(), nullptr, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  const char *source = kTwice;
  auto program = adopt<cl::Program>(clCreateProgramWithSource(ctx(), 1, &source, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  // Built for the parent only: every device of the program that the
  // vendor lists reports the build, and kernels run on the sub-devices.
  cl_device_id parent = d();
  REQUIRE_CL(clBuildProgram(program(), 1, &parent, nullptr, nullptr, nullptr), CL_SUCCESS);
  cl_uint listed = 0;
  REQUIRE_CL(clGetProgramInfo(program(), CL_PROGRAM_NUM_DEVICES, sizeof listed, &listed, nullptr), CL_SUCCESS);
  std::vector<cl_device_id> program_devices(listed);
  REQUIRE_CL(clGetProgramInfo(program(), CL_PROGRAM_DEVICES, listed * sizeof(cl_device_id), program_devices.data(),
                              nullptr),
             CL_SUCCESS);
  for (cl_device_id member : program_devices) {
    cl_build_status status = CL_BUILD_NONE;
    REQUIRE_CL(clGetProgramBuildInfo(program(), member, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr),
               CL_SUCCESS);
    CHECK(status == CL_BUILD_SUCCESS);
  }
  for (auto &sub : subs) run_twice(ctx, sub, program);
}
