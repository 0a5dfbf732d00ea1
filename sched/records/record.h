/* record.h: the run record, one CSV file per run, written alike by the PVM
 * runtime and the simulator and read back by the same code, so the same
 * tools tabulate and plot both. The schema is in one place (record.c): the
 * writer prints it, the reader checks it.
 *
 * The file holds one record per line, its kind in the first field, and a
 * header line '#kind,field,...' before the first record of each kind:
 *
 *   run     scheme, workers, iterations, sample, finish, imbalance, replans,
 *           date, then the workload's own fields as key=value (the
 *           Mandelbrot application writes width, height, maxiter, checksum)
 *   worker  worker (1..n), host, seen_host (the host's own name for itself),
 *           tid, V, backend, cgroup, chunks, iterations, finish
 *   report  worker, time, Q, A          (every A_i report, Sec. 5.3 step 2)
 *   chunk   id, worker, start, size, acp, sent, recv, started, finished,
 *           received, reissue, done
 *   replan  time, workers, A            (each DTSS re-plan: when, the live
 *                                        workers, the total A_i of the plan)
 *
 * Times are seconds from t = 0, the moment the master starts handing out
 * work (self-scheduling: after every worker's first report; Tree-Scheduling:
 * when the ranges are sent). sent and received are the master's clock; recv
 * (the chunk arrived at the worker), started and finished the worker's,
 * comparable when the hosts' clocks agree (always on one machine, and in the
 * simulator). 'start' and 'size' index the loop as scheduled (the
 * pseudo-uniformly sampled loop when sample > 1: sched_sample maps them to
 * the original order). A worker's finish W_i is when the master received the
 * results of its last chunk; Finish Time is when every iteration was in;
 * Imbalance = max - min of the W_i over the workers that did any work (Xu &
 * Chronopoulos Tables 1-2). Empty fields: a worker without chunks has no
 * finish; a chunk not done has no worker times; a simulated run has no date.
 * Text fields never hold a comma or a line break (the writer replaces them
 * by '_').
 */
#ifndef RECORD_H
#define RECORD_H

#include <stdio.h>

#define RECORD_MAX_FIELDS 16

/* The longest host name and cgroup path a record holds (reading refuses
 * longer ones; record_text cuts them). */
#define REC_HOST_MAX 255
#define REC_CGROUP_MAX 511

/* A worker's text fields are owned by the record (record_text sets them,
 * record_free frees them); NULL stands for "" (rec_str reads them), so a
 * simulated platform of 10^6 hosts costs a name each, not a kilobyte. */
typedef struct rec_worker {
    char *host;             /* as PVM (or the platform file) names the host */
    char *seen_host;        /* the host's own name for itself */
    char *cgroup;
    char backend[16];       /* the load probe's back-end ("proc", "cgroup", "sim") */
    int tid;
    double V;               /* virtual computing power */
    long chunks, iters;     /* chunks and iterations done */
    double finish;          /* when its last chunk's results arrived */
} rec_worker;

typedef struct rec_chunk {
    long id;
    int worker;
    long start, size;
    double acp;             /* the A_i it was sized with (0: Tree) */
    double sent, recv, started, finished, received;
    int reissue, done;
} rec_chunk;

typedef struct rec_report {
    int worker, Q;
    double time, A;
} rec_report;

typedef struct rec_replan {
    double time, A;
    int workers;
} rec_replan;

/* A workload field of the run line: key=value. */
typedef struct rec_field {
    char key[32];
    char value[128];
} rec_field;

typedef struct rec_stream rec_stream;    /* record_stream's (record.c) */

typedef struct record {
    char scheme[32];
    long iters;                     /* the loop's iterations */
    int sample;                     /* pseudo-uniform sampling frequency R */
    char date[40];                  /* when the run was made ("": simulated) */
    double t0;                      /* the clock's value at t = 0 */
    double finish;                  /* seconds from t0 */
    double imbalance;               /* as read by record_read; NAN (record_init):
                                       computed from the workers */
    int replans;
    rec_field fields[RECORD_MAX_FIELDS];
    int nfields;
    rec_worker *w;
    int nw;
    rec_chunk *chunks;
    long nchunks, capchunks;
    rec_report *reports;
    long nreports, capreports;
    rec_replan *replan;             /* replans of them, with their times */
    int capreplan;
    rec_stream *stream;             /* NULL: all of it in memory (record_stream) */
} record;

/* Sets r up for nworkers workers (zeroed). Returns 0, or -1 out of memory. */
int record_init(record *r, int nworkers);
void record_free(record *r);
/* Sets a worker's text field (&w->host, &w->seen_host or &w->cgroup) to a
 * copy of s cut to max characters ("" or NULL: NULL). Returns 0, or -1 out
 * of memory (the field unchanged). */
