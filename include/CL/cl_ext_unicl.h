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

/* clGetDeviceInfo queries: where a device is. CL_DEVICE_NODE_UNICL
 * (cl_uint): the MPI rank of the node that holds it, 0 for this process's
 * own machine; CL_DEVICE_NODE_HOST_UNICL (char[]): that node's host name. */
#define CL_DEVICE_NODE_UNICL 0x55C10020
#define CL_DEVICE_NODE_HOST_UNICL 0x55C10021
/* clGetDeviceInfo query (char[]): the hardware of the node holding the
 * device (packages, NUMA nodes, cores, PUs, as hwloc reads them there), in
 * the text `unicl info` prints; an empty string for a device of this host. */
#define CL_DEVICE_NODE_TOPOLOGY_UNICL 0x55C10022
/* clGetDeviceInfo query (cl_double[2]): the network between this host and
 * the node holding the device, as measured when the node joined: one-way
 * latency in seconds and bandwidth in bytes per second; {0, 0} for a device
 * of this host. UniCL's transfer models start from it for the node's
 * devices, then learn from the transfers they time. */
#define CL_DEVICE_NODE_LINK_UNICL 0x55C10023
/* clGetDeviceInfo query (cl_double[2 x ranks of the job]): the network
 * between the node holding the device and each rank of the job, in rank
 * order, as measured when the nodes joined: one-way latency in seconds and
 * bandwidth in bytes per second; {0, 0} for the node itself and for a rank
 * that did not join. Rank 0's entry is CL_DEVICE_NODE_LINK_UNICL. Empty (size
 * 0) for a device of this host. UniCL's transfer models start from it for
 * copies between the devices of two nodes. */
#define CL_DEVICE_NODE_LINKS_UNICL 0x55C10024

/* clGetEventInfo query (cl_device_id): the device that ran the command;
 * NULL while a command of a device-less queue is not yet placed. */
#define CL_EVENT_DEVICE_UNICL 0x55C10010

/* clGetProgramInfo query (char[]): what UniCL's kernel analysis found in the
 * program's source, as `unicl analyze` prints it: per kernel, the dimension
 * its launches split along and each argument's window there, or why it runs
 * whole. Waits for the analysis to end (it runs beside the build and may end
 * after clBuildProgram returns). An empty string for a program that was not
 * analysed: one of a context of a single device, or not built from source. */
#define CL_PROGRAM_ANALYSIS_UNICL 0x55C10030

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


/* ---- cl_unicl_divide: divide functions and learned partitioning --------
 *
 * A kernel may carry a divide function: when the kernel is enqueued on a
 * scheduled queue (a device-less queue of a context of several devices),
 * UniCL either runs the launch as it is or calls the divide function with a
 * partitioning factor of its choice in [min_factor, max_factor]. The divide
 * function enqueues commands equivalent to the launch (typically `factor`-
 * dependent pieces of its NDRange) on `queue`, every one after `before`, and
 * returns in `after` an event (of the same context) that completes when all
 * of them have, typically a marker's; UniCL releases it. It must only enqueue:
 * it runs on the enqueuing thread, inside clEnqueueNDRangeKernel, which never
 * waits for the pieces. `queue` is an out-of-order device-less queue of the
 * context, private to the divided launches of the application's queue: the
 * policy places each piece. Launches made while a divide function runs are
 * never divided again.
 *
 * The event clEnqueueNDRangeKernel returns stands for all the pieces: it
 * completes when `after` does, fails with the divide function's error when
 * it returns one (or CL_INVALID_EVENT when it returns no valid event), and
 * its profiling times are host-clock nanoseconds: QUEUED at the enqueue
 * call, SUBMIT when the divide function returned, START when the launch
 * could start (its wait list and queue order satisfied), END and COMPLETE
 * when the last piece completed.
 *
 * UniCL times every launch of a shape (kernel name, global size, devices of
 * the context) and chooses the next factor from those times with the
 * context's granularity strategy: "climb" (default: starts at the factor
 * nearest the number of devices, tries the launch undivided next, then moves
 * to a better neighbour while there is one) or "each-once" (each factor,
 * and one launch undivided, once; then the fastest); both re-measure
 * another option one launch in eight, so that
 * the choice follows load changes. A launch that completes before the next
 * of its shape is enqueued (an iteration) costs the time until that next
 * launch, so that what a factor costs after the launch (gathering its
 * pieces' results) counts too. The statistics are kept beside the
 * performance models (`unicl info --models`).
 *
 * clSetKernelDivideFunctionUNICL(kernel, fn, user_data, min, max) replaces
 * the kernel's divide function; fn NULL removes it. clCloneKernel copies it.
 * Errors: CL_INVALID_KERNEL (not a UniCL kernel), CL_INVALID_VALUE
 * (min_factor 0 or greater than max_factor with fn given).
 * StarPU SOCL's registration is accepted too: clSetKernelArg(kernel,
 * (cl_uint)-1, size, fn) sets the function (the pointer itself as value),
 * (cl_uint)-2 with a cl_uint n the factors 1..n-1 (at least 1), (cl_uint)-3
 * the user data (the pointer itself).
 * Reached through clGetExtensionFunctionAddressForPlatform(platform,
 * "clSetKernelDivideFunctionUNICL"); the platform lists "cl_unicl_divide". */
