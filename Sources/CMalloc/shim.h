// glibc's allocator tuning (mallopt and its M_ options), which the Glibc module leaves out.
#include <malloc.h>