int record_text(char **field, const char *s, size_t max);
/* A worker's text field as a string: "" for NULL. */
static inline const char *rec_str(const char *field) { return field ? field : ""; }
/* Sets the record's date to now (a real run; a simulated one has none). */
void record_date_now(record *r);

/* Sets (or replaces) the workload field key=value. Returns 0, or -1 with the
 * reason in msg: an empty key, or one that holds anything but letters,
 * digits, '_', '-' and '.', or a name of the run line's own; a value with a
 * comma or a line break; more than RECORD_MAX_FIELDS fields; too long. */
int record_field(record *r, const char *key, const char *value, char *msg,
                 size_t len);
/* The value of workload field key, or NULL. */
const char *record_get(const record *r, const char *key);

/* A new zeroed chunk entry, or NULL out of memory. */
rec_chunk *record_chunk(record *r);
/* Appends a load report. Returns 0, or -1 out of memory. */
int record_report(record *r, int w, int Q, double A, double time);
/* A re-plan happened at time with 'workers' live workers and total power A:
 * counted in replans and listed. Returns 0, or -1 out of memory. */
int record_replan(record *r, double time, int workers, double A);
/* The results of chunk c (an entry of r) came in at 'received', computed by
 * its worker between 'started' and 'finished' after it arrived at 'recv'
 * (worker clock): marks it done and adds it to its worker's totals. */
void record_done(record *r, rec_chunk *c, double recv, double started,
                 double finished, double received);

/* ---- a record too long to keep in memory ----------------------------------
 * A record keeps its chunks, reports and re-plans in memory, growing with the
 * run. record_stream, called on a new record (record_init, before its first
 * chunk), keeps in memory only what its summary needs -- the run line, the
 * workers and their totals, the counts (nchunks, nreports, replans) -- and a
 * window of the latest chunks, those a worker is likely still to report:
 *   dir NULL   nothing more: the record can be summed up (record_summary,
 *              record_imbalance, finish, the counts), not written;
 *   dir        the chunks, reports and re-plans go to spool files made in
 *              folder dir and removed from it at once (nothing is left
 *              behind, however the program ends); record_write reads them
 *              back, and writes the very bytes the whole record in memory
 *              would. They take about 100 bytes a chunk on dir's disk.
 * Memory then stays the same however long the run (a window of
 * RECORD_WINDOW chunks, more for a run of more workers, at most 2^20).
 * In a streamed record r->chunks, r->reports and r->replan stay NULL: make
 * chunks with record_chunk (the entry is valid until the next call) and end
 * them with record_done_id. Returns 0, or -1 with the reason in msg (out of
 * memory, a spool file that cannot be made in dir). */
#define RECORD_WINDOW 4096
int record_stream(record *r, const char *dir, char *msg, size_t len);
/* Chunk id (made by record_chunk, in either kind of record) came in, done by
 * 'worker' with 'size' iterations (its size less what it gave away):
 * record_done on its entry, wherever it is kept. Returns 0, or -1 when a
 * spool file failed (record_error says how). */
int record_done_id(record *r, long id, int worker, long size, double recv,
                   double started, double finished, double received);
/* Why the last call on a streamed record failed ("out of memory" when it is
 * not streamed). */
const char *record_error(const record *r);

/* Imbalance = max - min of the W_i over the workers with chunks (or, for a
 * record read back, the value the file holds: exactly what was written). */
double record_imbalance(const record *r);
/* The paper's line: "SCHEME: W1 t ... Finish t Imbalance t". */
void record_summary(const record *r, FILE *f);
/* Writes the record to path ("-": stdout), whole or not at all
 * (sched/util/outfile.h). Returns 0, or -1 with the failing call in msg (or
 * a record streamed without a spool: it has only its summary). */
int record_write(const record *r, const char *path, char *msg, size_t len);
/* Writes it to an open stream. Returns 0, or -1 on a write error (or a
 * failed spool file: record_error). */
int record_print(const record *r, FILE *f);

/* Reads a record written by record_write into r (t0 = 0). Columns are found
 * by their header names, so columns added later are skipped. Every field is
 * checked, so a consumer may trust what it gets: integers in range (workers
 * 1..2^20, iterations, ids and counts 0..2^50), a worker number within the
 * run's workers, a chunk's [start, start + size) within the run's
 * iterations, numbers finite, V, A and acp >= 0, times within 10^9 s and
 * those of the master's clock (finish, imbalance, a worker's finish, sent,
 * received, a re-plan's time) >= 0 (a worker's clock, and the load reports
 * before t = 0, may be below). Returns 0, or -1 with "PATH:LINE: FIELD
 * 'VALUE' what is wrong" in msg (r is then freed). */
int record_read(record *r, const char *path, char *msg, size_t len);

/* The schema: the field names of each kind, NULL-terminated (after the
 * kind itself), as in the header lines. kind is "run", "worker", "report",
 * "chunk" or "replan"; NULL for another. */
const char *const *record_columns(const char *kind);

#endif
