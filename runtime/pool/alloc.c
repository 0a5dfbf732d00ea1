/* alloc.c: the pool's allocators (alloc.h), looked up by name. */
#include <string.h>

#include "runtime/pool/alloc.h"

static const pool_alloc_type *const allocators[] = {&pool_alloc_delay, &pool_alloc_slurm};

const pool_alloc_type *pool_alloc_find(const char *name)
{
    for (size_t k = 0; k < sizeof allocators / sizeof *allocators; k++)
        if (strcmp(name, allocators[k]->name) == 0)
            return allocators[k];
    return NULL;
}
