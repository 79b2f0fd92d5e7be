/* A shared library that loads fine but is no OpenCL ICD (it lacks
   clGetExtensionFunctionAddress): the discovery tests list it as a vendor
   to check that UniCL skips it. */
int unicl_test_not_an_icd(void) { return 42; }
