/* UniCL extensions to the OpenCL API.
 *
 * Enumerants live in 0x55C10000-0x55C1FFFF, far from the core and Khronos
 * vendor ranges, so that no other platform can mistake them for its own.
 */
#ifndef CL_EXT_UNICL_H
#define CL_EXT_UNICL_H

#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Name of the platform UniCL exposes. */
#define CL_UNICL_PLATFORM_NAME "UniCL"

/* Context property (value: const char *, a policy name) choosing how the
 * commands of device-less queues are placed: "heft" (default), "eager",
 * "ws", "random", "round-robin". Also a clGetContextInfo query returning
 * the name (char[]) of the policy in use. */
#define CL_CONTEXT_SCHEDULER_UNICL 0x55C10001
/* StarPU SOCL's property, accepted with the same meaning. */
#define CL_CONTEXT_SCHEDULER_SOCL 0xFF01

/* Context property (value: cl_ulong bytes, cast to cl_context_properties):
 * the memory UniCL lets its buffers occupy on each device of the context,
 * at most the device's global memory. Also a clGetContextInfo query
 * (cl_ulong). */
#define CL_CONTEXT_DEVICE_MEM_LIMIT_UNICL 0x55C10002

/* clGetContextInfo query (cl_ulong): bytes UniCL has copied between the
 * copies of the context's buffers (device to host and host to device) so
 * far. Multi-device contexts only; 0 for a context of one device. */
#define CL_CONTEXT_BYTES_MOVED_UNICL 0x55C10003

/* clGetEventInfo query (cl_device_id): the device that ran the command;
 * NULL while a command of a device-less queue is not yet placed. */
#define CL_EVENT_DEVICE_UNICL 0x55C10010

/* ---- cl_unicl_split: which part of a buffer a launch touches ----------
 *
 * For a kernel whose work-items are independent along one dimension `dim`
 * of its NDRange, declares for some of its buffer arguments the bytes each
 * index along `dim` touches: index i touches bytes
 *   [offset + i * stride, offset + i * stride + size)
 * of the buffer (or sub-buffer) set as that argument, clipped to it. A launch
 * with global offset o and global size n along `dim` then touches only
 *   [offset + o * stride, offset + (o + n - 1) * stride + size)
 * of that argument: launches of disjoint index ranges on different devices
 * run at the same time, and UniCL moves only those bytes to and from each
 * device. Buffer arguments not declared are shared: a launch touches all of
 * them. The declaration is a promise: a kernel that touches other bytes of
 * a declared argument gives undefined results, like any data race.
 *
 * Example, y[i] = a * x[i] + y[i] on floats: dim 0, arguments x and y with
 * offset 0, stride 4, size 4. A 1-D 3-point stencil reading in[i-1..i+1]:
 * offset -4, stride 4, size 12.
 *
 * clSetKernelSplitUNICL(kernel, dim, num_args, args) replaces the kernel's
 * declaration; num_args 0 (args NULL) removes it. clCloneKernel copies it
 * with the arguments. Errors:
 *   CL_INVALID_KERNEL      kernel is not a valid UniCL kernel;
 *   CL_INVALID_VALUE       dim > 2, num_args and args disagree (one zero
 *                          or NULL, not the other), a size or stride of 0,
 *                          an argument named twice;
 *   CL_INVALID_ARG_INDEX   an arg_index not below the kernel's number of
 *                          arguments, or naming an argument that is not a
 *                          __global or __constant pointer (when the vendor
 *                          reports argument information).
 * Reached through clGetExtensionFunctionAddressForPlatform(platform,
 * "clSetKernelSplitUNICL"); the platform lists "cl_unicl_split" in
 * CL_PLATFORM_EXTENSIONS. */
typedef struct _cl_kernel_split_arg_unicl {
  cl_uint arg_index;
  cl_long offset; /* bytes, may be negative (a halo before the first index) */
  size_t stride;  /* bytes between the parts of consecutive indices */
  size_t size;    /* bytes one index touches */
} cl_kernel_split_arg_unicl;

typedef cl_int(CL_API_CALL *clSetKernelSplitUNICL_fn)(cl_kernel kernel, cl_uint dim, cl_uint num_args,
                                                      const cl_kernel_split_arg_unicl *args);

#ifdef __cplusplus
}
#endif

#endif /* CL_EXT_UNICL_H */
