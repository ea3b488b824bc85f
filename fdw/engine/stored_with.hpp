/*
 * stored_with.hpp
 *	  What the rows family's file records of how its rows were stored: the columns whose values
 *	  are in dictionary form. A manifest that lies about them would make a reader return stored
 *	  forms as values, or fail on values stored inline; the file, checksummed and never written
 *	  again, says which columns they are. Free of PostgreSQL headers; safe in helper threads.
 */
#ifndef PERMANODE_FDW_ENGINE_STORED_WITH_HPP
#define PERMANODE_FDW_ENGINE_STORED_WITH_HPP

#include <memory>
#include <optional>
#include <string>

#include <rocksdb/table_properties.h>

#include "engine/manifest.hpp"

namespace permanode::fdw
{

/* The positions of the manifest's columns in dictionary form, comma-separated ("" for none). */
std::string DictionaryColumnsOf(const Manifest &m);

/* A collector factory that records `columns` (DictionaryColumnsOf) in the file written. */
std::shared_ptr<rocksdb::TablePropertiesCollectorFactory>
DictionaryColumnsRecorder(std::string columns);

/* What a file records, when it does (files written before it recorded them do not). */
std::optional<std::string> RecordedDictionaryColumns(const rocksdb::TableProperties &properties);

} // namespace permanode::fdw

#endif /* PERMANODE_FDW_ENGINE_STORED_WITH_HPP */
