-- permanode's install script: the parts of sql/permanode/schema and code, joined by sql/CMakeLists.txt.
\echo Use "CREATE EXTENSION permanode CASCADE" to load this file. \quit
