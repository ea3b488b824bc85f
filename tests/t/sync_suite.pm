# Shared by the TAP tests of `permanode sync` (202 INX, 203 REST, 204 health): databases with the
# extension, and a fingerprint of every ledger table to compare two archives by.
package sync_suite;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT = qw(new_database fingerprint);

# Creates database $db on $node with the extension.
sub new_database
{
    my ($node, $db) = @_;
    $node->safe_psql('postgres', "CREATE DATABASE $db");
    $node->safe_psql($db, 'SET client_min_messages = warning; CREATE EXTENSION permanode CASCADE');
    return;
}

# Every row of every ledger table of $db, counted and checksummed.
sub fingerprint
{
    my ($node, $db) = @_;
    return $node->safe_psql($db, q{
        SELECT string_agg(t.table_name || ':' || permanode.relation_checksum(format('permanode.%I', t.table_name)::regclass), ' '
                          ORDER BY t.table_name)
        FROM permanode.ledger_tables t});
}

1;
