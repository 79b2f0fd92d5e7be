#include "pocl_bridge.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>

namespace sim::pocl {
namespace {

// PoCL's dispatch table, read from the first word of any of its objects.
template <class H>
const cl_icd_dispatch &d(H h) {
  return **reinterpret_cast<cl_icd_dispatch *const *>(h);
}

// Owning references to PoCL objects, stored type-erased in the simulator's
// objects (so objects.hpp needs nothing from here).
std::shared_ptr<void> own(cl_mem m) {
  return {m, [](void *p) { d(static_cast<cl_mem>(p)).clReleaseMemObject(static_cast<cl_mem>(p)); }};
}
std::shared_ptr<void> own(cl_program p) {
  return {p, [](void *q) { d(static_cast<cl_program>(q)).clReleaseProgram(static_cast<cl_program>(q)); }};
}
std::shared_ptr<void> own(cl_kernel k) {
  return {k, [](void *q) { d(static_cast<cl_kernel>(q)).clReleaseKernel(static_cast<cl_kernel>(q)); }};
}

// The libraries the .icd files name: UNICL_SIM_POCL_VENDORS is a folder of
// .icd files (read in name order, like the loaders) or one .icd file.
std::vector<std::string> icd_libraries() {
  const char *env = std::getenv("UNICL_SIM_POCL_VENDORS");
  std::string where = env && *env ? env : "/etc/OpenCL/vendors";
  std::vector<std::string> files;
  struct stat st {};
  if (stat(where.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    if (DIR *dir = opendir(where.c_str())) {
      while (dirent *e = readdir(dir)) {
        std::string name = e->d_name;
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".icd") == 0) files.push_back(where + "/" + name);
      }
      closedir(dir);
    }
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(where);
  }
  std::vector<std::string> libs;
  for (const auto &f : files) {
    std::ifstream in(f);
    std::string line;
    std::getline(in, line);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    if (!line.empty()) libs.push_back(line);
  }
  return libs;
}

struct Pocl {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
};

// PoCL's platform, device, a context and an in-order queue; never released
// (like the simulator's own platform). Null members when PoCL is missing.
Pocl open_pocl() {
  using IcdGetPlatforms = cl_int(CL_API_CALL *)(cl_uint, cl_platform_id *, cl_uint *);
  using GetAddress = void *(CL_API_CALL *)(const char *);
  for (const auto &lib : icd_libraries()) {
    void *handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);  // kept loaded, as loaders do
    if (!handle) continue;
    // As the loaders do: PoCL exports clIcdGetPlatformIDsKHR only under
    // another name, and hands it out through clGetExtensionFunctionAddress.
    auto get_platforms = reinterpret_cast<IcdGetPlatforms>(dlsym(handle, "clIcdGetPlatformIDsKHR"));
    if (auto get_address = reinterpret_cast<GetAddress>(dlsym(handle, "clGetExtensionFunctionAddress")); !get_platforms && get_address)
      get_platforms = reinterpret_cast<IcdGetPlatforms>(get_address("clIcdGetPlatformIDsKHR"));
    cl_uint n = 0;
    if (!get_platforms || get_platforms(0, nullptr, &n) != CL_SUCCESS || n == 0) continue;
    std::vector<cl_platform_id> platforms(n);
    get_platforms(n, platforms.data(), nullptr);
    for (cl_platform_id p : platforms) {
      char name[256] = {};
      if (d(p).clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr) != CL_SUCCESS) continue;
      if (std::string(name).find("Portable Computing Language") == std::string::npos) continue;
      Pocl result;
      cl_int err = d(p).clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &result.device, nullptr);
      if (err != CL_SUCCESS) continue;
      cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(p), 0};
      result.context = d(p).clCreateContext(props, 1, &result.device, nullptr, nullptr, &err);
      if (err != CL_SUCCESS) continue;
      result.queue = d(p).clCreateCommandQueue(result.context, result.device, 0, &err);
      if (err == CL_SUCCESS) return result;
    }
  }
  std::fprintf(stderr, "unicl-sim: correctness mode: no PoCL platform found (UNICL_SIM_POCL_VENDORS)\n");
  return {};
}

