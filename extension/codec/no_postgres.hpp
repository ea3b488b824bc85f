// Guard: the codec is shared by the extension, the CLI and the HTTP server, so it must never see
// PostgreSQL headers (their macros clash with the C++ standard library and tie us to one process).
#pragma once

#ifdef PG_VERSION_NUM
#error "codec headers must not be compiled together with PostgreSQL headers"
#endif
