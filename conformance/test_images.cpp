// Images: formats, 1D/2D/3D/array images, read/write/copy/fill/map,
// image info, samplers and image access from kernels.
#include <algorithm>
#include <array>
#include <cstring>

#include "conformance.hpp"

using namespace conformance;

namespace {

const cl_image_format kRGBA8{CL_RGBA, CL_UNSIGNED_INT8};
const cl_image_format kRGBAFloat{CL_RGBA, CL_FLOAT};
const cl_image_format kR32{CL_R, CL_UNSIGNED_INT32};

// Image cases return early on devices without image support.
#define REQUIRE_IMAGES(env)                      \
  if (!images_supported((env).device)) {         \
    WARN("device has no image support: skipped"); \
    return;                                      \
  }

cl_image_desc desc_of(cl_mem_object_type type, size_t w, size_t h = 0, size_t d = 0, size_t array = 0) {
  cl_image_desc desc{};
  desc.image_type = type;
  desc.image_width = w;
  desc.image_height = h;
  desc.image_depth = d;
  desc.image_array_size = array;
  return desc;
}

cl::Memory make_image(Env &env, cl_mem_flags flags, const cl_image_format &format, const cl_image_desc &desc,
                     void *host = nullptr) {
  cl_int err;
  cl_mem m = clCreateImage(env.context(), flags, &format, &desc, host, &err);
  REQUIRE_CL(err, CL_SUCCESS);
  return adopt<cl::Memory>(m);
}

template <class T>
T image_scalar(const cl::Memory &m, cl_image_info param) {
  T v{};
  REQUIRE_CL(clGetImageInfo(m(), param, sizeof v, &v, nullptr), CL_SUCCESS);
  return v;
}

std::vector<cl_uchar> pattern_bytes(size_t n, unsigned seed = 0) {
  std::vector<cl_uchar> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<cl_uchar>((i * 7 + seed) & 0xff);
  return v;
}

std::vector<cl_image_format> supported(const cl::Context &ctx, cl_mem_flags flags, cl_mem_object_type type) {
  cl_uint n = 0;
  REQUIRE_CL(clGetSupportedImageFormats(ctx(), flags, type, 0, nullptr, &n), CL_SUCCESS);
  std::vector<cl_image_format> all(n);
  if (n) REQUIRE_CL(clGetSupportedImageFormats(ctx(), flags, type, n, all.data(), nullptr), CL_SUCCESS);
  return all;
}

bool contains(const std::vector<cl_image_format> &all, const cl_image_format &f) {
  for (auto &g : all)
    if (g.image_channel_order == f.image_channel_order && g.image_channel_data_type == f.image_channel_data_type)
      return true;
  return false;
}

void CHECK_SAME_BYTES(const std::vector<cl_uchar> &a, const std::vector<cl_uchar> &b) {
  REQUIRE(a.size() == b.size());
  size_t mismatches = 0;
  for (size_t i = 0; i < a.size(); ++i) mismatches += a[i] != b[i];
  CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("images: the minimum format list is supported", "[images][oclgrind]") {
  Env env;
  REQUIRE_IMAGES(env);
  auto formats = supported(env.context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D);
  for (cl_image_format f : {cl_image_format{CL_RGBA, CL_UNORM_INT8}, cl_image_format{CL_RGBA, CL_UNSIGNED_INT8},
                            cl_image_format{CL_RGBA, CL_SIGNED_INT32}, cl_image_format{CL_RGBA, CL_FLOAT}}) {
    INFO("order " << f.image_channel_order << " type " << f.image_channel_data_type);
    CHECK(contains(formats, f));
  }
  auto written = supported(env.context, CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D);
  CHECK(contains(written, kRGBAFloat));
  CHECK_FALSE(supported(env.context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE3D).empty());
}

TEST_CASE("images: supported format query errors", "[images][errors]") {
  Env env;
  cl_image_format f;
  cl_uint n = 0;
  CHECK_CL(clGetSupportedImageFormats(env.context(), CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, &f, &n),
           CL_INVALID_VALUE);
  CHECK_CL(clGetSupportedImageFormats(nullptr, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 1, &f, &n),
           CL_INVALID_CONTEXT);
  CHECK_CL(clGetSupportedImageFormats(env.context(), CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 1, &f, &n),
           CL_INVALID_VALUE);
}

TEST_CASE("images: 2D write and read round trip", "[images][oclgrind]") {
  Env env;
  REQUIRE_IMAGES(env);
  const size_t w = 16, h = 8;
  auto img = make_image(env, CL_MEM_READ_WRITE, kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE2D, w, h));
  auto data = pattern_bytes(w * h * 4);
  std::array<size_t, 3> origin{0, 0, 0}, region{w, h, 1};
  REQUIRE_CL(clEnqueueWriteImage(env.queue(), img(), CL_TRUE, origin.data(), region.data(), 0, 0, data.data(), 0,
                                 nullptr, nullptr),
             CL_SUCCESS);
  std::vector<cl_uchar> back(data.size());
  REQUIRE_CL(clEnqueueReadImage(env.queue(), img(), CL_TRUE, origin.data(), region.data(), 0, 0, back.data(), 0,
                                nullptr, nullptr),
             CL_SUCCESS);
  CHECK_SAME_BYTES(back, data);
}

TEST_CASE("images: 2D sub-region with origin and host row pitch", "[images]") {
  Env env;
  REQUIRE_IMAGES(env);
  const size_t w = 16, h = 16;
  std::vector<cl_uchar> zeros(w * h * 4, 0);
  auto img = make_image(env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE2D, w, h),
                        zeros.data());
  // A 4x3 block written from a host array with rows of 6 pixels.
  const size_t host_row = 6 * 4;
  auto block = pattern_bytes(host_row * 3, 5);
  std::array<size_t, 3> origin{3, 5, 0}, region{4, 3, 1};
  REQUIRE_CL(clEnqueueWriteImage(env.queue(), img(), CL_TRUE, origin.data(), region.data(), host_row, 0, block.data(),
                                 0, nullptr, nullptr),
             CL_SUCCESS);
  std::vector<cl_uchar> all(w * h * 4);
  std::array<size_t, 3> zero{0, 0, 0}, whole{w, h, 1};
  REQUIRE_CL(clEnqueueReadImage(env.queue(), img(), CL_TRUE, zero.data(), whole.data(), 0, 0, all.data(), 0, nullptr,
                                nullptr),
             CL_SUCCESS);
  size_t wrong = 0;
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x)
      for (size_t c = 0; c < 4; ++c) {
        bool inside = x >= 3 && x < 7 && y >= 5 && y < 8;
        cl_uchar expect = inside ? block[(y - 5) * host_row + (x - 3) * 4 + c] : 0;
        wrong += all[(y * w + x) * 4 + c] != expect;
      }
  CHECK(wrong == 0);
}

