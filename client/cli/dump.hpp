// `permanode dump` and `permanode restore-dump`: a logical backup of a permanode database with the
// standard tools (pg_dump, pg_restore), its archives beside it (README, "Backups").
#pragma once

#include <string>

namespace permanode::cli
{

// pg_dump -Fd of dsn's database into dump_dir, then its archives into archives_dir (default
// dump_dir/permanode_archives; written by the server, so the server's user must be able to).
void DumpDatabase(const std::string &dsn, const std::string &dump_dir, std::string archives_dir);

// Restores dump_dir into dsn's database (new, empty): pre-data; the extension's own tables
// emptied of their defaults; data and post-data without the partition indexes the partitions'
// attachment already made; then the archives, each checked against its manifest.
void RestoreDump(const std::string &dsn, const std::string &dump_dir, std::string archives_dir);

} // namespace permanode::cli
