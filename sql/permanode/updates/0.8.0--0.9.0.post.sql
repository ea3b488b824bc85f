-- The span indexes, on the span functions the code parts made.
\ir ../schema/85_as_of_spans_indexes.sql
