// The Khronos C++ bindings as the tool uses them: exceptions on, and
// OpenCL 1.2 calls only, so that every vendor UniCL may wrap is described.
#pragma once
#define CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_TARGET_OPENCL_VERSION 120
#include <CL/opencl.hpp>
