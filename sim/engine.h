/* engine.h: what the simulator's engine files share (not part of sim.h).
 *
 *   engine.c   events, the hosts' speed under load, message delays, the
 *              master's one-at-a-time service, and a run: sim_open,
 *              sim_iterate, sim_close (sim_run)
 *   self.c     self-scheduling (Xu & Chronopoulos Sec. 5.3) on the policy
 *   tree.c     Tree-Scheduling on sched/loop/tree.c
 */
#ifndef SIM_ENGINE_H
#define SIM_ENGINE_H

#include "sched/loop/ahead.h"
#include "sched/loop/meas.h"
#include "sched/loop/policy.h"
#include "sched/util/heap.h"
#include "sim/sim.h"

enum { EV_REPORT, EV_WORK, EV_DONE, EV_REMEASURE, EV_FAIL, EV_NOTICE,
       EV_STEAL, EV_GIVE, EV_RESULT, EV_IDLE, EV_AHEAD };

typedef struct event {
    double t;
    long seq;                       /* creation order: ties go first-made first */
    int type, w, from, version;
    /* a report: the worker's measure, and the results it carries */
    int Q, has_result;
    double A, t_measure;
    long id, start, size;
    double t_recv, t_start, t_end;
} event;

typedef struct sworker {
    const sim_host *h;
    int dead;
    int stuck;                      /* A_i = 0 for good (self.c) */
    double link_free;               /* when its link has sent its last message
                                       (it reaches the master a latency later) */
} sworker;

/* A worker's request-ahead state (self.c; sched/loop/ahead.h): the chunk it
 * computes, whether its request went ahead, the chunk that came meanwhile;
 * for the schemes fed measurements, what it measured since its last request
 * (carry), over that and its whole chunk (whole), and over the chunk's
 * iterations after the mark (after: the next request's start). */
typedef struct aworker {
    int busy, asked, has_next;
    long id;
    long next_id, next_start, next_size;
    double next_recv;
    double t_asked, wait;           /* the latest request; the reply wait */
    sched_meas carry, whole, after;
} aworker;

/* Tree-Scheduling's worker (tree.c): computing [seg_pos, end) since seg_t,
 * its host's quota state then seg_cpu; not computing, sending until
 * cpu_free. */
typedef struct tworker {
    int busy, version;
    long seg_pos, end, piece_start, piece_id;
    double seg_t, piece_recv, piece_t0, cpu_free;
    sim_cpu seg_cpu;
} tworker;

typedef struct run {
    const sim_config *c;
    const sim_platform *pf;
    const sim_workload *wl;
    record *rec;
    heap h;                         /* of keys: time, creation order, slot */
    long seq;
    event *pool;                    /* the events waiting, in their slots */
    long *free_slots, nfree, npool;
    sworker *w;
    tworker *tw;                    /* Tree-Scheduling only (else NULL) */
    /* each worker's measurement over its last chunk (sched/loop/meas.h; n = 0:
     * none), for the schemes fed measurements only (else NULL): a worker
     * has one report on its way at a time, and an event stays small (10^6
     * hosts keep 10^6 events waiting) */
    sched_request *meas;
    aworker *ah;                    /* request-ahead on (c->ahead != 0; else NULL) */
    struct sim_auto *au;            /* --scheme auto (sim/select.h; else NULL) */
    sim_cpu *cpu;                   /* each host's quota used (NULL when no
                                       host has a quota: 10^6 hosts stay small) */
    int n;
    policy *p;
    tree *t;
    double master_free;
    int finished;
    /* self-scheduling, the integer rule: workers whose A_i stays 0 for good
     * (they never report again), the first of them and since when */
    int stuck, stuck_w;
    double stuck_t;
    double now;                     /* the time of the latest event taken */
    long events;                    /* taken so far */
    int state;                      /* 1 running, 0 ended, -1 failed */
    char *msg;
    size_t len;
} run;

/* engine.c */
int sim_fail(run *r, const char *what);
int sim_post(run *r, event ev);
/* The next event (0 when none is left). */
int sim_pop(run *r, event *ev);
/* When 'work' units started at t on host h are done, and the work done
 * between t0 and t1; other busy processes on the host at t. */
double sim_advance(const sim_host *h, double t, double work);
double sim_work_between(const sim_host *h, double t0, double t1);
int sim_extra_at(const sim_host *h, double t);
/* Delay of a message of 'bytes' between two clusters. */
double sim_delay(const run *r, const char *a, const char *b, double bytes);
/* When a message of 'bytes' sent by worker w at t reaches the master, or
 * a host of 'cluster' (sim_from_worker): a worker's messages arrive in the
 * order sent (as PVM's do), and its link sends one message at a time,
 * whatever their destination (a message sent while the link still sends an
 * earlier one starts once that one is out). */
double sim_to_master(run *r, int w, double t, double bytes);
double sim_from_worker(run *r, int w, const char *cluster, double t, double bytes);
/* When a message of 'bytes' sent by the master at t reaches worker w. */
double sim_from_master(const run *r, int w, double t, double bytes);
/* The master takes ev when it is free: 1 (now: ev->t), 0 (busy: ev is
 * posted again for when it is free), -1 (out of memory). */
int sim_master_take(run *r, event *ev);

/* What a message costs a worker's host (sim.h: send_cost, wake, wake_load;
 * one model for self.c's workers and tree.c's):
 *  - sim_sent: when a message of 'bytes' that worker w starts sending at t
 *    has left it: its CPU computes send_cost units a byte, from the quota
 *    state *cpu on (sim_cpu_run; advanced);
 *  - sim_woken: when worker w, idle (waiting for a message), runs after a
 *    message reached it at t: (wake + wake_load x its host's other busy
 *    processes) units at its host's speed;
 *  - sim_cpu_of: worker w's host's quota state (a scratch one, never
 *    looked at, when no host has a quota). */
double sim_sent(const run *r, int w, sim_cpu *cpu, double t, double bytes);
double sim_woken(const run *r, int w, double t);
sim_cpu *sim_cpu_of(run *r, int w);

/* The run has made SIM_MAX_CHUNKS chunks: -1 with the message. */
int sim_too_many(run *r);

/* self.c and tree.c: the run, set up (start: the first events posted),
 * event by event (the one just taken from the queue), and its end (once no
 * event is left, or the run finished). Return 0, or -1 with r->msg. */
int sim_self_start(run *r);
int sim_self_event(run *r, event *ev);
int sim_self_end(run *r);
int sim_tree_start(run *r);
int sim_tree_event(run *r, event *ev);
int sim_tree_end(run *r);

#endif
