// Bad input to the memory-object and sampler entry points.
#include "bad_input.hpp"

using bad::as;
using bad::create_error;
using bad::world;

namespace {
void CL_CALLBACK ignore_mem(cl_mem, void *) {}
char host[bad::kBufferSize];

cl_int buffer_error(cl_context c, cl_mem_flags flags, size_t size, void *ptr) {
  return create_error([&](cl_int *e) { return clCreateBuffer(c, flags, size, ptr, e); });
}

cl_ulong max_alloc() { return world().device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>(); }

const cl_image_format kFormat{CL_RGBA, CL_FLOAT};

cl_image_desc desc_2d(size_t w, size_t h) {
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = w;
  d.image_height = h;
  return d;
}
}  // namespace

TEST_CASE("clCreateBuffer", "[bad_input]") {
  cl_context c = world().context();
  CHECK(buffer_error(nullptr, CL_MEM_READ_WRITE, 64, nullptr) == CL_INVALID_CONTEXT);
  CHECK(buffer_error(as<cl_context>(world().buffer()), CL_MEM_READ_WRITE, 64, nullptr) == CL_INVALID_CONTEXT);
  CHECK(buffer_error(bad::dead_context(), CL_MEM_READ_WRITE, 64, nullptr) == CL_INVALID_CONTEXT);
  CHECK(buffer_error(c, cl_mem_flags{1} << 40, 64, nullptr) == CL_INVALID_VALUE);
  CHECK(buffer_error(c, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, nullptr) == CL_INVALID_VALUE);
  CHECK(buffer_error(c, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 64, nullptr) == CL_INVALID_VALUE);
  CHECK(buffer_error(c, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host) == CL_INVALID_VALUE);
  CHECK(buffer_error(c, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, host) == CL_INVALID_VALUE);
  CHECK(buffer_error(c, CL_MEM_READ_WRITE, 0, nullptr) == CL_INVALID_BUFFER_SIZE);
  CHECK(buffer_error(c, CL_MEM_READ_WRITE, max_alloc() + 1, nullptr) == CL_INVALID_BUFFER_SIZE);
  CHECK(buffer_error(c, CL_MEM_USE_HOST_PTR, 64, nullptr) == CL_INVALID_HOST_PTR);
  CHECK(buffer_error(c, CL_MEM_COPY_HOST_PTR, 64, nullptr) == CL_INVALID_HOST_PTR);
  CHECK(buffer_error(c, CL_MEM_READ_WRITE, 64, host) == CL_INVALID_HOST_PTR);
}

