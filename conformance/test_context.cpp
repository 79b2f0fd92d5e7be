// Contexts: clCreateContext, clCreateContextFromType, info, reference
// counts, destructor callbacks.
#include <mutex>

#include "conformance.hpp"

using namespace conformance;

namespace {

cl_context_properties platform_property() { return reinterpret_cast<cl_context_properties>(cltest::platform()()); }

template <class T>
T context_scalar(cl_context c, cl_context_info param) {
  T v{};
  REQUIRE_CL(clGetContextInfo(c, param, sizeof v, &v, nullptr), CL_SUCCESS);
  return v;
}

std::vector<cl_device_id> context_devices(cl_context c) {
  size_t n = 0;
  REQUIRE_CL(clGetContextInfo(c, CL_CONTEXT_DEVICES, 0, nullptr, &n), CL_SUCCESS);
  std::vector<cl_device_id> d(n / sizeof(cl_device_id));
  REQUIRE_CL(clGetContextInfo(c, CL_CONTEXT_DEVICES, n, d.data(), nullptr), CL_SUCCESS);
  return d;
}

void CL_CALLBACK ignore_notify(const char *, const void *, size_t, void *) {}

}  // namespace

TEST_CASE("context: one device, as given", "[context][oclgrind]") {
  cl_device_id d = cltest::test_device()();
  cl_int err = CL_OUT_OF_RESOURCES;
  auto ctx = adopt<cl::Context>(clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK(context_devices(ctx()) == std::vector<cl_device_id>{d});
  CHECK(context_scalar<cl_uint>(ctx(), CL_CONTEXT_NUM_DEVICES) == 1);
  CHECK(context_scalar<cl_uint>(ctx(), CL_CONTEXT_REFERENCE_COUNT) == 1);
}

TEST_CASE("context: properties are returned as given", "[context][oclgrind]") {
  cl_device_id d = cltest::test_device()();
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, platform_property(), 0};
  cl_int err;
  auto ctx = adopt<cl::Context>(clCreateContext(props, 1, &d, nullptr, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  size_t n = 0;
  REQUIRE_CL(clGetContextInfo(ctx(), CL_CONTEXT_PROPERTIES, 0, nullptr, &n), CL_SUCCESS);
  REQUIRE(n == sizeof props);
  cl_context_properties back[3] = {};
  REQUIRE_CL(clGetContextInfo(ctx(), CL_CONTEXT_PROPERTIES, n, back, nullptr), CL_SUCCESS);
  CHECK(back[0] == CL_CONTEXT_PLATFORM);
  CHECK(back[1] == platform_property());
  CHECK(back[2] == 0);
}

TEST_CASE("context: no properties give an empty or zero-terminated list", "[context]") {
  Env env;
  size_t n = 99;
  REQUIRE_CL(clGetContextInfo(env.context(), CL_CONTEXT_PROPERTIES, 0, nullptr, &n), CL_SUCCESS);
  if (n != 0) {
    REQUIRE(n == sizeof(cl_context_properties));
    cl_context_properties p = 1;
    REQUIRE_CL(clGetContextInfo(env.context(), CL_CONTEXT_PROPERTIES, n, &p, nullptr), CL_SUCCESS);
    CHECK(p == 0);
  }
}

TEST_CASE("context: from type holds devices of that type", "[context]") {
  auto type = cltest::test_device().getInfo<CL_DEVICE_TYPE>() & ~cl_device_type{CL_DEVICE_TYPE_DEFAULT};
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, platform_property(), 0};
  cl_int err;
  auto ctx = adopt<cl::Context>(clCreateContextFromType(props, type, nullptr, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  auto devs = context_devices(ctx());
  CHECK(std::count(devs.begin(), devs.end(), cltest::test_device()()) == 1);
  for (cl_device_id d : devs) {
    cl_device_type t = 0;
    REQUIRE_CL(clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, nullptr), CL_SUCCESS);
    CHECK((t & type) != 0);
  }
  CHECK(context_scalar<cl_uint>(ctx(), CL_CONTEXT_NUM_DEVICES) == devs.size());
}

TEST_CASE("context: from type errors", "[context][errors][oclgrind]") {
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, platform_property(), 0};
  cl_int err = CL_SUCCESS;
  // PoCL hands out a half-made context along with the error, and releasing
  // it trips an assertion in PoCL: the handle is adopted only on success.
  cl_context none = clCreateContextFromType(props, CL_DEVICE_TYPE_CUSTOM, nullptr, nullptr, &err);
  if (err == CL_SUCCESS) adopt<cl::Context>(none);
  CHECK_CL(err, CL_DEVICE_NOT_FOUND);
  if (cltest::testing_unicl()) CHECK(none == nullptr);
  int data = 0;
  auto bad = adopt<cl::Context>(clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, nullptr, &data, &err));
  CHECK(bad() == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
}

TEST_CASE("context: clCreateContext argument errors", "[context][errors]") {
  cl_device_id d = cltest::test_device()();
  cl_int err = CL_SUCCESS;
  SECTION("no devices") {
    auto c = adopt<cl::Context>(clCreateContext(nullptr, 1, nullptr, nullptr, nullptr, &err));
    CHECK(c() == nullptr);
    CHECK_CL(err, CL_INVALID_VALUE);
  }
  SECTION("zero devices") {
    auto c = adopt<cl::Context>(clCreateContext(nullptr, 0, &d, nullptr, nullptr, &err));
    CHECK(c() == nullptr);
    CHECK_CL(err, CL_INVALID_VALUE);
  }
  SECTION("user data without a callback") {
    int data = 0;
    auto c = adopt<cl::Context>(clCreateContext(nullptr, 1, &d, nullptr, &data, &err));
    CHECK(c() == nullptr);
    CHECK_CL(err, CL_INVALID_VALUE);
  }
  SECTION("unknown property") {
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, platform_property(), 0x7fff, 1, 0};
    auto c = adopt<cl::Context>(clCreateContext(props, 1, &d, nullptr, nullptr, &err));
    CHECK(c() == nullptr);
    CHECK_CL(err, CL_INVALID_PROPERTY);
  }
  SECTION("property given twice") {
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, platform_property(), CL_CONTEXT_PLATFORM,
                                     platform_property(), 0};
    auto c = adopt<cl::Context>(clCreateContext(props, 1, &d, nullptr, nullptr, &err));
    CHECK(c() == nullptr);
    CHECK_CL(err, CL_INVALID_PROPERTY);
  }
}

