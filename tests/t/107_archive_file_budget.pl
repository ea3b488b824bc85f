# The archives' file budget (fdw/DESIGN.md, "Open files"): a server whose open-files limit is 256,
# soft and hard (nothing for the module to raise), archives 100 ranges of every ledger table in
# one call and then reads every range in one session. Before the budget, RocksDB kept every SST
# of the 64 cached archives open beside PostgreSQL's own files and archiving stopped with "Too
# many open files". The backend's descriptors into the archive root (/proc/PID/fd) are counted
# while it works: they stay within the budget, and all of its descriptors within the limit.
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

my $cli = $ENV{PERMANODE_CLI} || "$FindBin::RealBin/../../build/permanode";
my $limit = 256;

# This process's limit, inherited by the server it starts (prlimit is util-linux's).
system('prlimit', '--pid', $$, "--nofile=$limit:$limit") == 0 or die "prlimit failed";

my $node = PostgreSQL::Test::Cluster->new('file_budget');
$node->init;
$node->append_conf('postgresql.conf', preload_conf());
$node->start;
# (The backend reads its own limits: read from outside once psql is gone, it may have exited.)
like($node->safe_psql('postgres', q{SELECT pg_read_file('/proc/self/limits')}),
    qr/Max open files\s+$limit\s+$limit/, "the server's backends run with $limit open files, soft and hard");

# A generated ledger in ranges of 20 milestones: 100 ranges of every table.
$node->safe_psql('postgres', 'CREATE DATABASE ledger');
$node->safe_psql('ledger', "SET client_min_messages = warning; CREATE EXTENSION permanode CASCADE;\n"
      . 'SELECT count(permanode.set_chunk_size(table_name, 20)) FROM permanode.ledger_tables');
my $file = "$PostgreSQL::Test::Utils::tmp_check/file_budget_ledger.ndjson";
system($cli, 'generate', '--milestones', '2020', '--blocks-per-milestone', '3-6', '--seed', '7',
    '-o', $file) == 0 or die "generate failed";
my ($out, $err) = ('', '');
IPC::Run::run([$cli, 'ingest', '--no-measure', $file, '--dsn', $node->connstr('ledger')], '>', \$out, '2>', \$err)
  or die "ingest failed: $err";

# Every row of every table (a full scan through the parent), and a point lookup of one block
# per range (through the Range Scan): one session reads every range.
my $suite = q{
    SELECT string_agg(t.table_name || ':' || permanode.relation_checksum(format('permanode.%I', t.table_name)::regclass), ' '
                      ORDER BY t.table_name)
    FROM permanode.ledger_tables t;
    SELECT count(*), md5(string_agg(m.message_id::text || m.milestone_index, ',' ORDER BY m.message_id))
    FROM (SELECT DISTINCT ON (ms_range_id) message_id FROM permanode.messages
          ORDER BY ms_range_id, message_id) k
    CROSS JOIN LATERAL (SELECT * FROM permanode.messages m WHERE m.message_id = k.message_id) m;
};
my $hot = $node->safe_psql('ledger', $suite);
like($hot, qr/\bmessages:\d+:/, 'the suite answers on the all-hot ledger');
like($hot, qr/^10[0-2]\|/m, 'with a block of every range');

# The backend's descriptors: all of them, and those into the archive root.
my $root = $node->data_dir . '/permanode_archive';
sub descriptors
{
    my ($pid) = @_;
    my ($all, $archive) = (0, 0);
    opendir(my $dh, "/proc/$pid/fd") or return (0, 0);
    for my $fd (readdir $dh)
    {
        next if $fd =~ /^\./;
        my $target = readlink("/proc/$pid/fd/$fd") // next;
        $all++;
        $archive++ if index($target, $root) == 0;
    }
    closedir $dh;
    return ($all, $archive);
}

# Runs sql in a session of its own, sampling that backend's descriptors until it ends; returns
# its output, its exit code and the most descriptors seen (all, into archives).
sub run_sampled
{
    my ($sql) = @_;
    my ($stdout, $stderr) = ('', '');
    my $script = "$PostgreSQL::Test::Utils::tmp_check/probe.sql";
    open(my $fh, '>', $script) or die "cannot write $script: $!";
    print $fh "SET application_name = 'budget_probe';\n$sql";
    close $fh;
    my $h = IPC::Run::start(['psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('ledger'),
            '-f', $script], '>', \$stdout, '2>', \$stderr);
    my ($most_all, $most_archive) = (0, 0);
    my $pid;
    while ($h->pumpable)
    {
        $pid //= $node->safe_psql('ledger',
            q{SELECT pid FROM pg_stat_activity WHERE application_name = 'budget_probe'}) || undef;
        if ($pid)
        {
            my ($all, $archive) = descriptors($pid);
            $most_all = $all if $all > $most_all;
            $most_archive = $archive if $archive > $most_archive;
        }
        usleep(20_000);
        $h->pump_nb;
    }
    $h->finish;
    return ($stdout, $h->result(0), $stderr, $most_all, $most_archive);
}

# The default budget: a quarter of what PostgreSQL allows itself, which is less than the limit
# less the ten descriptors it keeps in reserve.
my $budget = int(($limit - 10) / 4);

my ($archived, $rc, $archive_err, $all, $archive) =
  run_sampled('SELECT count(*), sum(rows) FROM permanode.archive(0, 100)');
is($rc, 0, 'archiving 100 ranges of every table in one call succeeds') or diag($archive_err);
my $tables = $node->safe_psql('ledger', q{SELECT count(*) FROM permanode.ledger_tables WHERE table_name <> 'sync'});
my $foreign = $node->safe_psql('ledger', q{SELECT count(*) FROM pg_foreign_table});
cmp_ok($foreign, '>=', $tables - 2, "an archive for (nearly) every table: $foreign");
cmp_ok($all, '<', $limit, "while archiving, the backend held $all descriptors, under the limit");
cmp_ok($archive, '<=', $budget, "while archiving, $archive of them were archive files (budget $budget)");
cmp_ok($archive, '>', 0, 'the sampling saw archive files open');

# Every range again, in one session, the handle cache full from the suite's first queries.
my ($cold, $rc2, $read_err, $all2, $archive2) = run_sampled($suite . $suite);
is($rc2, 0, 'the suite runs over every archived range in one session') or diag($read_err);
is($cold, "$hot\n$hot\n", 'every answer is the all-hot answer, twice');
cmp_ok($all2, '<', $limit, "while reading, the backend held $all2 descriptors, under the limit");
cmp_ok($archive2, '<=', $budget, "while reading, $archive2 of them were archive files (budget $budget)");
# The archives a backend keeps open hold no descriptor (each read opens its file): at once, only
# the file a read has open, and those of a full scan's two read-ahead threads.
cmp_ok($archive2, '<=', 3, "while reading every archive, at most $archive2 archive files were open at once");

# A small budget set by hand holds too; the archives it keeps are the ones it has room for.
my ($small, $rc3, $small_err, undef, $archive3) =
  run_sampled("SET permanode_fdw.max_archive_files = 30;\n$suite");
is($rc3, 0, 'the suite runs with a budget of 30 files') or diag($small_err);
is($small, "$hot\n", 'with the same answers');
cmp_ok($archive3, '<=', 30, "$archive3 archive files at most with a budget of 30");

ok(!grep({ /Too many open files|terminated by signal/ } split /\n/, slurp_file($node->logfile)),
    'the server log has no "Too many open files" and no crashed backend');
$node->stop;
done_testing();
