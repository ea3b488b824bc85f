# `permanode sync --api` against a permanode's own `permanode serve`: a second database follows
# the first over REST, the Chrysalis era from /api/v1 and the Stardust era from /api/core/v2, and
# ends identical to it (every ledger table) with verify clean; `--gaps` fills holes punched into
# a third database, each era from its API, naming what the node does not have; a resumed sync
# archives nothing twice; bad URLs end with their messages; and file ingest checks a Chrysalis
# cone against its milestone's Merkle proof as sync does.
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
my $tmp = $PostgreSQL::Test::Utils::tmp_check;

my $node = PostgreSQL::Test::Cluster->new('rest');
$node->init;
$node->append_conf('postgresql.conf', preload_conf());
$node->start;

sub ingest
{
    my ($db, $file) = @_;
    system($cli, 'ingest', $file, '--dsn', $node->connstr($db), '--no-progress') == 0
      or die "ingest $file failed";
    return;
}

# One network's two eras: Chrysalis milestones 1-24, then Stardust 25-60.
my ($chrysalis, $stardust) = ("$tmp/chrysalis.ndjson", "$tmp/stardust.ndjson");
system($cli, 'generate', '--protocol', 'chrysalis', '--milestones', '24', '--start-index', '1',
    '--blocks-per-milestone', '20-40', '--tx-share', '0.3', '--seed', '5', '-o', $chrysalis) == 0
  or die 'generate chrysalis failed';
system($cli, 'generate', '--milestones', '36', '--start-index', '25', '--seed', '6', '-o',
    $stardust) == 0
  or die 'generate stardust failed';
new_database($node, 'source');
ingest('source', $chrysalis);
ingest('source', $stardust);
my $expected = fingerprint($node, 'source');

# A milestone's payload travels in the next one's cone: the source holds milestone 60's cone but
# not its payload, so it serves milestones up to 59, and a copy equals a file ingest up to 59.
# The lines of a bundle file whose milestone index $keep accepts, in a file of their own.
sub milestones_of
{
    my ($file, $name, $keep) = @_;
    my $out = "$file.$name";
    open(my $in, '<', $file) or die;
    open(my $fh, '>', $out) or die;
    while (my $line = <$in>)
    {
        my ($index) = $line =~ /"milestone_index":(\d+)/;
        print $fh $line if $keep->($index);
    }
    close($fh);
    return $out;
}
new_database($node, 'filed');
ingest('filed', $chrysalis);
ingest('filed', milestones_of($stardust, 'served', sub { $_[0] <= 59 }));
my $served = fingerprint($node, 'filed');

# The source's HTTP server.
my ($sout, $serr) = ('', '');
my $serve = IPC::Run::start([$cli, 'serve', '--dsn', $node->connstr('source'), '--port', '0'],
    '>', \$sout, '2>', \$serr);
