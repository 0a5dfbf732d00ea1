/* bench_omp.c: the same image computed by the same kernel with OpenMP's
 * schedule(guided) over the rows, for the PVM run's comparison in make bench.
 *
 *   bench_omp SIZE MAXITER   prints: seconds checksum
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "mandel/mandel.h"

int main(int argc, char **argv)
{
    mandel_params p;
    mandel_defaults(&p);
    if (argc == 3) {
        p.width = p.height = atoi(argv[1]);
        p.maxiter = (uint32_t)atol(argv[2]);
    }
    char msg[256];
    if (mandel_check(&p, msg, sizeof msg) != 0) {
        fprintf(stderr, "bench_omp: %s\n", msg);
        return 2;
    }
    uint32_t *img = malloc(sizeof *img * (size_t)p.width * (size_t)p.height);
    if (!img)
        return 1;
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(guided)
    for (int y = 0; y < p.height; y++)
        mandel_row(&p, y, img + (size_t)y * (size_t)p.width);
    double t = omp_get_wtime() - t0;
    printf("%.3f %016llx\n", t,
           (unsigned long long)mandel_checksum(img, (size_t)p.width * (size_t)p.height));
    free(img);
    return 0;
}
