/*
 * transient_files.hpp
 *	  A RocksDB file system whose files read for random access hold no file descriptor between
 *	  reads. Free of PostgreSQL headers; thread-safe.
 */
#ifndef PERMANODE_FDW_ENGINE_TRANSIENT_FILES_HPP
#define PERMANODE_FDW_ENGINE_TRANSIENT_FILES_HPP

#include <rocksdb/env.h>

namespace permanode::fdw
{

/*
 * An Env whose random-access files open the file for each read and close it after: what the
 * archives a backend keeps open read through, so that it can keep hundreds of them within
 * PostgreSQL's file descriptor budget. A family's index and filter blocks are read once, when it
 * opens; later reads come only from block cache misses. Everything else is the default Env's.
 */
rocksdb::Env *TransientFilesEnv();

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ENGINE_TRANSIENT_FILES_HPP */
