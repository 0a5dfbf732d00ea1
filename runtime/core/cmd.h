/* cmd.h (runtime/core/): runs a command of the system — argv[0] searched
 * on PATH, its arguments passed as arguments (posix_spawnp: no shell ever
 * reads them), standard input /dev/null, the environment this process's —
 * and reads back what it printed. For the pool's Slurm allocator
 * (pool/alloc_slurm.c: sbatch, squeue, scancel). */
#ifndef RUNTIME_CORE_CMD_H
#define RUNTIME_CORE_CMD_H

#include <stddef.h>

/* Runs argv to its end; its standard output into out (NUL-ended, cut at
 * len - 1 bytes), the first line of its standard error into err. Returns
 * its exit status (128 + the signal that ended it), or -1 when it could not
 * be started (err says why). */
int rt_cmd(char *const argv[], char *out, size_t len, char *err, size_t elen);

#endif
