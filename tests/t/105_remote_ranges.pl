# Ranges on other nodes: three clusters, the fixtures' ledger on `main`, its older range moved to
# `node_b` (some tables) and `node_c` (the rest, which node_c then archives into its own cold tier)
# through permanode.attach_remote. The query suite of the ledger's tiers and a set of HTTP routes
# give the answers of the all-hot ledger; keyed lookups are sent whole to the other node and read
# a remote range only when the hints name it; a stopped node gives an error naming it; a move
# killed at each step, on either side, leaves every row readable exactly once and runs again.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use IPC::Run;
use HTTP::Tiny;
use Test::More;
use ledger_suite;

my $cli = $ENV{PERMANODE_CLI} || "$FindBin::RealBin/../../build/permanode";

sub start_node
{
    my ($name) = @_;
    my $node = PostgreSQL::Test::Cluster->new($name);
    $node->init;
    $node->append_conf('postgresql.conf', preload_conf());
    $node->start;
    return $node;
}

my $main = start_node('main');
load_ledger($main, 'ledger');
my $hot = answers($main, 'ledger');
like($hot, qr/point block: /, 'the suite answers on the all-hot ledger');

# Every table's rows, counted and fingerprinted: a row read twice or lost changes it.
my $fingerprint = q{
    SELECT string_agg(t.table_name || ':' || f.rows, ' ' ORDER BY t.table_name)
    FROM permanode.ledger_tables t
    CROSS JOIN LATERAL (SELECT permanode.relation_checksum(format('permanode.%I', t.table_name)::regclass) AS rows) f};
my $rows = $main->safe_psql('ledger', $fingerprint);

my $user = $main->safe_psql('postgres', 'SELECT current_user');
my %nodes = (node_b => start_node('node_b'), node_c => start_node('node_c'));
for my $name (sort keys %nodes)
{
    my $node = $nodes{$name};
    $node->safe_psql('postgres', 'CREATE DATABASE ledger');
    $node->safe_psql('ledger',
        "SET client_min_messages = warning; CREATE EXTENSION permanode CASCADE;\n"
          . 'SELECT count(permanode.set_chunk_size(table_name, 1000)) FROM permanode.ledger_tables');
    $main->safe_psql('ledger',
        "CREATE EXTENSION IF NOT EXISTS postgres_fdw; CREATE EXTENSION IF NOT EXISTS dblink;\n"
          . "CREATE SERVER $name FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '"
          . $node->host . "', port '" . $node->port . "', dbname 'ledger');\n"
          # the reader's plain scans of a remote range log in as the reader there (least privilege)
          . "CREATE USER MAPPING FOR PUBLIC SERVER $name OPTIONS (user 'reader', password_required 'false');\n"
          . "CREATE USER MAPPING FOR CURRENT_USER SERVER $name OPTIONS (user '$user');");
    $node->safe_psql('ledger', 'CREATE ROLE reader LOGIN IN ROLE permanode_reader');
}
$main->safe_psql('ledger', 'CREATE ROLE reader LOGIN IN ROLE permanode_reader');

# A move of the newest range is refused (ingest may still write it), naming the table.
my ($rc, $out, $err) = $main->psql('ledger', q{CALL permanode.attach_remote('messages', 0, 2419, 'node_b')});
like($err, qr/cannot move range 2418 of messages: ingest may still write it/, 'the newest range stays');

# --- spread: blocks and their neighbours to node_b, the rest to node_c ---
for my $table (qw(messages parents tags transactions milestones))
{
    $main->safe_psql('ledger', "CALL permanode.attach_remote('$table', 0, 2418, 'node_b')");
}
$main->safe_psql('ledger', q{CALL permanode.attach_remote('all', 0, 2418, 'node_c')});
my $tiers = tiers($main, 'ledger');
like($tiers, qr/^messages\|17\|remote\|\d+$/m, 'messages range 17 is remote');
unlike($tiers, qr/^(?!sync\|)\w+\|17\|hot\|/m, 'no table keeps range 17 hot (but sync, which stays)');
is($main->safe_psql('ledger', q{SELECT string_agg(DISTINCT server, ',' ORDER BY server) FROM permanode.status WHERE tier = 'remote'}),
    'node_b,node_c', 'the ranges are spread over both nodes');
