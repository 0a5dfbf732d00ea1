/* dtss.h: libdtss, a master-worker runtime on PVM 3 that schedules the
 * iterations of a parallel loop over unequal, loaded machines.
 *
 * A program is a master and its workers. The master names a scheme (DTSS,
 * TSS, GSS, ... or Tree-Scheduling), the loop size and the hosts; the runtime
 * spawns one worker per host on the running PVM virtual machine, sends each
 * the application's job once, hands out chunks of the loop by the scheme,
 * serves a lost worker's chunks again, and gives the master every result
 * once. Load probing, the workers' A_i reports, pseudo-uniform sampling,
 * Tree-Scheduling's work stealing and exit on the master's loss all happen
 * inside the library.
 *
 * The master:
 *
 *     dtss_master *m = dtss_master_new();
 *     if (dtss_master_args(m, &argc, argv) != DTSS_OK)     (--scheme, --hosts...)
 *         fail(dtss_master_errmsg(m));
 *     dtss_master_set(m, "iterations", "1000");            (or "--iterations 1000")
 *     dtss_master_job(m, &params, sizeof params);          (what workers need)
 *     if (dtss_master_start(m) != DTSS_OK) fail(...);      (spawns the workers)
 *     dtss_piece p;
 *     while ((rc = dtss_master_next(m, &p)) == DTSS_PIECE)
 *         store(p.start, p.size, p.data, p.len);           (each iteration once)
 *     if (rc != DTSS_DONE) fail(dtss_master_errmsg(m));
 *     dtss_master_summary(m, stdout);
 *     dtss_master_write_record(m, "run.csv");
 *     dtss_master_free(m);
 *
 * A worker (the program the master spawns: the master's own executable by
 * default, told apart by dtss_is_worker):
 *
 *     dtss_worker *w;
 *     if (dtss_worker_open(&w, argc, argv) != DTSS_OK) fail(dtss_worker_errmsg(w));
 *     size_t len;
 *     const void *job = dtss_worker_job(w, &len);
 *     long start, size;
 *     while ((rc = dtss_worker_next(w, &start, &size)) == DTSS_PIECE) {
 *         ... compute iterations [start, start + size) into buf ...
 *         dtss_worker_result(w, buf, bytes);
 *     }
 *     dtss_worker_close(w);                     (rc: DTSS_DONE, or an error)
 *
 * Pieces. The scheduler hands out chunks of the loop in its scheduled order
 * (pseudo-uniformly sampled with --sample R > 1: iterations 0, R, 2R, ...,
 * then 1, R + 1, ...). A worker receives each chunk as pieces: ranges
 * [start, start + size) of the loop in its original order, at most 'grain'
 * iterations each (dtss_worker_set_grain; default 1). Between two pieces the
 * library answers Tree-Scheduling's requests for work (the worker gives away
 * the rest of its range without knowing) and notices a master that died, so
 * a piece should take well under a second (or its computation should ask
 * dtss_worker_cancelled now and then). The master receives the pieces
 * again, each with the bytes the worker returned for it.
 *
 * Every function returns a code: DTSS_OK, DTSS_PIECE or DTSS_DONE where said,
 * or an error (DTSS_E...), whose text dtss_master_errmsg / dtss_worker_errmsg
 * give, naming the bad value or the failing PVM call. The library never
 * prints (but where asked to, dtss_master_log), never exits and never calls
 * back.
 *
 * One master or one worker per process (a PVM task is a process), used from
 * one thread.
 *
 * Build: cc -O2 prog.c $(pkg-config --cflags --libs dtss)   (links PVM)
 */
#ifndef DTSS_H
#define DTSS_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DTSS_VERSION "1.0"

enum {
    DTSS_OK = 0,
    DTSS_EINVAL,        /* a bad option, value or argument */
    DTSS_ENOENT,        /* an unknown option, scheme or host */
    DTSS_ENOMEM,        /* out of memory */
    DTSS_EPVM,          /* a PVM call failed (no pvmd, spawn, send...) */
    DTSS_ELOST,         /* every worker was lost; or (worker) the master */
    DTSS_EMISUSE,       /* a call out of order (e.g. next before start) */
    DTSS_PIECE = 100,   /* next: a piece is there */
    DTSS_DONE = 101     /* next: every iteration is done */
};

/* ---- the base: the verbs every handle has ------------------------------------
 *
 * Each of the eight handles below (dtss_master, dtss_pool, dtss_lb,
 * dtss_strips and their workers) begins with the same base, so these verbs
 * take any of them; the models' own names (dtss_master_set, dtss_pool_set,
 * ...) are the same calls, typed. A pointer that is no handle of this
 * library is refused (DTSS_EMISUSE), NULL too. */

/* The last error's text: always a string ("out of memory" for NULL, the
 * result of a failed _new or _open). Valid until the handle's next call. */
const char *dtss_errmsg(const void *handle);
/* A master's option by name, as on its command line ("scheme", "dtss");
 * value NULL for a flag. DTSS_OK, DTSS_ENOENT (no such option), DTSS_EINVAL. */
int dtss_set(void *handle, const char *name, const char *value);
/* A master's options taken out of argv (--name value, --name=value, flags;
 * stops at "--"); *argc shrinks to what is left, in order. */
