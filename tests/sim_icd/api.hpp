// The entry points the simulator implements. Each one is declared with the
// exact function type of its cl_icd_dispatch slot (cl_api_<name> from
// <CL/cl_icd.h>), so a definition with a different signature is a separate
// overload and the link (-Wl,--no-undefined) fails. dispatch.cpp fills the
// table from the same list; every slot not listed gets a stub.
#pragma once

#include <type_traits>

#include "cl.hpp"

#define SIM_IMPLEMENTED(X)                                                                                   \
  /* api_platform.cpp */                                                                                     \
  X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs) X(clGetDeviceInfo) X(clCreateSubDevices)       \
  X(clRetainDevice) X(clReleaseDevice) X(clGetExtensionFunctionAddress)                                      \
  X(clGetExtensionFunctionAddressForPlatform) X(clUnloadCompiler) X(clUnloadPlatformCompiler)                \
  /* api_context.cpp */                                                                                      \
  X(clCreateContext) X(clCreateContextFromType) X(clRetainContext) X(clReleaseContext) X(clGetContextInfo)   \
  X(clCreateCommandQueue) X(clCreateCommandQueueWithProperties) X(clRetainCommandQueue)                      \
  X(clReleaseCommandQueue) X(clGetCommandQueueInfo)                                                          \
  /* api_memory.cpp */                                                                                       \
  X(clCreateBuffer) X(clCreateSubBuffer) X(clRetainMemObject) X(clReleaseMemObject) X(clGetMemObjectInfo)   \
  X(clSetMemObjectDestructorCallback) X(clGetSupportedImageFormats)                                          \
  /* api_program.cpp */                                                                                      \
  X(clCreateProgramWithSource) X(clCreateProgramWithBinary) X(clRetainProgram) X(clReleaseProgram)          \
  X(clBuildProgram) X(clGetProgramInfo) X(clGetProgramBuildInfo) X(clCreateKernel)                           \
  X(clCreateKernelsInProgram) X(clRetainKernel) X(clReleaseKernel) X(clSetKernelArg) X(clGetKernelInfo)      \
  X(clGetKernelArgInfo) X(clGetKernelWorkGroupInfo)                                                          \
  /* api_event.cpp */                                                                                        \
  X(clCreateUserEvent) X(clSetUserEventStatus) X(clWaitForEvents) X(clGetEventInfo) X(clRetainEvent)        \
  X(clReleaseEvent) X(clGetEventProfilingInfo) X(clSetEventCallback) X(clFlush) X(clFinish)                  \
  X(clEnqueueMarker) X(clEnqueueBarrier) X(clEnqueueWaitForEvents) X(clEnqueueMarkerWithWaitList)            \
  X(clEnqueueBarrierWithWaitList) X(clEnqueueMigrateMemObjects)                                              \
  /* api_enqueue.cpp */                                                                                      \
  X(clEnqueueReadBuffer) X(clEnqueueWriteBuffer) X(clEnqueueCopyBuffer) X(clEnqueueReadBufferRect)          \
  X(clEnqueueWriteBufferRect) X(clEnqueueCopyBufferRect) X(clEnqueueFillBuffer) X(clEnqueueMapBuffer)       \
  X(clEnqueueUnmapMemObject) X(clEnqueueNDRangeKernel) X(clEnqueueTask)

namespace sim::api {
#define SIM_DECLARE(name) std::remove_pointer_t<cl_api_##name> name;
SIM_IMPLEMENTED(SIM_DECLARE)
#undef SIM_DECLARE

// Not a dispatch slot: what the ICD loader calls to find our platform.
cl_int clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms);
}  // namespace sim::api
