/* UniCL extensions to the OpenCL API. */
#ifndef CL_EXT_UNICL_H
#define CL_EXT_UNICL_H

#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Name of the platform UniCL exposes. */
#define CL_UNICL_PLATFORM_NAME "UniCL"

#ifdef __cplusplus
}
#endif

#endif /* CL_EXT_UNICL_H */