int dtss_args(void *handle, int *argc, char **argv);
/* A master's job for its workers: len bytes, copied (before its start). */
int dtss_job(void *handle, const void *job, size_t len);
/* The job: a master's copy, or what a worker received (NULL before).
 * Owned by the handle, valid until it is freed. */
const void *dtss_get_job(const void *handle, size_t *len);
/* Where the handle's lines go (NULL: nowhere; default stderr), their prefix
 * ("dtss: " by default), and whether progress is said too (verbose 1). */
void dtss_log(void *handle, FILE *f, const char *prefix, int verbose);
/* A master's run record, whole or not at all ("-": stdout). */
int dtss_write_record(void *handle, const char *path);
/* A master's summary of its run, on f. */
void dtss_summary(const void *handle, FILE *f);
/* Frees a master (ending its workers) or closes a worker; NULL is ignored. */
void dtss_free(void *handle);

/* ---- the master ------------------------------------------------------------ */

typedef struct dtss_master dtss_master;

/* A new master with the defaults (scheme dtss, sampling R = 1, a worker on
 * every host of the virtual machine but this one, the worker program = this
 * program). Nothing touches PVM before dtss_master_start. NULL only when out
 * of memory. */
dtss_master *dtss_master_new(void);

/* Sets option 'name' (as on the command line, without "--") to 'value'
 * (NULL for the flags include-self and acp-int). The options:
 *   scheme NAME       dtss (default), tss, gss, fss, css, pss, qss, ess, rss,
 *                     wf, awf-b, awf-c, awf-d, awf-e, af (fed the workers'
 *                     measured times), dtss-m (ours: DTSS sized by the
 *                     workers' measured rates), or tree (Tree-Scheduling)
 *   PARAM VALUE       a parameter of the scheme (F, L, k, alpha, delta, cn;
 *                     bin/chunks --help says which scheme takes which), and
 *   min N             the minimum chunk size
 *   iterations N      the loop's size I (0 .. 2^31 - 1: PVM carries 32 bits)
 *   sample R          pseudo-uniform sampling frequency (>= 1; 1 = none)
 *   hosts H1,H2,...   the hosts that get a worker (a host may repeat)
 *   include-self      a worker on the master's host too
 *   local N           N workers on the master's host (a one-host machine)
 *   worker PATH       the worker program (default: this program)
 *   acp-int           A_i = floor(V_i / Q_i), the paper's integer rule
 *   probe B           the workers' load probe: auto, proc or cgroup
 *   late F[,MIN]      a hung worker: a chunk outstanding longer than
 *                     max(F x its expected time, MIN seconds) is served
 *                     again to a worker that has nothing else to do (the
 *                     first result in counts, the other is refused);
 *                     expected time = the chunk's size over its worker's
 *                     rate (iterations per second of its completed chunks;
 *                     before its first, the run's; before any, nothing is
 *                     late). Default 3,30; "0" turns it off; F is 0 or in
 *                     [1, 1000], MIN in [0, 10^6]. The hung worker is not
 *                     waited for at the end, nor killed. Not under tree.
 *   journal FILE      the journal: FILE is created at dtss_master_start
 *                     (replacing any) and every result the master accepts
 *                     is appended to it as it arrives, before the
 *                     application sees it (flushed at once, fsync'd at most
 *                     once a second and at the end), with each chunk handed
 *                     out. "none" (the default): no journal. The
 *                     application removes it once its outputs are safe. A
 *                     write that fails (a full disk) is logged and ends the
 *                     journal, not the run: the file is removed (a resumed
 *                     one closed: its torn end is ignored on the next
 *                     resume). Under tree: the ranges the master sends and
 *                     the results, the same format.
 *   resume FILE       continue the run journaled in FILE, broken by a crash
 *                     of the master, its host or the pvmd: reads FILE's
 *                     header now and takes its run as if set here (scheme,
 *                     its parameters, iterations, sample, job); a value set
 *                     later that differs is refused by dtss_master_check,
 *                     naming it. dtss_master_start spawns workers as usual;
 *                     dtss_master_next first hands out every piece the
 *                     journal holds (worker -1, chunk -1), then the pieces
 *                     of the iterations it lacks: the chunks that were out
 *                     when the run broke, each gap whole, then the rest of
 *                     the loop planned afresh by the scheme; so every
 *                     iteration still comes exactly once. New results are
 *                     appended to FILE (a torn last entry, from a crash
 *                     mid-write, is cut off first). The run record's run
 *                     line gets resumed=N, the iterations taken from FILE.
 *                     DTSS_ENOENT: no FILE; DTSS_EINVAL: not a journal, or
 *                     a damaged header (one that names anything but the
 *                     scheme's parameters and min: a journal never sets
 *                     worker, hosts, resume...). Not with journal. Under
 *                     tree, the iterations the journal lacks are split
 *                     among the workers by their speeds (tree_resume).
 * Returns DTSS_OK, DTSS_ENOENT for an unknown name, or DTSS_EINVAL for a bad
 * value. Parameter ranges that depend on I are checked by dtss_master_check
 * (and dtss_master_start).
 * Before dtss_master_start only (DTSS_EMISUSE after). */
int dtss_master_set(dtss_master *m, const char *name, const char *value);

/* Takes the options above out of argv ("--name value", "--name=value", flags
 * alone), leaving the application's own in order: *argc shrinks, argv[*argc]
 * stays NULL. Stops at "--". An option that is not the runtime's is left for
 * the application. Returns DTSS_OK or the first error of dtss_master_set. */
