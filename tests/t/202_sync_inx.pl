# `permanode sync --inx` against the test INX server (tests/inx/inx_server.py, the real protocol
# from client/sync/inx.proto) serving a generated ledger with the node's own fields: the synced
# database ends identical to a file ingest of the same ledger (its measurements too) and verify
# finds nothing; a sync stopped (--to, kill -9) resumes with no hole and no overlap; a node that
# dies mid-stream, and a database whose backends are terminated or that restarts, are waited
# for; a milestone rolled back by a conflict is sent again; a pruned node gives the ledger before its first milestone; and each refusal (a
# disagreeing milestone, another network, a node behind, milestones pruned that the archive
# needs) ends with its exit code and nothing of the bad milestone archived.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use IPC::Run;
use Time::HiRes qw(usleep);
use Test::More;
use ledger_suite;
use sync_suite;

my $cli = $ENV{PERMANODE_CLI} || "$FindBin::RealBin/../../build/permanode";
my $server = $ENV{PERMANODE_INX_SERVER} || "$FindBin::RealBin/../inx/inx_server.py";
my @proto = $ENV{PERMANODE_INX_PROTO} ? ('--proto', $ENV{PERMANODE_INX_PROTO}) : ();

my $node = PostgreSQL::Test::Cluster->new('sync');
$node->init;
$node->append_conf('postgresql.conf', preload_conf());
$node->start;

my $ledger = "$PostgreSQL::Test::Utils::tmp_check/sync_inx_ledger.ndjson";
system($cli, 'generate', '--milestones', '120', '--node-fields', '--seed', '11', '-o', $ledger) == 0
  or die 'generate failed';

sub newest { return $node->safe_psql($_[0], 'SELECT max(milestone_index) FROM permanode.sync') }

# Starts the test INX server; returns its harness and port.
sub start_inx
{
    my (@options) = @_;
    my ($out, $err) = ('', '');
    my $h = IPC::Run::start(['python3', $server, @proto, @options, $ledger], '>', \$out, '2>', \$err);
    my $deadline = time + 60;
    until ($out =~ /INX listening on 127\.0\.0\.1:(\d+)/)
    {
        die "the INX server did not start: $err" if time > $deadline || !$h->pumpable;
        usleep(50_000);
        $h->pump_nb;
    }
    $out =~ /:(\d+)/;
    return ($h, $1, \$err);
}

sub stop_inx { my ($h) = @_; $h->signal('TERM'); $h->finish; return }

# Runs `permanode sync` to its end; returns its exit code and stderr.
sub run_sync
{
    my ($db, $port, @options) = @_;
    my ($out, $err) = ('', '');
    IPC::Run::run([$cli, 'sync', '--inx', "127.0.0.1:$port", '--dsn', $node->connstr($db),
            '--no-progress', @options], '>', \$out, '2>', \$err);
    return ($? >> 8, $err);
}

new_database($node, 'filed');
system($cli, 'ingest', $ledger, '--dsn', $node->connstr('filed')) == 0 or die 'ingest failed';
my $expected = fingerprint($node, 'filed');

# 1. A whole sync equals a file ingest, and verify finds nothing.
my ($inx, $port) = start_inx();
new_database($node, 'synced');
my ($rc, $err) = run_sync('synced', $port, '--until-synced');
is($rc, 0, 'sync to the node\'s confirmed milestone exits 0') or diag($err);
like($err, qr/stopped after milestone 120; the node is at 120/, 'it says where it stopped');
is(fingerprint($node, 'synced'), $expected, 'every ledger table equals the file ingest of the same ledger');
# Sync measures what it archived, as ingest does: the same measurements (and balances kept).
my $measured = q{SELECT count(*) || ':' || md5(string_agg(m::text, '|' ORDER BY milestone_index))
                 FROM permanode.milestone_measurements m};
like($node->safe_psql('synced', $measured), qr/^120:/, 'sync measured the 120 milestones it archived');
is($node->safe_psql('synced', $measured), $node->safe_psql('filed', $measured),
    'their measurements equal those of the file ingest');
# The node's protocol parameters in force, recorded at its confirmed milestone: the ledger's own.
my $params = q{SELECT permanode.protocol_parameters_at(120)};
isnt($node->safe_psql('synced', $params), '', 'sync recorded the node\'s protocol parameters');
is($node->safe_psql('synced', $params), $node->safe_psql('filed', $params),
    'the same as the ledger file\'s');
my ($vout, $verr) = ('', '');
IPC::Run::run([$cli, 'verify', '--dsn', $node->connstr('synced')], '>', \$vout, '2>', \$verr);
is($? >> 8, 0, 'permanode verify finds no mismatch in the synced archive') or diag("$vout$verr");

