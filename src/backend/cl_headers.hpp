// One place that fixes the OpenCL API level UniCL is compiled against:
// OpenCL 3.0 headers, with every deprecated entry point still declared
// because the ICD dispatch table must carry them all; UniCL's own
// extension (include/CL/cl_ext_unicl.h) beside them.
#pragma once
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
#include <CL/cl_ext_unicl.h>