int dtss_master_args(dtss_master *m, int *argc, char **argv);

/* Prints the options above, one per line, for a program's --help. */
void dtss_master_usage(FILE *f);

/* The job: 'len' bytes every worker receives once (dtss_worker_job),
 * copied. Optional (default: none). */
int dtss_master_job(dtss_master *m, const void *job, size_t len);

/* What each iteration's result takes, when every one takes the same: a
 * piece of s iterations returns s x bytes (1 .. 2147483647; 0, the default:
 * unknown, anything goes). Known, what could not come back is refused
 * before it is computed, with DTSS_EINVAL naming the numbers:
 * dtss_master_check refuses bytes over what one message carries (2147483647
 * bytes, WIRE_MAX_RESULT), dtss_master_next a chunk whose results would be
 * over it (size x bytes) as the scheme hands it out -- before the run, a
 * result over 2 GiB was found after it was computed -- and with option
 * resume, dtss_master_check refuses a journal holding results of other
 * sizes (naming the file and the entry), before any worker is spawned.
 * Without it, a worker stops at the first piece of a chunk whose results,
 * at that piece's bytes per iteration, would be over the limit. Before
 * dtss_master_start only. */
int dtss_master_result_bytes(dtss_master *m, long bytes);

/* The job: what dtss_master_job set, or what the journal named by option
 * resume holds (its run's job). len bytes, owned by m, valid until the job
 * is set again or m is freed; NULL (len 0) when there is none. */
const void *dtss_master_get_job(const dtss_master *m, size_t *len);

/* Where the runtime tells of its progress and of faults (workers lost,
 * chunks served again), one line each, starting "PREFIX: ". f = NULL: nothing.
 * verbose = 0: faults only. Default: stderr, "dtss", faults only. */
void dtss_master_log(dtss_master *m, FILE *f, const char *prefix, int verbose);

/* Checks the options as dtss_master_start will, without PVM: the scheme's
 * parameters against I, options that do not go together, and with option
 * resume the journal's every entry (a damaged or another run's journal:
 * DTSS_EINVAL naming the file, the entry and what is wrong). DTSS_OK, or
 * DTSS_EINVAL / DTSS_ENOENT with the bad value named. */
int dtss_master_check(dtss_master *m);

/* Joins PVM, checks the options (dtss_master_check), chooses the
 * hosts, spawns the workers and sends them the job. Returns DTSS_OK;
 * DTSS_EPVM when no pvmd runs, a spawn fails (the message says how to fix
 * it) or a send fails; DTSS_EINVAL/ENOENT for options (a parameter out of
 * range, a host not in the virtual machine, no host to use). On an error the
 * workers spawned so far are killed. */
int dtss_master_start(dtss_master *m);

/* One piece of a finished chunk. */
typedef struct dtss_piece {
    long start, size;       /* iterations [start, start + size), original order */
    const void *data;       /* the bytes the worker returned for them */
    size_t len;             /* data and len stay valid until the next call */
    int worker;             /* 0 .. dtss_master_workers(m) - 1 (-1: from the
                               journal of a resumed run, option resume) */
    long chunk;             /* the chunk's id in the run record (-1: journal) */
} dtss_piece;

/* Runs the schedule until the next piece is in: DTSS_PIECE with *p filled;
 * DTSS_DONE when every iteration is in (the workers are then told to stop
 * and waited for; later calls return DTSS_DONE again); or an error:
 * DTSS_ELOST when every worker was lost, DTSS_EPVM, DTSS_ENOMEM. Every
 * iteration of the loop comes exactly once over the run, whatever workers
 * are lost on the way. */
int dtss_master_next(dtss_master *m, dtss_piece *p);

/* After DTSS_DONE: the run's figures (seconds from the start of the
 * schedule). Imbalance is max - min of the workers' finish times. */
double dtss_master_finish(const dtss_master *m);
double dtss_master_imbalance(const dtss_master *m);
int dtss_master_replans(const dtss_master *m);

/* After dtss_master_start: the number of workers, and worker i's host
 * name and virtual computing power V_i (its hostfile sp= over the smallest
 * sp= among the hosts used). The string is the master's. */
int dtss_master_workers(const dtss_master *m);
const char *dtss_master_host(const dtss_master *m, int i);
double dtss_master_speed(const dtss_master *m, int i);

/* A workload field of the run record's run line (key=value: letters,
 * digits, '_', '-', '.'; the value without commas or line breaks). Set at
 * any time before dtss_master_write_record: fields set before
 * dtss_master_start are kept. */
int dtss_master_field(dtss_master *m, const char *key, const char *value);
/* Writes the run record (CSV, docs/runtime.md "The run record") to path
 * ("-": stdout), whole or not at all: into a new file beside path, renamed
 * over it once complete; on an error path is left as it was (DTSS_EINVAL,
 * the message naming path and the system's error text). */
int dtss_master_write_record(dtss_master *m, const char *path);
/* Prints the paper's summary line: "SCHEME: W1 t ... Finish t Imbalance t". */
void dtss_master_summary(const dtss_master *m, FILE *f);

/* The message of the last error. Always a string; owned by m. */
const char *dtss_master_errmsg(const dtss_master *m);

/* Kills any worker still running (but a hung one, see late), leaves PVM and
 * frees m (NULL: nothing). */
void dtss_master_free(dtss_master *m);

/* ---- a worker --------------------------------------------------------------- */