is($main->safe_psql('ledger', $fingerprint), $rows, 'every row is there once, over three nodes');
is(answers($main, 'ledger'), $hot, 'the suite gives the all-hot answers over three nodes');

# node_c keeps what it holds in its own cold tier.
ok($nodes{node_c}->safe_psql('ledger',
        q{SELECT count(*) FROM permanode.ledger_tables l, permanode.archive_table(l.table_name, 17, 18)}) > 0,
    'node_c archives the ranges it holds');
like(tiers($nodes{node_c}, 'ledger'), qr/\|17\|cold\|/, 'node_c shows them cold');
is(answers($main, 'ledger'), $hot, 'the suite answers the same with node_c reading its archives');

my $status = `$cli status --dsn '@{[ $main->connstr('ledger') ]}' 2>&1`;
like($status, qr/^ messages +\| 17 +\| remote \(node_b\) +\| 112 /m, 'permanode status shows the tier remote and its server');

# --- pushdown: a first page by address and a point lookup are sent whole ---
my $addr = $main->safe_psql('ledger', q{SELECT address FROM permanode.basic_outputs WHERE address IS NOT NULL
    GROUP BY address HAVING max(ms_range_id) = 17 ORDER BY count(*) DESC, 1 LIMIT 1});
my $plan = $main->safe_psql('ledger', qq{SET search_path = permanode; EXPLAIN (ANALYZE, VERBOSE, COSTS OFF)
    SELECT output_id FROM basic_outputs_by_address WHERE address = '$addr'
    ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 100});
like($plan, qr/Remote SQL: SELECT .* FROM permanode_remote\.basic_outputs_remote_17_18 WHERE \(\(address OPERATOR\(permanode\.=\) \$1::permanode\.address\)\) AND \(\(ms_range_id = ANY \(\$2::integer\[\]\)\)\) ORDER BY ms_range_id DESC .* LIMIT \$\d+::bigint OFFSET/,
    'the first page sends its WHERE, ORDER BY and LIMIT to the node');
my $out_id = $main->safe_psql('ledger', 'SELECT output_id FROM permanode.basic_outputs WHERE ms_range_id = 17 ORDER BY output_id LIMIT 1');
$plan = $main->safe_psql('ledger', qq{SET search_path = permanode; EXPLAIN (ANALYZE, VERBOSE, COSTS OFF)
    SELECT amount FROM basic_outputs WHERE output_id = '$out_id'});
like($plan, qr/Remote SQL: SELECT .* WHERE \(\(output_id OPERATOR\(permanode\.=\) \$1::permanode\.output_id\)\)/,
    'a point lookup by ID is sent whole');
like($plan, qr/Partitions Read: 1\b/, 'and reads one partition');

# --- the HTTP routes answer the same (the server logs in as the reader) ---
my $block = $main->safe_psql('ledger', q{SELECT message_id FROM permanode.messages WHERE ms_range_id = 17 AND variant = 'transaction' ORDER BY message_id LIMIT 1});
# http_tiers_test's routes, with keys of range 17
my $transaction = $main->safe_psql('ledger', qq{SELECT transaction_id FROM permanode.transactions WHERE message_id = '$block' LIMIT 1});
my $spent = $main->safe_psql('ledger', 'SELECT output_id FROM permanode.spent_outputs WHERE ms_range_id = 17 ORDER BY output_id LIMIT 1');
my $parent = $main->safe_psql('ledger', 'SELECT parent_id FROM permanode.parents WHERE ms_range_id = 17 GROUP BY parent_id ORDER BY count(*) DESC, 1 LIMIT 1');
my $milestone_id = $main->safe_psql('ledger', 'SELECT milestone_id FROM permanode.milestones WHERE milestone_index = 17340');
my $tag = $main->safe_psql('ledger', q{SELECT '0x' || encode(tag, 'hex') FROM permanode.tags WHERE ms_range_id = 17 ORDER BY tag LIMIT 1});
my @routes = ("/api/core/v2/blocks/$block", "/api/core/v2/blocks/$block/metadata",
    "/api/core/v2/outputs/$out_id", "/api/core/v2/outputs/$spent/metadata",
    "/api/core/v2/transactions/$transaction/included-block",
    '/api/core/v2/milestones/by-index/17340', '/api/core/v2/milestones/by-index/17340/utxo-changes',
    "/api/core/v2/milestones/$milestone_id", "/api/core/v2/milestones/$milestone_id/utxo-changes",
    "/api/indexer/v1/outputs/basic?includeSpent=true&address=$addr",
    '/api/indexer/v1/outputs/basic?includeSpent=true&pageSize=3', "/messages/$block",
    "/messages/$block/metadata", "/messages/$parent/children", "/messages?index=$tag",
    "/addresses/$addr/outputs", "/outputs/$out_id", '/milestones/17340',
    "/api/explorer/v2/blocks/$parent/children", "/api/explorer/v2/ledger/updates/by-address/$addr",
    '/api/explorer/v2/ledger/updates/by-milestone/17340', "/api/explorer/v2/balance/$addr",
    '/api/analytics/v2/milestones/17340', '/api/analytics/v2/daily?from=2022-09-01&to=2023-03-01');