// Serializes every use of PoCL: the cached PoCL objects below (programs,
// kernels with their arguments, buffer wrappers) are shared by all
// simulated devices, and PoCL runs one kernel at a time on its device anyway.
std::mutex bridge_mutex;

cl_program program_for(Program &sp, const Pocl &pocl) {
  std::lock_guard lock(sp.mutex);
  if (sp.pocl) return static_cast<cl_program>(sp.pocl.get());
  const char *text = sp.source.c_str();
  cl_int err = CL_SUCCESS;
  cl_program p = d(pocl.context).clCreateProgramWithSource(pocl.context, 1, &text, nullptr, &err);
  if (err != CL_SUCCESS) return nullptr;
  auto owned = own(p);
  if (d(p).clBuildProgram(p, 1, &pocl.device, sp.options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    size_t n = 0;
    d(p).clGetProgramBuildInfo(p, pocl.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    d(p).clGetProgramBuildInfo(p, pocl.device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    std::fprintf(stderr, "unicl-sim: PoCL cannot build the program:\n%s\n", log.c_str());
    return nullptr;
  }
  sp.pocl = owned;
  return p;
}

cl_kernel kernel_for(Kernel &sk, const Pocl &pocl) {
  if (sk.pocl) return static_cast<cl_kernel>(sk.pocl.get());
  cl_program p = program_for(*sk.program, pocl);
  if (!p) return nullptr;
  cl_int err = CL_SUCCESS;
  cl_kernel k = d(p).clCreateKernel(p, sk.signature->name.c_str(), &err);
  if (err != CL_SUCCESS) return nullptr;
  sk.pocl = own(k);
  return k;
}

// PoCL's view of a simulated buffer: a buffer over the same bytes (for a
// sub-buffer, from its offset on), so results land in the simulated memory.
cl_mem buffer_for(Memory &sm, const Pocl &pocl) {
  if (sm.pocl) return static_cast<cl_mem>(sm.pocl.get());
  cl_int err = CL_SUCCESS;
  cl_mem m = d(pocl.context).clCreateBuffer(pocl.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sm.size, sm.data,
                                            &err);
  if (err != CL_SUCCESS) return nullptr;
  sm.pocl = own(m);
  return m;
}

}  // namespace

cl_int run(const Launch &l) {
  std::lock_guard lock(bridge_mutex);
  static const Pocl pocl = open_pocl();
  if (!pocl.queue) return CL_DEVICE_NOT_AVAILABLE;
  cl_kernel k = kernel_for(*l.kernel, pocl);
  if (!k) return CL_BUILD_PROGRAM_FAILURE;
  const auto &params = l.kernel->signature->params;
  for (cl_uint i = 0; i < params.size(); ++i) {
    const auto &arg = l.args[i];
    cl_int err = CL_SUCCESS;
    if (params[i].address == CL_KERNEL_ARG_ADDRESS_LOCAL) {
      err = d(k).clSetKernelArg(k, i, arg.local_size, nullptr);
    } else if (params[i].is_buffer()) {
      cl_mem m = l.buffers[i] ? buffer_for(*l.buffers[i], pocl) : nullptr;
      if (l.buffers[i] && !m) return CL_MEM_OBJECT_ALLOCATION_FAILURE;
      err = d(k).clSetKernelArg(k, i, sizeof m, &m);
    } else {
      err = d(k).clSetKernelArg(k, i, arg.bytes.size(), arg.bytes.data());
    }
    if (err != CL_SUCCESS) {
      std::fprintf(stderr, "unicl-sim: PoCL refused argument %u of %s: %d\n", i, l.kernel->signature->name.c_str(), err);
      return err;
    }
  }
  cl_int err = d(pocl.queue).clEnqueueNDRangeKernel(pocl.queue, k, l.dims, l.has_offset ? l.offset : nullptr, l.global,
                                                    l.has_local ? l.local : nullptr, 0, nullptr, nullptr);
  if (err == CL_SUCCESS) err = d(pocl.queue).clFinish(pocl.queue);
  if (err != CL_SUCCESS)
    std::fprintf(stderr, "unicl-sim: PoCL failed to run %s: %d\n", l.kernel->signature->name.c_str(), err);
  return err;
}

}  // namespace sim::pocl