typedef struct dtss_worker dtss_worker;

/* 1 when argv is that of a worker spawned by a master (the runtime marks it
 * so), or, on MPI (libdtss-mpi), in every rank but 0; 0 otherwise: how one
 * program tells its two roles apart. */
int dtss_is_worker(int argc, char **argv);

/* Joins PVM and waits for the job. *w is set even on error (for
 * dtss_worker_errmsg; free it with dtss_worker_close), except when out of
 * memory (NULL). DTSS_EMISUSE: not spawned by a master; DTSS_EPVM;
 * DTSS_ELOST: the master exited first. */
int dtss_worker_open(dtss_worker **w, int argc, char **argv);

/* The job the master gave (len bytes, owned by w, valid until close). */
const void *dtss_worker_job(const dtss_worker *w, size_t *len);
/* This worker's number (0 .. count - 1) and the number of workers. */
int dtss_worker_index(const dtss_worker *w);
int dtss_worker_count(const dtss_worker *w);
/* The loop's size, I. */
long dtss_worker_iterations(const dtss_worker *w);

/* Pieces of at most 'grain' iterations (>= 1; default 1). */
int dtss_worker_set_grain(dtss_worker *w, long grain);

/* The next piece to compute: DTSS_PIECE with iterations [*start, *start +
 * *size) of the loop in its original order; DTSS_DONE when the master has
 * no more work (return from the worker then); DTSS_ELOST when the master
 * died; DTSS_EPVM. The previous piece's result is what dtss_worker_result
 * gave since (nothing: an empty result). */
int dtss_worker_next(dtss_worker *w, long *start, long *size);

/* The result of the piece in hand: len bytes, copied (they reach the
 * master's dtss_piece as they are). Calling it again for the same piece
 * appends. DTSS_EMISUSE when no piece is in hand. */
int dtss_worker_result(dtss_worker *w, const void *data, size_t len);

/* What the piece in hand cost, in any unit >= 0 that is the same on every
 * worker (e.g. the inner loop's steps); calling it again for the same piece
 * adds. Optional: the library times every piece and sends the master, with
 * each request, the chunk's per-iteration mean time and deviation (the
 * adaptive schemes wf, awf-*, af) and its rate, cost units a second -- or
 * iterations a second for pieces whose cost was not told (scheme dtss-m,
 * which sizes chunks by the rates). DTSS_EMISUSE when no piece is in hand,
 * DTSS_EINVAL for a negative or non-finite cost. */
int dtss_worker_cost(dtss_worker *w, double units);

/* Whether to stop computing the piece in hand: 1 when the master has
 * exited (dtss_worker_next then returns DTSS_ELOST) or the worker failed
 * (w = NULL too), 0 otherwise. The library looks for the master's exit
 * only in dtss_worker_next, so a worker outlives its master by the piece
 * in hand: when a piece can take long (more than a second or so), call this
 * every few milliseconds of computation and, on 1, go straight back to
 * dtss_worker_next. Cheap: a clock read, and at most every 20 ms one
 * pvm_nrecv of PVM's task-exit notice (no other message is taken). Owns
 * nothing; safe to call at any time after dtss_worker_open. */
int dtss_worker_cancelled(dtss_worker *w);

const char *dtss_worker_errmsg(const dtss_worker *w);
/* Leaves PVM and frees w (NULL: nothing). */
void dtss_worker_close(dtss_worker *w);

/* ---- an iterative run on a pool that grows and shrinks ---------------------
 *
 * Heymann, Senar, Luque & Livny, "Self-Adjusting Scheduling of Master-Worker
 * Applications on Distributed Clusters" (Euro-Par 2001). The run is a batch
 * of tasks per iteration; the master updates its own data between
 * iterations. Each task is the application's number (0 .. ntasks - 1) and
 * an opaque payload; its result is opaque bytes and the time its worker
 * spent computing it. The runtime hands an iteration's tasks out in
 * decreasing order of their average execution time so far (the largest
 * alone on a machine, the small ones together), one at a time to each idle
 * worker, and holds as many workers as the pool strategy asks
 * (sched/pool/pool.h: 'adjust', Figure 3.1; 'static', the paper's baseline):
 * after every iteration it requests workers, or releases them.
 *
 * A worker is a process on a host of its own: the pool's hosts are the
 * virtual machine's (all but the master's, or --hosts, which may name hosts
 * the runtime adds to the virtual machine and deletes again), one worker
 * each at a time. Requests are served one worker at a time, 'delay' seconds each
 * (a Condor pool's allocation is not immediate: docs/pool.md); a request
 * served spawns the worker on a free host (pvm_spawn); its first message
 * makes it held; releasing it stops it (it exits, its host is free again).
 * A worker that dies or whose host leaves is lost: its task is handed out
 * again, first, and the strategy's Nworkers is kept by a new request.
 *
 * The master:
 *
 *     dtss_pool *p = dtss_pool_new();
 *     if (dtss_pool_args(p, &argc, argv) != DTSS_OK)    (--strategy, --delay...)
 *         fail(dtss_pool_errmsg(p));
 *     dtss_pool_job(p, &params, sizeof params);          (what workers need)
 *     if (dtss_pool_start(p, ntasks) != DTSS_OK) fail(...);
 *     for (each iteration) {
 *         for (each task t of it) dtss_pool_task(p, t, payload, len);
 *         dtss_task_result r;
 *         while ((rc = dtss_pool_next(p, &r)) == DTSS_PIECE) {
 *             store(r.task, r.data, r.len);
 *             if (task r.task will not run again) dtss_pool_converged(p, r.task);
 *         }
 *         if (rc != DTSS_DONE) fail(dtss_pool_errmsg(p));
 *         ... update the shared data, find the next iteration's tasks ...
 *         dtss_pool_end_iteration(p, next_ntasks);   (0: the last; workers go)
 *     }
 *     dtss_pool_summary(p, stdout);
 *     dtss_pool_write_record(p, "run.csv");
 *     dtss_pool_free(p);
 *
 * A worker (spawned by the master; dtss_is_worker tells it apart):
 *
 *     dtss_pool_worker *w;
 *     if (dtss_pool_worker_open(&w, argc, argv) != DTSS_OK) fail(...);
 *     job = dtss_pool_worker_job(w, &len);
 *     int task; const void *in; size_t n;
 *     while ((rc = dtss_pool_worker_next(w, &task, &in, &n)) == DTSS_PIECE)
 *         dtss_pool_worker_result(w, out, outlen);      (compute, then answer)
 *     dtss_pool_worker_close(w);              (rc: DTSS_DONE when released)
 */

