# `permanode serve --dsn PRIMARY --replica S1 --replica S2` over a primary and two streaming
# standbys: the real server binary, a real HTTP client (HTTP::Tiny). Requests read from both
# standbys and answer as the primary alone does; each response names its node and that node's
# ledger index (a standby whose replay is paused reports the older one); a standby that stops is
# skipped, both stopped leave the primary serving, and one that comes back serves again once
# its back-off has passed.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use HTTP::Tiny;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use ledger_suite;

my $cli = $ENV{PERMANODE_CLI} || "$FindBin::RealBin/../../build/permanode";

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', preload_conf());
$primary->start;
load_ledger($primary, 'ledger');
# The server logs in as a reader only, as client/http/README.md asks.
$primary->safe_psql('ledger', 'CREATE ROLE http_reader LOGIN IN ROLE permanode_reader');

$primary->backup('base');
my @standbys;
for my $name ('standby1', 'standby2')
{
    my $standby = PostgreSQL::Test::Cluster->new($name);
    $standby->init_from_backup($primary, 'base', has_streaming => 1);
    $standby->start;
    $primary->wait_for_catchup($standby);
    push @standbys, $standby;
}
my ($s1, $s2) = @standbys;

sub reader_dsn
{
    my ($node) = @_;
    return $node->connstr('ledger') . ' user=http_reader';
}

# What X-Permanode-Node says of a standby: "replica HOST:PORT" of its DSN.
sub label
{
    my ($node) = @_;
    return 'replica ' . $node->host . ':' . $node->port;
}

