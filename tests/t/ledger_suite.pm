# Shared by the TAP tests of standbys, backups and dumps: a ledger of the real fixtures
# (milestones 17339-17341 and 2418187 in chunks of 1000: range 17 can be archived) with the query
# suite of regress/sql/include/ledger_queries.sql, whose answers are compared across clusters.
package ledger_suite;

use strict;
use warnings;
use FindBin;
use PostgreSQL::Test::Utils;
use Exporter 'import';

our @EXPORT = qw(preload_conf load_ledger answers tiers archive_dirs wait_for_crash_recovery);

my $include = "$FindBin::RealBin/../regress/sql/include";

# The settings every permanode server needs (the WAL resource manager comes with the preload).
sub preload_conf
{
    return "shared_preload_libraries = 'permanode, permanode_fdw'\n"
      . "max_locks_per_transaction = 256\nrestart_after_crash = on\n";
}

# Creates database $db on $node with the fixtures ingested and the query suite installed.
sub load_ledger
{
    my ($node, $db) = @_;
    my $fixtures = $ENV{PERMANODE_FIXTURES} or die "PERMANODE_FIXTURES is not set";
    $node->safe_psql('postgres', "CREATE DATABASE $db");
    $node->safe_psql($db, "ALTER DATABASE $db SET search_path = public, permanode");
    $node->safe_psql(
        $db,
        "SET client_min_messages = warning;\nCREATE EXTENSION permanode CASCADE;\n"
          . "SET search_path = public, permanode;\n"
          . "SELECT count(set_chunk_size(table_name, 1000)) FROM ledger_tables;\n"
          . "\\set fixtures '$fixtures'\n"
          . slurp_file("$include/fixtures.sql")
          . "SELECT count(*) FROM unnest('{17339,17340,17341,2418187}'::int[]) m, ingest_test.ingest(m) i;\n"
          . slurp_file("$include/ledger_queries.sql"));
    return;
}

# Every answer of the suite, one line per row, in a fixed order.
sub answers
{
    my ($node, $db) = @_;
    return $node->safe_psql($db,
        q{SELECT name || ': ' || "row" FROM archive_test.answers() ORDER BY name, "row"});
}

# Each ledger range's tier and rows, as permanode.status shows them.
sub tiers
{
    my ($node, $db) = @_;
    return $node->safe_psql($db,
        q{SELECT table_name, from_range, tier, rows FROM permanode.status
          WHERE rows > 0 OR tier = 'cold' ORDER BY 1, 2, 3});
}

# Waits, from $node's log after $offset (its size before a process was killed or crashed on
# purpose), for the postmaster to end every process and finish crash recovery. Not by polling
# with psql: a poll during recovery raced with psql's refused connection (IPC::Run died with
# EPIPE writing the query to a psql that had already exited).
sub wait_for_crash_recovery
{
    my ($node, $offset) = @_;
    $node->wait_for_log(qr/all server processes terminated; reinitializing/, $offset);
    $node->wait_for_log(qr/database system is ready to accept connections/, $offset);
}

# The archive directories of database $db on $node, sorted, as one line each.
sub archive_dirs
{
    my ($node, $db) = @_;
    my $oid = $node->safe_psql('postgres', "SELECT oid FROM pg_database WHERE datname = '$db'");
    my $root = $node->data_dir . "/permanode_archive/$oid";
    return '' unless -d $root;
    opendir(my $dh, $root) or die "cannot list $root: $!";
    my @dirs = sort grep { !/^\./ } readdir($dh);
    closedir($dh);
    return join("\n", @dirs);
}

1;