typedef struct dtss_pool dtss_pool;

/* A new master: strategy adjust, the paper's parameters, the allocation
 * delay 13 s, every host but the master's. NULL only out of memory. */
dtss_pool *dtss_pool_new(void);

/* Options (as on the command line, without "--"):
 *   strategy NAME     adjust (default, Figure 3.1) or static (the paper's
 *                     non-self-adjusting baseline)
 *   asp READING       adjust: Nworkers = floor(asp) + 1 (floor1, default)
 *                     or ceil(asp) (ceil)
 *   threshold X       adjust: add a worker when an iteration took longer
 *                     than max + MAX(min, X max) (0.15)
 *   efficiency E      adjust: release one below this efficiency (0.8)
 *   allocator NAME    where the workers' hosts come from: delay (the
 *                     default: the modelled delay below) or slurm (each
 *                     worker a Slurm allocation of one node, granted by
 *                     Slurm and ended with the worker; docs/slurm.md)
 *   delay S           allocation delay, seconds, 0 .. 10^6 (13: the
 *                     delay that gives the paper's Figure 4.2 at its scale,
 *                     largest 8-part task ~50 s; scale it with the tasks)
 *   hosts H1,H2,...   the pool's hosts (a host may repeat: a worker each); a
 *                     host not in the virtual machine is added to it
 *                     (pvm_addhosts) when a worker is to run there, and
 *                     deleted (pvm_delhosts) once no worker is left on it
 *   local N           the pool is N places on the master's own host
 *   worker PATH       the worker program (default: this program)
 *   journal FILE      every result accepted is appended to FILE (created at
 *                     dtss_pool_start, replacing any) before the application
 *                     sees it, keyed by iteration, task and its payload's
 *                     FNV-1a; "none" (the default): no journal. A write that
 *                     fails is logged and ends the journal, not the run.
 *   resume FILE       continue the run journaled in FILE: dtss_pool_start
 *                     reads it (DTSS_ENOENT: no FILE; DTSS_EINVAL: not a
 *                     journal, damaged, or its job or ntasks not this run's,
 *                     named); a task whose (iteration, task) it holds with
 *                     the same payload is not computed: dtss_pool_next hands
 *                     its result out first (worker -1); another payload is
 *                     refused by dtss_pool_task (DTSS_EINVAL). New results
 *                     are appended to FILE. Not with journal.
 * DTSS_ENOENT for an unknown name, DTSS_EINVAL for a bad value (named);
 * before dtss_pool_start only (DTSS_EMISUSE after). */
int dtss_pool_set(dtss_pool *p, const char *name, const char *value);
/* Takes the options above out of argv (as dtss_master_args does). */
int dtss_pool_args(dtss_pool *p, int *argc, char **argv);
void dtss_pool_usage(FILE *f);
int dtss_pool_job(dtss_pool *p, const void *job, size_t len);
/* As dtss_master_log: verbose 1 tells of every request, join and release. */
void dtss_pool_log(dtss_pool *p, FILE *f, const char *prefix, int verbose);

/* Joins PVM, finds the pool's hosts and requests ntasks workers (Figure
 * 3.1 step 1; 1 .. 10^6 tasks). t = 0 of the run's times is now. DTSS_OK;
 * DTSS_EPVM (no pvmd); DTSS_EINVAL / DTSS_ENOENT for options (a host not in
 * the virtual machine, no host for the pool). */
int dtss_pool_start(dtss_pool *p, int ntasks);

/* Adds task 'task' (0 .. ntasks - 1, once an iteration) with its payload
 * (copied) to the iteration; the first after dtss_pool_end_iteration (or
 * dtss_pool_start) opens the next iteration. */
int dtss_pool_task(dtss_pool *p, int task, const void *payload, size_t len);

typedef struct dtss_task_result {
    int task;
    int iteration;          /* 1, 2, ... */
    const void *data;       /* the bytes its worker returned, valid until */
    size_t len;             /* the next call */
    double seconds;         /* its execution time, as the worker measured it */
    int worker;             /* 1, 2, ...: the record's worker number; -1: the
                               resumed journal's (option resume) */
} dtss_task_result;