TEST_CASE("images: 3D write and read round trip", "[images]") {
  Env env;
  REQUIRE_IMAGES(env);
  const size_t w = 8, h = 4, d = 4;
  auto img = make_image(env, CL_MEM_READ_WRITE, kR32, desc_of(CL_MEM_OBJECT_IMAGE3D, w, h, d));
  auto data = pattern_bytes(w * h * d * 4, 1);
  std::array<size_t, 3> origin{0, 0, 0}, region{w, h, d};
  REQUIRE_CL(clEnqueueWriteImage(env.queue(), img(), CL_TRUE, origin.data(), region.data(), 0, 0, data.data(), 0,
                                 nullptr, nullptr),
             CL_SUCCESS);
  // One slice read back alone.
  std::vector<cl_uchar> slice(w * h * 4);
  std::array<size_t, 3> at{0, 0, 2}, one{w, h, 1};
  REQUIRE_CL(clEnqueueReadImage(env.queue(), img(), CL_TRUE, at.data(), one.data(), 0, 0, slice.data(), 0, nullptr,
                                nullptr),
             CL_SUCCESS);
  CHECK_SAME_BYTES(slice, std::vector<cl_uchar>(data.begin() + 2 * w * h * 4, data.begin() + 3 * w * h * 4));
}

TEST_CASE("images: 2D array write and read one layer", "[images]") {
  Env env;
  REQUIRE_IMAGES(env);
  const size_t w = 8, h = 8, layers = 3;
  auto img = make_image(env, CL_MEM_READ_WRITE, kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, w, h, 0, layers));
  CHECK(image_scalar<size_t>(img, CL_IMAGE_ARRAY_SIZE) == layers);
  auto data = pattern_bytes(w * h * 4 * layers, 2);
  std::array<size_t, 3> origin{0, 0, 0}, region{w, h, layers};
  REQUIRE_CL(clEnqueueWriteImage(env.queue(), img(), CL_TRUE, origin.data(), region.data(), 0, 0, data.data(), 0,
                                 nullptr, nullptr),
             CL_SUCCESS);
  std::vector<cl_uchar> layer(w * h * 4);
  std::array<size_t, 3> at{0, 0, 1}, one{w, h, 1};
  REQUIRE_CL(clEnqueueReadImage(env.queue(), img(), CL_TRUE, at.data(), one.data(), 0, 0, layer.data(), 0, nullptr,
                                nullptr),
             CL_SUCCESS);
  CHECK_SAME_BYTES(layer, std::vector<cl_uchar>(data.begin() + w * h * 4, data.begin() + 2 * w * h * 4));
}

