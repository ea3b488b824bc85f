# Physical backups hold the cold tier: a cluster made from a pg_basebackup, and one recovered to
# a point in time from a base backup and the WAL archive, answer the ledger's query suite as the
# primary did at that point, hot and cold, with every archive verified.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use ledger_suite;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1, has_archiving => 1);
$primary->append_conf('postgresql.conf', preload_conf());
$primary->start;
load_ledger($primary, 'ledger');
my $hot = answers($primary, 'ledger');
like($hot, qr/point block: /, 'the suite answers on the primary');

# A base backup while range 17 is hot; then it is archived.
$primary->backup('before_archive');
ok($primary->safe_psql('ledger', 'SELECT count(*) FROM permanode.archive(0, 2418)') > 0,
    'range 17 archived after the first backup');
my $cold_tiers = tiers($primary, 'ledger');
like($cold_tiers, qr/\|cold\|/, 'the primary shows cold ranges');
$primary->safe_psql('postgres', "SELECT pg_create_restore_point('archived')");

# A base backup that holds the archives.
$primary->backup('after_archive');

# Then the range comes back hot and its archives are collected.
ok($primary->safe_psql('ledger', 'SELECT count(*) FROM permanode.restore(0, 2418)') > 0,
    'range 17 restored after the restore point');
$primary->safe_psql('ledger', 'SELECT count(*) FROM permanode.archive_gc()');
is(archive_dirs($primary, 'ledger'), '', 'the primary holds no archive any more');
my $last_segment =
  $primary->safe_psql('postgres', 'SELECT pg_walfile_name(pg_switch_wal())');
$primary->poll_query_until('postgres',
    "SELECT last_archived_wal >= '$last_segment' FROM pg_stat_archiver")
  or die 'the WAL was not archived';

sub check_node
{
    my ($label, $node) = @_;
    is(answers($node, 'ledger'), $hot, "$label: the suite gives the primary's answers");
    is(tiers($node, 'ledger'), $cold_tiers, "$label: range 17 is cold, as at the restore point");
    is($node->safe_psql('ledger',
            q{SELECT count(*) > 0 AND bool_and(permanode.verify_archive(foreign_table) > 0)
              FROM permanode.archive_status}),
        't', "$label: every archive verifies");
    return;
}

# The backup taken with the archives in it, started on its own.
my $copy = PostgreSQL::Test::Cluster->new('from_backup');
$copy->init_from_backup($primary, 'after_archive');
$copy->start;
check_node('base backup', $copy);
$copy->stop;

# Point-in-time recovery: the backup from before the archive, and the WAL up to the restore
# point. The archives come out of the WAL.
my $pitr = PostgreSQL::Test::Cluster->new('pitr');
$pitr->init_from_backup($primary, 'before_archive', has_restoring => 1, standby => 0);
$pitr->append_conf('postgresql.conf',
    "recovery_target_name = 'archived'\nrecovery_target_action = 'promote'\n");
$pitr->start;
$pitr->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
  or die 'the recovery did not end';
check_node('point-in-time recovery', $pitr);
# Recovered, the cluster archives and restores on its own.
ok($pitr->safe_psql('ledger', 'SELECT count(*) FROM permanode.restore(0, 2418)') > 0,
    'the recovered cluster restores the range');
is(answers($pitr, 'ledger'), $hot, 'and answers the same with it hot');
$pitr->stop;

# The primary itself, after a crash, replays the archive records without harm.
$primary->stop('immediate');
$primary->start;
is(answers($primary, 'ledger'), $hot, 'the primary answers the same after crash recovery');
$primary->stop;
done_testing();