my $http_port = PostgreSQL::Test::Cluster::get_free_port();

sub http_answers
{
    my ($node, $db) = @_;
    my $dsn = $node->connstr($db) . ' user=reader';
    my $server = IPC::Run::start([ $cli, 'serve', '--port', $http_port, '--dsn', $dsn ],
        '>', \my $sout, '2>', \my $serr);
    my $http = HTTP::Tiny->new(timeout => 30);
    for (1 .. 100)
    {
        last if $http->get("http://127.0.0.1:$http_port/health")->{status} != 599;
        select(undef, undef, undef, 0.1);
    }
    my @answers = map { my $r = $http->get("http://127.0.0.1:$http_port$_"); "$_ $r->{status} $r->{content}" } @routes;
    $server->signal('TERM');
    $server->finish;
    return @answers;
}
my @remote_http = http_answers($main, 'ledger');
# the same ledger all hot, in another database of main
load_ledger($main, 'ledger_hot');
my @hot_http = http_answers($main, 'ledger_hot');
is(scalar(grep { / 200 / } @hot_http), scalar(@routes), 'every route answers 200 on the all-hot ledger');
is_deeply(\@remote_http, \@hot_http, 'every route answers the same over three nodes');

# --- a stopped node: lookups that need it fail naming it, the others go on ---
my $hot_addr = $main->safe_psql('ledger', q{SELECT address FROM permanode.basic_outputs WHERE address IS NOT NULL
    GROUP BY address HAVING min(ms_range_id) = 2418 ORDER BY count(*) DESC, 1 LIMIT 1});
my $lookup = q{SELECT count(*) FROM (SELECT output_id FROM permanode.basic_outputs_by_address WHERE address = '%s'
    ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 100) p};
my $hot_count = $main->safe_psql('ledger', sprintf($lookup, $hot_addr));
$nodes{node_c}->stop;
is($main->safe_psql('ledger', "SET search_path = permanode; " . sprintf($lookup, $hot_addr)), $hot_count,
    'with node_c stopped, a key whose hints name only hot ranges is answered');
($rc, $out, $err) = $main->psql('ledger', "SET search_path = permanode; " . sprintf($lookup, $addr));
like($err, qr/remote node "node_c" \(host=.*port=\d+.*\) failed reading "basic_outputs_remote_17_18"/,
    'a lookup that needs node_c fails naming it');
($rc, $out, $err) = $main->psql('ledger', 'SELECT count(*) FROM permanode.basic_outputs');
like($err, qr/node_c/, 'a scan of every range fails naming node_c');
# stopped in the middle of a query: rows of the hot range read, then the remote one
$nodes{node_c}->start;
my ($in, $cursor_out, $cursor_err) = ('', '', '');
my $session = IPC::Run::start([ 'psql', '-XAtq', '-d', $main->connstr('ledger'), '-f', '-' ],
    '<', \$in, '>', \$cursor_out, '2>', \$cursor_err);
my $span_addr = $main->safe_psql('ledger', q{SELECT address FROM permanode.basic_outputs WHERE address IS NOT NULL
    GROUP BY address HAVING min(ms_range_id) = 17 AND max(ms_range_id) = 2418 ORDER BY count(*) DESC, 1 LIMIT 1});