TEST_CASE("images: 1D and 1D array round trips", "[images]") {
  Env env;
  REQUIRE_IMAGES(env);
  const size_t w = 32;
  auto one = make_image(env, CL_MEM_READ_WRITE, kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE1D, w));
  auto data = pattern_bytes(w * 4, 3);
  std::array<size_t, 3> origin{0, 0, 0}, region{w, 1, 1};
  REQUIRE_CL(clEnqueueWriteImage(env.queue(), one(), CL_TRUE, origin.data(), region.data(), 0, 0, data.data(), 0,
                                 nullptr, nullptr),
             CL_SUCCESS);
  std::vector<cl_uchar> back(data.size());
  REQUIRE_CL(clEnqueueReadImage(env.queue(), one(), CL_TRUE, origin.data(), region.data(), 0, 0, back.data(), 0,
                                nullptr, nullptr),
             CL_SUCCESS);
  CHECK_SAME_BYTES(back, data);

  auto array = make_image(env, CL_MEM_READ_WRITE, kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE1D_ARRAY, w, 0, 0, 2));
  auto rows = pattern_bytes(w * 4 * 2, 4);
  std::array<size_t, 3> both{w, 2, 1};
  REQUIRE_CL(clEnqueueWriteImage(env.queue(), array(), CL_TRUE, origin.data(), both.data(), 0, 0, rows.data(), 0,
                                 nullptr, nullptr),
             CL_SUCCESS);
  std::array<size_t, 3> second{0, 1, 0};
  REQUIRE_CL(clEnqueueReadImage(env.queue(), array(), CL_TRUE, second.data(), region.data(), 0, 0, back.data(), 0,
                                nullptr, nullptr),
             CL_SUCCESS);
  CHECK_SAME_BYTES(back, std::vector<cl_uchar>(rows.begin() + w * 4, rows.end()));
}

TEST_CASE("images: a 1D image buffer shares its buffer's storage", "[images]") {
  Env env;
  REQUIRE_IMAGES(env);
  const size_t w = 64;
  auto data = pattern_bytes(w * 4, 6);
  cl::Buffer buffer(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size(), data.data());
  auto desc = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, w);
  desc.buffer = buffer();
  auto img = make_image(env, CL_MEM_READ_WRITE, kRGBA8, desc);
  CHECK(image_scalar<cl_mem>(img, CL_IMAGE_BUFFER) == buffer());
  // "the mem_object specified in cl_image_desc", as for a sub-buffer's parent.
  CHECK(mem_scalar<cl_mem>(img, CL_MEM_ASSOCIATED_MEMOBJECT) == buffer());
  std::vector<cl_uchar> back(data.size());
  std::array<size_t, 3> origin{0, 0, 0}, region{w, 1, 1};
  REQUIRE_CL(clEnqueueReadImage(env.queue(), img(), CL_TRUE, origin.data(), region.data(), 0, 0, back.data(), 0,
                                nullptr, nullptr),
             CL_SUCCESS);
  CHECK_SAME_BYTES(back, data);
}

TEST_CASE("images: image info", "[images][oclgrind]") {
  Env env;
  REQUIRE_IMAGES(env);
  auto img = make_image(env, CL_MEM_READ_ONLY, kRGBAFloat, desc_of(CL_MEM_OBJECT_IMAGE2D, 12, 5));
  auto f = image_scalar<cl_image_format>(img, CL_IMAGE_FORMAT);
  CHECK(f.image_channel_order == CL_RGBA);
  CHECK(f.image_channel_data_type == CL_FLOAT);
  CHECK(image_scalar<size_t>(img, CL_IMAGE_ELEMENT_SIZE) == 16);
  CHECK(image_scalar<size_t>(img, CL_IMAGE_WIDTH) == 12);
  CHECK(image_scalar<size_t>(img, CL_IMAGE_HEIGHT) == 5);
  CHECK(image_scalar<size_t>(img, CL_IMAGE_DEPTH) == 0);
  CHECK(image_scalar<cl_mem>(img, CL_IMAGE_BUFFER) == nullptr);
  CHECK(mem_scalar<cl_mem>(img, CL_MEM_ASSOCIATED_MEMOBJECT) == nullptr);
  CHECK(image_scalar<cl_uint>(img, CL_IMAGE_NUM_MIP_LEVELS) == 0);
  CHECK(image_scalar<cl_uint>(img, CL_IMAGE_NUM_SAMPLES) == 0);
  cl_mem_object_type type = 0;
  REQUIRE_CL(clGetMemObjectInfo(img(), CL_MEM_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  CHECK(type == CL_MEM_OBJECT_IMAGE2D);
  auto vol = make_image(env, CL_MEM_READ_ONLY, kR32, desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 3));
  CHECK(image_scalar<size_t>(vol, CL_IMAGE_DEPTH) == 3);
}

TEST_CASE("images: copy between images with offsets", "[images][oclgrind]") {
  Env env;
  REQUIRE_IMAGES(env);
  const size_t w = 8, h = 8;
  auto data = pattern_bytes(w * h * 4, 8);
  std::vector<cl_uchar> zeros(w * h * 4, 0);
  auto src = make_image(env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE2D, w, h),
                        data.data());
  auto dst = make_image(env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE2D, w, h),
                        zeros.data());
  std::array<size_t, 3> from{1, 2, 0}, to{4, 4, 0}, region{3, 2, 1};
  REQUIRE_CL(clEnqueueCopyImage(env.queue(), src(), dst(), from.data(), to.data(), region.data(), 0, nullptr, nullptr),
             CL_SUCCESS);
  std::vector<cl_uchar> back(w * h * 4);
  std::array<size_t, 3> zero{0, 0, 0}, whole{w, h, 1};
  REQUIRE_CL(clEnqueueReadImage(env.queue(), dst(), CL_TRUE, zero.data(), whole.data(), 0, 0, back.data(), 0, nullptr,
                                nullptr),
             CL_SUCCESS);
  size_t wrong = 0;
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x)
      for (size_t c = 0; c < 4; ++c) {
        bool inside = x >= 4 && x < 7 && y >= 4 && y < 6;
        cl_uchar expect = inside ? data[((y - 2) * w + (x - 3)) * 4 + c] : 0;
        wrong += back[(y * w + x) * 4 + c] != expect;
      }
  CHECK(wrong == 0);
}

