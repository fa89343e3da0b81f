/*
 * uuid.c: UUIDs as text: the canonical 8-4-4-4-12 form (or 32 bare hex
 * digits) in, lowercase canonical out. The 16 bytes are kept in the order
 * written, so that their byte order is the order of the canonical text.
 * And new ones, of versions 4 and 7, from random bytes the caller gets.
 */
#include "types/codecs.h"

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

const char *pier__uuid_parse(const char *s, size_t n, unsigned char out[16])
{
    if (n != 36 && n != 32)
        return "a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens";
    bool hyphens = n == 36;
    size_t i = 0;
    for (int byte = 0; byte < 16; byte++) {
        /* Hyphens stand before bytes 4, 6, 8 and 10. */
        if (hyphens && (byte == 4 || byte == 6 || byte == 8 || byte == 10)) {
            if (s[i] != '-')
                return "a UUID's hyphens stand after 8, 12, 16 and 20 hex "
                       "digits";
            i++;
        }
        int hi = hex_value(s[i]), lo = hex_value(s[i + 1]);
        if (hi < 0 || lo < 0)
            return "a UUID holds only hex digits and hyphens";
        out[byte] = (unsigned char)(hi << 4 | lo);
        i += 2;
    }
    return NULL;
}

size_t pier__uuid_format(const unsigned char in[16], char out[PIER__UUID_BUF])
{
    static const char hex[] = "0123456789abcdef";
    char *p = out;
    for (int byte = 0; byte < 16; byte++) {
        if (byte == 4 || byte == 6 || byte == 8 || byte == 10)
            *p++ = '-';
        *p++ = hex[in[byte] >> 4];
        *p++ = hex[in[byte] & 15];
    }
    *p = '\0';
    return (size_t)(p - out);
}

/* The version in the high nibble of byte 6, the variant 10 in the high
 * bits of byte 8. */
static void set_version(unsigned char b[16], unsigned version)
{
    b[6] = (unsigned char)((b[6] & 0x0f) | version << 4);
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
}

void pier__uuid_v4(const unsigned char random[16], unsigned char out[16])
{
    for (int i = 0; i < 16; i++)
        out[i] = random[i];
    set_version(out, 4);
}

void pier__uuid_v7(pier__uuid_v7_state *st, int64_t unix_ms,
                   const unsigned char random[10], unsigned char out[16])
{
    unsigned seed = ((unsigned)random[0] << 8 | random[1]) & 0x7ff;
    if (unix_ms > st->ms) {
        st->ms = unix_ms;
        st->counter = seed;
    } else if (st->counter < 0xfff) {
        st->counter++;
    } else {
        st->ms++;
        st->counter = seed;
    }
    uint64_t ms = (uint64_t)st->ms & 0xffffffffffffu;
    for (int i = 0; i < 6; i++)
        out[i] = (unsigned char)(ms >> (40 - 8 * i));
    out[6] = (unsigned char)(st->counter >> 8);
    out[7] = (unsigned char)st->counter;
    for (int i = 0; i < 8; i++)
        out[8 + i] = random[2 + i];
    set_version(out, 7);
}
