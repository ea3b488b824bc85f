/*
 * split_keys.hpp
 *	  Keys that cut a column family into chunks of about the same size, recorded in each SST's
 *	  properties while it is written, so that a full scan can read its chunks in parallel. Free
 *	  of PostgreSQL headers; safe in helper threads.
 */
#ifndef PERMANODE_FDW_ENGINE_SPLIT_KEYS_HPP
#define PERMANODE_FDW_ENGINE_SPLIT_KEYS_HPP

#include <memory>
#include <string>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/table_properties.h>

namespace permanode::fdw
{

/* Records a split key every kSplitKeyBytes of entries (key and value bytes, uncompressed). */
inline constexpr size_t kSplitKeyBytes = 2 << 20;

/* The collector factory that records split keys; for the options of every family. */
std::shared_ptr<rocksdb::TablePropertiesCollectorFactory> SplitKeyCollectorFactory();

/*
 * The split keys a family's file records (its properties; null for an empty family),
 * ascending, strictly between lower and upper (empty strings are unbounded). Empty for files
 * written without them (archives older than split keys).
 */
std::vector<std::string> SplitKeys(const rocksdb::TableProperties *properties,
                                   const std::string &lower, const std::string &upper);

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ENGINE_SPLIT_KEYS_HPP */