TEST_CASE("images: copy image to buffer and back", "[images]") {
  Env env;
  REQUIRE_IMAGES(env);
  const size_t w = 8, h = 4;
  auto data = pattern_bytes(w * h * 4, 9);
  auto img = make_image(env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE2D, w, h),
                        data.data());
  cl::Buffer buffer(env.context, CL_MEM_READ_WRITE, 16 + data.size());
  std::array<size_t, 3> zero{0, 0, 0}, whole{w, h, 1};
  REQUIRE_CL(clEnqueueCopyImageToBuffer(env.queue(), img(), buffer(), zero.data(), whole.data(), 16, 0, nullptr,
                                        nullptr),
             CL_SUCCESS);
  std::vector<cl_uchar> back(data.size());
  env.queue.enqueueReadBuffer(buffer, CL_TRUE, 16, back.size(), back.data());
  CHECK_SAME_BYTES(back, data);
  // And into a second image from the buffer.
  auto other = make_image(env, CL_MEM_READ_WRITE, kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE2D, w, h));
  REQUIRE_CL(clEnqueueCopyBufferToImage(env.queue(), buffer(), other(), 16, zero.data(), whole.data(), 0, nullptr,
                                        nullptr),
             CL_SUCCESS);
  std::fill(back.begin(), back.end(), 0);
  REQUIRE_CL(clEnqueueReadImage(env.queue(), other(), CL_TRUE, zero.data(), whole.data(), 0, 0, back.data(), 0,
                                nullptr, nullptr),
             CL_SUCCESS);
  CHECK_SAME_BYTES(back, data);
}

TEST_CASE("images: fill float, signed and unsigned images", "[images]") {
  Env env;
  REQUIRE_IMAGES(env);
  const size_t w = 4, h = 4;
  std::array<size_t, 3> zero{0, 0, 0}, region{w, h, 1}, part{2, 2, 1};
  SECTION("float") {
    auto img = make_image(env, CL_MEM_READ_WRITE, kRGBAFloat, desc_of(CL_MEM_OBJECT_IMAGE2D, w, h));
    cl_float4 color{{0.25f, 0.5f, 0.75f, 1.0f}};
    REQUIRE_CL(clEnqueueFillImage(env.queue(), img(), &color, zero.data(), region.data(), 0, nullptr, nullptr),
               CL_SUCCESS);
    std::vector<cl_float> back(w * h * 4);
    REQUIRE_CL(clEnqueueReadImage(env.queue(), img(), CL_TRUE, zero.data(), region.data(), 0, 0, back.data(), 0,
                                  nullptr, nullptr),
               CL_SUCCESS);
    for (size_t i = 0; i < back.size(); ++i) CHECK(back[i] == color.s[i % 4]);
  }
  SECTION("signed") {
    auto img = make_image(env, CL_MEM_READ_WRITE, cl_image_format{CL_RGBA, CL_SIGNED_INT32},
                          desc_of(CL_MEM_OBJECT_IMAGE2D, w, h));
    cl_int4 color{{-1, 2, -3, 4}};
    REQUIRE_CL(clEnqueueFillImage(env.queue(), img(), &color, zero.data(), region.data(), 0, nullptr, nullptr),
               CL_SUCCESS);
    std::vector<cl_int> back(w * h * 4);
    REQUIRE_CL(clEnqueueReadImage(env.queue(), img(), CL_TRUE, zero.data(), region.data(), 0, 0, back.data(), 0,
                                  nullptr, nullptr),
               CL_SUCCESS);
    for (size_t i = 0; i < back.size(); ++i) CHECK(back[i] == color.s[i % 4]);
  }
  SECTION("unsigned region") {
    std::vector<cl_uchar> zeros(w * h * 4, 0);
    auto img = make_image(env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE2D, w, h),
                          zeros.data());
    cl_uint4 color{{10, 20, 30, 40}};
    std::array<size_t, 3> at{1, 1, 0};
    REQUIRE_CL(clEnqueueFillImage(env.queue(), img(), &color, at.data(), part.data(), 0, nullptr, nullptr), CL_SUCCESS);
    std::vector<cl_uchar> back(w * h * 4);
    REQUIRE_CL(clEnqueueReadImage(env.queue(), img(), CL_TRUE, zero.data(), region.data(), 0, 0, back.data(), 0,
                                  nullptr, nullptr),
               CL_SUCCESS);
    for (size_t y = 0; y < h; ++y)
      for (size_t x = 0; x < w; ++x)
        for (size_t c = 0; c < 4; ++c) {
          bool inside = x >= 1 && x < 3 && y >= 1 && y < 3;
          CHECK(back[(y * w + x) * 4 + c] == (inside ? color.s[c] : 0));
        }
  }
}

