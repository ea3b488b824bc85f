# A streaming standby made with pg_basebackup reads every archived range: ranges archived,
# restored and re-archived on the primary after the standby started, after a crash of either
# side at any point of an archive's way through the WAL, and after the standby is promoted. The
# query suite of the ledger's tiers gives the primary's answers on the standby every time.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use ledger_suite;

my $cli = $ENV{PERMANODE_CLI} || "$FindBin::RealBin/../../build/permanode";

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', preload_conf());
$primary->start;
load_ledger($primary, 'ledger');
my $hot = answers($primary, 'ledger');
like($hot, qr/point block: /, 'the suite answers on the primary');

$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->start;

# Checks that the standby has caught up and answers as the primary, with the same tiers and
# the same archive directories.
sub same_on_standby
{
    my ($label, $node) = @_;
    $node //= $standby;
    $primary->wait_for_catchup($node);
    is(answers($node, 'ledger'), $hot, "$label: the standby gives the primary's answers");
    is(tiers($node, 'ledger'), tiers($primary, 'ledger'), "$label: the standby shows the same tiers");
    is(archive_dirs($node, 'ledger'), archive_dirs($primary, 'ledger'),
        "$label: the standby holds the same archive directories");
    return;
}

sub archive_range
{
    return $primary->safe_psql('ledger', 'SELECT count(*) FROM permanode.archive(0, 2418)');
}

sub restore_range
{
    return $primary->safe_psql('ledger', 'SELECT count(*) FROM permanode.restore(0, 2418)');
}

same_on_standby('hot');

# Archived after the standby started.
ok(archive_range() > 0, 'range 17 archived on the primary');
like(tiers($primary, 'ledger'), qr/\|cold\|/, 'the primary shows cold ranges');
same_on_standby('archived');
is($standby->safe_psql('ledger',
        q{SELECT count(*) FILTER (WHERE permanode.verify_archive(foreign_table) > 0) = count(*)
          FROM permanode.archive_status}),
    't', 'every archive verifies on the standby');

# Restored, collected and archived again.
ok(restore_range() > 0, 'range 17 restored on the primary');
$primary->safe_psql('ledger', 'SELECT count(*) FROM permanode.archive_gc()');
same_on_standby('restored and collected');
is(archive_dirs($standby, 'ledger'), '', 'the standby removed the restored archives too');
ok(archive_range() > 0, 'range 17 archived again');
same_on_standby('re-archived');

# The standby refuses to change archives, with the primary's error for a standby.
my ($rc, $out, $err) = $standby->psql('ledger', 'SELECT permanode.archive_gc()');
like($err, qr/cannot change archives during recovery/, 'archive_gc on the standby is refused');

# `permanode status` on the standby says so and shows the tiers.
my $status = `$cli status --dsn '@{[ $standby->connstr('ledger') ]}' 2>&1`;
like($status, qr/standby/, 'permanode status says it is a standby');
like($status, qr/cold/, 'permanode status on the standby shows cold ranges');

# The primary dies after logging part of an archive's files: the range stays hot on both sides,
# the orphaned files go with the next archive_gc, on both sides.
ok(restore_range() > 0, 'range 17 restored for the crash tests');
$primary->safe_psql('ledger', 'SELECT count(*) FROM permanode.archive_gc()');
my $offset = -s $primary->logfile;
($rc, $out, $err) = $primary->psql('ledger',
    "SET permanode_fdw.debug_crash_at = 'wal_file_logged'; SELECT permanode.archive(0, 2418)");
isnt($rc, 0, 'the archiving backend died after logging a file');
wait_for_crash_recovery($primary, $offset);
same_on_standby('primary crashed while logging');
my $orphan = archive_dirs($standby, 'ledger');
isnt($orphan, '', 'the first file of the archive reached the standby');
my $ledger_oid = $standby->safe_psql('ledger', "SELECT oid FROM pg_database WHERE datname = 'ledger'");
ok(!-e $standby->data_dir . "/permanode_archive/$ledger_oid/$orphan/permanode_manifest.json",
    'and it is not sealed there');
$primary->safe_psql('ledger', 'SELECT count(*) FROM permanode.archive_gc()');
$primary->wait_for_catchup($standby);
is(archive_dirs($standby, 'ledger'), '', 'archive_gc removed the orphan on the standby too');

# The primary dies after logging the whole archives, seals included, before the swaps commit (all
# at once, after every table's archive): the standby holds sealed archives no foreign table
# names, and archive_gc removes them on both sides.
$offset = -s $primary->logfile;
($rc, $out, $err) = $primary->psql('ledger',
    "SET permanode_fdw.debug_crash_at = 'before_swap'; SELECT permanode.archive(0, 2418)");
isnt($rc, 0, 'the archiving backend died before the swap');
wait_for_crash_recovery($primary, $offset);
same_on_standby('primary crashed before the swap');
my @orphans = split /\n/, archive_dirs($standby, 'ledger');
ok(@orphans > 1 && !grep({ !-e $standby->data_dir
            . "/permanode_archive/$ledger_oid/$_/permanode_manifest.json" } @orphans),
    'the standby holds the sealed orphans, one per table');
unlike(tiers($standby, 'ledger'), qr/\|cold\|/, 'and reads the range from the heap');
$primary->safe_psql('ledger', 'SELECT count(*) FROM permanode.archive_gc()');
$primary->wait_for_catchup($standby);
is(archive_dirs($standby, 'ledger'), '', 'archive_gc removed the sealed orphans on the standby');

# The standby stops replaying before the seal: its queries read the heap, never the half-written
# archive; killed there and restarted, it finishes the archive.
$standby->append_conf('postgresql.conf', "permanode_fdw.debug_crash_at = 'redo_seal:pause'\n");
$standby->reload;
ok(archive_range() > 0, 'range 17 archived while the standby pauses before the seal');
$standby->wait_for_log(qr/paused at redo_seal/);
is(answers($standby, 'ledger'), $hot, 'the paused standby answers from the heap');
unlike(tiers($standby, 'ledger'), qr/\|cold\|/, 'the paused standby shows the range hot');
$standby->stop('immediate');
$standby->append_conf('postgresql.conf', "permanode_fdw.debug_crash_at = 'redo_chunk'\n");
ok(restore_range() > 0, 'restored while the standby is down');
ok(archive_range() > 0, 'archived again while the standby is down');
# The startup process kills itself at the first file chunk it replays, and the standby goes
# down with it.
$standby->start(fail_ok => 1);
$standby->wait_for_log(qr/crashing at redo_chunk/);
$standby->stop('immediate', fail_ok => 1);
$standby->append_conf('postgresql.conf', "permanode_fdw.debug_crash_at = ''\n");
$standby->start;
same_on_standby('standby crashed during replay');
like(tiers($standby, 'ledger'), qr/\|cold\|/, 'the restarted standby shows the range cold');

# Promoted, the standby is a primary: it answers the same, and archives and restores itself.
$standby->promote;
$standby->poll_query_until('ledger', 'SELECT NOT pg_is_in_recovery()')
  or die 'the standby was not promoted';
is(answers($standby, 'ledger'), $hot, 'the promoted standby gives the same answers');
ok($standby->safe_psql('ledger', 'SELECT count(*) FROM permanode.restore(0, 2418)') > 0,
    'the promoted standby restores the range');
ok($standby->safe_psql('ledger', 'SELECT count(*) FROM permanode.archive(0, 2418)') > 0,
    'the promoted standby archives it again');
is(answers($standby, 'ledger'), $hot, 'the promoted standby answers the same after re-archiving');

$standby->stop;
$primary->stop;
done_testing();