typedef cl_int(CL_CALLBACK *cl_divide_function_unicl)(cl_command_queue queue, cl_uint factor, void *user_data,
                                                      cl_event before, cl_event *after);

typedef cl_int(CL_API_CALL *clSetKernelDivideFunctionUNICL_fn)(cl_kernel kernel, cl_divide_function_unicl fn,
                                                               void *user_data, cl_uint min_factor,
                                                               cl_uint max_factor);

/* Context property (value: const char *, a strategy name) choosing how the
 * partitioning factor of divided launches is learnt: "climb" (default) or
 * "each-once"; also UNICL_GRANULARITY. Also a clGetContextInfo query (char[]). */
#define CL_CONTEXT_GRANULARITY_UNICL 0x55C10004
/* Context property (value: cl_uint, cast to cl_context_properties): every
 * divided launch of the context uses this factor (clipped to the kernel's
 * range) instead of a learnt one; 0 runs them undivided. Also
 * UNICL_DIVIDE_FACTOR. For experiments and comparisons. */
#define CL_CONTEXT_DIVIDE_FACTOR_UNICL 0x55C10005

/* Context property (value: cl_bool, cast to cl_context_properties): whether
 * launches of kernels that declared no split of their own may be split by
 * UniCL when the analysis of the kernel's source proves it safe (see
 * "cl_unicl_auto_split" below). Default CL_TRUE, or UNICL_AUTO_SPLIT=0.
 * Also a clGetContextInfo query (cl_bool). */
#define CL_CONTEXT_AUTO_SPLIT_UNICL 0x55C10006

/* clGetEventInfo query (cl_uint): the factor a divided launch ran with (for
 * the built-in divider of cl_unicl_split kernels, f means 2^(f-1) pieces per
 * device, f in 1..4); 0 for a launch that ran undivided and for every other
 * command. */
#define CL_EVENT_DIVIDE_FACTOR_UNICL 0x55C10011
/* clGetEventInfo query (cl_device_id[]): the devices the command ran on:
 * for a divided launch, those of its kernel pieces; else at most one. */
#define CL_EVENT_DEVICES_UNICL 0x55C10012

/* For vendor libraries (UniCL's node client implements it): copies `size`
 * bytes from `src` at `src_offset` to `dst` at `dst_offset`, where the two
 * buffers belong to contexts of different devices of the same vendor
 * library, without passing through the host's memory (the node client:
 * straight from one node to another). `src_queue` is a queue of the source
 * buffer's device, `dst_queue` one of the destination's; the wait list may
 * hold events of either queue's context; `event` (if not NULL) is an event
 * of dst_queue's that completes once the bytes are in `dst`. UniCL looks it
 * up with clGetExtensionFunctionAddressForPlatform(platform,
 * "clEnqueueCopyBufferToPeerUNICL") on each vendor platform, and copies
 * between two devices directly when both platforms give the same function.
 * Errors: CL_INVALID_COMMAND_QUEUE, CL_INVALID_MEM_OBJECT (a buffer that is
 * not the library's, or not of its queue's context), CL_INVALID_VALUE
 * (a range out of a buffer), CL_INVALID_EVENT_WAIT_LIST. */
typedef cl_int(CL_API_CALL *clEnqueueCopyBufferToPeerUNICL_fn)(cl_command_queue src_queue,
                                                               cl_command_queue dst_queue, cl_mem src,
                                                               cl_mem dst, size_t src_offset, size_t dst_offset,
                                                               size_t size, cl_uint num_events_in_wait_list,
                                                               const cl_event *event_wait_list, cl_event *event);

#ifdef __cplusplus
}
#endif

#endif /* CL_EXT_UNICL_H */