# 2. Stopped at --to, then resumed: no hole, no overlap.
new_database($node, 'resumed');
($rc, $err) = run_sync('resumed', $port, '--to', '40');
is($rc, 0, 'sync --to 40 exits 0');
is(newest('resumed'), 40, 'and stops after milestone 40');
($rc, $err) = run_sync('resumed', $port, '--until-synced');
like($err, qr/from milestone 41 /, 'a second sync resumes at 41');
is(fingerprint($node, 'resumed'), $expected, 'the resumed archive equals the file ingest');
stop_inx($inx);

# 3. kill -9 of the sync while a slow node streams, then a restart.
($inx, $port) = start_inx('--delay-ms', '2');
new_database($node, 'killed');
my ($kout, $kerr) = ('', '');
my $sync = IPC::Run::start([$cli, 'sync', '--inx', "127.0.0.1:$port", '--dsn', $node->connstr('killed'),
        '--no-progress', '--until-synced'], '>', \$kout, '2>', \$kerr);
$node->poll_query_until('killed', 'SELECT coalesce(max(milestone_index), 0) >= 20 FROM permanode.sync')
  or die 'the sync did not get going';
$sync->kill_kill;
$sync->finish;
my $at_kill = newest('killed');
cmp_ok($at_kill, '<', 120, "killed -9 after milestone $at_kill");
is($node->safe_psql('killed', 'SELECT count(*) FROM permanode.sync_gaps()'), 0, 'no hole left behind');
($rc, $err) = run_sync('killed', $port, '--until-synced');
is($rc, 0, 'the restarted sync exits 0') or diag($err);
is(fingerprint($node, 'killed'), $expected, 'after the restart, the archive equals the file ingest');
stop_inx($inx);

# 4. The node dies halfway through a cone; the sync waits for it and goes on when it is back.
($inx, $port) = start_inx('--exit-after', '50');
new_database($node, 'node_restart');
$sync = IPC::Run::start([$cli, 'sync', '--inx', "127.0.0.1:$port", '--dsn', $node->connstr('node_restart'),
        '--no-progress', '--until-synced'], '>', \$kout, '2>', \$kerr);
$inx->finish;    # the server exits by itself (code 3) mid-cone
is($inx->result(0), 3, 'the test node died mid-stream');
sleep 1;
($inx) = start_inx('--port', $port);
$sync->finish;
is($sync->result(0), 0, 'the sync ended once the node was back') or diag($kerr);
like($kerr, qr/retrying/, 'it said it was retrying');
is(fingerprint($node, 'node_restart'), $expected, 'and the archive equals the file ingest');
stop_inx($inx);

# 5. The database goes away under the sync: its backends terminated, then a restart of the
# server. The sync connects again each time and goes on after the newest milestone it committed.
($inx, $port) = start_inx('--delay-ms', '2');
new_database($node, 'db_restart');
$sync = IPC::Run::start([$cli, 'sync', '--inx', "127.0.0.1:$port", '--dsn', $node->connstr('db_restart'),
        '--no-progress', '--until-synced'], '>', \$kout, '2>', \$kerr);
$node->poll_query_until('db_restart', 'SELECT coalesce(max(milestone_index), 0) >= 20 FROM permanode.sync')
  or die 'the sync did not get going';
$node->safe_psql('postgres', q{SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                               WHERE datname = 'db_restart' AND pid <> pg_backend_pid()});
my $at_terminate = newest('db_restart');
$node->poll_query_until('db_restart', "SELECT max(milestone_index) > $at_terminate + 10 FROM permanode.sync")
  or die 'the sync did not go on after its backends were terminated';
$node->restart;
$sync->finish;
is($sync->result(0), 0, 'the sync ended at the node\'s confirmed milestone, through both') or diag($kerr);
my @lost = $kerr =~ /lost the database/g;
cmp_ok(scalar @lost, '>=', 2, 'it said it lost the database, each time') or diag($kerr);
is($node->safe_psql('db_restart', 'SELECT count(*) FROM permanode.sync_gaps()'), 0, 'no hole left behind');
is(fingerprint($node, 'db_restart'), $expected, 'and the archive equals the file ingest');
stop_inx($inx);

# 6. Conflicts: a milestone the server rolls back with 40P01 (what a deadlock with archiving or
# maintenance ends in) is sent again with those after it. A trigger on the sync row fails
# milestone 50 twice (a sequence counts the attempts: it is not rolled back with them), then
# milestone 60 every time, which the sync gives up on after its five attempts.
new_database($node, 'conflicts');
$node->safe_psql('conflicts', q{
    CREATE SEQUENCE attempts_50;
    CREATE FUNCTION conflict() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF (NEW.milestone_index = 50 AND nextval('attempts_50') <= 2) OR NEW.milestone_index = 60 THEN
            RAISE EXCEPTION 'deadlock detected (test)' USING ERRCODE = 'deadlock_detected';
        END IF;
        RETURN NEW;
    END $$;
    CREATE TRIGGER conflict BEFORE INSERT ON permanode.sync FOR EACH ROW EXECUTE FUNCTION conflict()});
