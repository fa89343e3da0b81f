/*
 * cnum.c: reading and writing numbers in the "C" locale.
 *
 * strtod, strtof and printf's %g follow the locale's LC_NUMERIC: in a
 * process that called setlocale(LC_ALL, "") under a locale with a decimal
 * comma (de_DE, fr_FR...), strtod("1.5") reads 1 and "%g" writes "1,5".
 * Pier's texts (JSON, SQL, the types' forms) always use '.', so these
 * run with the thread's locale switched to "C" for the call (uselocale:
 * POSIX.1-2008, per thread, no lock), and the application's locale is
 * back when they return.
 */
#include <locale.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/base.h"

static locale_t c_locale;
static pthread_once_t c_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void)
{
    /* glibc hands out its built-in "C" object here: nothing to free. */
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

/* Switches this thread to the "C" locale; returns what to switch back
 * to, or 0 if the switch could not be made (then the numbers are read in
 * whatever locale is in force, which the callers' tests would show). */
static locale_t enter_c(void)
{
    pthread_once(&c_once, make_c_locale);
    return c_locale != (locale_t)0 ? uselocale(c_locale) : (locale_t)0;
}

static void leave_c(locale_t saved)
{
    if (saved != (locale_t)0)
        uselocale(saved);
}

double pier__strtod(const char *s, char **end)
{
    locale_t saved = enter_c();
    double d = strtod(s, end);
    leave_c(saved);
    return d;
}

float pier__strtof(const char *s, char **end)
{
    locale_t saved = enter_c();
    float f = strtof(s, end);
    leave_c(saved);
    return f;
}

int pier__snprintf_c(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    locale_t saved = enter_c();
    int n = vsnprintf(buf, size, fmt, ap);
    leave_c(saved);
    va_end(ap);
    return n;
}
