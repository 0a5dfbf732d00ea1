/* speeds.h: the hosts' relative speeds from a PVM hostfile's sp= values
 * (--speeds FILE): the same file for every transport, so that an MPI run
 * gets the V_i a PVM run of that hostfile gets (Xu & Chronopoulos Sec. 5.1:
 * V_i = sp_i / the smallest sp among the workers' hosts). Not installed. */
#ifndef SPEEDS_H
#define SPEEDS_H

#include <stddef.h>

typedef struct rt_speed {
    char name[256];
    int sp;                     /* PVM's default, 1000, when the line has none */
} rt_speed;

/* Reads path: a line per host, "[&]NAME option...", '#' comments, "* option..."
 * the default options of the lines after it (man pvmd3); of the options only
 * sp=N (1 <= N <= 1000000) is read. Returns the number of hosts (>= 1) into
 * a malloc'ed *out, or -1 with msg naming the file, the line and the value. */
int rt_speeds_read(const char *path, rt_speed **out, char *msg, size_t len);

/* The sp of name in s[0..n-1], or 0 when it has no line. */
int rt_speeds_find(const rt_speed *s, int n, const char *name);

#endif
