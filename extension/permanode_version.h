/*
 * permanode_version.h
 *	  The release version, shared by both extensions and the client. Bump it together with
 *	  default_version in the control files and add an upgrade script under sql/.
 */
#ifndef PERMANODE_VERSION_H
#define PERMANODE_VERSION_H

#define PERMANODE_VERSION "0.11.0"

#if defined(__clang__)
#define PERMANODE_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define PERMANODE_COMPILER "gcc " __VERSION__
#else
#define PERMANODE_COMPILER "unknown"
#endif

#endif /* PERMANODE_VERSION_H */
