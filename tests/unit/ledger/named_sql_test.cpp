// Ingest's named placeholders: numbered from the statement's parameter list, and every mismatch
// between the SQL and the list is an error.
#include "ledger/named_sql.hpp"

#include <gtest/gtest.h>
#include <stdexcept>

using permanode::ledger::NumberPlaceholders;

TEST(NamedSql, NumbersPlaceholdersInListOrder)
{
    EXPECT_EQ(NumberPlaceholders("INSERT INTO t (a, b) SELECT * FROM unnest(:b, :a)", {"a", "b"}),
              "INSERT INTO t (a, b) SELECT * FROM unnest($2, $1)");
    // A name used twice gets one number.
    EXPECT_EQ(NumberPlaceholders("SELECT :x + :x, :y", {"y", "x"}), "SELECT $2 + $2, $1");
}

TEST(NamedSql, LeavesCastsAndQuotedTextAlone)
{
    EXPECT_EQ(NumberPlaceholders("SELECT :at::date, ':not_me', \"col:umn\", 'it''s :x'", {"at"}),
              "SELECT $1::date, ':not_me', \"col:umn\", 'it''s :x'");
    EXPECT_EQ(NumberPlaceholders("SELECT u.* FROM unnest(:ids) AS u WHERE x::text = ''", {"ids"}),
              "SELECT u.* FROM unnest($1) AS u WHERE x::text = ''");
}

TEST(NamedSql, RejectsMismatches)
{
    // A placeholder the list lacks (a typo, or a column renamed on one side only).
    EXPECT_THROW(NumberPlaceholders("SELECT :a, :b", {"a"}), std::invalid_argument);
    // A parameter the SQL does not use: it would be bound to nothing.
    EXPECT_THROW(NumberPlaceholders("SELECT :a", {"a", "b"}), std::invalid_argument);
    EXPECT_THROW(NumberPlaceholders("SELECT :a", {"a", "a"}), std::invalid_argument);
    // Positional parameters do not mix with named ones.
    EXPECT_THROW(NumberPlaceholders("SELECT :a, $2", {"a"}), std::invalid_argument);
}
