/*
 * Preloaded after the ASan runtime into Debian's postgres (tests/sanitize/private-postgres).
 *
 * postgres loads libp11-kit (through libldap and gnutls), whose constructor runs before the
 * runtime's own and calls newlocale(); the first malloc in there initialises ASan, whose setup
 * looks up swift_demangle and, not finding it, has dlerror() translate the message, which takes
 * the locale lock newlocale holds: the process hangs. Defining the symbol avoids the failed
 * lookup. ASan calls it only to demangle Swift names, which a PostgreSQL server has none of.
 *
 * The programs the server starts (COPY TO PROGRAM, archive_command) are not instrumented and
 * must not run under the runtime (dd's aligned_alloc(4096, 1) is an error to ASan): once loaded,
 * the preload leaves the environment they inherit.
 */
#include <stddef.h>
#include <stdlib.h>

char *swift_demangle(const char *mangled, size_t length, char *out, size_t *out_length,
                     unsigned flags);

char *swift_demangle(const char *mangled, size_t length, char *out, size_t *out_length,
                     unsigned flags)
{
    (void)mangled;
    (void)length;
    (void)out;
    (void)out_length;
    (void)flags;
    return NULL;
}

__attribute__((constructor)) static void ForgetPreload(void)
{
    unsetenv("LD_PRELOAD");
}
