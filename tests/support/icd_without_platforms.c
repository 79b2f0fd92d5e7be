/* A library that looks like an ICD (it exports clGetExtensionFunctionAddress)
   but offers no clIcdGetPlatformIDsKHR: the discovery tests list it as a
   vendor to check that UniCL skips a vendor with no platforms. */
void *clGetExtensionFunctionAddress(const char *name) {
  (void)name;
  return 0;
}
