# Crashes at every step of archiving and restoring: the backend SIGKILLs itself at an injection
# point (permanode_fdw.debug_crash_at), or the whole server dies (immediate shutdown, or SIGKILL
# of the postmaster) while a backend waits at one. Afterwards every row is readable exactly
# once, the range is in one tier only, orphaned archive directories are collected, and the
# operation runs again to completion.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use IPC::Run;
use Test::More;
use ledger_suite;

my $node = PostgreSQL::Test::Cluster->new('archive_crash');
$node->init;
$node->append_conf('postgresql.conf', "restart_after_crash = on\n");
$node->start;
$node->safe_psql('postgres', q{
    CREATE EXTENSION permanode_fdw;
    CREATE TABLE outputs (id bigint NOT NULL, r int NOT NULL, payload text) PARTITION BY RANGE (r);
    CREATE INDEX outputs_by_payload ON outputs (payload);
    CREATE TABLE outputs_0 PARTITION OF outputs FOR VALUES FROM (0) TO (2);
    CREATE TABLE outputs_1 PARTITION OF outputs FOR VALUES FROM (2) TO (4);
    CREATE TABLE outputs_hot PARTITION OF outputs FOR VALUES FROM (4) TO (100);
    ALTER TABLE outputs_0 ADD PRIMARY KEY (id, r);
    ALTER TABLE outputs_1 ADD PRIMARY KEY (id, r);
    ALTER TABLE outputs_hot ADD PRIMARY KEY (id, r);
    INSERT INTO outputs SELECT g, g % 6, md5(g::text) FROM generate_series(1, 30000) g;
});
my $expected = $node->safe_psql('postgres', 'SELECT count(*), sum(id), md5(string_agg(payload, \'\' ORDER BY id)) FROM outputs');

# Every row readable exactly once, and the archived range in exactly one tier.
sub check_rows
{
    my ($label, $tier) = @_;
    is($node->safe_psql('postgres',
            'SELECT count(*), sum(id), md5(string_agg(payload, \'\' ORDER BY id)) FROM outputs'),
        $expected, "$label: every row exactly once");
    is($node->safe_psql('postgres', 'SELECT count(*), count(DISTINCT (id, r)) FROM outputs WHERE r < 4'),
        '20000|20000', "$label: no row of the range lost or doubled");
    my $kinds = $node->safe_psql('postgres', q{
        SELECT string_agg(c.relkind::text, ',' ORDER BY c.relname) FROM pg_inherits i
        JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'outputs'::regclass AND c.relname <> 'outputs_hot'});
    is($kinds, $tier eq 'heap' ? 'r,r' : 'f', "$label: range is in the $tier tier");
}

# Runs sql with the crash hook set to step; the backend dies, the server restarts.
sub crash_backend_at
{
    my ($step, $sql) = @_;
    my $offset = -s $node->logfile;
    my ($ret, $out, $err) = $node->psql('postgres',
        "SET permanode_fdw.debug_crash_at = '$step'; $sql");
    isnt($ret, 0, "$step: the statement did not complete");
    ok($node->wait_for_log(qr/permanode_fdw: crashing at $step/, $offset), "$step: crashed there");
    wait_for_crash_recovery($node, $offset);
}

# Runs sql in the background until it pauses at step, then takes the whole server down.
sub crash_server_at
{
    my ($step, $sql, $how) = @_;
    my $offset = -s $node->logfile;
    my ($out, $err) = ('', '');
    my $h = IPC::Run::start(['psql', '-X', '-d', $node->connstr('postgres'), '-c',
            "SET permanode_fdw.debug_crash_at = '$step:pause'; $sql"],
        '>', \$out, '2>', \$err);
    ok($node->wait_for_log(qr/permanode_fdw: paused at $step/, $offset), "$step: paused there");
    if ($how eq 'immediate')
    {
        $node->stop('immediate');
    }
    else
    {
        $node->kill9;
        # The paused backend and the other children notice the postmaster's death and exit.
        sleep 3;
    }
    $h->finish;
    $node->start;
}

sub gc_removes
{
    my ($label, $count) = @_;
    is($node->safe_psql('postgres', 'SELECT count(*) FROM permanode.archive_gc()'),
        $count, "$label: archive_gc removes $count orphaned directories");
}

my $archive = q{SELECT permanode.archive_partitions('outputs', 0, 4)};
my $restore = q{SELECT permanode.restore_partitions('outputs_archive_0_4')};

for my $step (qw(after_write before_swap after_swap))
{
    crash_backend_at($step, $archive);
    check_rows("archive, backend killed at $step", 'heap');
    gc_removes("archive, backend killed at $step", 1);
}
crash_server_at('before_swap', $archive, 'immediate');
check_rows('archive, immediate shutdown at before_swap', 'heap');
crash_server_at('after_swap', $archive, 'kill9');
check_rows('archive, postmaster killed at after_swap', 'heap');
# The immediate shutdown's backend exits at once and leaves its directory; the one whose
# postmaster was killed rolls its transaction back as it exits, and removes its own.
gc_removes('archive, after two server crashes', 1);

# Rerunnable: the archive now completes, and survives a crash after its commit.
is($node->safe_psql('postgres', $archive), 'outputs_archive_0_4', 'archive completes');
$node->stop('immediate');
$node->start;
check_rows('archived, after an immediate restart', 'cold');
is($node->safe_psql('postgres', q{SELECT permanode.verify_archive('outputs_archive_0_4')}),
    '20000', 'archive verifies after the restart');
gc_removes('archived', 0);

for my $step (qw(restore_after_copy restore_after_swap))
{
    crash_backend_at($step, $restore);
    check_rows("restore, backend killed at $step", 'cold');
}
crash_server_at('restore_after_copy', $restore, 'immediate');
check_rows('restore, immediate shutdown at restore_after_copy', 'cold');
crash_server_at('restore_after_swap', $restore, 'kill9');
check_rows('restore, postmaster killed at restore_after_swap', 'cold');

# Rerunnable: the restore completes; the archive directory becomes garbage.
is($node->safe_psql('postgres', $restore), '20000', 'restore completes');
check_rows('restored', 'heap');
gc_removes('restored', 1);

# A long cold scan stops promptly on pg_cancel_backend.
is($node->safe_psql('postgres', $archive), 'outputs_archive_0_4', 'archive again');
my ($ret, $out, $err) = $node->psql('postgres', q{
    SET statement_timeout = '300ms';
    SELECT count(*) FROM outputs a, outputs_archive_0_4 b WHERE a.r < 4 AND a.id + b.id < 0;
});
like($err, qr/canceling statement due to statement timeout/, 'statement_timeout cancels a cold scan');
check_rows('after the cancelled scan', 'cold');

ok(!$node->log_contains('terminated by signal 6') && !$node->log_contains('terminated by signal 11'),
    'no backend aborted or crashed by itself');
$node->stop;
done_testing();
