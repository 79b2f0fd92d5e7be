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

#ifdef __cplusplus
}
#endif

#endif /* CL_EXT_UNICL_H */