TEST_CASE("context: a notification callback is accepted", "[context][oclgrind]") {
  cl_device_id d = cltest::test_device()();
  int data = 0;
  cl_int err;
  auto ctx = adopt<cl::Context>(clCreateContext(nullptr, 1, &d, ignore_notify, &data, &err));
  CHECK_CL(err, CL_SUCCESS);
  CHECK(ctx() != nullptr);
}

TEST_CASE("context: retain and release count references", "[context][oclgrind]") {
  Env env;
  cl_context c = env.context();
  cl_uint base = context_scalar<cl_uint>(c, CL_CONTEXT_REFERENCE_COUNT);
  REQUIRE_CL(clRetainContext(c), CL_SUCCESS);
  CHECK(context_scalar<cl_uint>(c, CL_CONTEXT_REFERENCE_COUNT) == base + 1);
  REQUIRE_CL(clReleaseContext(c), CL_SUCCESS);
  CHECK(context_scalar<cl_uint>(c, CL_CONTEXT_REFERENCE_COUNT) == base);
}

TEST_CASE("context: objects made from a context keep it alive", "[context]") {
  cl::Device device = cltest::test_device();
  cl_device_id d = device();
  cl_int err;
  cl_context c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
  REQUIRE_CL(err, CL_SUCCESS);
  auto buffer = adopt<cl::Buffer>(clCreateBuffer(c, CL_MEM_READ_WRITE, 64, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  REQUIRE_CL(clReleaseContext(c), CL_SUCCESS);
  // The application's reference is gone; the buffer's keeps the context usable.
  cl_context owner = nullptr;
  REQUIRE_CL(clGetMemObjectInfo(buffer(), CL_MEM_CONTEXT, sizeof owner, &owner, nullptr), CL_SUCCESS);
  CHECK(owner == c);
  auto queue = adopt<cl::CommandQueue>(clCreateCommandQueue(owner, d, 0, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  cl_int v = 42, back = 0;
  CHECK_CL(clEnqueueWriteBuffer(queue(), buffer(), CL_TRUE, 0, sizeof v, &v, 0, nullptr, nullptr), CL_SUCCESS);
  CHECK_CL(clEnqueueReadBuffer(queue(), buffer(), CL_TRUE, 0, sizeof back, &back, 0, nullptr, nullptr), CL_SUCCESS);
  CHECK(back == 42);
}

namespace {
struct DestructorLog {
  std::mutex mutex;
  std::vector<int> order;
  cl_context seen = nullptr;
};
void CL_CALLBACK first_destructor(cl_context c, void *data) {
  auto *log = static_cast<DestructorLog *>(data);
  std::lock_guard lock(log->mutex);
  log->order.push_back(1);
  log->seen = c;
}
void CL_CALLBACK second_destructor(cl_context c, void *data) {
  auto *log = static_cast<DestructorLog *>(data);
  std::lock_guard lock(log->mutex);
  log->order.push_back(2);
  log->seen = c;
}
}  // namespace

TEST_CASE("context: destructor callbacks run in reverse order on release", "[context]") {
  if (platform_version() < 300) return;
  DestructorLog log;
  cl_context raw = nullptr;
  {
    Env env;
    raw = env.context();
    REQUIRE_CL(clSetContextDestructorCallback(raw, first_destructor, &log), CL_SUCCESS);
    REQUIRE_CL(clSetContextDestructorCallback(raw, second_destructor, &log), CL_SUCCESS);
    CHECK(log.order.empty());
  }
  std::lock_guard lock(log.mutex);
  CHECK(log.order == std::vector<int>{2, 1});
  CHECK(log.seen == raw);
}

TEST_CASE("context: destructor callback errors", "[context][errors]") {
  if (platform_version() < 300) return;
  Env env;
  CHECK_CL(clSetContextDestructorCallback(env.context(), nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clSetContextDestructorCallback(nullptr, first_destructor, nullptr), CL_INVALID_CONTEXT);
}

TEST_CASE("context: info errors", "[context][errors][oclgrind]") {
  Env env;
  cl_uint n = 0;
  CHECK_CL(clGetContextInfo(env.context(), 0x7fffu, sizeof n, &n, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetContextInfo(env.context(), CL_CONTEXT_NUM_DEVICES, 1, &n, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetContextInfo(nullptr, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, nullptr), CL_INVALID_CONTEXT);
}

TEST_CASE("context: two contexts on one device are independent", "[context][errors]") {
  Env a, b;
  cl::Buffer in_a(a.context, CL_MEM_READ_WRITE, sizeof(cl_int));
  cl_int v = 5;
  a.queue.enqueueWriteBuffer(in_a, CL_TRUE, 0, sizeof v, &v);
  cl_int err = CL_SUCCESS;
  // A buffer of one context is not valid on a queue of another.
  err = clEnqueueReadBuffer(b.queue(), in_a(), CL_TRUE, 0, sizeof v, &v, 0, nullptr, nullptr);
  CHECK_CL(err, CL_INVALID_CONTEXT);
}