/* Runs the iteration until a task's result is in: DTSS_PIECE with *r;
 * DTSS_DONE when every task of the iteration is in (the iteration ended
 * with the last result); or an error (DTSS_ELOST: no worker is held and
 * none can be had; DTSS_EPVM). Each task's result comes once, whatever
 * workers are lost. */
int dtss_pool_next(dtss_pool *p, dtss_task_result *r);

/* Task 'task' will not run again (the static strategy then releases its
 * worker when no other task remains for it; adjust ignores it). */
int dtss_pool_converged(dtss_pool *p, int task);

/* After DTSS_DONE: the strategy decides the number of workers from the
 * iteration's task times, knowing the next iteration has next_ntasks tasks
 * (0: there is none; every worker is released and waited for). */
int dtss_pool_end_iteration(dtss_pool *p, int next_ntasks);

/* After the last iteration: the run's figures (Table 4.1's columns). */
typedef struct dtss_pool_stats {
    int iterations;
    double time;            /* seconds, from dtss_pool_start to the last result */
    double workers;         /* held on average (worker-seconds / time) */
    double efficiency;      /* task seconds / worker-seconds held */
    int peak;               /* most workers held at once */
    long requested, cancelled, released, lost;
    long hung;              /* workers taken for hung (--late) */
    long resumed;           /* results taken from the resumed journal */
} dtss_pool_stats;
int dtss_pool_stats_get(const dtss_pool *p, dtss_pool_stats *s);
/* One line: "STRATEGY: iterations N, workers W, efficiency E, time T s,
 * time/efficiency R s, peak P". */
void dtss_pool_summary(const dtss_pool *p, FILE *f);
/* A workload field of the record (key=value as dtss_master_field). */
int dtss_pool_field(dtss_pool *p, const char *key, const char *value);
/* The run record (sched/records/poolrec.h; "-": stdout), whole or not at all. */
int dtss_pool_write_record(dtss_pool *p, const char *path);
const char *dtss_pool_errmsg(const dtss_pool *p);
/* Stops and kills any worker still there, leaves PVM, frees p. */
void dtss_pool_free(dtss_pool *p);

typedef struct dtss_pool_worker dtss_pool_worker;

/* Joins PVM, waits for the job and tells the master it is ready. *w is set
 * even on error (but out of memory); close it. */
int dtss_pool_worker_open(dtss_pool_worker **w, int argc, char **argv);
const void *dtss_pool_worker_job(const dtss_pool_worker *w, size_t *len);
/* The next task: DTSS_PIECE with its number and payload (valid until the
 * next call); DTSS_DONE when released; DTSS_ELOST when the master died. The
 * previous task's result is sent first. */
int dtss_pool_worker_next(dtss_pool_worker *w, int *task, const void **payload,
                          size_t *len);
/* The result of the task in hand (copied; once). */
int dtss_pool_worker_result(dtss_pool_worker *w, const void *data, size_t len);
const char *dtss_pool_worker_errmsg(const dtss_pool_worker *w);
void dtss_pool_worker_close(dtss_pool_worker *w);

/* ---- Load balancing by migration (Yoon et al.; runtime/lb/) ----
 * Every worker starts with an equal share of the tasks in its own queue
 * and runs them in order; every period the master gathers the queues'
 * lengths and the tasks finished, a strategy of sched/lb/lb.h (yoon, clb, dlb,
 * mclb, none) chooses the migrations, and senders send queued tasks to
 * receivers directly. Master:
 *
 *     dtss_lb *b = dtss_lb_new();
 *     if (dtss_lb_args(b, &argc, argv) != DTSS_OK)   (--strategy, --period, --ct...)
 *         fail(dtss_lb_errmsg(b));
 *     dtss_lb_job(b, &params, sizeof params);
 *     for (each task) dtss_lb_task(b, payload, len);  (numbered 0, 1, ...)
 *     if (dtss_lb_start(b) != DTSS_OK) fail(...);     (spawns, deals the shares)
 *     while ((rc = dtss_lb_next(b, &r)) == DTSS_PIECE)
 *         ... r.task's result r.data, r.len ...
 *     if (rc != DTSS_DONE) fail(dtss_lb_errmsg(b));
 *     dtss_lb_summary(b, stdout);
 *     dtss_lb_write_record(b, "run.csv");
 *     dtss_lb_free(b);
 *
 * Worker (the same program, started with --dtss-worker):
 *
 *     dtss_lb_worker *w;
 *     if (dtss_lb_worker_open(&w, argc, argv) != DTSS_OK) fail(...);
 *     while ((rc = dtss_lb_worker_next(w, &task, &in, &n)) == DTSS_PIECE)
 *         dtss_lb_worker_result(w, out, outlen);
 *     dtss_lb_worker_close(w);
 */
typedef struct dtss_lb dtss_lb;

/* A new master: strategy yoon, period 1 s, C_t 0.001 s, a worker on every
 * host but the master's. NULL only out of memory. */