$in .= "SET search_path = permanode; BEGIN; DECLARE c CURSOR FOR SELECT output_id, ms_range_id FROM basic_outputs_by_address WHERE address = '$span_addr' ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC; FETCH 1 FROM c;\n\\echo fetched\n";
$session->pump until $cursor_out =~ /fetched/;
like($cursor_out, qr/\|2418\n/, 'the cursor read a hot row first');
$nodes{node_c}->stop;
$in .= "FETCH ALL FROM c;\n\\q\n";
$session->finish;
like($cursor_err, qr/remote node "node_c".*failed reading/, 'stopped mid-query, node_c is named in the error');
$nodes{node_c}->start;
is(answers($main, 'ledger'), $hot, 'node_c back: the suite answers the same');

# --- moves killed at each step, on either side ---
sub wait_paused
{
    my ($node, $step, $offset) = @_;
    $node->wait_for_log(qr/paused at $step \(pid (\d+)\)/, $offset);
    my $log = slurp_file($node->logfile, $offset);
    $log =~ /paused at $step \(pid (\d+)\)/ or die "no pid for step $step";
    return $1;
}

sub crash_at
{
    my ($call, $step, $victim) = @_;
    my $offset = -s $main->logfile;
    my $mover = IPC::Run::start([ 'psql', '-XAtq', '-d', $main->connstr('ledger'), '-c',
        "SET permanode.debug_remote_pause = '$step:4'", '-c', $call ], '>', \my $mout, '2>', \my $merr);
    my $pid = wait_paused($main, $step, $offset);
    if ($victim eq 'main')
    {
        kill 'KILL', $pid;
    }
    else
    {
        # node_b's checkpointer SIGKILLed: its postmaster ends every backend and restarts as after
        # a crash (the open remote transaction of a copy, if any, is lost)
        kill 'KILL', $nodes{node_b}->safe_psql('postgres',
            q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'});
    }
    $mover->finish;
    $main->poll_query_until('ledger', 'SELECT true') or die 'main did not come back';
    $nodes{node_b}->poll_query_until('ledger', 'SELECT true') or die 'node_b did not come back';
    return;
}

my $attach = q{CALL permanode.attach_remote('milestones', 0, 2418, 'node_b')};
my $detach = q{CALL permanode.detach_remote('milestones', 0, 2418)};
$main->safe_psql('ledger', $detach);
like(tiers($main, 'ledger'), qr/^milestones\|17\|hot\|3$/m, 'detach_remote brings the range back');
is($main->safe_psql('ledger', $fingerprint), $rows, 'every row once after the range came back');
is($nodes{node_b}->safe_psql('ledger', q{SELECT count(*) FROM pg_class WHERE relname ~ '^milestones_(r000017|remote_17_18)'}), '0',
    'and node_b dropped its copy');

for my $step (qw(held copied committed swapped))
{
    for my $victim (qw(main node_b))
    {
        crash_at($attach, $step, $victim);
        is($main->safe_psql('ledger', $fingerprint), $rows, "attach killed at $step on $victim: every row once");
        is(answers($main, 'ledger'), $hot, "attach killed at $step on $victim: the suite answers the same");
        $main->safe_psql('ledger', $attach);
        like(tiers($main, 'ledger'), qr/^milestones\|17\|remote\|3$/m, "attach killed at $step on $victim: run again, it completes");
        is($main->safe_psql('ledger', $fingerprint), $rows, "attach killed at $step on $victim: every row once after");
        $main->safe_psql('ledger', $detach);
    }
}
$main->safe_psql('ledger', $attach);
for my $step (qw(copied committed swapped back))
{
    for my $victim (qw(main node_b))
    {
        crash_at($detach, $step, $victim);
        is($main->safe_psql('ledger', $fingerprint), $rows, "detach killed at $step on $victim: every row once");
        $main->safe_psql('ledger', $detach);
        like(tiers($main, 'ledger'), qr/^milestones\|17\|hot\|3$/m, "detach killed at $step on $victim: run again, it completes");
        is(answers($main, 'ledger'), $hot, "detach killed at $step on $victim: the suite answers the same");
        $main->safe_psql('ledger', $attach);
    }
}

$_->stop for values %nodes;
$main->stop;
done_testing();
