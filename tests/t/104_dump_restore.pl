# Logical backups: `permanode dump` (pg_dump, plus the archives) restored by
# `permanode restore-dump` (pg_restore, then the archives checked against their manifests) into a
# new database of the same cluster and of another cluster, without errors, answering the ledger's
# query suite as the original, with range 17 cold.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use ledger_suite;

my $cli = $ENV{PERMANODE_CLI} || "$FindBin::RealBin/../../build/permanode";

my $node = PostgreSQL::Test::Cluster->new('source');
$node->init;
$node->append_conf('postgresql.conf', preload_conf());
$node->start;
load_ledger($node, 'ledger');
# Record streams too: two shards (the second's ID shows that the restored ID sequence goes on).
$node->safe_psql('ledger', q{
    SELECT streams.create_shard('app', 'one');
    SELECT streams.create_shard('app', 'two');
    SELECT streams.batch_write('app', 'one', ARRAY[ROW('k', 'a'::bytea, NULL, '{t}', NULL),
                                                   ROW('k', 'b'::bytea, NULL, '{t}', NULL)]::streams.record[]);
});
my $hot = answers($node, 'ledger');
ok($node->safe_psql('ledger', 'SELECT count(*) FROM permanode.archive(0, 2418)') > 0,
    'range 17 archived');
my $tiers = tiers($node, 'ledger');
like($tiers, qr/\|cold\|/, 'the source shows cold ranges');
is(answers($node, 'ledger'), $hot, 'the source answers the same cold');

my $dump = "$PostgreSQL::Test::Utils::tmp_check/ledger.dump";
command_ok([ $cli, 'dump', '--dsn', $node->connstr('ledger'), $dump ], 'permanode dump');
ok(-f "$dump/toc.dat", 'the dump is pg_dump\'s directory format');

# The restored database has no search_path setting of its own (pg_dump keeps none without
# --create); the suite's queries name the ledger's tables unqualified.
sub restored_answers
{
    my ($target, $db) = @_;
    $target->safe_psql($db, "ALTER DATABASE $db SET search_path = public, permanode");
    return answers($target, $db);
}

sub check_restore
{
    my ($label, $target, $db) = @_;
    $target->safe_psql('postgres', "CREATE DATABASE $db");
    my ($out, $err) = ('', '');
    my $ok = IPC::Run::run([ $cli, 'restore-dump', '--dsn', $target->connstr($db), $dump ],
        '>', \$out, '2>', \$err);
    ok($ok, "$label: permanode restore-dump succeeds") or diag($err);
    unlike("$out$err", qr/error|already exists/i, "$label: no error is reported");
    is(restored_answers($target, $db), $hot, "$label: the suite gives the original answers");
    is(tiers($target, $db), $tiers, "$label: the same ranges are cold");
    is($target->safe_psql($db,
            q{SELECT count(*) > 0 AND bool_and(permanode.verify_archive(foreign_table) > 0)
              FROM permanode.archive_status}),
        't', "$label: every archive verifies");
    is($target->safe_psql($db,
            q{SELECT (SELECT count(*) FROM permanode.block_locator) = 200
                 AND (SELECT count(*) FROM permanode.unspent_outputs) > 0}),
        't', "$label: the extension's own tables hold their rows");
    is($target->safe_psql($db,
            q{SELECT string_agg(convert_from(data, 'UTF8'), ',' ORDER BY "offset")
              FROM streams.read_by_tag('app', 'one', 0, 't')}),
        'a,b', "$label: a stream's records read back by tag");
    is($target->safe_psql($db,
            q{SELECT streams.write('app', 'three', NULL, 'c') FROM (SELECT streams.create_shard('app', 'three')) s}),
        '0', "$label: a new shard takes a new ID and starts at offset 0");
    return;
}

check_restore('same cluster', $node, 'restored');

my $other = PostgreSQL::Test::Cluster->new('other');
$other->init;
$other->append_conf('postgresql.conf', preload_conf());
$other->start;
check_restore('another cluster', $other, 'copy');

# The copy is a ledger like any other: its cold range comes back hot (the row checksum holds,
# array values included, whose element type has another OID here) and is archived again.
ok($other->safe_psql('copy', 'SELECT count(*) FROM permanode.restore(0, 2418)') > 0,
    'the copy restores its range from the imported archives');
unlike(tiers($other, 'copy'), qr/\|cold\|/, 'the range is hot in the copy');
is(answers($other, 'copy'), $hot, 'the copy answers the same with the range hot');
ok($other->safe_psql('copy', 'SELECT count(*) FROM permanode.archive(0, 2418)') > 0,
    'the copy archives the range again');
is(answers($other, 'copy'), $hot, 'the copy answers the same cold again');

# Restoring into a database that holds a ledger is refused before anything is written.
my ($rc, $out, $err) = $other->psql('copy', 'SELECT permanode.prepare_restore()');
like($err, qr/already holds a ledger/, 'prepare_restore refuses a database with a ledger');

$other->stop;
$node->stop;
done_testing();