# Starts `permanode serve` on a free port with the options given; returns [handle, port, log].
my $servers = 0;
sub start_server
{
    my @options = @_;
    my $log = $PostgreSQL::Test::Utils::tmp_check . '/serve' . ++$servers . '.log';
    my $handle = IPC::Run::start([ $cli, 'serve', '--port', '0', '--threads', '2', @options ],
        '<', \undef, '>', '/dev/null', '2>', $log);
    for (1 .. 100)
    {
        my $text = -e $log ? slurp_file($log) : '';
        return [ $handle, $1, $log ] if $text =~ m{listening on http://127\.0\.0\.1:(\d+)};
        usleep(100_000);
    }
    die "permanode serve did not start:\n" . slurp_file($log);
}

sub stop_server
{
    my ($server) = @_;
    $server->[0]->signal('TERM');
    $server->[0]->finish;
    return;
}

# GET path: { status, node, ledger_index, body }.
my $http = HTTP::Tiny->new(timeout => 20, no_proxy => ['127.0.0.1']);
sub get
{
    my ($server, $path) = @_;
    my $response = $http->get("http://127.0.0.1:$server->[1]$path");
    die "no answer for $path: $response->{content}" if $response->{status} == 599;
    return {
        status => $response->{status},
        body => $response->{content} // '',
        node => $response->{headers}{'x-permanode-node'} // '',
        ledger_index => $response->{headers}{'x-permanode-ledger-index'} // '' };
}

# Keys of the fixtures for the routes (as tests/e2e/http_tiers_test.cpp picks them).
sub one { return $primary->safe_psql('ledger', $_[0]); }
my $block = one(q{SELECT message_id FROM permanode.messages WHERE variant = 'transaction'
                  ORDER BY message_id LIMIT 1});
my $transaction = one("SELECT transaction_id FROM permanode.transactions
                       WHERE message_id = '$block' LIMIT 1");
my $output = one('SELECT output_id FROM permanode.basic_outputs ORDER BY output_id LIMIT 1');
my $address = one(q{SELECT address FROM permanode.basic_outputs WHERE address IS NOT NULL
                    GROUP BY address ORDER BY count(*) DESC, 1 LIMIT 1});
my $milestone_id = one('SELECT milestone_id FROM permanode.milestones WHERE milestone_index = 17340');
my @paths = (
    '/api/core/v2/info',
    "/api/core/v2/blocks/$block",
    "/api/core/v2/blocks/$block/metadata",
    "/api/core/v2/outputs/$output",
    "/api/core/v2/transactions/$transaction/included-block",
    '/api/core/v2/milestones/by-index/17340',
    '/api/core/v2/milestones/by-index/17340/utxo-changes',
    "/api/core/v2/milestones/$milestone_id",
    "/api/indexer/v1/outputs/basic?address=$address",
    '/api/indexer/v1/outputs/basic?includeSpent=true&pageSize=3',
    "/messages/$block",
    "/addresses/$address/outputs",
    '/api/explorer/v2/ledger/updates/by-milestone/17340',
    "/api/explorer/v2/balance/$address",
    '/api/analytics/v2/milestones/17340',
    '/api/core/v2/milestones/by-index/99',    # a 404
    '/api/core/v2/blocks/0x12');              # a 400

# The primary alone, as a server without replicas: the answers to compare with, asked again
# whenever the ledger may have changed.
my $alone = start_server('--dsn', reader_dsn($primary));
my %expected;
sub expect_primary_answers
{
    for my $path (@paths)
    {
        my $answer = get($alone, $path);
        $expected{$path} = "$answer->{status} $answer->{body}";
        is($answer->{node}, 'primary', "primary alone: $path answered by the primary");
    }
    return;
}
expect_primary_answers();
like($expected{'/api/core/v2/info'}, qr/^200 /, 'the primary answers /info');
like($expected{"/api/core/v2/blocks/$block"}, qr/^200 /, 'and the block');
like($expected{'/api/core/v2/blocks/0x12'}, qr/^400 /, 'a bad block ID is a 400');

my $server = start_server('--dsn', reader_dsn($primary), '--replica', reader_dsn($s1),
    '--replica', reader_dsn($s2), '--replica-backoff', '2000');

# Every route answers as the primary alone did, and both standbys serve.
my %by_node;
for my $round (1 .. 2)
{
    for my $path (@paths)
    {
        my $answer = get($server, $path);
        is("$answer->{status} $answer->{body}", $expected{$path},
            "round $round: $path answers as on the primary");
        $by_node{ $answer->{node} }++;
        is($answer->{ledger_index}, '2418187', "round $round: $path: the ledger index header")
          if $answer->{status} == 200;
    }
}
ok($by_node{ label($s1) } >= 5 && $by_node{ label($s2) } >= 5,
    'requests spread over both standbys ('
      . join(', ', map { "$_: $by_node{$_}" } sort keys %by_node) . ')');
ok(!$by_node{primary}, 'the primary serves no read while the standbys do');

# Standby 1 stops replaying; the primary ingests one more milestone, which standby 2 replays.
$s1->safe_psql('postgres', 'SELECT pg_wal_replay_pause()');
$s1->poll_query_until('postgres', q{SELECT pg_get_wal_replay_pause_state() = 'paused'})
  or die 'standby 1 did not pause';
my $bundle = $PostgreSQL::Test::Utils::tmp_check . '/next.ndjson';
system_or_bail($cli, 'generate', '--milestones', '1', '--start-index', '2418188',
    '--start-timestamp', '1700000000', '--seed', '7', '-o', $bundle);
system_or_bail($cli, 'ingest', '--no-measure', $bundle, '--dsn', $primary->connstr('ledger'));
is(one('SELECT max(milestone_index) FROM permanode.milestone_protocols'), '2418188',
    'the primary holds milestone 2418188');
$primary->wait_for_catchup($s2);
# Past the header's refresh (once a second per node).
usleep(1_500_000);

# The headers say how far each node is, and agree with the body's own ledger index.
my %seen;
for (1 .. 8)
{
    for my $path ('/api/core/v2/info', '/api/indexer/v1/outputs/basic?pageSize=1')
    {
        my $answer = get($server, $path);
        is($answer->{status}, 200, "$path answers while standby 1 lags");
        my ($body_index) = $answer->{body} =~ /"(?:ledgerIndex|latestMilestone":\{"index)":(\d+)/;
        is($answer->{ledger_index}, $body_index,
            "$path: the header agrees with the body ($answer->{node})");
        $seen{ $answer->{node} }{ $answer->{ledger_index} }++;
    }
}
is(join(',', sort keys %{ $seen{ label($s1) } }), '2418187',
    'the paused standby reports the older ledger index');
is(join(',', sort keys %{ $seen{ label($s2) } }), '2418188',
    'the standby that replayed reports the new one');
$s1->safe_psql('postgres', 'SELECT pg_wal_replay_resume()');
$primary->wait_for_catchup($s1);
expect_primary_answers();

# The failures /metrics counts for a node.
sub failures
{
    my ($node_label) = @_;
    my ($count) = get($server, '/metrics')->{body}
      =~ /^permanode_http_node_failures_total\{node="\Q$node_label\E"\} (\d+)$/m;
    return $count;
}

# Standby 1 stops: every request is answered by standby 2.
is(failures(label($s1)), 0, 'no failure of standby 1 yet');
$s1->stop('immediate');
my %after_stop;
my $stopped_at = time;
for my $i (1 .. 3)
{
    for my $path (@paths)
    {
        my $answer = get($server, $path);
        is("$answer->{status} $answer->{body}", $expected{$path},
            "standby 1 stopped: $path answers as on the primary");
        $after_stop{ $answer->{node} }++;
    }
}
is(join(',', sort keys %after_stop), label($s2), 'standby 2 answered every request');
# Each of the 2 event loops tries the stopped standby once per back-off (2 s), not per request.
my $windows = int((time - $stopped_at) / 2) + 1;
my $failed = failures(label($s1));
ok($failed >= 1 && $failed <= 2 * $windows,
    "standby 1 was tried once per loop and back-off: $failed failures in $windows window(s), "
      . (3 * @paths) . ' requests');

# Both stop: the primary serves.
$s2->stop('immediate');
my %both_stopped;
for my $path (@paths)
{
    my $answer = get($server, $path);
    is("$answer->{status} $answer->{body}", $expected{$path},
        "both standbys stopped: $path answers as on the primary");
    $both_stopped{ $answer->{node} }++;
    is($answer->{ledger_index}, '2418188', "both standbys stopped: $path: the primary's ledger index")
      if $answer->{status} == 200;
}
is(join(',', sort keys %both_stopped), 'primary', 'the primary answered every request');

# Standby 1 comes back: after its back-off it serves again.
$s1->start;
$s1->poll_query_until('ledger', 'SELECT true') or die 'standby 1 did not come back';
my $back_at;
my $started = time;
while (!$back_at && time - $started < 20)
{
    my $answer = get($server, "/api/core/v2/blocks/$block");
    is("$answer->{status} $answer->{body}", $expected{"/api/core/v2/blocks/$block"},
        'while standby 1 comes back: the block answers as on the primary');
    $back_at = time - $started if $answer->{node} eq label($s1);
    usleep(200_000) unless $back_at;
}
ok($back_at, 'standby 1 serves again after its back-off'
      . (defined $back_at ? sprintf(' (%.1f s)', $back_at) : ''));

my $metrics = get($server, '/metrics')->{body};
my $s1_label = label($s1);
like($metrics, qr/permanode_http_node_failures_total\{node="\Q$s1_label\E"\} [1-9]/,
    '/metrics counts the failures of standby 1');
like($metrics, qr/permanode_http_node_requests_total\{node="primary"\} [1-9]/,
    '/metrics counts the requests the primary answered');

stop_server($server);
stop_server($alone);
$s1->stop;
$primary->stop;
done_testing();