TEST_CASE("images: map for reading and for writing", "[images][map]") {
  Env env;
  REQUIRE_IMAGES(env);
  const size_t w = 8, h = 4;
  auto data = pattern_bytes(w * h * 4, 10);
  auto img = make_image(env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE2D, w, h),
                        data.data());
  std::array<size_t, 3> origin{2, 1, 0}, region{4, 2, 1};
  size_t row_pitch = 0;
  cl_int err;
  auto *p = static_cast<cl_uchar *>(clEnqueueMapImage(env.queue(), img(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                                      origin.data(), region.data(), &row_pitch, nullptr, 0, nullptr,
                                                      nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  REQUIRE(row_pitch >= 4 * 4);
  size_t wrong = 0;
  for (size_t y = 0; y < 2; ++y)
    for (size_t x = 0; x < 4 * 4; ++x) wrong += p[y * row_pitch + x] != data[(y + 1) * w * 4 + 2 * 4 + x];
  CHECK(wrong == 0);
  p[0] = 0xee;  // pixel (2, 1), red
  cl_uint count = 0;
  REQUIRE_CL(clGetMemObjectInfo(img(), CL_MEM_MAP_COUNT, sizeof count, &count, nullptr), CL_SUCCESS);
  CHECK(count == 1);
  REQUIRE_CL(clEnqueueUnmapMemObject(env.queue(), img(), p, 0, nullptr, nullptr), CL_SUCCESS);
  cl_uchar pixel[4] = {};
  std::array<size_t, 3> one{1, 1, 1};
  REQUIRE_CL(clEnqueueReadImage(env.queue(), img(), CL_TRUE, origin.data(), one.data(), 0, 0, pixel, 0, nullptr,
                                nullptr),
             CL_SUCCESS);
  CHECK(pixel[0] == 0xee);
  CHECK(pixel[1] == data[(1 * w + 2) * 4 + 1]);
}

TEST_CASE("images: map of a 3D image reports a slice pitch", "[images][map]") {
  Env env;
  REQUIRE_IMAGES(env);
  auto img = make_image(env, CL_MEM_READ_WRITE, kR32, desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4));
  std::array<size_t, 3> origin{0, 0, 0}, region{4, 4, 4};
  size_t row = 0, slice = 0;
  cl_int err;
  void *p = clEnqueueMapImage(env.queue(), img(), CL_TRUE, CL_MAP_WRITE, origin.data(), region.data(), &row, &slice, 0,
                              nullptr, nullptr, &err);
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK(row >= 16);
  CHECK(slice >= 4 * row);
  REQUIRE_CL(clEnqueueUnmapMemObject(env.queue(), img(), p, 0, nullptr, nullptr), CL_SUCCESS);
  // A 3D map without slice_pitch is an error.
  p = clEnqueueMapImage(env.queue(), img(), CL_TRUE, CL_MAP_READ, origin.data(), region.data(), &row, nullptr, 0,
                        nullptr, nullptr, &err);
  CHECK(p == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
  env.queue.finish();
}

TEST_CASE("images: sampler info", "[images][samplers][oclgrind]") {
  Env env;
  REQUIRE_IMAGES(env);
  cl_int err;
  auto s = adopt<cl::Sampler>(clCreateSampler(env.context(), CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  auto info = [&](cl_sampler_info param, auto v) {
    REQUIRE_CL(clGetSamplerInfo(s(), param, sizeof v, &v, nullptr), CL_SUCCESS);
    return v;
  };
  CHECK(info(CL_SAMPLER_NORMALIZED_COORDS, cl_bool{}) == CL_TRUE);
  CHECK(info(CL_SAMPLER_ADDRESSING_MODE, cl_addressing_mode{}) == CL_ADDRESS_REPEAT);
  CHECK(info(CL_SAMPLER_FILTER_MODE, cl_filter_mode{}) == CL_FILTER_LINEAR);
  CHECK(info(CL_SAMPLER_CONTEXT, cl_context{}) == env.context());
  CHECK(info(CL_SAMPLER_REFERENCE_COUNT, cl_uint{}) == 1);
  REQUIRE_CL(clRetainSampler(s()), CL_SUCCESS);
  CHECK(info(CL_SAMPLER_REFERENCE_COUNT, cl_uint{}) == 2);
  REQUIRE_CL(clReleaseSampler(s()), CL_SUCCESS);
  cl_uint n;
  CHECK_CL(clGetSamplerInfo(s(), 0x7fffu, sizeof n, &n, nullptr), CL_INVALID_VALUE);
  CHECK_CL(clGetSamplerInfo(nullptr, CL_SAMPLER_REFERENCE_COUNT, sizeof n, &n, nullptr), CL_INVALID_SAMPLER);
}

TEST_CASE("images: sampler with a properties list", "[images][samplers]") {
  Env env;
  REQUIRE_IMAGES(env);
  if (platform_version() < 200) return;
  cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0};
  cl_int err;
  auto s = adopt<cl::Sampler>(clCreateSamplerWithProperties(env.context(), props, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  cl_addressing_mode mode = 0;
  REQUIRE_CL(clGetSamplerInfo(s(), CL_SAMPLER_ADDRESSING_MODE, sizeof mode, &mode, nullptr), CL_SUCCESS);
  CHECK(mode == CL_ADDRESS_CLAMP);  // the default
  if (platform_version() >= 300) {
    size_t n = 0;
    REQUIRE_CL(clGetSamplerInfo(s(), CL_SAMPLER_PROPERTIES, 0, nullptr, &n), CL_SUCCESS);
    CHECK(n == sizeof props);
  }
  cl_sampler_properties unknown[] = {0x7fff, 1, 0};
  auto bad = adopt<cl::Sampler>(clCreateSamplerWithProperties(env.context(), unknown, &err));
  CHECK(bad() == nullptr);
  CHECK_CL(err, CL_INVALID_VALUE);
}

TEST_CASE("images: a kernel reads through a sampler", "[images][samplers][kernels][oclgrind]") {
  Env env;
  REQUIRE_IMAGES(env);
  const size_t w = 4, h = 4;
  std::vector<cl_uint> texels(w * h * 4);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<cl_uint>(i);
  auto img = make_image(env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, cl_image_format{CL_RGBA, CL_UNSIGNED_INT32},
                        desc_of(CL_MEM_OBJECT_IMAGE2D, w, h), texels.data());
  cl_int err;
  auto sampler = adopt<cl::Sampler>(
      clCreateSampler(env.context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  auto program = build(env.context,
                       "kernel void fetch(read_only image2d_t img, sampler_t s, global uint4 *out) {"
                       "  int i = get_global_id(0);"
                       "  out[i] = read_imageui(img, s, (int2)(i - 1, 1)); }");
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, 6 * sizeof(cl_uint4));
  cl::Kernel k(program, "fetch");
  k.setArg(0, img);
  k.setArg(1, sampler);
  k.setArg(2, out);
  env.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(6));
  std::vector<cl_uint4> back(6);
  env.queue.enqueueReadBuffer(out, CL_TRUE, 0, back.size() * sizeof(cl_uint4), back.data());
  // x = -1 and x = 4 clamp to the edge pixels of row 1.
  for (int i = 0; i < 6; ++i) {
    int x = std::clamp(i - 1, 0, 3);
    for (int c = 0; c < 4; ++c) CHECK(back[i].s[c] == texels[(1 * w + x) * 4 + c]);
  }
}

TEST_CASE("images: a kernel with a program-scope sampler writes an image", "[images][samplers][kernels]") {
  Env env;
  REQUIRE_IMAGES(env);
  const size_t w = 8, h = 8;
  auto src = make_image(env, CL_MEM_READ_ONLY, kRGBAFloat, desc_of(CL_MEM_OBJECT_IMAGE2D, w, h));
  auto dst = make_image(env, CL_MEM_WRITE_ONLY, kRGBAFloat, desc_of(CL_MEM_OBJECT_IMAGE2D, w, h));
  std::vector<cl_float> pixels(w * h * 4);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<float>(i) * 0.5f;
  std::array<size_t, 3> zero{0, 0, 0}, whole{w, h, 1};
  REQUIRE_CL(clEnqueueWriteImage(env.queue(), src(), CL_FALSE, zero.data(), whole.data(), 0, 0, pixels.data(), 0,
                                 nullptr, nullptr),
             CL_SUCCESS);
  auto program = build(env.context,
                       "constant sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;"
                       "kernel void twice(read_only image2d_t in, write_only image2d_t out) {"
                       "  int2 p = (int2)(get_global_id(0), get_global_id(1));"
                       "  write_imagef(out, p, 2.0f * read_imagef(in, s, p)); }");
  cl::Kernel k(program, "twice");
  k.setArg(0, src);
  k.setArg(1, dst);
  env.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(w, h));
  std::vector<cl_float> back(pixels.size());
  REQUIRE_CL(clEnqueueReadImage(env.queue(), dst(), CL_TRUE, zero.data(), whole.data(), 0, 0, back.data(), 0, nullptr,
                                nullptr),
             CL_SUCCESS);
  size_t wrong = 0;
  for (size_t i = 0; i < back.size(); ++i) wrong += back[i] != 2.0f * pixels[i];
  CHECK(wrong == 0);
}

TEST_CASE("images: a kernel reads a 3D image and a 2D array", "[images][kernels]") {
  Env env;
  REQUIRE_IMAGES(env);
  std::vector<cl_uint> vol(4 * 4 * 4), layers(4 * 4 * 2);
  for (size_t i = 0; i < vol.size(); ++i) vol[i] = static_cast<cl_uint>(i);
  for (size_t i = 0; i < layers.size(); ++i) layers[i] = static_cast<cl_uint>(1000 + i);
  auto v = make_image(env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kR32, desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4),
                      vol.data());
  auto a = make_image(env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kR32,
                      desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, 2), layers.data());
  auto program = build(env.context,
                       "constant sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;"
                       "kernel void pick(read_only image3d_t v, read_only image2d_array_t a, global uint *out) {"
                       "  out[0] = read_imageui(v, s, (int4)(1, 2, 3, 0)).x;"
                       "  out[1] = read_imageui(a, s, (int4)(3, 1, 1, 0)).x; }");
  cl::Buffer out(env.context, CL_MEM_WRITE_ONLY, 2 * sizeof(cl_uint));
  cl::Kernel k(program, "pick");
  k.setArg(0, v);
  k.setArg(1, a);
  k.setArg(2, out);
  env.queue.enqueueTask(k);
  cl_uint back[2] = {};
  env.queue.enqueueReadBuffer(out, CL_TRUE, 0, sizeof back, back);
  CHECK(back[0] == vol[3 * 16 + 2 * 4 + 1]);
  CHECK(back[1] == layers[1 * 16 + 1 * 4 + 3]);
}

TEST_CASE("images: legacy 2D and 3D creation calls", "[images]") {
  Env env;
  REQUIRE_IMAGES(env);
  cl_int err;
  auto two = adopt<cl::Memory>(clCreateImage2D(env.context(), CL_MEM_READ_WRITE, &kRGBA8, 16, 16, 0, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK(image_scalar<size_t>(two, CL_IMAGE_WIDTH) == 16);
  auto three =
      adopt<cl::Memory>(clCreateImage3D(env.context(), CL_MEM_READ_ONLY, &kR32, 4, 4, 2, 0, 0, nullptr, &err));
  REQUIRE_CL(err, CL_SUCCESS);
  CHECK(image_scalar<size_t>(three, CL_IMAGE_DEPTH) == 2);
}

TEST_CASE("images: creation errors", "[images][errors]") {
  Env env;
  REQUIRE_IMAGES(env);
  cl_int err = CL_SUCCESS;
  auto desc = desc_of(CL_MEM_OBJECT_IMAGE2D, 8, 8);
  auto attempt = [&](const cl_image_format *f, const cl_image_desc *d, cl_mem_flags flags = CL_MEM_READ_WRITE,
                     void *host = nullptr) {
    return adopt<cl::Memory>(clCreateImage(env.context(), flags, f, d, host, &err));
  };
  SECTION("null format") {
    CHECK(attempt(nullptr, &desc)() == nullptr);
    CHECK_CL(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  }
  SECTION("null descriptor") {
    CHECK(attempt(&kRGBA8, nullptr)() == nullptr);
    CHECK_CL(err, CL_INVALID_IMAGE_DESCRIPTOR);
  }
  SECTION("host pointer without a host pointer flag") {
    std::vector<cl_uchar> host(8 * 8 * 4);
    CHECK(attempt(&kRGBA8, &desc, CL_MEM_READ_WRITE, host.data())() == nullptr);
    CHECK_CL(err, CL_INVALID_HOST_PTR);
  }
  SECTION("USE_HOST_PTR without a pointer") {
    CHECK(attempt(&kRGBA8, &desc, CL_MEM_USE_HOST_PTR)() == nullptr);
    CHECK_CL(err, CL_INVALID_HOST_PTR);
  }
  SECTION("conflicting access flags") {
    CHECK(attempt(&kRGBA8, &desc, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY)() == nullptr);
    CHECK_CL(err, CL_INVALID_VALUE);
  }
}

// PoCL answers these with CL_INVALID_OPERATION, CL_INVALID_BUFFER_SIZE or
// CL_INVALID_VALUE; UniCL checks descriptors itself and gives the
// specification's codes whatever the vendor.
TEST_CASE("images: invalid formats and descriptors get the specification's codes", "[images][errors][unicl]") {
  Env env;
  REQUIRE_IMAGES(env);
  cl_int err = CL_SUCCESS;
  auto attempt = [&](const cl_image_format &f, const cl_image_desc &d) {
    return adopt<cl::Memory>(clCreateImage(env.context(), CL_MEM_READ_WRITE, &f, &d, nullptr, &err));
  };
  SECTION("unknown channel order") {
    CHECK(attempt(cl_image_format{0x7fff, CL_UNORM_INT8}, desc_of(CL_MEM_OBJECT_IMAGE2D, 8, 8))() == nullptr);
    CHECK_CL(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  }
  SECTION("zero width") {
    CHECK(attempt(kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE2D, 0, 8))() == nullptr);
    CHECK_CL(err, CL_INVALID_IMAGE_DESCRIPTOR);
  }
  SECTION("zero depth of a 3D image") {
    CHECK(attempt(kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 0))() == nullptr);
    CHECK_CL(err, CL_INVALID_IMAGE_DESCRIPTOR);
  }
  SECTION("not an image type") {
    CHECK(attempt(kRGBA8, desc_of(CL_MEM_OBJECT_BUFFER, 8, 8))() == nullptr);
    CHECK_CL(err, CL_INVALID_IMAGE_DESCRIPTOR);
  }
  SECTION("a row pitch without a host pointer") {
    auto d = desc_of(CL_MEM_OBJECT_IMAGE2D, 8, 8);
    d.image_row_pitch = 64;
    CHECK(attempt(kRGBA8, d)() == nullptr);
    CHECK_CL(err, CL_INVALID_IMAGE_DESCRIPTOR);
  }
  SECTION("a 1D image buffer without a buffer") {
    CHECK(attempt(kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 8))() == nullptr);
    CHECK_CL(err, CL_INVALID_IMAGE_DESCRIPTOR);
  }
  SECTION("wider than the device allows") {
    auto wide = desc_of(CL_MEM_OBJECT_IMAGE2D, env.device.getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>() + 1, 1);
    CHECK(attempt(kRGBA8, wide)() == nullptr);
    CHECK_CL(err, CL_INVALID_IMAGE_SIZE);
  }
  SECTION("legacy creation with a zero size") {
    auto img = adopt<cl::Memory>(clCreateImage2D(env.context(), CL_MEM_READ_WRITE, &kRGBA8, 0, 8, 0, nullptr, &err));
    CHECK(img() == nullptr);
    CHECK_CL(err, CL_INVALID_IMAGE_SIZE);
  }
  SECTION("image info of a buffer") {
    cl::Buffer buffer(env.context, CL_MEM_READ_WRITE, 64);
    size_t size = 0;
    CHECK_CL(clGetImageInfo(buffer(), CL_IMAGE_WIDTH, sizeof size, &size, nullptr), CL_INVALID_MEM_OBJECT);
  }
}

TEST_CASE("images: transfer errors", "[images][errors]") {
  Env env;
  REQUIRE_IMAGES(env);
  auto img = make_image(env, CL_MEM_READ_WRITE, kRGBA8, desc_of(CL_MEM_OBJECT_IMAGE2D, 8, 8));
  cl::Buffer buffer(env.context, CL_MEM_READ_WRITE, 1024);
  std::vector<cl_uchar> host(8 * 8 * 4 * 2);
  std::array<size_t, 3> origin{0, 0, 0}, too_big{9, 8, 1}, bad_depth{8, 8, 2}, ok{8, 8, 1};
  CHECK_CL(clEnqueueReadImage(env.queue(), img(), CL_TRUE, origin.data(), too_big.data(), 0, 0, host.data(), 0,
                              nullptr, nullptr),
           CL_INVALID_VALUE);
  CHECK_CL(clEnqueueReadImage(env.queue(), img(), CL_TRUE, origin.data(), bad_depth.data(), 0, 0, host.data(), 0,
                              nullptr, nullptr),
           CL_INVALID_VALUE);
  CHECK_CL(clEnqueueReadImage(env.queue(), img(), CL_TRUE, origin.data(), ok.data(), 0, 0, nullptr, 0, nullptr,
                              nullptr),
           CL_INVALID_VALUE);
  // A buffer is not an image.
  CHECK_CL(clEnqueueReadImage(env.queue(), buffer(), CL_TRUE, origin.data(), ok.data(), 0, 0, host.data(), 0, nullptr,
                              nullptr),
           CL_INVALID_MEM_OBJECT);
  // Copies between images of different formats.
  auto floats = make_image(env, CL_MEM_READ_WRITE, kRGBAFloat, desc_of(CL_MEM_OBJECT_IMAGE2D, 8, 8));
  std::array<size_t, 3> small{2, 2, 1};
  CHECK_CL(clEnqueueCopyImage(env.queue(), img(), floats(), origin.data(), origin.data(), small.data(), 0, nullptr,
                              nullptr),
           CL_IMAGE_FORMAT_MISMATCH);
}

// oclgrind reports the pitches the application passed (0) instead of the
// pitches in effect; UniCL answers with the latter on every vendor.
TEST_CASE("images: row and slice pitches are the ones in effect", "[images][oclgrind-unicl]") {
  Env env;
  REQUIRE_IMAGES(env);
  auto img = make_image(env, CL_MEM_READ_ONLY, kRGBAFloat, desc_of(CL_MEM_OBJECT_IMAGE2D, 12, 5));
  CHECK(image_scalar<size_t>(img, CL_IMAGE_ROW_PITCH) >= 12 * 16);
  CHECK(image_scalar<size_t>(img, CL_IMAGE_SLICE_PITCH) == 0);
  auto vol = make_image(env, CL_MEM_READ_ONLY, kR32, desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 3));
  CHECK(image_scalar<size_t>(vol, CL_IMAGE_SLICE_PITCH) >= 4 * 4 * 4);
}