($inx, $port) = start_inx();
($rc, $err) = run_sync('conflicts', $port, '--until-synced');
is($rc, 3, 'a milestone that conflicts five times in a row: exit 3') or diag($err);
my @resent_50 = $err =~ /milestone 50 rolled back; sending it again/g;
is(scalar @resent_50, 2, 'milestone 50 was sent again after each of its two conflicts') or diag($err);
my @resent_60 = $err =~ /milestone 60 rolled back; sending it again/g;
is(scalar @resent_60, 4, 'milestone 60 was sent again four times') or diag($err);
like($err, qr/nothing of milestone 60 was archived/, 'then given up on');
is(newest('conflicts'), 59, 'the archive ends at milestone 59');
is($node->safe_psql('conflicts', 'SELECT count(*) FROM permanode.sync_gaps()'), 0, 'with no hole');
$node->safe_psql('conflicts', 'DROP TRIGGER conflict ON permanode.sync');
($rc, $err) = run_sync('conflicts', $port, '--until-synced');
is($rc, 0, 'the conflict gone, the sync goes on') or diag($err);
is(fingerprint($node, 'conflicts'), $expected, 'and the archive equals the file ingest');
stop_inx($inx);

# 7. A milestone whose ledger updates disagree with its cone: bytes, then IDs.
for my $how (qw(bytes id))
{
    ($inx, $port) = start_inx('--disagree-at', '30', '--disagree-by', $how);
    new_database($node, "disagree_$how");
    ($rc, $err) = run_sync("disagree_$how", $port, '--until-synced');
    is($rc, 10, "updates that disagree by $how: exit 10");
    like($err, qr/milestone 30: .*(disagree|differ)/, "the error names milestone 30 ($how)");
    like($err, qr/output 0x[0-9a-f]{68}/, "and the output ($how)");
    is(newest("disagree_$how"), 29, "nothing of milestone 30 is archived ($how)");
    stop_inx($inx);
}

# 8. Another network: a node of another HRP on an empty archive, another network name later.
($inx, $port) = start_inx('--hrp', 'rms');
new_database($node, 'network');
($rc, $err) = run_sync('network', $port, '--until-synced');
is($rc, 9, 'a node of another address prefix: exit 9');
like($err, qr/rms1.*smr1|"rms".*"smr1/, 'the error names both');
is(newest('network'), '', 'nothing archived');
stop_inx($inx);
($inx, $port) = start_inx('--network-name', 'another-net');
($rc, $err) = run_sync('resumed', $port, '--until-synced');
is($rc, 9, 'a node of another network name than the one followed before: exit 9');
like($err, qr/another-net/, 'the error names it');
stop_inx($inx);

# 9. A node behind the archive; a node that pruned what the archive needs.
($inx, $port) = start_inx('--confirmed', '60');
($rc, $err) = run_sync('synced', $port, '--until-synced');
is($rc, 8, 'a node behind the archive: exit 8');
like($err, qr/confirmed milestone 60, behind this archive's newest, 120/, 'the error says so');
stop_inx($inx);
new_database($node, 'gap');
($inx, $port) = start_inx();
run_sync('gap', $port, '--to', '10');
stop_inx($inx);
($inx, $port) = start_inx('--pruning-index', '70');
($rc, $err) = run_sync('gap', $port, '--until-synced');
is($rc, 7, 'a node that pruned milestones the archive needs: exit 7');
like($err, qr/pruned milestones 11 to 70/, 'the error names the gap');
like($err, qr/--from 11 --to 70/, 'and says how to fill it');

# 10. An empty archive from a pruned node: the ledger before its first milestone comes from the
# node's unspent outputs and ledger updates, so the UTXO set is the file ingest's.
new_database($node, 'pruned');
($rc, $err) = run_sync('pruned', $port, '--until-synced');
is($rc, 0, 'an empty archive syncs from a pruned node') or diag($err);
is($node->safe_psql('pruned', 'SELECT min(milestone_index) FROM permanode.sync'), 71,
    'starting at the node\'s oldest milestone');
is($node->safe_psql('pruned', q{SELECT string_agg(from_milestone || '-' || to_milestone, ',') FROM permanode.sync_gaps()}),
    '1-70', 'the milestones before it show as a gap');
my $utxo = q{SELECT count(*), md5(string_agg(output_id::text, ',' ORDER BY output_id::text))
             FROM permanode.unspent_outputs};
is($node->safe_psql('pruned', $utxo), $node->safe_psql('filed', $utxo),
    'the unspent outputs equal those of the whole ledger');
stop_inx($inx);

$node->stop;
done_testing();
