-- permanode 0.6.0 -> 0.7.0: retired_outputs keeps the unspent set's rows once spent, so that the
-- ledger can be read as of any milestone (its span indexes are 0.9.0's, made after the code).
\ir ../schema/84_as_of.sql