dtss_lb *dtss_lb_new(void);
/* Options: strategy NAME, period S, ct S, late F[,MIN], hosts H1,H2 (a host
 * may repeat), local N, worker PATH, journal FILE|none, resume FILE
 * (dtss_lb_usage says each). DTSS_ENOENT for an unknown name or strategy,
 * DTSS_EINVAL for a bad value (named); before dtss_lb_start only.
 *   journal FILE  created at dtss_lb_start (replacing any): the job, the
 *                 tasks' count and checksum, then every result the master
 *                 accepts, appended before the application sees it
 *                 (runtime/lb/journal.c). A write that fails is logged and
 *                 ends the journal (removed), not the run. Kept at the end.
 *   resume FILE   continue the run journaled in FILE: dtss_lb_start reads
 *                 it first (DTSS_ENOENT: no FILE; DTSS_EINVAL: not a
 *                 journal, a damaged header, or another run's -- another
 *                 job, other tasks, an entry not of this run -- named);
 *                 the shares are dealt over the tasks it lacks only;
 *                 dtss_lb_next hands out its results first (worker -1),
 *                 then the new ones, which are appended to FILE. */
int dtss_lb_set(dtss_lb *b, const char *name, const char *value);
int dtss_lb_args(dtss_lb *b, int *argc, char **argv);
void dtss_lb_usage(FILE *f);
/* verbose 1: a line per balancing round. */
void dtss_lb_log(dtss_lb *b, FILE *f, const char *prefix, int verbose);
int dtss_lb_job(dtss_lb *b, const void *job, size_t len);
/* Adds the next task (numbered from 0 in the order added; payload copied). */
int dtss_lb_task(dtss_lb *b, const void *payload, size_t len);
/* Joins PVM, spawns a worker per host and deals worker i the tasks
 * [i N / P, (i + 1) N / P) (resumed: of the N tasks the journal lacks).
 * t = 0 of the run's times is now. DTSS_OK, DTSS_EPVM, DTSS_EINVAL (no
 * task, a host not in the virtual machine, a journal refused). */
int dtss_lb_start(dtss_lb *b);
/* Runs (balancing every period) until a task's result is in: DTSS_PIECE
 * with *r (data valid until the next call; r->worker: 1, 2, ...; -1: from the journal); DTSS_DONE
 * when every result is in (the workers are then stopped); DTSS_ELOST when
 * a worker exited (its queue is lost: the run fails); DTSS_EPVM. */
int dtss_lb_next(dtss_lb *b, dtss_task_result *r);

typedef struct dtss_lb_stats {
    int workers, tasks;
    double time;            /* seconds from dtss_lb_start to the last result */
    double imbalance;       /* the last worker's last result - the first's */
    int balancings;         /* rounds planned */
    long moved;             /* tasks ordered to move */
    int lost;               /* workers lost or taken for hung (--late) */
    long redealt;           /* their tasks dealt again to the others */
    long journaled;         /* results taken from the journal (option resume) */
} dtss_lb_stats;
/* After DTSS_DONE. */
int dtss_lb_stats_get(const dtss_lb *b, dtss_lb_stats *s);
/* "STRATEGY: P workers, N tasks, time T s, imbalance I s, R balancings, M
 * tasks moved" (then "; L workers lost, D tasks dealt again" if any, and
 * "; J results from the journal" when resumed). */
void dtss_lb_summary(const dtss_lb *b, FILE *f);
/* The run record ("-": stdout): run, worker, round and task lines. */
int dtss_lb_write_record(dtss_lb *b, const char *path);
const char *dtss_lb_errmsg(const dtss_lb *b);
/* Kills any worker still there, leaves PVM, frees b. */
void dtss_lb_free(dtss_lb *b);

typedef struct dtss_lb_worker dtss_lb_worker;
/* Joins PVM and takes the job and the first share. *w is set even on error
 * (but out of memory); close it. */
int dtss_lb_worker_open(dtss_lb_worker **w, int argc, char **argv);
const void *dtss_lb_worker_job(const dtss_lb_worker *w, size_t *len);
/* The next task of this worker's queue: DTSS_PIECE with its number and
 * payload (valid until the next call); DTSS_DONE when the master stops the
 * run; DTSS_ELOST when it died. Sends the previous task's result first and
 * answers the master's messages (counts, migrations) between tasks. */
int dtss_lb_worker_next(dtss_lb_worker *w, int *task, const void **payload, size_t *len);
/* The result of the task in hand (copied; once; none: an empty result). */
int dtss_lb_worker_result(dtss_lb_worker *w, const void *data, size_t len);
const char *dtss_lb_worker_errmsg(const dtss_lb_worker *w);
void dtss_lb_worker_close(dtss_lb_worker *w);

/* ---- Row strips, re-cut by load balancing (runtime/strips/) ----
 * R rows of B bytes (a plate, a grid) held by P workers in contiguous
 * strips; every step each worker computes its rows' new values from its
 * rows and its two neighbours' edge rows (the runtime exchanges them: halo
 * rows); every K steps the master re-cuts the strips by a strategy of
 * sched/lb/lb.h (a row is a task) and rows move between neighbours. The
 * result does not depend on the cut when a row's new value depends only on
 * its own and its neighbours' values (the application's part). Master:
 *
 *     dtss_strips *s = dtss_strips_new();
 *     if (dtss_strips_args(s, &argc, argv) != DTSS_OK)  (--strategy, --every...)
 *         fail(dtss_strips_errmsg(s));
 *     dtss_strips_job(s, &params, sizeof params);
 *     rc = dtss_strips_run(s, R, B, steps, field);    (field: R x B bytes, the
 *     if (rc != DTSS_DONE) fail(...);                  start in, the end out)
 *     dtss_strips_summary(s, stdout);
 *     dtss_strips_free(s);
 *
 * Worker (the same program, started with --dtss-worker):
 *
 *     dtss_strips_worker *w;
 *     dtss_strips_piece p;
 *     if (dtss_strips_worker_open(&w, argc, argv) != DTSS_OK) fail(...);
 *     while ((rc = dtss_strips_worker_step(w, &p)) == DTSS_PIECE)
 *         ... p.out = the rows p.first .. p.first + p.rows - 1 one step on,
 *             from p.in, p.above and p.below ...
 *     dtss_strips_worker_close(w);              (rc: DTSS_DONE at the end)
 */
