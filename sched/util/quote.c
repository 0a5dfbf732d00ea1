/* quote.c: a user's value quoted into a message safely (quote.h). */
#include <stdio.h>
#include <string.h>

#include "sched/util/quote.h"

/* The length of the UTF-8 character at s (n bytes there) when it is valid
 * and may be shown as is; 0 otherwise (an invalid or overlong sequence, a
 * surrogate, a C1 control, an invisible or reordering mark). */
static size_t utf8_shown(const unsigned char *s, size_t n)
{
    unsigned c = s[0], cp;
    size_t len;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, cp = c & 0x1f;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, cp = c & 0x0f;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, cp = c & 0x07;
    else
        return 0;
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff) || cp <= 0x9f ||
        (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
        (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff)
        return 0;
    return len;
}

char *quote_buf(char *buf, size_t len, const void *p, size_t n)
{
    const unsigned char *s = p;
    if (len == 0)
        return buf;
    if (len < 4) {                      /* no room for even "..." */
        buf[0] = '\0';
        return buf;
    }
    size_t max = len - 4 < QUOTE_MAX ? len - 4 : QUOTE_MAX, o = 0, i = 0;
    while (i < n) {
        char unit[8];
        size_t ul, used = 1;
        unsigned c = s[i];
        if (c == '\\' || c == '\'')
            ul = (size_t)snprintf(unit, sizeof unit, "\\%c", c);
        else if (c == '\n' || c == '\t' || c == '\r')
            ul = (size_t)snprintf(unit, sizeof unit, "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
        else if (c >= 0x20 && c < 0x7f)
            unit[0] = (char)c, ul = 1;
        else if (c >= 0x80 && (used = utf8_shown(s + i, n - i)) > 0)
            memcpy(unit, s + i, used), ul = used;
        else
            ul = (size_t)snprintf(unit, sizeof unit, "\\x%02x", c), used = 1;
        if (o + ul > max)
            break;
        memcpy(buf + o, unit, ul);
        o += ul;
        i += used;
    }
    if (i < n) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
    return buf;
}

static char *slot(void)
{
    static _Thread_local char bufs[QUOTE_SLOTS][QUOTE_MAX + 4];
    static _Thread_local unsigned next;
    return bufs[next++ % QUOTE_SLOTS];
}

const char *quote_mem(const void *p, size_t n)
{
    return quote_buf(slot(), QUOTE_MAX + 4, p, n);
}

const char *quote(const char *s)
{
    if (!s)
        return "(null)";
    return quote_mem(s, strlen(s));
}
