/* lines.h: the one line reader of every line-oriented input file (run
 * records, simulator platforms, scenarios and cost files, DAG files, the
 * tables' info files).
 *
 *     lines in;
 *     if (lines_open(&in, path, msg, len) != 0) ...;   ("-": standard input)
 *     char *line;
 *     while ((line = lines_next(&in))) {
 *         char *tok[8];
 *         int n = lines_split(line, ",", tok, 8);       (or " \t")
 *         ... errors name in.path and in.lineno ...
 *     }
 *     if (lines_error(&in)) ... the message is in.msg ...
 *     lines_close(&in);
 *
 * Lines are read whole (getline), however long: a long line is never split
 * into two. The returned line has its '\n' (and a '\r' before it) removed,
 * and stays valid until the next lines_next or lines_close. A NUL byte inside
 * a line is an error (the line would silently end there).
 */
#ifndef LINES_H
#define LINES_H

#include <stdio.h>

typedef struct lines {
    FILE *f;
    const char *path;
    char *buf;
    size_t cap;
    long lineno;        /* of the line last returned, from 1 */
    int failed;         /* a read error or a NUL byte: msg says which */
    int owned;          /* opened by lines_open: closed by lines_close */
    char msg[320];
} lines;

/* Opens path ("-": standard input). Returns 0, or -1 with "PATH: strerror"
 * in msg. 'path' must stay valid until lines_close. */
int lines_open(lines *l, const char *path, char *msg, size_t len);
/* Reads from an open stream (not closed by lines_close). */
void lines_from(lines *l, FILE *f, const char *path);

/* The next line, or NULL at the end of the file or on an error
 * (lines_error tells which). */
char *lines_next(lines *l);
int lines_error(const lines *l);
void lines_close(lines *l);

/* Splits 'line' in place at any character of 'seps' into at most max fields
 * (field[0..n-1]). With seps = ",": every comma separates (empty fields
 * kept). With whitespace seps (" \t"): runs of separators count as one and
 * leading/trailing ones are skipped (no empty fields). Returns n, or -1 when
 * the line has more than max fields. */
int lines_split(char *line, const char *seps, char **field, int max);

/* A line that holds only blanks, or whose first non-blank is '#'. */
int lines_blank(const char *line);

#endif