typedef struct dtss_strips dtss_strips;

/* A new master: strategy yoon, a re-cut every 50 steps, C_t 0.001 s, a
 * worker on every host but the master's. NULL only out of memory. */
dtss_strips *dtss_strips_new(void);
/* Options: strategy NAME, every K, checkpoint N, late F[,MIN], ct S, hosts
 * H1,H2 (the strips in this order), local N, worker PATH (dtss_strips_usage
 * says each). DTSS_ENOENT
 * for an unknown name or strategy, DTSS_EINVAL for a bad value (named);
 * before dtss_strips_run only. */
int dtss_strips_set(dtss_strips *s, const char *name, const char *value);
int dtss_strips_args(dtss_strips *s, int *argc, char **argv);
void dtss_strips_usage(FILE *f);
/* verbose 1: a line per re-cut. */
void dtss_strips_log(dtss_strips *s, FILE *f, const char *prefix, int verbose);
int dtss_strips_job(dtss_strips *s, const void *job, size_t len);
/* Joins PVM, spawns a worker per host, deals the rows of field (rows x
 * row_bytes bytes; rows 1 .. 65536, at least one per worker) in strips as
 * even as can be, runs 'steps' steps (re-cutting every K steps) and gathers
 * the rows back into field (used meanwhile: the master keeps a checkpoint
 * of the rows there, and a second field of its own). A worker lost (its
 * exit, or taken for hung by the late rule) is dropped: the rows of the
 * last checkpoint are re-cut among the workers left, who go on from there.
 * DTSS_DONE; DTSS_ELOST (every worker lost); DTSS_EPVM; DTSS_EINVAL (sizes,
 * hosts). */
int dtss_strips_run(dtss_strips *s, long rows, size_t row_bytes, long steps, void *field);

typedef struct dtss_strips_stats {
    int workers;
    double time;            /* from every worker holding its rows to the last step's end */
    double imbalance;       /* the last worker's end - the first's */
    int recuts;
    long moved;             /* rows that crossed a boundary, summed */
    int restores;           /* a worker lost: the rows of the last checkpoint re-cut */
    int lost;               /* workers lost (exited, or taken for hung) */
    long refused;           /* messages of lost workers refused */
    long resumed;           /* --resume: the step the run went on from (its journal's last
                               barrier; 0: it held none); -1: not resumed */
} dtss_strips_stats;
/* After DTSS_DONE. */
int dtss_strips_stats_get(const dtss_strips *s, dtss_strips_stats *st);
/* "STRATEGY: P workers, R rows, S steps, time T s, N re-cuts, M rows moved;
 * rows at the end: n1 n2 ..." (then the restores, and "; resumed from step
 * K" for a resumed run) */
void dtss_strips_summary(const dtss_strips *s, FILE *f);
/* The run record ("-": stdout): run, worker and recut lines. */
int dtss_strips_write_record(dtss_strips *s, const char *path);
const char *dtss_strips_errmsg(const dtss_strips *s);
void dtss_strips_free(dtss_strips *s);

/* One step of a worker's strip: compute rows [first, first + rows) after
 * 'step' + 1 steps into out (rows x row_bytes bytes) from in (the same rows
 * after 'step' steps), above (row first - 1; NULL when first = 0) and below
 * (row first + rows; NULL at the last row). Valid until the next call. */
typedef struct dtss_strips_piece {
    long step, steps;
    int first, rows;
    long total_rows;
    size_t row_bytes;
    const void *in, *above, *below;
    void *out;
} dtss_strips_piece;

typedef struct dtss_strips_worker dtss_strips_worker;
/* Joins PVM, takes the job and the first strip. *w is set even on error
 * (but out of memory); close it. */
int dtss_strips_worker_open(dtss_strips_worker **w, int argc, char **argv);
const void *dtss_strips_worker_job(const dtss_strips_worker *w, size_t *len);
/* The next step: DTSS_PIECE with *p (the previous step's out becomes its
 * rows; halo rows exchanged; at a re-cut, rows sent and received first;
 * after another worker's loss, the rows and step of the last checkpoint);
 * DTSS_DONE after the last step (its rows sent to the master); DTSS_ELOST
 * when the master died; DTSS_EPVM. */
int dtss_strips_worker_step(dtss_strips_worker *w, dtss_strips_piece *p);
const char *dtss_strips_worker_errmsg(const dtss_strips_worker *w);
void dtss_strips_worker_close(dtss_strips_worker *w);

/* The load probe alone (no PVM): writes "host=NAME backend=B cgroup=PATH
 * Q=N cpus=N" for this host to line (len bytes), Q being the processes in
 * its run-queue (the caller counts itself). backend: "auto", "proc" or
 * "cgroup". Returns DTSS_OK, or an error with the message in line. */
int dtss_probe(const char *backend, char *line, size_t len);

#ifdef __cplusplus
}
#endif

#endif
