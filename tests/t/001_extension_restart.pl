# The extensions survive an immediate shutdown and a server process killed with kill -9, which makes the
# postmaster reinitialize shared memory: the preloaded module must come back with it.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use ledger_suite;

my $node = PostgreSQL::Test::Cluster->new('restart');
$node->init;
$node->append_conf('postgresql.conf',
    "shared_preload_libraries = 'permanode'\nrestart_after_crash = on\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION permanode CASCADE');
is($node->safe_psql('postgres', "SELECT permanode.build_info()->>'extension'"),
    'permanode', 'extension answers after install');

# Immediate shutdown skips the checkpoint: recovery has to replay the CREATE EXTENSION.
$node->stop('immediate');
$node->start;
is($node->safe_psql('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'permanode'"),
    '0.11.0', 'extension survives an immediate shutdown');

# SIGKILL a server process: the postmaster restarts every process and reinitializes memory.
my $victim = $node->safe_psql('postgres',
    "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'");
my $offset = -s $node->logfile;
kill 'KILL', $victim;
wait_for_crash_recovery($node, $offset);
like($node->safe_psql('postgres', "SELECT permanode.fdw_build_info()->>'rocksdb_library'"),
    qr/^7\.\d+\.\d+$/, 'wrapper answers after a crash restart');
ok($node->log_contains('terminated by signal 9'), 'the crash really happened');

$node->stop;
done_testing();
