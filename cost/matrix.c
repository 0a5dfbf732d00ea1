/* matrix.c: the size and cost of an iteration of Díaz et al.'s random
 * matrix products (cost.h): one stream per (seed, iteration). */
#include <gsl/gsl_rng.h>

#include "cost/cost.h"

unsigned long matrix_rng_seed(unsigned long seed, long i)
{
    uint64_t z = (uint64_t)seed * 0x9e3779b97f4a7c15u + (uint64_t)i;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (unsigned long)((z ^ (z >> 32)) & 0xffffffffu);
}

int matrix_draw_size(gsl_rng *r, const matrix_params *p, long i)
{
    gsl_rng_set(r, matrix_rng_seed(p->seed, i));
    unsigned long range = (unsigned long)p->max - (unsigned long)p->min + 1;
    return p->min + (int)gsl_rng_uniform_int(r, range);
}

int matrix_size(const matrix_params *p, long i)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
    if (!r)
        return -1;
    int s = matrix_draw_size(r, p, i);
    gsl_rng_free(r);
    return s;
}

double matrix_flops(int s)
{
    return 2.0 * (double)s * (double)s * (double)s;
}
