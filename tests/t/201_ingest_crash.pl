# `permanode ingest` survives the server's death: the postmaster is SIGKILLed while milestones
# are in flight, the server restarts, and a second ingest of the same file completes the ledger.
# Ingest runs with its default connections (several, committing out of file order, with commits
# flushed together), so the crash may leave gaps; every milestone it left synced must be whole.
# Afterwards the database holds exactly what an uninterrupted ingest of the file gives: no
# duplicates, no missing rows, and a sync table without gaps.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use IPC::Run;
use Test::More;
use ledger_suite;

# tests/run exports PERMANODE_CLI; by default the CLI is where the CMake build puts it.
my $cli = $ENV{PERMANODE_CLI} || "$FindBin::RealBin/../../build/permanode";
ok(-x $cli, "the permanode CLI exists at $cli") or BAIL_OUT("no CLI at $cli");

my $node = PostgreSQL::Test::Cluster->new('ingest_crash');
$node->init;
$node->append_conf('postgresql.conf',
    "shared_preload_libraries = 'permanode'\nrestart_after_crash = on\n"
      . "max_locks_per_transaction = 256\n");
$node->start;

my $milestones = 400;
my $ledger = "$PostgreSQL::Test::Utils::tmp_check/ingest_crash_ledger.ndjson";
command_ok([ $cli, 'generate', '--milestones', $milestones, '--seed', '11', '-o', $ledger ],
    'generate a ledger');

$node->safe_psql('postgres', 'CREATE DATABASE reference');
command_ok([ $cli, 'init', '--dsn', $node->connstr('reference') ], 'permanode init');

# The reference: the same file, ingested without a crash.
command_ok([ $cli, 'ingest', '--no-measure', '--dsn', $node->connstr('reference'), $ledger ],
    'uninterrupted ingest');

# Every table ingest writes: row count, distinct keys and a digest of the keys.
my $fingerprint = q{
    SELECT string_agg(t || ':' || n, ' ' ORDER BY t) FROM (
        SELECT 'messages' AS t, count(*) || '/' || count(DISTINCT message_id) || '/' ||
               md5(string_agg(message_id::text, ',' ORDER BY message_id)) AS n FROM permanode.messages
        UNION ALL SELECT 'basic', count(*) || '/' || count(DISTINCT output_id) || '/' ||
               md5(string_agg(output_id::text, ',' ORDER BY output_id)) FROM permanode.basic_outputs
        UNION ALL SELECT 'alias', count(*) || '/' || count(DISTINCT output_id) FROM permanode.alias_outputs
        UNION ALL SELECT 'nft', count(*) || '/' || count(DISTINCT output_id) FROM permanode.nft_outputs
        UNION ALL SELECT 'foundry', count(*) || '/' || count(DISTINCT output_id) FROM permanode.foundry_outputs
        UNION ALL SELECT 'spent', count(*) || '/' || count(DISTINCT output_id) || '/' ||
               md5(string_agg(output_id::text, ',' ORDER BY output_id)) FROM permanode.spent_outputs
        UNION ALL SELECT 'unspent', count(*) || '/' ||
               md5(string_agg(output_id::text, ',' ORDER BY output_id)) FROM permanode.unspent_outputs
        UNION ALL SELECT 'transactions', count(*)::text FROM permanode.transactions
        UNION ALL SELECT 'parents', count(*)::text FROM permanode.parents
        UNION ALL SELECT 'tags', count(*)::text FROM permanode.tags
        UNION ALL SELECT 'milestones', count(*) || '/' || count(DISTINCT milestone_index) FROM permanode.milestones
        UNION ALL SELECT 'ms_analytics', count(*)::text FROM permanode.ms_analytics
        UNION ALL SELECT 'address_analytics', count(*) || '/' || sum(sent_tokens) || '/' ||
               sum(recv_tokens) FROM permanode.address_analytics
        UNION ALL SELECT 'metrics_cache', count(*) || '/' ||
               md5(string_agg(date || variant || metric || value, ',' ORDER BY date, variant, metric, value))
               FROM permanode.metrics_cache
        UNION ALL SELECT 'sync', count(*) || '/' || min(milestone_index) || '-' || max(milestone_index)
               FROM permanode.sync) f
};
my $expected = $node->safe_psql('reference', $fingerprint);

# Hint rows: the same keys as the reference.
my $hint_keys = q{
    SELECT (SELECT md5(string_agg(address || output_kind || variant || ms_range_id, ','
                                  ORDER BY address, output_kind, variant, ms_range_id))
            FROM permanode.addresses_hints) || '/' ||
           (SELECT md5(string_agg(tag || table_kind || ms_range_id, ','
                                  ORDER BY tag, table_kind, ms_range_id)) FROM permanode.tag_hints)
};
my $expected_hint_keys = $node->safe_psql('reference', $hint_keys);

