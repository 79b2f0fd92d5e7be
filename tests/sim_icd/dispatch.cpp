// The dispatch table every simulator object points to, and the library's
// only exported symbols.
#include <tuple>
#include <type_traits>

#include "api.hpp"
#include "fault.hpp"
#include "objects.hpp"

namespace sim {
namespace {

// Every slot of cl_icd_dispatch, in <CL/cl_icd.h> order (OpenCL 3.0).
#define SIM_ALL_SLOTS(X)                                                                                      \
  X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs) X(clGetDeviceInfo) X(clCreateContext)           \
  X(clCreateContextFromType) X(clRetainContext) X(clReleaseContext) X(clGetContextInfo)                      \
  X(clCreateCommandQueue) X(clRetainCommandQueue) X(clReleaseCommandQueue) X(clGetCommandQueueInfo)          \
  X(clSetCommandQueueProperty) X(clCreateBuffer) X(clCreateImage2D) X(clCreateImage3D) X(clRetainMemObject)  \
  X(clReleaseMemObject) X(clGetSupportedImageFormats) X(clGetMemObjectInfo) X(clGetImageInfo)               \
  X(clCreateSampler) X(clRetainSampler) X(clReleaseSampler) X(clGetSamplerInfo) X(clCreateProgramWithSource) \
  X(clCreateProgramWithBinary) X(clRetainProgram) X(clReleaseProgram) X(clBuildProgram) X(clUnloadCompiler)  \
  X(clGetProgramInfo) X(clGetProgramBuildInfo) X(clCreateKernel) X(clCreateKernelsInProgram)                \
  X(clRetainKernel) X(clReleaseKernel) X(clSetKernelArg) X(clGetKernelInfo) X(clGetKernelWorkGroupInfo)      \
  X(clWaitForEvents) X(clGetEventInfo) X(clRetainEvent) X(clReleaseEvent) X(clGetEventProfilingInfo)         \
  X(clFlush) X(clFinish) X(clEnqueueReadBuffer) X(clEnqueueWriteBuffer) X(clEnqueueCopyBuffer)               \
  X(clEnqueueReadImage) X(clEnqueueWriteImage) X(clEnqueueCopyImage) X(clEnqueueCopyImageToBuffer)          \
  X(clEnqueueCopyBufferToImage) X(clEnqueueMapBuffer) X(clEnqueueMapImage) X(clEnqueueUnmapMemObject)       \
  X(clEnqueueNDRangeKernel) X(clEnqueueTask) X(clEnqueueNativeKernel) X(clEnqueueMarker)                    \
  X(clEnqueueWaitForEvents) X(clEnqueueBarrier) X(clGetExtensionFunctionAddress) X(clCreateFromGLBuffer)     \
  X(clCreateFromGLTexture2D) X(clCreateFromGLTexture3D) X(clCreateFromGLRenderbuffer) X(clGetGLObjectInfo)  \
  X(clGetGLTextureInfo) X(clEnqueueAcquireGLObjects) X(clEnqueueReleaseGLObjects) X(clGetGLContextInfoKHR)  \
  X(clGetDeviceIDsFromD3D10KHR) X(clCreateFromD3D10BufferKHR) X(clCreateFromD3D10Texture2DKHR)              \
  X(clCreateFromD3D10Texture3DKHR) X(clEnqueueAcquireD3D10ObjectsKHR) X(clEnqueueReleaseD3D10ObjectsKHR)    \
  X(clSetEventCallback) X(clCreateSubBuffer) X(clSetMemObjectDestructorCallback) X(clCreateUserEvent)        \
  X(clSetUserEventStatus) X(clEnqueueReadBufferRect) X(clEnqueueWriteBufferRect) X(clEnqueueCopyBufferRect)  \
  X(clCreateSubDevicesEXT) X(clRetainDeviceEXT) X(clReleaseDeviceEXT) X(clCreateEventFromGLsyncKHR)          \
  X(clCreateSubDevices) X(clRetainDevice) X(clReleaseDevice) X(clCreateImage)                                \
  X(clCreateProgramWithBuiltInKernels) X(clCompileProgram) X(clLinkProgram) X(clUnloadPlatformCompiler)      \
  X(clGetKernelArgInfo) X(clEnqueueFillBuffer) X(clEnqueueFillImage) X(clEnqueueMigrateMemObjects)           \
  X(clEnqueueMarkerWithWaitList) X(clEnqueueBarrierWithWaitList) X(clGetExtensionFunctionAddressForPlatform) \
  X(clCreateFromGLTexture) X(clGetDeviceIDsFromD3D11KHR) X(clCreateFromD3D11BufferKHR)                       \
  X(clCreateFromD3D11Texture2DKHR) X(clCreateFromD3D11Texture3DKHR) X(clCreateFromDX9MediaSurfaceKHR)        \
  X(clEnqueueAcquireD3D11ObjectsKHR) X(clEnqueueReleaseD3D11ObjectsKHR)                                      \
  X(clGetDeviceIDsFromDX9MediaAdapterKHR) X(clEnqueueAcquireDX9MediaSurfacesKHR)                             \
  X(clEnqueueReleaseDX9MediaSurfacesKHR) X(clCreateFromEGLImageKHR) X(clEnqueueAcquireEGLObjectsKHR)         \
  X(clEnqueueReleaseEGLObjectsKHR) X(clCreateEventFromEGLSyncKHR) X(clCreateCommandQueueWithProperties)      \
  X(clCreatePipe) X(clGetPipeInfo) X(clSVMAlloc) X(clSVMFree) X(clEnqueueSVMFree) X(clEnqueueSVMMemcpy)      \
  X(clEnqueueSVMMemFill) X(clEnqueueSVMMap) X(clEnqueueSVMUnmap) X(clCreateSamplerWithProperties)           \
  X(clSetKernelArgSVMPointer) X(clSetKernelExecInfo) X(clGetKernelSubGroupInfoKHR) X(clCloneKernel)          \
  X(clCreateProgramWithIL) X(clEnqueueSVMMigrateMem) X(clGetDeviceAndHostTimer) X(clGetHostTimer)            \
  X(clGetKernelSubGroupInfo) X(clSetDefaultDeviceCommandQueue) X(clSetProgramReleaseCallback)               \
  X(clSetProgramSpecializationConstant) X(clCreateBufferWithProperties) X(clCreateImageWithProperties)       \
  X(clSetContextDestructorCallback)

#define SIM_COUNT(name) +1
static_assert((0 SIM_ALL_SLOTS(SIM_COUNT)) * sizeof(void *) == sizeof(cl_icd_dispatch),
              "SIM_ALL_SLOTS must name every slot of this <CL/cl_icd.h>");
#undef SIM_COUNT

// An entry point's way of failing with `err`, derived from its slot's type:
// cl_int calls return it; calls returning an object return null and set
// their trailing errcode_ret; void calls do nothing.
template <class R, class... A>
R failure(cl_int err, A... args) {
  if constexpr (std::is_same_v<R, cl_int>) {
    ((void)args, ...);
    return err;
  } else if constexpr (std::is_void_v<R>) {
    (void)err;
    ((void)args, ...);
  } else {
    if constexpr (sizeof...(A) > 0) {
      auto last = std::get<sizeof...(A) - 1>(std::tuple<A...>(args...));
      if constexpr (std::is_same_v<decltype(last), cl_int *>)
        if (last) *last = err;
    }
    return R{};
  }
}

// What an unimplemented entry point does: fail with CL_INVALID_OPERATION.
template <class Slot>
struct Stub {
  static constexpr Slot fn = nullptr;  // slots typed void * (Windows-only interop): not callable here
};

template <class R, class... A>
struct Stub<R(CL_API_CALL *)(A...)> {
  static R CL_API_CALL fn(A... args) { return failure<R>(CL_INVALID_OPERATION, args...); }
};

// An implemented entry point behind the injected failures (fault.hpp): it
// fails instead of running once UNICL_SIM_FAIL says so, and its successes
// are counted. Calls the simulator makes to itself go straight to api::.
enum EntryIndex : Entry {
#define SIM_INDEX(name) index_##name,
  SIM_IMPLEMENTED(SIM_INDEX)
#undef SIM_INDEX
};

template <auto Fn, Entry E, class Slot = decltype(Fn)>
struct Guarded;

template <auto Fn, Entry E, class R, class... A>
struct Guarded<Fn, E, R(CL_API_CALL *)(A...)> {
  static R CL_API_CALL fn(A... args) {
    Platform *p = platform();
    if (!p) return Fn(args...);
    if (cl_int err = p->faults.injected(E); err != CL_SUCCESS) return failure<R>(err, args...);
    R result = Fn(args...);
    if constexpr (std::is_same_v<R, cl_int>) {
      if (result == CL_SUCCESS) p->faults.succeeded(E);
    } else {
      if (result) p->faults.succeeded(E);
    }
    return result;
  }
};

constexpr cl_icd_dispatch make_table() {
  cl_icd_dispatch t{};
#define SIM_STUB(name) t.name = Stub<decltype(t.name)>::fn;
  SIM_ALL_SLOTS(SIM_STUB)
#undef SIM_STUB
#define SIM_SET(name) t.name = Guarded<&api::name, index_##name>::fn;
  SIM_IMPLEMENTED(SIM_SET)
#undef SIM_SET
  return t;
}

}  // namespace

// Constant-initialized: valid before any constructor of this library runs.
constinit const cl_icd_dispatch dispatch_table = make_table();

}  // namespace sim

// What an ICD loader looks up with dlsym; everything else goes through the
// dispatch table (sim.map keeps the rest of the library's symbols local).
#define SIM_EXPORT extern "C" __attribute__((visibility("default")))

SIM_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                                      cl_uint *num_platforms) {
  return sim::api::clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms);
}

SIM_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name) {
  return sim::api::clGetExtensionFunctionAddress(name);
}

SIM_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param, size_t size,
                                                void *value, size_t *size_ret) {
  return sim::api::clGetPlatformInfo(platform, param, size, value, size_ret);
}
