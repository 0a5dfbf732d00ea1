/* quote.h: a user's value (an argument, a file's line, a record field, a
 * path) quoted into a message safely: whatever bytes it holds, the message
 * stays one line of printable text of a bounded length.
 *
 *     return parse_fail("chunks", "-I '%s' is not an integer", quote(arg));
 *
 * What is kept and what is escaped (known answers in tests/test_record.c):
 *   printable ASCII              as is, but \ and ' as \\ and \'
 *   newline, tab, carriage ret.  \n \t \r
 *   other control bytes, DEL     \xHH (ESC: \x1b; NUL, in quote_mem: \x00)
 *   valid UTF-8 (2-4 bytes)      as is ("Díaz"), but the C1 controls
 *                                (U+0080..U+009F) and the invisible or
 *                                reordering marks (U+200B..U+200F,
 *                                U+2028..U+202E, U+2060..U+206F, U+FEFF)
 *                                byte by byte as \xHH
 *   any other byte (raw binary)  \xHH
 * At most QUOTE_MAX characters of that text are kept, cut between two
 * escapes or characters (never inside one), then "..." when anything was
 * left out: a 100 KB argument is shown as its first QUOTE_MAX characters.
 * The quotes around the value are the message's own ('%s').
 */
#ifndef QUOTE_H
#define QUOTE_H

#include <stddef.h>

#define QUOTE_MAX 80

/* s quoted, in one of QUOTE_SLOTS buffers used in turn by each thread: valid
 * until QUOTE_SLOTS later calls of quote or quote_mem in the same thread (a
 * message may quote that many values). NULL gives "(null)". */
#define QUOTE_SLOTS 8
const char *quote(const char *s);
/* The n bytes at p (NUL bytes included), likewise. */
const char *quote_mem(const void *p, size_t n);
/* The n bytes at p quoted into buf (len bytes, at least QUOTE_MAX + 4 to
 * hold the whole of it; less: cut shorter, still with "..."). Returns buf. */
char *quote_buf(char *buf, size_t len, const void *p, size_t n);

#endif