TEST_CASE("clCreateBufferWithProperties", "[bad_input]") {
  cl_context c = world().context();
  auto create = [&](cl_context ctx, const cl_mem_properties *props, cl_mem_flags flags, size_t size, void *ptr) {
    return create_error([&](cl_int *e) { return clCreateBufferWithProperties(ctx, props, flags, size, ptr, e); });
  };
  cl_mem_properties unknown[] = {0x7777, 0, 0};
  CHECK(create(nullptr, nullptr, CL_MEM_READ_WRITE, 64, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(as<cl_context>(world().kernel()), nullptr, CL_MEM_READ_WRITE, 64, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(bad::dead_context(), nullptr, CL_MEM_READ_WRITE, 64, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(c, unknown, CL_MEM_READ_WRITE, 64, nullptr) == CL_INVALID_PROPERTY);
  CHECK(create(c, nullptr, CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, 64, nullptr) == CL_INVALID_VALUE);
  CHECK(create(c, nullptr, CL_MEM_READ_WRITE, 0, nullptr) == CL_INVALID_BUFFER_SIZE);
  CHECK(create(c, nullptr, CL_MEM_USE_HOST_PTR, 64, nullptr) == CL_INVALID_HOST_PTR);
}

TEST_CASE("clCreateSubBuffer", "[bad_input]") {
  cl_mem b = world().buffer();
  auto create = [&](cl_mem parent, cl_mem_flags flags, cl_buffer_create_type type, const void *info) {
    return create_error([&](cl_int *e) { return clCreateSubBuffer(parent, flags, type, info, e); });
  };
  cl_buffer_region ok{0, 64};
  CHECK(create(nullptr, 0, CL_BUFFER_CREATE_TYPE_REGION, &ok) == CL_INVALID_MEM_OBJECT);
  CHECK(create(as<cl_mem>(world().queue()), 0, CL_BUFFER_CREATE_TYPE_REGION, &ok) == CL_INVALID_MEM_OBJECT);
  CHECK(create(bad::dead_mem(), 0, CL_BUFFER_CREATE_TYPE_REGION, &ok) == CL_INVALID_MEM_OBJECT);
  CHECK(create(world().image(), 0, CL_BUFFER_CREATE_TYPE_REGION, &ok) == CL_INVALID_MEM_OBJECT);
  CHECK(create(b, 0, 0x7777, &ok) == CL_INVALID_VALUE);
  CHECK(create(b, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr) == CL_INVALID_VALUE);
  CHECK(create(b, cl_mem_flags{1} << 40, CL_BUFFER_CREATE_TYPE_REGION, &ok) == CL_INVALID_VALUE);
  cl_buffer_region past_end{0, bad::kBufferSize + 4};
  CHECK(create(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &past_end) == CL_INVALID_VALUE);
  cl_buffer_region empty{0, 0};
  CHECK(create(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &empty) == CL_INVALID_BUFFER_SIZE);
  cl_buffer_region misaligned{1, 16};
  CHECK(create(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned) == CL_MISALIGNED_SUB_BUFFER_OFFSET);
  // Sub-buffers of sub-buffers are not allowed.
  cl::Buffer sub = world().buffer.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &ok);
  CHECK(create(sub(), 0, CL_BUFFER_CREATE_TYPE_REGION, &ok) == CL_INVALID_MEM_OBJECT);
  // Access flags the parent does not allow.
  cl::Buffer read_only(world().context, CL_MEM_READ_ONLY, 256);
  CHECK(create(read_only(), CL_MEM_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &ok) == CL_INVALID_VALUE);
  cl::Buffer host_read(world().context, CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY, 256);
  CHECK(create(host_read(), CL_MEM_HOST_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &ok) == CL_INVALID_VALUE);
}

TEST_CASE("clCreateImage", "[bad_input]") {
  cl_context c = world().context();
  auto create = [&](cl_context ctx, cl_mem_flags flags, const cl_image_format *fmt, const cl_image_desc *desc,
                    void *ptr) {
    return create_error([&](cl_int *e) { return clCreateImage(ctx, flags, fmt, desc, ptr, e); });
  };
  cl_image_desc ok = desc_2d(8, 8);
  CHECK(create(nullptr, CL_MEM_READ_WRITE, &kFormat, &ok, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(as<cl_context>(world().sampler()), CL_MEM_READ_WRITE, &kFormat, &ok, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(bad::dead_context(), CL_MEM_READ_WRITE, &kFormat, &ok, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(c, CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY, &kFormat, &ok, nullptr) == CL_INVALID_VALUE);
  CHECK(create(c, CL_MEM_READ_WRITE, nullptr, &ok, nullptr) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  cl_image_format bad_order{0x7777, CL_FLOAT};
  CHECK(create(c, CL_MEM_READ_WRITE, &bad_order, &ok, nullptr) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  cl_image_format bad_type{CL_RGBA, 0x7777};
  CHECK(create(c, CL_MEM_READ_WRITE, &bad_type, &ok, nullptr) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  CHECK(create(c, CL_MEM_READ_WRITE, &kFormat, nullptr, nullptr) == CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc bad_kind = ok;
  bad_kind.image_type = CL_MEM_OBJECT_BUFFER;
  CHECK(create(c, CL_MEM_READ_WRITE, &kFormat, &bad_kind, nullptr) == CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc zero_width = desc_2d(0, 8);
  CHECK(create(c, CL_MEM_READ_WRITE, &kFormat, &zero_width, nullptr) == CL_INVALID_IMAGE_DESCRIPTOR);
  size_t max_width = world().device.getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>();
  cl_image_desc too_wide = desc_2d(max_width + 1, 1);
  CHECK(create(c, CL_MEM_READ_WRITE, &kFormat, &too_wide, nullptr) == CL_INVALID_IMAGE_SIZE);
  CHECK(create(c, CL_MEM_COPY_HOST_PTR, &kFormat, &ok, nullptr) == CL_INVALID_HOST_PTR);
  cl_image_desc short_pitch = ok;
  short_pitch.image_row_pitch = 4;  // less than one row of 8 float4 pixels
  CHECK(create(c, CL_MEM_COPY_HOST_PTR, &kFormat, &short_pitch, host) == CL_INVALID_IMAGE_DESCRIPTOR);
}

TEST_CASE("clCreateImageWithProperties", "[bad_input]") {
  cl_context c = world().context();
  auto create = [&](cl_context ctx, const cl_mem_properties *props, const cl_image_format *fmt,
                    const cl_image_desc *desc) {
    return create_error(
        [&](cl_int *e) { return clCreateImageWithProperties(ctx, props, CL_MEM_READ_WRITE, fmt, desc, nullptr, e); });
  };
  cl_image_desc ok = desc_2d(8, 8);
  cl_mem_properties unknown[] = {0x7777, 0, 0};
  CHECK(create(nullptr, nullptr, &kFormat, &ok) == CL_INVALID_CONTEXT);
  CHECK(create(as<cl_context>(world().program()), nullptr, &kFormat, &ok) == CL_INVALID_CONTEXT);
  CHECK(create(bad::dead_context(), nullptr, &kFormat, &ok) == CL_INVALID_CONTEXT);
  CHECK(create(c, unknown, &kFormat, &ok) == CL_INVALID_PROPERTY);
  CHECK(create(c, nullptr, nullptr, &ok) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  CHECK(create(c, nullptr, &kFormat, nullptr) == CL_INVALID_IMAGE_DESCRIPTOR);
}

TEST_CASE("clCreateImage2D", "[bad_input]") {
  cl_context c = world().context();
  auto create = [&](cl_context ctx, cl_mem_flags flags, const cl_image_format *fmt, size_t w, size_t h, void *ptr) {
    return create_error([&](cl_int *e) { return clCreateImage2D(ctx, flags, fmt, w, h, 0, ptr, e); });
  };
  CHECK(create(nullptr, CL_MEM_READ_WRITE, &kFormat, 8, 8, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(as<cl_context>(world().device()), CL_MEM_READ_WRITE, &kFormat, 8, 8, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(bad::dead_context(), CL_MEM_READ_WRITE, &kFormat, 8, 8, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(c, CL_MEM_READ_WRITE, nullptr, 8, 8, nullptr) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  CHECK(create(c, CL_MEM_READ_WRITE, &kFormat, 0, 8, nullptr) == CL_INVALID_IMAGE_SIZE);
  CHECK(create(c, CL_MEM_READ_WRITE, &kFormat, 8, 0, nullptr) == CL_INVALID_IMAGE_SIZE);
  CHECK(create(c, cl_mem_flags{1} << 40, &kFormat, 8, 8, nullptr) == CL_INVALID_VALUE);
  CHECK(create(c, CL_MEM_USE_HOST_PTR, &kFormat, 8, 8, nullptr) == CL_INVALID_HOST_PTR);
}

TEST_CASE("clCreateImage3D", "[bad_input]") {
  cl_context c = world().context();
  auto create = [&](cl_context ctx, const cl_image_format *fmt, size_t w, size_t h, size_t d) {
    return create_error([&](cl_int *e) { return clCreateImage3D(ctx, CL_MEM_READ_WRITE, fmt, w, h, d, 0, 0, nullptr, e); });
  };
  CHECK(create(nullptr, &kFormat, 4, 4, 4) == CL_INVALID_CONTEXT);
  CHECK(create(as<cl_context>(world().queue()), &kFormat, 4, 4, 4) == CL_INVALID_CONTEXT);
  CHECK(create(bad::dead_context(), &kFormat, 4, 4, 4) == CL_INVALID_CONTEXT);
  CHECK(create(c, nullptr, 4, 4, 4) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  CHECK(create(c, &kFormat, 0, 4, 4) == CL_INVALID_IMAGE_SIZE);
  CHECK(create(c, &kFormat, 4, 0, 4) == CL_INVALID_IMAGE_SIZE);
}

TEST_CASE("clCreateImage3D with a depth of one", "[bad_input]") {
  // OpenCL 1.2: CL_INVALID_IMAGE_SIZE "if image_depth <= 1".
  cl_int err = bad::create_error([](cl_int *e) {
    return clCreateImage3D(world().context(), CL_MEM_READ_WRITE, &kFormat, 4, 4, 1, 0, 0, nullptr, e);
  });
  CHECK(err == CL_INVALID_IMAGE_SIZE);
}

TEST_CASE("clRetainMemObject", "[bad_input]") {
  CHECK(clRetainMemObject(nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clRetainMemObject(as<cl_mem>(world().kernel())) == CL_INVALID_MEM_OBJECT);
  CHECK(clRetainMemObject(bad::dead_mem()) == CL_INVALID_MEM_OBJECT);
}

TEST_CASE("clReleaseMemObject", "[bad_input]") {
  CHECK(clReleaseMemObject(nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clReleaseMemObject(as<cl_mem>(world().context())) == CL_INVALID_MEM_OBJECT);
  CHECK(clReleaseMemObject(bad::dead_mem()) == CL_INVALID_MEM_OBJECT);
}

TEST_CASE("clGetSupportedImageFormats", "[bad_input]") {
  cl_context c = world().context();
  cl_image_format formats[4];
  cl_uint n = 0;
  CHECK(clGetSupportedImageFormats(nullptr, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 4, formats, &n) ==
        CL_INVALID_CONTEXT);
  CHECK(clGetSupportedImageFormats(as<cl_context>(world().image()), CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 4,
                                   formats, &n) == CL_INVALID_CONTEXT);
  CHECK(clGetSupportedImageFormats(bad::dead_context(), CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 4, formats, &n) ==
        CL_INVALID_CONTEXT);
  CHECK(clGetSupportedImageFormats(c, cl_mem_flags{1} << 40, CL_MEM_OBJECT_IMAGE2D, 4, formats, &n) == CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(c, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 4, formats, &n) == CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(c, CL_MEM_READ_WRITE, 0x7777, 4, formats, &n) == CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(c, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, formats, &n) == CL_INVALID_VALUE);
}

TEST_CASE("clGetMemObjectInfo", "[bad_input]") {
  size_t size = 0;
  CHECK(clGetMemObjectInfo(nullptr, CL_MEM_SIZE, sizeof size, &size, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clGetMemObjectInfo(as<cl_mem>(world().sampler()), CL_MEM_SIZE, sizeof size, &size, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clGetMemObjectInfo(bad::dead_mem(), CL_MEM_SIZE, sizeof size, &size, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clGetMemObjectInfo(world().buffer(), 0xdead, sizeof size, &size, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetMemObjectInfo(world().buffer(), CL_MEM_SIZE, 1, &size, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clGetImageInfo", "[bad_input]") {
  size_t width = 0;
  CHECK(clGetImageInfo(nullptr, CL_IMAGE_WIDTH, sizeof width, &width, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clGetImageInfo(world().buffer(), CL_IMAGE_WIDTH, sizeof width, &width, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clGetImageInfo(as<cl_mem>(world().program()), CL_IMAGE_WIDTH, sizeof width, &width, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clGetImageInfo(bad::dead_mem(), CL_IMAGE_WIDTH, sizeof width, &width, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clGetImageInfo(world().image(), 0xdead, sizeof width, &width, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetImageInfo(world().image(), CL_IMAGE_WIDTH, 1, &width, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clSetMemObjectDestructorCallback", "[bad_input]") {
  CHECK(clSetMemObjectDestructorCallback(nullptr, ignore_mem, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetMemObjectDestructorCallback(as<cl_mem>(world().user_event()), ignore_mem, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clSetMemObjectDestructorCallback(bad::dead_mem(), ignore_mem, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetMemObjectDestructorCallback(world().buffer(), nullptr, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clCreateSampler", "[bad_input]") {
  cl_context c = world().context();
  auto create = [&](cl_context ctx, cl_addressing_mode a, cl_filter_mode f) {
    return create_error([&](cl_int *e) { return clCreateSampler(ctx, CL_FALSE, a, f, e); });
  };
  CHECK(create(nullptr, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST) == CL_INVALID_CONTEXT);
  CHECK(create(as<cl_context>(world().buffer()), CL_ADDRESS_CLAMP, CL_FILTER_NEAREST) == CL_INVALID_CONTEXT);
  CHECK(create(bad::dead_context(), CL_ADDRESS_CLAMP, CL_FILTER_NEAREST) == CL_INVALID_CONTEXT);
  CHECK(create(c, 0x7777, CL_FILTER_NEAREST) == CL_INVALID_VALUE);
  CHECK(create(c, CL_ADDRESS_CLAMP, 0x7777) == CL_INVALID_VALUE);
}

TEST_CASE("clCreateSamplerWithProperties", "[bad_input]") {
  cl_context c = world().context();
  auto create = [&](cl_context ctx, const cl_sampler_properties *props) {
    return create_error([&](cl_int *e) { return clCreateSamplerWithProperties(ctx, props, e); });
  };
  cl_sampler_properties unknown[] = {0x7777, 0, 0};
  cl_sampler_properties bad_mode[] = {CL_SAMPLER_ADDRESSING_MODE, 0x7777, 0};
  cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, CL_SAMPLER_FILTER_MODE,
                                   CL_FILTER_LINEAR, 0};
  CHECK(create(nullptr, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(as<cl_context>(world().queue()), nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(bad::dead_context(), nullptr) == CL_INVALID_CONTEXT);
  CHECK(create(c, unknown) == CL_INVALID_VALUE);
  CHECK(create(c, bad_mode) == CL_INVALID_VALUE);
  CHECK(create(c, twice) == CL_INVALID_VALUE);
}

TEST_CASE("clRetainSampler", "[bad_input]") {
  CHECK(clRetainSampler(nullptr) == CL_INVALID_SAMPLER);
  CHECK(clRetainSampler(as<cl_sampler>(world().buffer())) == CL_INVALID_SAMPLER);
  CHECK(clRetainSampler(bad::dead_sampler()) == CL_INVALID_SAMPLER);
}

TEST_CASE("clReleaseSampler", "[bad_input]") {
  CHECK(clReleaseSampler(nullptr) == CL_INVALID_SAMPLER);
  CHECK(clReleaseSampler(as<cl_sampler>(world().context())) == CL_INVALID_SAMPLER);
  CHECK(clReleaseSampler(bad::dead_sampler()) == CL_INVALID_SAMPLER);
}

TEST_CASE("clGetSamplerInfo", "[bad_input]") {
  cl_uint refs = 0;
  CHECK(clGetSamplerInfo(nullptr, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, nullptr) == CL_INVALID_SAMPLER);
  CHECK(clGetSamplerInfo(as<cl_sampler>(world().image()), CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, nullptr) ==
        CL_INVALID_SAMPLER);
  CHECK(clGetSamplerInfo(bad::dead_sampler(), CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, nullptr) ==
        CL_INVALID_SAMPLER);
  CHECK(clGetSamplerInfo(world().sampler(), 0xdead, sizeof refs, &refs, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetSamplerInfo(world().sampler(), CL_SAMPLER_REFERENCE_COUNT, 1, &refs, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("clGetPipeInfo", "[bad_input]") {
  // UniCL reports pipes unsupported: no object is a pipe, whatever is passed.
  cl_uint packet = 0;
  CHECK(clGetPipeInfo(nullptr, CL_PIPE_PACKET_SIZE, sizeof packet, &packet, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clGetPipeInfo(world().buffer(), CL_PIPE_PACKET_SIZE, sizeof packet, &packet, nullptr) ==
        CL_INVALID_MEM_OBJECT);
}