# The processes whose parent is $pid (from /proc).
sub children_of
{
    my ($pid) = @_;
    my @children;
    for my $stat (glob '/proc/[0-9]*/stat')
    {
        open my $fh, '<', $stat or next;
        my $line = <$fh>;
        close $fh;
        # pid (comm) state ppid ...; comm may hold spaces, so split after its closing paren.
        push @children, $1 if defined $line && $line =~ /^(\d+) \(.*\) \S+ (\d+) / && $2 == $pid;
    }
    return @children;
}

# Ingests the ledger into a new database, crashes the server once part of it is in, restarts,
# ingests again, and compares with the reference. $how: 'postmaster' SIGKILLs the postmaster
# and then the ingesting backend (the whole server dies at once; a backend alone would go on
# committing without its postmaster); 'backend' SIGKILLs only the backend, and the postmaster
# reinitializes (restart_after_crash).
sub crash_and_resume
{
    my ($how) = @_;
    my $db = "crashed_$how";
    $node->safe_psql('postgres', "CREATE DATABASE $db");
    command_ok([ $cli, 'init', '--dsn', $node->connstr($db) ], "$how: permanode init");

    my ($out, $err) = ('', '');
    my $ingest = IPC::Run::start([ $cli, 'ingest', '--no-measure', '--dsn', $node->connstr($db), $ledger ],
        '>', \$out, '2>', \$err);
    $node->poll_query_until($db, 'SELECT count(*) >= 60 FROM permanode.sync')
      or die 'ingest did not progress';
    my $log_offset;
    my @backends = split /\n/, $node->safe_psql('postgres',
        "SELECT pid FROM pg_stat_activity WHERE application_name = 'permanode ingest'");
    if ($how eq 'postmaster')
    {
        # The whole server dies at once, as in a power cut: the postmaster and every child
        # (a child left running, say an autovacuum worker, would keep the shared memory and
        # the restart would refuse to start).
        my @children = children_of($node->{_pid});
        $node->kill9;
        kill 'KILL', @children;
        for (my $tries = 0; $tries < 100 && grep { kill 0, $_ } @children; $tries++)
        {
            select(undef, undef, undef, 0.1);
        }
    }
    else
    {
        # One backend: the postmaster then ends the others and reinitializes.
        $log_offset = -s $node->logfile;
        kill 'KILL', $backends[0];
    }
    $ingest->finish;
    isnt($ingest->result, 0, "$how: ingest fails when the server dies");
    like($err, qr/lost the connection|cannot connect/, "$how: and says it lost the server")
      or diag($err);
    if ($how eq 'postmaster')
    {
        $node->start;
    }
    else
    {
        # Wait for the postmaster to notice the crash first: a query in between could still
        # reach the old server, and the next one find it in recovery.
        wait_for_crash_recovery($node, $log_offset);
    }

    my $partial = $node->safe_psql($db, 'SELECT count(*) FROM permanode.sync');
    cmp_ok($partial, '<', $milestones, "$how: the crash left $partial of $milestones milestones");
    # Each milestone the crash left synced has all its blocks and outputs.
    my $synced = $node->safe_psql($db,
        'SELECT coalesce(string_agg(milestone_index::text, \',\'), \'-1\') FROM permanode.sync');
    my $per_milestone = qq{
        SELECT string_agg(milestone_index || ':' || blocks || '/' || outputs, ' ' ORDER BY milestone_index)
        FROM (SELECT s.milestone_index,
                     (SELECT count(*) FROM permanode.messages m WHERE m.milestone_index = s.milestone_index) AS blocks,
                     (SELECT count(*) FROM permanode.basic_outputs b WHERE b.milestone_index = s.milestone_index) AS outputs
              FROM permanode.sync s WHERE s.milestone_index IN ($synced)) c};
    is($node->safe_psql($db, $per_milestone), $node->safe_psql('reference', $per_milestone),
        "$how: every milestone left synced is whole");

    my ($rerun_out, $rerun_err) = ('', '');
    my $rerun = IPC::Run::run([ $cli, 'ingest', '--no-measure', '--dsn', $node->connstr($db), $ledger ],
        '>', \$rerun_out, '2>', \$rerun_err);
    ok($rerun, "$how: ingest runs again after the restart") or diag($rerun_err);
    my $rest = $milestones - $partial;
    like($rerun_out, qr/ingested $rest milestones, $partial already present, 0 skipped/,
        "$how: the second run ingests exactly the milestones the first one did not commit");

    is($node->safe_psql($db, $fingerprint), $expected,
        "$how: the same rows as an uninterrupted ingest, nothing missing or doubled");
    is($node->safe_psql($db, 'SELECT count(*) FROM permanode.sync_gaps()'), '0',
        "$how: no gaps in the sync table");
    is($node->safe_psql($db, $hint_keys), $expected_hint_keys,
        "$how: the same hint rows as an uninterrupted ingest");
}

crash_and_resume('postmaster');
crash_and_resume('backend');
ok($node->log_contains('terminated by signal 9'), 'the backend crash really happened');

$node->stop;
done_testing();
