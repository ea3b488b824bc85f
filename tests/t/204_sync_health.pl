# Health that tells the truth (#42): while `permanode sync` follows the test INX node
# (tests/inx/inx_server.py), `permanode serve` answers /health 200 and isHealthy true only while
# the archive keeps up; a slow node (the archive falls behind while the sync reports), a sync
# killed with -9 (its reports go stale past --sync-max-silence) and a sync that cannot report
# (a role without the right) are each told apart; a clean stop (SIGTERM) is healthy again.
# /metrics carries the lag, rates and reconnects by source, and `permanode status` says what
# syncs from where.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use IPC::Run;
use HTTP::Tiny;
use JSON::PP;
use Time::HiRes qw(usleep time);
use Test::More;
use ledger_suite;
use sync_suite;

my $cli = $ENV{PERMANODE_CLI} || "$FindBin::RealBin/../../build/permanode";
my $inx_server = $ENV{PERMANODE_INX_SERVER} || "$FindBin::RealBin/../inx/inx_server.py";
my @proto = $ENV{PERMANODE_INX_PROTO} ? ('--proto', $ENV{PERMANODE_INX_PROTO}) : ();

my $node = PostgreSQL::Test::Cluster->new('health');
$node->init;
$node->append_conf('postgresql.conf', preload_conf());
$node->start;

my $ledger = "$PostgreSQL::Test::Utils::tmp_check/health_ledger.ndjson";
system($cli, 'generate', '--milestones', '120', '--node-fields', '--seed', '11', '-o', $ledger) == 0
  or die 'generate failed';

sub newest
{
    return $node->safe_psql($_[0], 'SELECT coalesce(max(milestone_index), 0) FROM permanode.sync');
}

# The node, syncs and server started, stopped here should the test die halfway.
my @started;
END { local $?; eval { $_->kill_kill(grace => 2) } for @started }

