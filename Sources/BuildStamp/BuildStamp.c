#include "BuildStamp.h"
#include <stddef.h>

__attribute__((weak)) const char *tabstage_stamped_version(void) { return NULL; }
__attribute__((weak)) const char *tabstage_stamped_commit(void) { return NULL; }