my $deadline = time + 60;
until ($serr =~ m{listening on (http://127\.0\.0\.1:\d+)})
{
    die "permanode serve did not start: $serr" if time > $deadline || !$serve->pumpable;
    usleep(50_000);
    $serve->pump_nb;
}
my ($url) = $serr =~ m{listening on (http://127\.0\.0\.1:\d+)};

sub run_sync
{
    my ($db, @options) = @_;
    my ($out, $err) = ('', '');
    IPC::Run::run([$cli, 'sync', '--dsn', $node->connstr($db), '--no-progress', @options],
        '>', \$out, '2>', \$err);
    return ($? >> 8, $err);
}

# 1. Both eras over REST: the copy equals the source.
new_database($node, 'copy');
my ($rc, $err) = run_sync('copy', '--api', "$url/api/v1", '--until-synced');
is($rc, 0, 'sync --api …/api/v1 exits 0') or diag($err);
like($err, qr/stopped after milestone 24; the node is at 24/, 'the Chrysalis era ends at its last milestone');
($rc, $err) = run_sync('copy', '--api', $url, '--until-synced');
is($rc, 0, 'sync --api URL (the core API v2, found by asking) exits 0') or diag($err);
like($err, qr/following REST \Q$url\E \(network "[^"]+"\) from milestone 25/,
    'the Stardust era starts after the Chrysalis one');
like($err, qr/stopped after milestone 59; the node is at 59/,
    'and ends at the newest milestone the node serves');
is(fingerprint($node, 'copy'), $served, 'every ledger table of the copy equals a file ingest of the same milestones');
my ($vout, $verr) = ('', '');
IPC::Run::run([$cli, 'verify', '--dsn', $node->connstr('copy')], '>', \$vout, '2>', \$verr);
is($? >> 8, 0, 'permanode verify finds no mismatch in the copy') or diag("$vout$verr");

# 2. Again: nothing new, nothing twice.
($rc, $err) = run_sync('copy', '--api', $url, '--until-synced');
is($rc, 0, 'a second sync exits 0') or diag($err);
like($err, qr/nothing to archive; the node is at 59/, 'and archives nothing');
is(fingerprint($node, 'copy'), $served, 'the copy is unchanged');

# 3. Holes in both eras, filled by --gaps from each era's API.
new_database($node, 'holes');
ingest('holes', milestones_of($chrysalis, 'holes', sub { $_[0] < 8 || $_[0] > 11 }));
ingest('holes', milestones_of($stardust, 'holes', sub { $_[0] < 40 || $_[0] > 47 }));
is($node->safe_psql('holes', q{SELECT string_agg(from_milestone || '-' || to_milestone, ',') FROM permanode.sync_gaps()}),
    '8-11,40-47', 'the holes show in sync_gaps()');
($rc, $err) = run_sync('holes', '--api', $url, '--gaps');
is($rc, 0, 'sync --gaps from the core API exits 0') or diag($err);
like($err, qr/has none of milestones 8 to 11 \(it has 25 to 59\); they stay a gap/,
    'it names the gap it does not have');
is($node->safe_psql('holes', q{SELECT string_agg(from_milestone || '-' || to_milestone, ',') FROM permanode.sync_gaps()}),
    '8-11', 'the Stardust gap is filled');
($rc, $err) = run_sync('holes', '--api', "$url/api/v1", '--gaps');
is($rc, 0, 'sync --gaps from the API v1 exits 0') or diag($err);
is($node->safe_psql('holes', 'SELECT count(*) FROM permanode.sync_gaps()'), '0', 'no gap is left');
is(fingerprint($node, 'holes'), $expected, 'every ledger table equals the source');
($rc, $err) = run_sync('holes', '--api', $url, '--gaps');
like($err, qr/the archive has no gaps/, 'a third --gaps says there is nothing to fill');

# 4. A range from --from to --to, on an empty database.
new_database($node, 'range');
($rc, $err) = run_sync('range', '--api', $url, '--from', '30', '--to', '35');
is($rc, 0, 'sync --from 30 --to 35 exits 0') or diag($err);
is($node->safe_psql('range', 'SELECT min(milestone_index) || \'-\' || max(milestone_index) || \':\' || count(*) FROM permanode.sync'),
    '30-35:6', 'it archives milestones 30 to 35');
like($err, qr/outputs created before milestone 30 come with the milestones before it/,
    'and says the ledger before 30 comes with those milestones');

# 5. Bad URLs and nodes that are not there.
($rc, $err) = run_sync('range', '--api', 'localhost:1', '--until-synced');
is($rc, 2, 'a URL without http:// is a usage error (exit 2)');
like($err, qr/--api: "localhost:1" is not an http:\/\/ URL/, 'naming the URL');
($rc, $err) = run_sync('range', '--inx', '127.0.0.1:1', '--api', $url);
is($rc, 2, '--inx and --api together are a usage error');
($rc, $err) = run_sync('range');
is($rc, 2, 'no node named is a usage error');
like($err, qr/name the node: --inx HOST:PORT or --api URL/, 'saying what to name');

# 6. File ingest makes the same check where the payload is in hand: a Chrysalis line missing a
# message of its cone is refused at FILE:LINE with nothing of it archived, unless it says
# "partial_cone".
my $line = `sed -n 3p $chrysalis`;
$line =~ s/\{"block":"0x[0-9a-f]+","inclusion_state":"included","conflict_reason":0\},//
  or die 'no included message to drop';
open(my $cut, '>', "$tmp/cut.ndjson") or die;
print $cut $line;
close($cut);
new_database($node, 'checked');
my ($iout, $ierr) = ('', '');
IPC::Run::run([$cli, 'ingest', "$tmp/cut.ndjson", '--dsn', $node->connstr('checked'), '--no-progress'],
    '>', \$iout, '2>', \$ierr);
is($? >> 8, 4, 'a cone missing a message is bad input (exit 4)');
like($ierr, qr/cut\.ndjson:1: milestone 3: .*inclusion merkle proof 0x[0-9a-f]+ is not the Merkle hash \(TIP-4\)/,
    'naming FILE:LINE, the milestone and the proof');
is($node->safe_psql('checked', 'SELECT count(*) FROM permanode.sync'), '0', 'nothing of it is archived');
$line =~ s/\}\s*$/,"partial_cone":true}\n/;
open($cut, '>', "$tmp/cut.ndjson") or die;
print $cut $line;
close($cut);
IPC::Run::run([$cli, 'ingest', "$tmp/cut.ndjson", '--dsn', $node->connstr('checked'), '--no-progress'],
    '>', \$iout, '2>', \$ierr);
is($? >> 8, 0, 'the same line labelled "partial_cone" is ingested') or diag($ierr);

$serve->signal('TERM');
$serve->finish;
$node->stop;
done_testing();