# Waits up to $seconds for $check to return true; returns whether it did.
sub wait_for
{
    my ($check, $seconds) = @_;
    my $deadline = time + ($seconds // 60);
    while (time < $deadline)
    {
        return 1 if $check->();
        usleep(100_000);
    }
    return 0;
}

# Starts the test INX server; returns its harness and port.
sub start_inx
{
    my (@options) = @_;
    my ($out, $err) = ('', '');
    my $h = IPC::Run::start(['python3', $inx_server, @proto, @options, $ledger],
        '>', \$out, '2>', \$err);
    push @started, $h;
    wait_for(sub { $h->pump_nb; $out =~ /INX listening on 127\.0\.0\.1:(\d+)/ }, 60)
      or die "the INX server did not start: $err";
    $out =~ /:(\d+)/;
    return ($h, $1);
}

sub stop_inx { my ($h) = @_; $h->signal('TERM'); $h->finish; return }

sub start_sync
{
    my ($db, $port, $dsn_extra, @options) = @_;
    my ($out, $err) = ('', '');
    my $h = IPC::Run::start([$cli, 'sync', '--inx', "127.0.0.1:$port", '--dsn',
            $node->connstr($db) . ($dsn_extra // ''), '--no-progress', @options],
        '>', \$out, '2>', \$err);
    push @started, $h;
    return ($h, \$err);
}

# --- the archive, the node, the server (as a reader, as the server logs in) ---
new_database($node, 'followed');
$node->safe_psql('followed', 'CREATE ROLE regress_http LOGIN IN ROLE permanode_reader');
my ($inx, $inx_port) = start_inx('--confirmed', '10', '--confirm-every', '1');
my $source = "INX 127.0.0.1:$inx_port";

my $http_port = PostgreSQL::Test::Cluster::get_free_port();
my ($sout, $serr) = ('', '');
my $server = IPC::Run::start([$cli, 'serve', '--port', $http_port, '--sync-max-silence', '3',
        '--dsn', $node->connstr('followed') . ' user=regress_http'],
    '>', \$sout, '2>', \$serr);
push @started, $server;
my $http = HTTP::Tiny->new(timeout => 30);
my $base = "http://127.0.0.1:$http_port";
wait_for(sub { $http->get("$base/health")->{status} != 599 }, 30)
  or die "the server did not start: $serr";

sub health { my $r = $http->get("$base/health"); return ($r->{status}, $r->{content}) }

sub core_healthy
{
    my $r = $http->get("$base/api/core/v2/info");
    die "info: $r->{status} $r->{content}" unless $r->{status} == 200;
    return decode_json($r->{content})->{status}{isHealthy} ? 1 : 0;
}

# The value of a metric of our source in /metrics' text; undef when absent.
sub metric
{
    my ($name) = @_;
    my $text = $http->get("$base/metrics")->{content};
    return $text =~ /^\Q$name\E\{source="\Q$source\E"\} (\S+)$/m ? $1 : undef;
}

# `permanode status`, judging as the server does.
sub status_text
{
    my ($out, $err) = ('', '');
    IPC::Run::run([$cli, 'status', '--dsn', $node->connstr('followed'), '--sync-max-silence', '3'],
        '>', \$out, '2>', \$err);
    return $out . $err;
}

# --- before any sync: healthy as before (the database answers) ---
my ($code) = health();
is($code, 200, 'no sync recorded: /health 200');
like(status_text(), qr/sync: no node followed/, 'status says no node is followed');

# --- 1. a live sync that keeps up ---
my ($sync, $sync_err) = start_sync('followed', $inx_port);
ok(wait_for(sub { newest('followed') >= 12 && (health())[0] == 200 && defined metric('permanode_sync_lag_milestones') }),
    'the live sync archived milestone 12 and reports');
($code) = health();
is($code, 200, 'a live sync that keeps up: /health 200');
is(core_healthy(), 1, 'isHealthy true in /api/core/v2/info');
my $lag = metric('permanode_sync_lag_milestones');
cmp_ok($lag, '<=', 3, "/metrics: permanode_sync_lag_milestones $lag");
ok(defined metric('permanode_sync_lag_seconds'), '/metrics: permanode_sync_lag_seconds');
ok(wait_for(sub { (metric('permanode_sync_milestones_per_second') // 0) > 0 }, 20),
    '/metrics: permanode_sync_milestones_per_second above 0 while the node confirms one a second');
ok(defined metric('permanode_sync_blocks_per_second'), '/metrics: permanode_sync_blocks_per_second');
is(metric('permanode_sync_reconnects_total'), 0, '/metrics: no reconnects yet');
my $status = status_text();
like($status, qr/^sync from \Q$source\E: live, pid \d+/m, 'status: what syncs from where, live');
like($status, qr/^  following: archived \d+, node at \d+ \(\d+ milestones, \d+ s behind\)/m,
    'status: following, archived against the node');
like($status, qr/milestones\/s, .* blocks\/s, 0 reconnects; reported [\d.]+ s ago/,
    'status: rates, reconnects and the heartbeat age');

# --- 2. a slow node: the node is back with every milestone confirmed, but serves slowly ---
stop_inx($inx);
($inx) = start_inx('--port', $inx_port, '--delay-ms', '40');
ok(wait_for(sub { (health())[0] == 503 }, 60), 'a node far ahead of the archive: /health 503');
my $body;
(undef, $body) = health();
my $health = eval { decode_json($body) } // {};
is($health->{healthy}, JSON::PP::false, 'the 503 body says healthy false');
like($health->{reason}, qr/^the archive is \d+ milestones behind \Q$source\E/, 'and names the lag and the node')
  or diag($body);
is(core_healthy(), 0, 'isHealthy false in /api/core/v2/info');
cmp_ok(metric('permanode_sync_lag_milestones'), '>', 3, '/metrics: the lag in milestones');
cmp_ok(metric('permanode_sync_lag_seconds'), '>', 0, '/metrics: the lag in seconds');
ok(wait_for(sub { (metric('permanode_sync_reconnects_total') // 0) >= 1 }, 20),
    '/metrics: the stream to the restarted node counts as a reconnect');
is(metric('permanode_sync_healthy'), 0, '/metrics: permanode_sync_healthy 0');
like(status_text(), qr/^  behind: archived \d+, node at \d+ \(\d+ milestones, \d+ s behind\)/m,
    'status: behind');

# --- 3. the sync killed with -9: its reports go stale, and nobody else says so ---
$sync->signal('KILL');    # (IPC::Run's kill_kill would try SIGTERM first)
$sync->finish;
ok(wait_for(sub { (health())[0] == 503 && (health())[1] =~ /has not reported/ }, 30),
    'a killed live sync, silent past --sync-max-silence: /health 503');
(undef, $body) = health();
like(eval { decode_json($body)->{reason} } // $body, qr/^the sync from \Q$source\E has not reported for \d+ s/,
    'the reason says which sync went silent');
is(core_healthy(), 0, 'isHealthy false while nobody follows the node');
like(status_text(), qr/^  not reporting \(since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)/m,
    'status: not reporting, since when');

# --- 4. a sync again, then stopped cleanly (SIGTERM): healthy as before ---
($sync, $sync_err) = start_sync('followed', $inx_port);
ok(wait_for(sub { (health())[1] =~ /milestones behind/ }, 30), 'the restarted sync reports (still behind)');
$sync->signal('TERM');
$sync->finish;
is($sync->result(0), 130, 'SIGTERM: the sync exits 130') or diag($$sync_err);
($code) = health();
is($code, 200, 'a live sync stopped cleanly: /health 200 again');
is(core_healthy(), 1, 'isHealthy true again');
like(status_text(), qr/^  stopped at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(exit code 130\)/m,
    'status: stopped, with its exit code');
stop_inx($inx);

# --- 5. a role that may ingest but not report: one warning, and the sync goes on ---
new_database($node, 'unreported');
$node->safe_psql('unreported', q{
    CREATE ROLE regress_ingest LOGIN IN ROLE permanode_writer;
    REVOKE INSERT, UPDATE ON permanode.sync_follow FROM permanode_writer});
($inx, $inx_port) = start_inx('--confirmed', '10');
my $err;
($sync, $err) = start_sync('unreported', $inx_port, ' user=regress_ingest', '--until-synced');
$sync->finish;
is($sync->result(0), 0, 'a sync that may not report still syncs to the end') or diag($$err);
is(newest('unreported'), 10, 'every milestone confirmed is archived');
my @warnings = $$err =~ /cannot report to permanode\.sync_follow/g;
is(scalar(@warnings), 1, 'it warned once') or diag($$err);
is($node->safe_psql('unreported', 'SELECT count(*) FROM permanode.sync_follow'), 0, 'and wrote nothing');
my @refusals = slurp_file($node->logfile) =~ /permission denied for table sync_follow/g;
is(scalar(@refusals), 1, 'it did not try again once refused (the server logged one refusal)');
stop_inx($inx);

$server->signal('TERM');
$server->finish;
$node->stop;
done_testing();
